"""The app zoo (``tests/pages/apps/``): four applications of our own design built with real
npm packages (a docs site on marked and MiniSearch, an API explorer and a dashboard in React,
the latter on react-select, and a faceted patent search), crawled as a new user would, with
their input values and depth 4.

Each app's hand-written walk shows every marker (a text only a complete use shows), which
proves them reachable. Each app is crawled for at most a minute, but the API explorer, which
needs minutes (``SLOW`` says why): ``benchmarks/apps.py`` measures it. The pet store (Swagger
UI over 34 operations) is crawled for a few seconds with the defaults, the archive on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from selenium.webdriver.remote.webdriver import WebDriver

import statecrawl
from statecrawl.directory.layout import thumbnail_path
from tests.conftest import Site, served
from tests.pages.apps import server
from tests.pages.apps.walk import MARKERS, crawl_until_shown, walk

MAX_TIME = 60
# The apps whose crawl needs more than MAX_TIME, and why (measured by benchmarks/apps.py).
SLOW = {
    "api": "its 24 operations, each with 3 ways to expand and a lock icon, make about 100 "
    "actions a state: every marker is shown by 265 s (one run), not within a minute",
}


@pytest.fixture(scope="module")
def apps() -> Iterator[Site]:
    """The four apps and their APIs on a loopback server of their own."""
    for site in served("127.0.0.1"):
        site.prefix("/", server.handle)
        yield site


@pytest.mark.parametrize("app", sorted(MARKERS))
def test_the_walk_shows_every_marker(apps: Site, walk_driver: WebDriver, app: str) -> None:
    walk_driver.get("about:blank")  # the last app's page, and its late requests, end here
    apps.requests.clear()
    assert sorted(walk(walk_driver, apps.url(f"/{app}/"), app)) == sorted(MARKERS[app])
    outside = [
        url for url in apps.requests if not url.startswith((f"/{app}/", "/api/", "/favicon"))
    ]
    assert not outside, outside


@pytest.mark.parametrize("app", sorted(set(MARKERS) - set(SLOW)))
def test_the_crawl_shows_every_marker(apps: Site, tmp_path: Path, app: str) -> None:
    """Crawled to depth 4 with its input values, the app shows every marker, visibly, and
    the crawl stops there."""
    plugin, _ = crawl_until_shown(apps.url(f"/{app}/"), app, tmp_path, max_time=MAX_TIME)
    missed = set(MARKERS[app]) - plugin.seen
    assert not missed, f"{app}: never showed {sorted(missed)}"


OPEN = re.compile(r'class="opblock opblock-\w+ is-open"')  # an operation expanded


@pytest.fixture(scope="module")
def petstore(apps: Site, tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    """The pet store crawled for a few seconds with the defaults (the archive on), from a
    deep link to its last operation: Swagger UI expands it and scrolls down to it. A frame
    may take longer than the default 5 s to draw while the other test worker's crawl holds
    both cores: what is tested here is what the pictures show, so they get 30 s."""
    out = tmp_path_factory.mktemp("petstore") / "out"
    url = apps.url("/petstore/#/adoption/rejectApplication")
    return statecrawl.crawl(url, out=out, max_time=20, archive={"capture_timeout": 30})


def test_the_pet_stores_operations_are_states_each_with_its_thumbnail(
    petstore: statecrawl.Crawl,
) -> None:
    """Operations expanded are states of their own, and every state has its thumbnail,
    showing the page (dark text on white): the states scrolled down too, whose thumbnails'
    clip was once at the top of the page, out of the viewport (a blank picture)."""
    states = list(petstore.states())
    pages = {s["id"]: (petstore.path / s["snapshot"]).read_text() for s in states}
    expanded = [state for state, html in pages.items() if OPEN.search(html)]
    assert len(expanded) >= 2, f"{len(expanded)} of {len(states)} states expand an operation"
    missing = [s["missing_images"] for s in states if s.get("missing_images")]
    # The time limit's stop kills a browser still busy after its grace: the capture of the
    # state it had just found, when it was under way, is recorded as missing, and only that.
    cut = [m for m in missing if all(
        "the browser is not started" in why or why.startswith("not tried") for why in m.values())]
    assert len(cut) <= 1 and missing == cut, missing
    states = [s for s in states if not s.get("missing_images")]
    blank = []
    for state in states:
        with Image.open(petstore.path / thumbnail_path(state["id"])) as thumbnail:
            if min(low for low, _ in thumbnail.convert("RGB").getextrema()) > 128:
                blank.append(state["id"])
    assert not blank, f"{len(blank)} of {len(states)} thumbnails show nothing"
