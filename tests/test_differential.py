"""Differential tests: every shortcut of the engine gives the graph of the exhaustive crawl.

Each generated application (:func:`statecrawl.testing.generated`: one URL for every result
page, "Next" buttons that fetch the current query's page, details beside the results or
alone, tabs that fetch, a header search box, links out of scope, clocks, a basket of
identical rows) is crawled once exhaustively (``explore.shortcuts = false``), the
reference; then with the default shortcuts in one browser, in two and in four (threads:
any completion order), in another frontier order (:data:`ORDERS`, one an app in turn),
killed halfway and resumed, and as an unchanged incremental recrawl of a default crawl.
Any difference fails with the first diverging transition.

The crawl in one browser is the one killed: it runs on to its end after the store is
copied as the kill leaves it, and that copy is what is resumed.

The first :data:`FAST_APPS` apps are in the fast run; the others are a long sweep, marked
``browser`` to run with the full suite (still without Chromium: the module is browser-free).
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from statecrawl.config import Config
from statecrawl.directory.crawl import Crawl
from statecrawl.engine import Explorer
from statecrawl.state import Action, Snapshot
from statecrawl.testing import FakeApp, FakeBrowser, difference, generated, untrue

APPS = 300
CHUNK = 25  # apps per test case
FAST_APPS = 50  # the first apps, in the fast run (-m "not browser"); the rest in the full one
MAX_DEPTH = 5
# The frontier orders besides the default breadth-first: the evidence a shortcut rests on
# comes in another order in each (the random one drawn from the app's seed).
ORDERS: tuple[dict[str, Any], ...] = (
    {"strategy": "depth-first"},
    {"strategy": "random"},
    {"strategy": "coverage", "browser": {"coverage": True}},
    {"strategy": "novelty"},
    {"strategy": "templates"},
)


def explorer(app: FakeApp, out: Path, fake: type[FakeBrowser], **settings: Any) -> Explorer:
    settings.setdefault("limits", {"max_depth": MAX_DEPTH})
    config = Config.from_mapping(
        {"start_urls": [app.url("/")], "out": out, "archive": {"enabled": False}, **settings}
    )
    return Explorer(config, browser_factory=lambda c, _network: fake(app, c))


def crawl(app: FakeApp, out: Path, **settings: Any) -> Crawl:
    return explorer(app, out, FakeBrowser, **settings).run()


def reference(seed: int, out: Path) -> Crawl:
    """The exhaustive crawl of app ``seed``, every transition of it one the app makes (no
    mask hid what an action did)."""
    app = generated(seed)
    ref = crawl(app, out, explore={"shortcuts": False})
    why = untrue(app, ref)
    assert why is None, f"app {seed}, the exhaustive crawl: {why}"
    return ref


def same(seed: int, how: str, ref: Crawl, other: Crawl) -> None:
    why = difference(ref, other)
    assert why is None, f"app {seed}, {how}: {why}"


def chunks() -> list[Any]:
    """The apps in chunks of :data:`CHUNK`; those past :data:`FAST_APPS` in the full run."""
    return [
        pytest.param(seeds, marks=() if seeds.stop <= FAST_APPS else pytest.mark.browser)
        for seeds in (range(s, min(s + CHUNK, APPS)) for s in range(0, APPS, CHUNK))
    ]


class Killed(FakeBrowser):
    """A browser whose crawl is killed at its ``at``-th action: the store is copied as a
    kill then leaves it (the last checkpoint, with that action in flight)."""

    at = 0
    fires = 0
    crawler: Explorer | None = None
    copy: Path | None = None

    def fire(self, action: Action, light: bool = False) -> Snapshot:
        type(self).fires += 1
        crawler, copy = type(self).crawler, type(self).copy
        if type(self).fires == type(self).at and crawler is not None and copy is not None:
            with crawler.lock:
                crawler.checkpoint()
                with (
                    contextlib.closing(sqlite3.connect(crawler.out.path / "crawl.sqlite")) as live,
                    contextlib.closing(sqlite3.connect(copy)) as kept,
                ):
                    live.backup(kept)
                    kept.execute("PRAGMA journal_mode=DELETE")
        return super().fire(action, light)


def killed(seed: int, out: Path, at: int) -> Crawl:
    """App ``seed`` crawled in one browser with the default shortcuts, to its end; beside
    ``out``, a copy of the store as a kill at the ``at``-th action leaves it (the last
    checkpoint, taken with that action in flight)."""
    copy = out.with_suffix(".sqlite")
    Killed.fires, Killed.at, Killed.copy = 0, at, copy
    Killed.crawler = explorer(generated(seed), out, Killed)
    result = Killed.crawler.run()
    assert copy.exists(), f"app {seed}: never killed"
    return result


def resumed(seed: int, source: Path, out: Path) -> Crawl:
    """The crawl of app ``seed`` in ``source`` resumed in ``out`` from the copy of its store
    that :func:`killed` left (the rest of its directory copied as it is)."""
    leftovers = shutil.ignore_patterns("crawl.sqlite*", "graph.json")
    shutil.copytree(source, out, ignore=leftovers)
    shutil.move(source.with_suffix(".sqlite"), out / "crawl.sqlite")
    return crawl(generated(seed), out, resume=True)


@pytest.mark.parametrize("seeds", chunks(), ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_every_shortcut_gives_the_exhaustive_graph(seeds: range, tmp_path: Path) -> None:
    inferred = 0
    for seed in seeds:
        ref = reference(seed, tmp_path / f"{seed}-ref")
        half = max(1, ref.stats["transitions"] // 4)
        one = tmp_path / f"{seed}-1"
        for count in (1, 2, 4):
            if count == 1:
                other = killed(seed, one, half)
            else:
                out = tmp_path / f"{seed}-{count}"
                other = crawl(generated(seed), out, browser={"count": count})
            same(seed, f"{count} browsers", ref, other)
            inferred += other.stats["inferred"]
        order = ORDERS[seed % len(ORDERS)]
        other = crawl(generated(seed), tmp_path / f"{seed}-order", seed=seed, **order)
        same(seed, f"strategy {order['strategy']}", ref, other)
        since = {"since": one}
        recrawl = crawl(generated(seed), tmp_path / f"{seed}-again", incremental=since)
        same(seed, "an unchanged incremental recrawl", ref, recrawl)
        resume = resumed(seed, one, tmp_path / f"{seed}-killed")
        same(seed, "killed and resumed", ref, resume)
    assert inferred > 0  # the shortcuts were taken
