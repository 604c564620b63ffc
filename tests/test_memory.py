"""The crawl memory without a browser: one retarget for merges and renames, every table
following it, and a checkpoint that gives back what was saved."""

from __future__ import annotations

import itertools
from pathlib import Path

from statecrawl.directory.crawl import CrawlDirectory
from statecrawl.engine.memory import TRACKED, Memory
from statecrawl.engine.policy import Inference
from statecrawl.engine.resume import Saver, restore
from statecrawl.state import Action, Snapshot, State
from statecrawl.store import open_store

URL = "http://127.0.0.1:4/"


def action(label: str) -> Action:
    return Action(
        name=f'#{label} "{label}"', status="visible", event="click",
        action=f"listener:#{label}", kind="script", locator=f"#{label}", label=label,
    )


def remembered(ids: tuple[str, ...] = ("a", "b", "c")) -> Memory:
    """A memory of three states a -> b -> c, with a row in every table that holds ids."""
    memory = Memory(Inference(3))
    for depth, state_id in enumerate(ids):
        memory.add(State(state_id, state_id, f"{URL}{state_id}", state_id, depth, 0.0))
        memory.graph.add_state(state_id, url=f"{URL}{state_id}", depth=depth)
    go = action("go")
    for source, target in itertools.pairwise(ids):
        memory.graph.add_transition(source, target, go.key, name=go.name)
        memory.edge_actions[(source, go.key)] = go
        memory.fired.add((source, go.key))
    memory.retried.add(("b", go.key))
    memory.checking[("a", go.key)] = "b"
    memory.tries["b"] = 2
    memory.loads[f"{URL}b"] = "b"
    memory.links[f"{URL}c"] = "c"
    for state_id in ids[1:]:
        memory.arrivals[state_id] = go.to_data()
    memory.documents[f"{URL}report.pdf"] = [{"url": f"{URL}report.pdf", "digest": "sha1:X"}]
    memory.once["help"] = ids[1]  # a click_once element fired in b
    return memory


def test_a_merge_moves_every_table_to_the_keeper() -> None:
    memory = remembered()
    told: list[dict[str, str]] = []
    memory.followers.append(lambda names: told.append(dict(names)))
    memory.retarget({"b": "a"})
    go = action("go").key
    assert set(memory.states) == {"a", "c"}
    assert "b" not in memory.graph.graph
    assert memory.graph.graph.has_edge("a", "c")
    assert memory.graph.graph.nodes["a"]["aliases"] == ["b"]
    assert memory.resolve("b") == "a"
    assert memory.fired == {("a", go)}
    assert memory.retried == {("a", go)}
    assert memory.checking == {("a", go): "a"}
    assert memory.tries == {"a": 2}
    assert memory.loads[f"{URL}b"] == "a"
    assert memory.once == {"help": "a"}
    assert memory.arrival("a") == action("go") and "b" not in memory.arrivals
    assert memory.per_site["http://127.0.0.1:4"] == 2
    assert set(memory.index.values()) == {"a", "c"}
    assert told == [{"b": "a"}]


def test_renames_given_at_once_may_take_each_others_ids() -> None:
    """The naming at the end of a run: ``a`` takes ``c``'s id while ``c`` takes another."""
    memory = remembered()
    memory.retarget({"a": "c", "c": "z"})
    assert set(memory.states) == {"b", "c", "z"}
    assert memory.states["c"].url == f"{URL}a" and memory.states["c"].id == "c"
    assert memory.states["z"].url == f"{URL}c"
    assert memory.graph.graph.has_edge("c", "b") and memory.graph.graph.has_edge("b", "z")
    assert memory.links[f"{URL}c"] == "z"
    assert memory.once == {"help": "b"}
    assert set(memory.arrivals) == {"b", "z"}  # (c's arrival is z's now; a had none)
    assert memory.resolve("a") == "c"
    assert memory.index == {"a": "c", "b": "b", "c": "z"}


def saved_and_restored(memory: Memory, directory: CrawlDirectory) -> Memory:
    """``memory`` through a checkpoint in ``directory``'s store, and back."""
    store = open_store(directory.path)
    for state_id, state in memory.states.items():
        directory.write_state(state_id, "<html></html>")
        store.add_snapshot(state_id, Snapshot(url=state.url, title="", html="").meta())
    Saver(store).save(memory, {"states": 3}, [("b", action("go").key)], {})
    back = Memory(Inference(3))
    restore(back, store.load(), directory, lambda snapshot: [])
    store.close()
    return back


