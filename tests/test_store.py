"""The crawl store: checkpoints and runs survive a reopen, a checkpoint replaces the last."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from statecrawl.errors import ArchiveError
from statecrawl.state import Action, Snapshot
from statecrawl.store import Changes, Checkpoint, SqliteStore, StateRecord, open_store
from statecrawl.store.tracked import TrackedCounter, TrackedDict, TrackedSet


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
        effects={action.key: {"sources": ["s0"], "targets": ["s1"], "left": True}},
        volatile=["span#clock"],
        tables={"loads": {"http://127.0.0.1/": "s0"}, "per_url": {"http://127.0.0.1/": states}},
        stats={"states": states, "transitions": states - 1},
    )


def whole(c: Checkpoint) -> Changes:
    """A first checkpoint: every row of ``c``."""
    return Changes(
        rows={
            "nodes": list(c.nodes),
            "edges": list(c.edges),
            "states": [
                (s.id, s.key, s.url, s.title, s.depth, s.found_at, s.unreachable, s.final)
                for s in c.states
            ],
            "fired": list(c.fired),
            "actions": list(c.actions),
            "effects": list(c.effects.items()),
            "volatile": [(n,) for n in c.volatile],
            "tables": [(n, k, v) for n, t in c.tables.items() for k, v in t.items()],
            "meta": [("stats", c.stats)],
        },
        replace=True,
    )


def save(store: SqliteStore, c: Checkpoint) -> None:
    for s in c.states:
        store.add_snapshot(s.id, s.snapshot)
    store.write(whole(c))


def test_a_checkpoint_survives_a_reopen(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    assert store.load() is None
    saved = checkpoint(3)
    save(store, saved)
    store.close()
    loaded = SqliteStore(tmp_path / "crawl.sqlite").load()
    assert loaded == saved
    assert Action.from_data(loaded.actions[0][2]).values == (("q", "x"),)
    assert Snapshot(html="<p>", **loaded.states[0].snapshot).form == [["q", "x"]]


def test_a_checkpoint_changes_rows_and_a_whole_one_replaces_the_last(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    save(store, checkpoint(5))
    edge = ("s0", "s4", checkpoint(5).edges[-1][2])
    store.write(
        Changes(
            rows={
                "states": [("s1", "k1", "http://127.0.0.1/", "T2", 0, 0.5, True, False)],
                "tables": [("loads", "http://127.0.0.1/b", "s1")],
            },
            gone={
                "states": [("s4",)],
                "edges": [edge],
                "tables": [("per_url", "http://127.0.0.1/")],
            },
        )
    )
    loaded = store.load()
    assert loaded is not None
    assert [s.id for s in loaded.states] == ["s0", "s1", "s2", "s3"]
    s1 = loaded.states[1]
    assert (s1.title, s1.depth, s1.unreachable, s1.snapshot["form"]) == (
        "T2",
        0,
        True,
        [["q", "x"]],
    )
    assert edge not in [(s, t, k) for s, t, k, _ in loaded.edges] and len(loaded.edges) == 3
    assert loaded.tables == {"loads": {"http://127.0.0.1/": "s0", "http://127.0.0.1/b": "s1"}}
    save(store, checkpoint(2))
    loaded = store.load()
    assert loaded is not None
    assert [s.id for s in loaded.states] == ["s0", "s1"] and len(loaded.edges) == 1


def test_a_store_of_another_schema_is_refused(tmp_path: Path) -> None:
    with contextlib.closing(sqlite3.connect(tmp_path / "crawl.sqlite")) as db:
        db.execute("CREATE TABLE states (id TEXT PRIMARY KEY)")
    with pytest.raises(ArchiveError, match="another version of statecrawl"):
        open_store(tmp_path)


def test_runs_are_recorded(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    first = store.start_run({"start_urls": ["http://127.0.0.1/"]}, "2026-01-01T00:00:00")
    save(store, checkpoint(400))
    save(store, checkpoint(2))
    free = "PRAGMA freelist_count"
    assert store._run(free)[0][0] > 0
    store.end_run(first, "2026-01-01T00:01:00", "max-time")
    assert store._run(free)[0][0] == 0  # the pages the run left free are given back
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
    save(store, checkpoint(2))
    store.close()
    again = open_store(tmp_path)
    assert again.first_load("http://127.0.0.1/news", "<p>12:00:09</p>") == first
    assert again.first_load("http://127.0.0.1/other", "<p>b</p>") == "<p>b</p>"


def test_long_evidence_snapshots_and_first_loads_are_kept_compressed(tmp_path: Path) -> None:
    """The inference evidence, snapshot metadata and first loads' DOMs are word lists and
    markup over again: each is kept once, compressed, and read back as it was; a store that
    kept them as text (schema 5), the evidence with its states (schema 6), reads as before."""
    words = [f"word{n} word{n} option" for n in range(2000)]
    saved = checkpoint(3)
    key = next(iter(saved.effects))
    saved.effects[key] = {**saved.effects[key], "common": words, "overlap": words}
    saved.states[0].snapshot["candidates"] = [{"name": f"a#{n}", "action": "x"} for n in range(500)]
    page = "<div class='row'><a href='/x'>a result</a></div>" * 500
    store = open_store(tmp_path)
    save(store, saved)
    store.first_load("http://127.0.0.1/", page)
    store.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "crawl.sqlite")) as db:
        kept = {table: db.execute(f"SELECT sum(length({column})), typeof({column}) FROM {table} "
                                  "GROUP BY 2 ORDER BY 1 DESC").fetchone()
                for table, column in (("effects", "evidence"), ("snapshots", "meta"),
                                      ("first_loads", "html"))}
        db.execute("UPDATE effects SET evidence = ?", (json.dumps(saved.effects[key]),))
        db.execute("DROP TABLE effect_states")  # schema 6: the states in the evidence
        db.execute("PRAGMA user_version = 6")
        db.commit()
    assert kept["effects"][1] == "blob"
    assert kept["effects"][0] < len(json.dumps(saved.effects[key])) / 4
    assert kept["snapshots"][1] == "blob" and kept["snapshots"][0] < 5000
    assert kept["first_loads"][1] == "blob" and kept["first_loads"][0] < len(page) / 10
    again = open_store(tmp_path)
    assert again.load() == saved  # (the evidence now as text, as schema 5 kept it)
    assert again._schema() == 8
    assert again.first_load("http://127.0.0.1/", "<p>later</p>") == page


def test_a_page_s_words_are_kept_once_for_every_action_fired_in_it(tmp_path: Path) -> None:
    """The inference evidence of every action fired in a page holds the page's words: each
    distinct set of word lists is one row of ``words``; those no evidence names go at the
    run's end; a store of schema 7, whose evidence holds its words itself, reads as before."""
    page = [f"word{n}" for n in range(300)]
    saved = checkpoint(3)
    evidence = next(iter(saved.effects.values()))
    saved.effects = {f"a{n}": {**evidence, "common": page} for n in range(20)}
    saved.effects["other"] = {**evidence, "common": ["elsewhere"]}
    store = open_store(tmp_path)
    run = store.start_run({}, "now")
    save(store, saved)
    assert store._run("SELECT count(*) FROM words")[0][0] == 2
    assert store.load() == saved
    moved = {**evidence, "common": ["moved"]}
    store.write(Changes(rows={"effects": [("other", moved)]}))
    store.end_run(run, "later", "done")
    assert store._run("SELECT count(*) FROM words")[0][0] == 2  # ["elsewhere"] went
    saved.effects["other"] = moved
    assert store.load() == saved
    store.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "crawl.sqlite")) as db:
        db.execute("UPDATE effects SET evidence = ?", (json.dumps(moved),))
        db.execute("DROP TABLE words")  # schema 7: the words in the evidence
        db.execute("PRAGMA user_version = 7")
        db.commit()
    again = open_store(tmp_path)
    assert again._schema() == 8
    assert again.load() == dataclasses.replace(saved, effects=dict.fromkeys(saved.effects, moved))


