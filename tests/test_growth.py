"""Growth that repeats, in a real headless Chromium: pages in ``tests/pages/growth/`` that
grow forever by one more copy of a fragment end with a handful of states and the repetition
recorded once per action as a self-loop (``limits.repetitions``), with shortcuts or without;
a list that grows by other words goes to the depth limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import statecrawl
from tests.conftest import served

DEPTH = 6


def crawl(site_url: str, out: Path, **options: Any) -> statecrawl.Crawl:
    return statecrawl.crawl(
        site_url, out=out, max_depth=DEPTH, archive={"enabled": False}, **options
    )


@pytest.fixture(scope="module")
def crawls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, statecrawl.Crawl]]:
    """Each page crawled DEPTH deep: by default, without shortcuts, and with the rule off."""
    out = tmp_path_factory.mktemp("growth")
    for site in served("127.0.0.1"):
        for name in ("hover", "buttons", "todo"):
            site.page(f"/{name}/", f"growth/{name}.html")
        yield {
            "hover": crawl(site.url("/hover/"), out / "hover"),
            "hover-exhaustive": crawl(
                site.url("/hover/"), out / "hover-exhaustive", explore={"shortcuts": False}
            ),
            "hover-off": crawl(  # (a keyword table's None means "not given")
                site.url("/hover/"), out / "hover-off", config={"limits": {"repetitions": None}}
            ),
            "buttons": crawl(site.url("/buttons/"), out / "buttons"),
            "buttons-exhaustive": crawl(
                site.url("/buttons/"), out / "buttons-exhaustive", explore={"shortcuts": False}
            ),
            "todo": crawl(site.url("/todo/"), out / "todo"),
        }


def repeats(result: statecrawl.Crawl) -> list[dict[str, Any]]:
    return [t for t in result.transitions() if "repeats" in t]


def counts(result: statecrawl.Crawl, tag: str) -> list[int]:
    return sorted(result.html(s["id"]).count(tag) for s in result.states())


@pytest.mark.parametrize("name", ["hover", "hover-exhaustive"])
def test_hover_that_appends_forever_stops_at_the_third_copy(
    crawls: dict[str, statecrawl.Crawl], name: str
) -> None:
    result = crawls[name]
    assert counts(result, '<p class="more">') == [0, 1, 2, 3]
    (loop,) = repeats(result)
    assert loop["source"] == loop["target"]
    assert loop["event"] == "mouseover"
    assert loop["repeats"] == '<p class="more">One more line</p>'
    assert result.html(loop["source"]).count('<p class="more">') == 3
    assert result.stats["repetitions"] == 1
    assert result.stats["stop_reason"] != "max-depth"
    assert max(s["depth"] for s in result.states()) == 3


def test_without_the_rule_the_page_grows_to_the_depth_limit(
    crawls: dict[str, statecrawl.Crawl],
) -> None:
    result = crawls["hover-off"]
    assert counts(result, '<p class="more">') == list(range(DEPTH + 1))
    assert not repeats(result) and result.stats["repetitions"] == 0


@pytest.mark.parametrize("name", ["buttons", "buttons-exhaustive"])
def test_buttons_that_append_buttons_stop_at_three(
    crawls: dict[str, statecrawl.Crawl], name: str
) -> None:
    """Three buttons, numbered by their ids: each one's click is recorded as a repetition
    (a self-loop of the state of three buttons), and no state of five is made."""
    result = crawls[name]
    assert counts(result, "<button") == [1, 3]
    loops = repeats(result)
    assert len(loops) == 3 == result.stats["repetitions"]
    assert {t["source"] for t in loops} == {t["target"] for t in loops}
    assert all(result.html(t["source"]).count("<button") == 3 for t in loops)
    assert loops[0]["repeats"].startswith('<button class="grow" id="b')


def test_shortcuts_record_what_the_exhaustive_crawl_records(
    crawls: dict[str, statecrawl.Crawl],
) -> None:
    for name in ("hover", "buttons"):
        fast, full = crawls[name], crawls[f"{name}-exhaustive"]
        assert {s["id"] for s in fast.states()} == {s["id"] for s in full.states()}
        edges = [{(t["source"], t["target"], t["key"]) for t in c.transitions()}
                 for c in (fast, full)]  # fmt: skip
        assert edges[0] == edges[1]


def test_a_list_growing_by_other_words_is_no_repetition(
    crawls: dict[str, statecrawl.Crawl],
) -> None:
    result = crawls["todo"]
    assert counts(result, '<li class="chore">') == list(range(DEPTH + 1))
    assert not repeats(result) and result.stats["repetitions"] == 0
