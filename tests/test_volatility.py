"""Masks never hide what an action did: content areas under random banners, scripted fades,
a content area a timer draws anew (engine/volatility.py, the agent's callback chains)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import statecrawl
from statecrawl.models.dom import visible_text
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
        [site.url(f"/{page}")], out=out, archive={"enabled": False},
        browser={"count": browsers}, limits={"max_depth": 3},
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