def test_a_merge_then_a_resume_keeps_arrivals_and_documents(tmp_path: Path) -> None:
    """What first led to each state and what each link saved follow a merge, and a resumed
    crawl has them (they steer the frontier's order and spare loading a document again)."""
    memory = remembered()
    memory.retarget({"b": "a"})
    directory = CrawlDirectory(tmp_path / "out")
    try:
        back = saved_and_restored(memory, directory)
    finally:
        directory.close()
    assert dict(back.arrivals) == {"a": action("go").to_data(), "c": action("go").to_data()}
    assert back.arrival("c") == action("go")
    assert dict(back.documents) == dict(memory.documents) != {}


def test_a_checkpoint_gives_back_every_table(tmp_path: Path) -> None:
    memory = remembered()
    memory.volatile = frozenset({"clock"})
    memory.link_failures[f"{URL}x"] = "net::ERR_FAILED"
    memory.departures[f"{URL}y"] = ["http://elsewhere/"]
    memory.per_url[f"{URL}a"] = 1
    memory.merged["old"] = "a"
    memory.equivalence.made.update({"k1": (("GET", f"{URL}api", ""),), "k2": None})
    memory.equivalence.agreed[frozenset(("k1", "k3"))] = 2
    memory.equivalence.partners.update({"k1": {"k3"}, "k3": {"k1"}})
    memory.equivalence.broken.add(frozenset(("k1", "k2")))
    memory.equivalence.inferred["k3"] = {"b", "c"}
    choose = action("menu")
    memory.popups.absent(choose, 2)
    memory.popups.leave_out("b", choose)
    memory.popups.varied.add('#other "Other"')
    memory.leaving.record(action("open"), f"{URL}a", f"{URL}b")
    directory = CrawlDirectory(tmp_path / "out")
    try:
        back = saved_and_restored(memory, directory)
    finally:
        directory.close()
    assert back.states.keys() == memory.states.keys()
    assert back.index == memory.index
    assert back.fired == memory.fired - {("b", action("go").key)}  # in flight: done again
    assert back.retried == memory.retried
    assert back.edge_actions == memory.edge_actions
    assert back.volatile == memory.volatile
    for name in TRACKED:
        assert dict(getattr(back, name)) == dict(getattr(memory, name)), name
    assert back.per_site == memory.per_site
    for part in ("made", "agreed", "partners", "broken", "inferred"):
        assert getattr(back.equivalence, part) == getattr(memory.equivalence, part), part
    for part in ("shown", "varied", "left_out"):
        assert getattr(back.popups, part) == getattr(memory.popups, part), part
    assert back.leaving.families == memory.leaving.families


def test_checkpoints_in_a_row_write_what_changed_and_give_back_the_memory(tmp_path: Path) -> None:
    """Each checkpoint after the first writes the fired pairs and the edges' actions that
    changed (and the pairs in flight, then and now), not all of them: what it holds is still
    the memory's, through work in flight that ends, a pair fired again, a merge and an action
    learned anew."""
    memory, go, other = remembered(), action("go").key, action("other")
    directory = CrawlDirectory(tmp_path / "out")
    store = open_store(directory.path)
    try:
        for state_id in ("a", "b", "c", "d"):
            directory.write_state(state_id, "<html></html>")
            store.add_snapshot(state_id, Snapshot(url=f"{URL}{state_id}", title="", html="").meta())
        saver, written = Saver(store), []

        def save(in_flight: list[tuple[str, str]]) -> Memory:
            before = store._db.total_changes
            saver.save(memory, {}, in_flight, {})
            written.append(store._db.total_changes - before)
            back = Memory(Inference(3))
            restore(back, store.load(), directory, lambda snapshot: [])
            return back

        assert save([("b", go)]).fired == {("a", go)}  # whole; b's work in flight
        memory.fired.discard(("a", go))  # to be fired again
        memory.edge_actions[("a", go)] = other  # fired again, it did another thing
        memory.fired.add(("c", go))
        assert save([("c", go)]).fired == {("b", go)}  # b's work ended, c's is in flight
        assert save([]).fired == {("b", go), ("c", go)}
        memory.retarget({"c": "d"})
        back = save([])
        assert back.fired == memory.fired == {("b", go), ("d", go)}
        assert back.edge_actions == memory.edge_actions
        assert back.edge_actions[("a", go)] == other
        assert written[1:3] == [5, 3]  # rows: a pair or two, an action, the figures, "saved"
    finally:
        store.close()
        directory.close()
