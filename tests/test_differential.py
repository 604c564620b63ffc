"""Differential tests: every shortcut of the engine gives the graph of the exhaustive crawl.

Each generated application (:func:`statecrawl.testing.generated`: one URL for every result
page, "Next" buttons that fetch the current query's page, details beside the results or
alone, tabs that fetch, a header search box, links out of scope, clocks, a basket of
identical rows) is crawled once exhaustively (``explore.shortcuts = false``), the
reference; then with the default shortcuts in one browser, in two and in four (threads:
any completion order), in another frontier order (:data:`ORDERS`, one an app in turn),
killed halfway and resumed, and as an unchanged incremental recrawl of a default crawl.
Any difference fails with the first diverging transition.
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
from statecrawl.testing import FakeApp, FakeBrowser, difference, generated

APPS = 300
CHUNK = 25  # apps per test case
MAX_DEPTH = 5
# The frontier orders besides the default breadth-first: the evidence a shortcut rests on
# comes in another order in each (the random one drawn from the app's seed).
ORDERS: tuple[dict[str, Any], ...] = (
    {"strategy": "depth-first"},
    {"strategy": "random"},
    {"strategy": "coverage", "browser": {"coverage": True}},
    {"strategy": "novelty"},
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
    return crawl(generated(seed), out, explore={"shortcuts": False})


def same(seed: int, how: str, ref: Crawl, other: Crawl) -> None:
    why = difference(ref, other)
    assert why is None, f"app {seed}, {how}: {why}"


def chunks() -> list[range]:
    return [range(start, min(start + CHUNK, APPS)) for start in range(0, APPS, CHUNK)]


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


def killed_and_resumed(seed: int, out: Path, at: int) -> Crawl:
    """A crawl of app ``seed`` killed at its ``at``-th action, then resumed (the store as a
    kill leaves it: the last checkpoint, taken with that action in flight)."""
    copy = out.with_suffix(".sqlite")
    Killed.fires, Killed.at, Killed.copy = 0, at, copy
    Killed.crawler = explorer(generated(seed), out, Killed)
    Killed.crawler.run()
    assert copy.exists(), f"app {seed}: never killed"
    for leftover in out.glob("crawl.sqlite*"):
        leftover.unlink()
    shutil.move(copy, out / "crawl.sqlite")
    (out / "graph.json").unlink()
    return crawl(generated(seed), out, resume=True)


@pytest.mark.parametrize("seeds", chunks(), ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_every_shortcut_gives_the_exhaustive_graph(seeds: range, tmp_path: Path) -> None:
    inferred = 0
    for seed in seeds:
        ref = reference(seed, tmp_path / f"{seed}-ref")
        for count in (1, 2, 4):
            other = crawl(generated(seed), tmp_path / f"{seed}-{count}", browser={"count": count})
            same(seed, f"{count} browsers", ref, other)
            inferred += other.stats["inferred"]
        order = ORDERS[seed % len(ORDERS)]
        other = crawl(generated(seed), tmp_path / f"{seed}-order", seed=seed, **order)
        same(seed, f"strategy {order['strategy']}", ref, other)
        half = max(1, ref.stats["transitions"] // 4)
        resumed = killed_and_resumed(seed, tmp_path / f"{seed}-killed", half)
        same(seed, "killed and resumed", ref, resumed)
        since = {"since": tmp_path / f"{seed}-1"}
        recrawl = crawl(generated(seed), tmp_path / f"{seed}-again", incremental=since)
        same(seed, "an unchanged incremental recrawl", ref, recrawl)
    assert inferred > 0  # the shortcuts were taken
