"""The crawl store: checkpoints and runs survive a reopen, a checkpoint replaces the last."""

from __future__ import annotations

from pathlib import Path

from statecrawl.state import Action, Snapshot
from statecrawl.store import Checkpoint, SqliteStore, StateRecord, open_store


def checkpoint(states: int) -> Checkpoint:
    action = Action('#b "Go"', "visible", "click", "h1", locator="#b", values=(("q", "x"),))
    snapshot = Snapshot(url="http://127.0.0.1/", title="T", html="<p>", form=[["q", "x"]])
    return Checkpoint(
        nodes=[(f"s{i}", {"url": "http://127.0.0.1/", "depth": i}) for i in range(states)],
        edges=[("s0", f"s{i}", action.key, {"name": action.name}) for i in range(1, states)],
        states=[
            StateRecord(
                f"s{i}", f"k{i}", "http://127.0.0.1/", "T", i, 0.5, i == 2, False, snapshot.meta()
            )
            for i in range(states)
        ],
        fired=[("s0", action.key)],
        actions=[("s0", action.key, action.to_data())],
        effects={action.key: (["http://127.0.0.1/"], ["s1"])},
        volatile=["span#clock"],
        tables={"loads": {"http://127.0.0.1/": "s0"}, "per_url": {"http://127.0.0.1/": states}},
        stats={"states": states, "transitions": states - 1},
    )


def test_a_checkpoint_survives_a_reopen(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    assert store.load() is None
    saved = checkpoint(3)
    store.save(saved)
    store.close()
    loaded = SqliteStore(tmp_path / "crawl.sqlite").load()
    assert loaded == saved
    assert Action.from_data(loaded.actions[0][2]).values == (("q", "x"),)
    assert Snapshot(html="<p>", **loaded.states[0].snapshot).form == [["q", "x"]]


def test_a_checkpoint_replaces_the_last(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.save(checkpoint(5))
    store.save(checkpoint(2))
    loaded = store.load()
    assert loaded is not None
    assert [s.id for s in loaded.states] == ["s0", "s1"] and len(loaded.edges) == 1


def test_runs_are_recorded(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    first = store.start_run({"start_urls": ["http://127.0.0.1/"]}, "2026-01-01T00:00:00")
    store.end_run(first, "2026-01-01T00:01:00", "max-time")
    second = store.start_run({"start_urls": ["http://127.0.0.1/"], "resume": True}, "later")
    runs = store.runs()
    assert [r.id for r in runs] == [first, second]
    assert runs[0].stop_reason == "max-time" and runs[1].finished is None
    assert runs[1].config["resume"] is True


def test_first_loads_are_kept_at_once_and_across_runs(tmp_path: Path) -> None:
    """The DOM of a URL's first fresh load is what later loads are compared with, in this run
    and after a resume; a checkpoint does not replace it."""
    store = open_store(tmp_path)
    first = "<p>12:00:01</p>"
    assert store.first_load("http://127.0.0.1/news", first) is first
    store.save(checkpoint(2))
    store.close()
    again = open_store(tmp_path)
    assert again.first_load("http://127.0.0.1/news", "<p>12:00:09</p>") == first
    assert again.first_load("http://127.0.0.1/other", "<p>b</p>") == "<p>b</p>"
