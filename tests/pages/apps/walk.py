"""Hand-written walks of the app zoo: for each app, everything a user can do, with real
pointer clicks and keys in a Selenium Chrome, checking that every marker becomes visible.

The walking machinery (``Walker``, ``shown``, the ``Shown`` plugin) is the kit zoo's
(``tests/pages/kits/walk.py``); this module holds the apps' markers, input values and walks.
``walk(driver, url, app)`` loads an app and returns the markers its walk saw shown, in order;
``crawl_until_shown`` crawls an app until every marker is shown.
"""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

import statecrawl
from statecrawl.config import Config
from statecrawl.engine import Explorer
from tests.pages.apps.server import MARKED, PATENTS
from tests.pages.kits.walk import Shown, Walker, WalkError, shown

# The marker texts of each app: each shown only after a complete use.
MARKERS: dict[str, tuple[str, ...]] = {
    "docs": (
        "Quiet windows under 80 ms miss late renders",
        "Archive format",
        "Each state is stored as a WARC resource record",
    ),
    "api": ("warehouse-7 holds 42 crates", "Available authorizations", "dockDoorNumber"),
    "facets": ("Priority date 2019-03-14", "lidar puck cooled by a Peltier stack"),
    "dashboard": ("West: 7 depots", "Central: 3 depots", "Returns: 2.4 % of orders"),
}
# The crawl's inputs.values: the search box of the docs and of the patent search.
INPUTS: dict[str, dict[str, list[str]]] = {
    "docs": {"Search docs": ["warc"]},
    "facets": {"Query": ["lidar"]},
}
OPERATIONS = 24


class AppWalker(Walker):
    """The kit zoo's walker, checking this zoo's markers."""

    def __init__(self, driver: WebDriver, app: str) -> None:
        self.driver = driver
        self.markers = MARKERS[app]
        self.seen: list[str] = []


def docs(w: Walker) -> None:
    for page in ("install", "configuration"):
        w.click(f".sidebar a[href='#/guide/{page}']")
    w.click(".page a[href='#/guide/tuning']")
    w.expect("Quiet windows under 80 ms miss late renders")
    for page in ("crawl", "explorer", "plugins"):
        w.click(f".sidebar a[href='#/api/{page}']")
    w.click("#search")
    w.keys("zebra")
    w.find(".results .none")
    w.keys(Keys.ESCAPE)
    w.gone(".results li")
    w.click("#search")
    w.keys("warc")
    w.expect("Archive format")
    w.click(".results a[href='#/api/archive']")
    w.expect("Each state is stored as a WARC resource record")
    w.click(".brand")
    w.find(text="Introduction", within="h1")


def api(w: Walker) -> None:
    ops = w.driver.find_elements("css selector", ".op")
    if len(ops) != OPERATIONS:
        raise WalkError(f"{len(ops)} operations, not {OPERATIONS}")
    for op in ops:
        name = op.get_attribute("id")
        w.click(f"#{name} .op-summary")
        w.click(f"#{name} .try")
        w.find(f"#{name} .answer")
        if name == "op-getStockLevel":  # in the last tag group, inventory
            w.expect("warehouse-7 holds 42 crates")
        w.click(f"#{name} .path")
        w.gone(f"#{name} .op-body")
    w.click("#op-listOrders .copy")
    w.click("#op-getOrder .lock")
    w.expect("Available authorizations")
    w.click(text="Close", within="button")
    w.gone("[role=dialog]")
    w.click(text="▸ Order", within="button")
    w.click(text="▸ ShippingInfo", within="button")
    w.expect("dockDoorNumber")
    w.click(text="▸ Customer", within="button")


def facets(w: Walker) -> None:
    for column in (2, 4, 4, 1):
        w.click(f"th:nth-child({column}) svg")
    w.click(text="G Physics (15)", within="label")
    w.click(text="G Physics (15)", within="label")
    w.click(".pager button:last-of-type")  # Next
    w.click(".pager button:first-of-type")  # Previous
    w.click("input[name=q]")
    w.keys("lidar", Keys.ENTER)
    marked = PATENTS[MARKED]["number"]
    w.click(f"a[href='/facets/patent/{marked}']")
    w.expect("Priority date 2019-03-14")
    w.click(text="Related claims", within="button")
    w.expect("lidar puck cooled by a Peltier stack")
    w.click(".back")
    w.find(".results")


def dashboard(w: Walker) -> None:
    for region in ("North", "West", "East", "Central", "South"):
        w.click(".region__control")
        w.click(text=region, within="*[contains(@class, 'region__option')]")
        caption = {"West": "West: 7 depots", "Central": "Central: 3 depots"}.get(region)
        if caption:
            w.expect(caption)
    w.click(".region__clear-indicator")
    w.find(".empty")
    for metric in ("Units", "Returns", "Revenue"):
        w.click(text=metric, within="label")
        if metric == "Returns":
            w.expect("Returns: 2.4 % of orders")


WALKS: dict[str, Callable[[Walker], None]] = {
    "docs": docs,
    "api": api,
    "facets": facets,
    "dashboard": dashboard,
}


def walk(driver: WebDriver, url: str, app: str) -> list[str]:
    """Load the app, check no marker shows yet, do everything; the markers seen, in order."""
    driver.get(url)
    walker = AppWalker(driver, app)
    walker.find("body")
    early = shown(driver, MARKERS[app])
    if early:
        raise WalkError(f"{app}: shown before any action: {sorted(early)}")
    WALKS[app](walker)
    return walker.seen


def crawl_until_shown(
    url: str, app: str, out: object, **limits: object
) -> tuple[Shown, statecrawl.Crawl]:
    """Crawl an app to depth 4 with its input values (``limits`` as the config's) until every
    marker is shown: the plugin that saw them, and the crawl."""
    plugin = Shown(MARKERS[app])
    config = Config.from_mapping(
        {
            "start_urls": [url],
            "out": out,
            "limits": {"max_depth": 4, **limits},
            "inputs": {"values": INPUTS.get(app, {})},
            "archive": {"enabled": False},
        }
    )
    plugin.explorer = Explorer(config, plugins=[plugin])
    return plugin, plugin.explorer.run()
