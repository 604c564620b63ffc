"""Masks never hide what an action did: content areas under random banners, scripted fades,
a content area a timer draws anew, a tip of its own markup on each load
(engine/volatility.py, the agent's callback chains)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug import Request, Response

import statecrawl
from statecrawl.models.dom import visible_text
from statecrawl.testing import difference
from tests.conftest import Site, served

PARTS = {
    "about": "The about page: a paragraph of its own.",
    "team": "The team page: who we are.",
    "news": "The news page: what is new.",
}


@pytest.fixture(scope="module")
def pages() -> Iterator[Site]:
    """The pages of tests/pages/masks, and the parts the fade page loads into its area."""
    for site in served("127.0.0.1"):
        for name in ("fade.html", "rerender.html"):
            site.page(f"/{name}", f"masks/{name}")
        for name, text in PARTS.items():
            more = f"""<a href="#" onclick="show('{name}-more');return false">More {name}</a>"""
            site.html(f"/part/{name}", f"<h1>{name}</h1><p>{text}</p>{more}")
            site.html(f"/part/{name}-more", f"<h1>{name} more</h1><p>More of {name}.</p>")
        yield site


def run(site: Site, page: str, out: Path, browsers: int) -> statecrawl.Crawl:
    return statecrawl.crawl(
        [site.url(f"/{page}")],
        out=out,
        archive={"enabled": False},
        browser={"count": browsers},
        limits={"max_depth": 3},
    )


@pytest.fixture(scope="module", params=[1, 2], ids=["1 browser", "2 browsers"])
def fade(
    request: pytest.FixtureRequest, pages: Site, tmp_path_factory: pytest.TempPathFactory
) -> statecrawl.Crawl:
    return run(pages, "fade.html", tmp_path_factory.mktemp("fade"), request.param)


def texts(result: statecrawl.Crawl) -> list[str]:
    return [visible_text(result.html(state["id"])) for state in result.states()]


def test_every_page_loaded_into_the_area_is_a_state_of_its_own(fade: statecrawl.Crawl) -> None:
    """Each link fades the area out, loads a page into it and fades it in (30 frames): the
    crawl waits for the fade, and no mask covers the area, so the three pages and their
    three "more" pages are six states besides the start."""
    shown = texts(fade)
    assert len(shown) == 7
    for name, text in PARTS.items():
        assert sum(text in t for t in shown) == 1, name
        assert sum(f"More of {name}." in t for t in shown) == 1, name
    assert sum("The start page" in t for t in shown) == 1


def test_masks_are_listed_with_their_evidence(fade: statecrawl.Crawl) -> None:
    """The random date and style differ between two loads of the start page: they are the
    masks, each with how it was seen, where, and the share of the page's text it covers."""
    masks = {m["name"]: m for m in fade.graph.graph["masks"]}
    assert set(masks) == {"#randomDate|content", "#randomStyle|@style"}
    assert fade.graph.graph["volatile"] == sorted(masks)
    for mask in masks.values():
        assert mask["how"] == "reload"
        assert mask["url"].endswith("/fade.html")
        assert 0 <= mask["share"] < 0.3
    assert masks["#randomStyle|@style"]["share"] == 0  # a colour shows or hides no text


def test_an_area_a_timer_draws_anew_is_held_and_only_its_clock_masked(
    pages: Site, tmp_path: Path
) -> None:
    """The whole area changes every 300 ms with no action, but only its clock varies: the
    area is held (not masked) when the agent sees it change, the clock masked, and the pages
    the buttons draw are states."""
    result = run(pages, "rerender.html", tmp_path / "out", 1)
    masks = {m["name"]: m for m in result.graph.graph["masks"]}
    area = masks.get("#content|content", {"held": True, "share": 1})  # (seen if it ticked)
    assert area["held"] is True
    assert area["share"] > 0.5
    assert result.graph.graph["volatile"] == ["#content/p.time|content"]
    shown = texts(result)
    assert len(shown) == 3
    for page in ("home", "about", "team"):
        assert sum(f"The {page} page" in t for t in shown) == 1, page