def test_tracked_tables_know_the_keys_changed_since_cleared() -> None:
    loads: TrackedDict[str, str] = TrackedDict({"http://h/": "s0"})
    assert loads.changed == set()  # what it starts with is the last checkpoint's
    loads["http://h/a"] = "s1"
    loads.setdefault("http://h/", "other")  # there already: no change
    loads.setdefault("http://h/b", "s2")
    loads.pop("http://h/a")
    assert loads.changed == {"http://h/a", "http://h/b"}
    counts: TrackedCounter[str] = TrackedCounter({"http://h/": 2})
    counts["http://h/"] += 1
    counts.update(["http://h/c", "http://h/c"])
    assert counts == {"http://h/": 3, "http://h/c": 2}
    assert counts.changed == {"http://h/", "http://h/c"}


def test_tracked_sets_and_dicts_renamed_know_what_moved() -> None:
    fired = TrackedSet([("a", "go"), ("b", "go")])
    fired.add(("c", "go"))
    fired.discard(("b", "go"))
    assert fired.changed == {("c", "go"), ("b", "go")}
    moved = fired.mapped(lambda pair: ("z" if pair[0] == "a" else pair[0], pair[1]))
    assert moved == {("z", "go"), ("c", "go")}
    assert moved.changed == {("a", "go"), ("z", "go"), ("b", "go"), ("c", "go")}
    actions: TrackedDict[str, int] = TrackedDict({"a": 1, "b": 2})
    rekeyed = actions.rekeyed(lambda key: "z" if key == "a" else key)
    assert rekeyed == {"z": 1, "b": 2} and rekeyed.changed == {"a", "z"}
