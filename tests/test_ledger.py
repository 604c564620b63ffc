"""The time ledger: phases charged per thread on a clock of our own (pure), and a real crawl's
ledger in graph.json, its phases adding up to the browser threads' time."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import statecrawl
from statecrawl import ledger
from statecrawl.ledger import PHASES, Ledger, holding, move, phase, table, task_done
from tests.conftest import Site, serving


class Clock:
    """A perf_counter that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(ledger.time, "perf_counter", clock)
    return clock


def seconds(summary: dict[str, object], name: str) -> float:
    return summary["phases"][name]["seconds"]  # type: ignore[index,no-any-return]


def test_an_inner_phase_is_charged_to_itself_only(clock: Clock) -> None:
    book = Ledger()
    with book.joined():
        with phase("fire"):
            clock.tick(1.0)
            with phase("network"):
                clock.tick(0.25)
            clock.tick(0.5)
        clock.tick(0.125)  # in no phase
    summary = book.summary(wall=1.875)
    assert seconds(summary, "fire") == 1.5 and seconds(summary, "network") == 0.25
    assert summary["seconds"] == 1.875 and summary["of_wall"] == 1.0
    assert summary["unaccounted"] == round(0.125 / 1.875, 4)


def test_a_move_takes_what_the_agent_timed_out_of_the_phase_but_no_more(clock: Clock) -> None:
    book = Ledger()
    with book.joined():
        with phase("fire"):
            clock.tick(1.0)
            move(0.75, "settle")
            move(0.5, "snapshot")  # only 0.25 s of firing is left to move
        task_done()
    summary = book.summary(wall=1.0)
    assert [seconds(summary, n) for n in ("fire", "settle", "snapshot")] == [0.0, 0.75, 0.25]


def test_medians_are_over_the_tasks_that_spent_time_in_the_phase(clock: Clock) -> None:
    book = Ledger()
    with book.joined():
        for reset in (0.0, 0.2, 0.4, 0.0):
            with phase("reset"):
                clock.tick(reset)
            with phase("fire"):
                clock.tick(0.1)
            task_done()
    summary = book.summary(wall=1.0)
    assert summary["tasks"] == 4
    assert summary["phases"]["reset"]["median_ms"] == pytest.approx(300.0)
    assert summary["phases"]["fire"]["median_ms"] == pytest.approx(100.0)


def test_a_thread_that_joined_no_ledger_charges_nothing(clock: Clock) -> None:
    book = Ledger()
    with phase("fire"):
        clock.tick(1.0)
        move(1.0, "settle")
        task_done()
    assert book.summary(wall=1.0)["threads"] == 0


def test_each_thread_has_its_account_and_the_lock_is_charged(clock: Clock) -> None:
    book, lock = Ledger(), threading.RLock()

    def work() -> None:
        with book.joined(), holding(lock):
            clock.tick(0.5)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    summary = book.summary(wall=1.0)
    assert summary["threads"] == 3
    assert seconds(summary, "engine") == 1.5 and seconds(summary, "lock") == 0.0
    assert "engine" in table(summary) and "idle" not in table(summary)


# ---- a real crawl ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tree_crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[statecrawl.Crawl]:
    """``tests/pages/tree.html`` to depth 2 in two browsers, screenshots of every state."""
    with serving("127.0.0.1") as server:
        site = Site(server)
        site.page("/", "tree.html")
        out = tmp_path_factory.mktemp("ledger")
        yield statecrawl.crawl(site.url("/"), out=out, max_depth=2, browser={"count": 2},
                               archive={"screenshots": "all"})


def test_a_crawls_ledger_is_in_its_graph_and_adds_up(tree_crawl: statecrawl.Crawl) -> None:
    stats = json.loads(Path(tree_crawl.path / "graph.json").read_text())["graph"]["stats"]
    book = stats["ledger"]
    assert book["threads"] == 2 and book["tasks"] >= stats["transitions"]
    assert set(book["phases"]) == set(PHASES)
    accounted = sum(p["seconds"] for p in book["phases"].values())
    assert accounted == pytest.approx(book["seconds"], rel=0.10)
    assert 0 < book["of_wall"] <= 1 and book["wall"] == pytest.approx(stats["elapsed"], abs=0.01)
    for name in ("start", "fire", "replay", "pictures", "archive", "engine"):
        assert book["phases"][name]["seconds"] > 0, name
    assert 0 < book["phases"]["fire"]["median_ms"] < 1000