# An editor's sidebar shows a tip drawn at random on each load, each tip its own markup
# (Node-RED's "Did you know?"); its buttons show panels.
TIPS = (
    "Press <kbd>ctrl</kbd>-<kbd>space</kbd> to hide the sidebar.",
    "<b>Drag</b> a node to move it.",
    "Double-click a node to edit it.",
)
EDITOR = """<!doctype html><title>Editor</title>
<main><h1>Flow editor</h1><p>Nodes are wired into flows; a flow runs when deployed. Each node
takes a message, does one thing with it and sends it on: inject, change, switch, template,
function, debug. The palette on the left lists them; the sidebar on the right helps.</p>
<button id="nodes">Nodes</button><button id="wires">Wires</button><div id="panel"></div></main>
<aside id="tip">%s</aside>
<script>
for (const id of ['nodes', 'wires']) {
  document.getElementById(id).addEventListener('click', () => {
    document.getElementById('panel').innerHTML = '<p>The ' + id + ' panel.</p>';
  });
}
</script>"""


def test_a_tip_of_its_own_markup_on_each_load_is_masked(tmp_path: Path) -> None:
    """Two loads that differ only in a small part's markup name that part: the start page
    is one state (no re-anchoring, nothing unreachable), and the default crawl records the
    exhaustive one's graph."""
    tips = itertools.cycle(TIPS)

    def editor(request: Request) -> Response:
        return Response(EDITOR % next(tips), content_type="text/html; charset=utf-8")

    for site in served("127.0.0.1"):
        site.handler("/editor", editor)
        crawls = {
            name: statecrawl.crawl(
                [site.url("/editor")],
                out=tmp_path / name,
                archive={"enabled": False},
                limits={"max_depth": 2},
                explore={"shortcuts": shortcuts},
            )
            for name, shortcuts in (("default", True), ("exhaustive", False))
        }
    result = crawls["default"]
    masks = {m["name"]: m for m in result.graph.graph["masks"]}
    assert set(masks) == {"#tip|content"}, masks
    assert masks["#tip|content"]["how"] == "reload"
    assert 0 < masks["#tip|content"]["share"] < 0.2
    assert [visible_text(result.html(s["id"])).count("panel.") for s in result.states()].count(
        0
    ) == 1
    assert result.stats["states"] == 3
    assert result.stats["reanchors"] == result.stats["unreachable"] == 0
    assert difference(crawls["exhaustive"], result) is None


# A registry's list of packages as a script draws it: each says when it was published,
# relative to now, and each opens its page. Its clock runs ten times fast (a "second" is a
# tenth), so that the text changes between two visits of a short crawl.
REGISTRY = """<!DOCTYPE html><html><head><title>Packages</title></head><body><main id="app"></main>
<script>
const T0 = %d, PACKAGES = ["alpha", "beta", "gamma"];
const ago = () => Math.round((Date.now() - T0) / 100) + " seconds ago";
function list() {
  app.innerHTML = "<h1>Packages</h1><ul>" + PACKAGES.map((name) =>
    `<li><a href="#" onclick="show('${name}');return false">${name}</a>
     <span>Published ${ago()}</span></li>`).join("") + "</ul>";
}
function show(name) {
  app.innerHTML = `<h1>${name}</h1><p>The ${name} package, published ${ago()}.</p>
    <button onclick="list()">All packages</button>`;
}
list();
</script></body></html>"""


def test_time_told_relative_to_now_makes_no_state_and_no_mask(tmp_path: Path) -> None:
    """Met at different times, a page says "published 3 seconds ago", then "9 seconds
    ago": the same state each time, with nothing masked and nothing re-anchored."""
    page = REGISTRY % int(time.time() * 1000)
    for site in served("127.0.0.1"):
        site.handler("/", lambda _r: Response(page, content_type="text/html"))
        result = run(site, "", tmp_path, browsers=1)
    assert result.stats["states"] == 4, texts(result)
    assert result.graph.graph["masks"] == []
    assert result.stats["reanchors"] == result.stats["unreachable"] == 0
