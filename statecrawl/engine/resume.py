"""Resume: a crawl's memory, to a checkpoint and back.

A :class:`Saver` writes checkpoints of a :class:`.memory.Memory` at moments the engine holds
its lock, each as the rows changed since the last; :func:`restore` rebuilds a memory from the
last checkpoint (each state's DOM stays in ``states/``). Work in flight at a checkpoint is
not counted as fired, so it is done again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

import networkx as nx

from ..directory.graph import StateGraph
from ..errors import ArchiveError
from ..state import Action, Snapshot, State
from ..store import Changes, Checkpoint, Store
from ..store.tracked import TrackedCounter, TrackedDict, TrackedSet

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ..directory.crawl import CrawlDirectory
    from .memory import Memory

SEPARATOR = " "  # between a state id and an action key in a table key (neither has spaces)


_NONE = object()  # no value saved yet


def _token(value: Any) -> Any:
    """What a table value is compared by: itself if a scalar, else its JSON."""
    if value is None or isinstance(value, str | int | float):
        return value
    return json.dumps(value, sort_keys=True, default=str)


class Saver:
    """Writes a crawl memory's checkpoints to its store: the first one whole, each later one as
    the rows changed since the one before, so a checkpoint costs what changed, not what the
    crawl holds. What changed is known from the graph's touched nodes and edges (a state's
    record changes with its node), the tracked tables' and sets' changes (and the pairs in
    flight, now and at the last checkpoint), and differences with what was saved for the
    small sets. Call :meth:`save` under the engine's lock."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._whole = True
        # what the last checkpoint holds, as far as telling a change needs
        self._held: set[tuple[str, str]] = set()  # fired pairs it held back, in flight
        self._volatile: frozenset[str] = frozenset()
        self._small: dict[tuple[str, str], Any] = {}  # untracked small tables' rows, as tokens

    def save(
        self,
        memory: Memory,
        stats: Mapping[str, Any],
        in_flight: Iterable[tuple[str, str]],
        extra: Mapping[str, Mapping[str, Any]],
    ) -> None:
        """Write a checkpoint of ``memory`` and the crawl's figures ``stats`` now. The pairs
        ``in_flight`` are not counted as fired: a crawl resumed from this checkpoint does
        them again. ``extra``: small tables of the crawl's own, by name, saved whole."""
        e, whole = memory, self._whole
        changes = Changes(replace=whole)
        rows, gone = changes.rows, changes.gone
        g = e.graph.graph
        nodes = set(g.nodes) if whole else set(e.graph.touched_nodes)
        rows["nodes"] = [(n, g.nodes[n]) for n in nodes if n in g]
        gone["nodes"] = [(n,) for n in nodes if n not in g]
        edges = set(g.edges(keys=True)) if whole else set(e.graph.touched_edges)
        rows["edges"] = [(*edge, g.edges[edge]) for edge in edges if g.has_edge(*edge)]
        gone["edges"] = [edge for edge in edges if not g.has_edge(*edge)]
        states = [e.states[n] for n in nodes if n in e.states]
        rows["states"] = [
            (s.id, s.key, s.url, s.title, s.depth, s.found_at, s.unreachable, s.final)
            for s in states
        ]
        gone["states"] = [(n,) for n in nodes if n not in e.states]

        held = set(in_flight)
        pairs = sorted(e.fired if whole else e.fired.changed | held | self._held)
        rows["fired"] = [p for p in pairs if p in e.fired and p not in held]
        gone["fired"] = [p for p in pairs if p not in e.fired or p in held]
        ways = e.edge_actions
        actions = sorted(ways if whole else ways.changed)
        rows["actions"] = [(*k, ways[k].to_data()) for k in actions if k in ways]
        gone["actions"] = [k for k in actions if k not in ways]

        inference = e.inference
        effects = set(inference.table) if whole else set(inference.changed)
        rows["effects"] = inference.dump(sorted(effects & inference.table.keys()))
        gone["effects"] = [(k,) for k in effects - inference.table.keys()]
        rows["effect_states"] = inference.states() if whole else sorted(inference.added)
        gone["effect_states"] = sorted(inference.dropped)
        rows["volatile"] = [(n,) for n in sorted(e.volatile - self._volatile)]
        gone["volatile"] = [(n,) for n in sorted(self._volatile - e.volatile)]

        tracked = e.tracked()
        rows["tables"] = [
            (name, k, table[k])
            for name, table in tracked.items()
            for k in (table if whole else table.changed)
            if k in table
        ]
        gone["tables"] = [
            (name, k) for name, table in tracked.items() for k in table.changed if k not in table
        ]
        small_tables = {
            "retried": {f"{s}{SEPARATOR}{k}": True for s, k in e.retried},
            "equivalence": e.equivalence.dump(),
            "popups": e.popups.dump(),
            "leaving": e.leaving.dump(),
            **extra,
        }
        values = {(name, k): v for name, table in small_tables.items() for k, v in table.items()}
        small = {key: _token(v) for key, v in values.items()}
        rows["tables"] += [
            (*k, values[k]) for k, v in small.items() if self._small.get(k, _NONE) != v
        ]
        gone["tables"] += [k for k in self._small if k not in small]
        rows["meta"] = [("stats", dict(stats))]

        self.store.write(changes)
        e.graph.touched_nodes -= nodes
        e.graph.touched_edges -= edges
        inference.changed -= effects
        inference.added.clear()
        inference.dropped.clear()
        for table in [*tracked.values(), e.fired, e.edge_actions]:
            table.changed.clear()
        self._whole = False
        self._held, self._volatile, self._small = held, e.volatile, small


def restore(
    memory: Memory,
    checkpoint: Checkpoint,
    directory: CrawlDirectory,
    actions_of: Callable[[Snapshot], list[Action]],
) -> None:
    """Give ``memory`` what ``checkpoint`` holds; ``actions_of`` gives a state's actions from
    its snapshot, and each state's DOM must be in ``directory``."""
    e = memory
    graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    for node, attrs in checkpoint.nodes:
        graph.add_node(node, **attrs)
    for source, target, key, attrs in checkpoint.edges:
        graph.add_edge(source, target, key=key, **attrs)
    e.graph = StateGraph(graph)
    for record in checkpoint.states:
        if not (directory.path / directory.snapshot_path(record.id)).is_file():
            raise ArchiveError(f"cannot resume: the DOM of state {record.id} is missing")
        snapshot = Snapshot(html="", **record.snapshot)  # the DOM stays on disk
        e.add(State(
            id=record.id,
            key=record.key,
            url=record.url,
            title=record.title,
            depth=record.depth,
            found_at=record.found_at,
            snapshot=replace(snapshot, candidates=[]),  # the actions are what is kept of them
            actions=actions_of(snapshot),
            unreachable=record.unreachable,
            final=record.final,
        ))
    e.fired = TrackedSet((s, k) for s, k in checkpoint.fired)
    e.edge_actions = TrackedDict({(s, k): Action.from_data(a) for s, k, a in checkpoint.actions})
    e.inference.load(checkpoint.effects)
    e.volatile = frozenset(checkpoint.volatile)
    tables = checkpoint.tables
    for name, table in e.tracked().items():
        kind = TrackedCounter if isinstance(table, TrackedCounter) else TrackedDict
        setattr(e, name, kind(tables.get(name, {})))
    pairs = (key.partition(SEPARATOR) for key in tables.get("retried", {}))
    e.retried = {(state, action) for state, _, action in pairs}
    e.equivalence.load(tables.get("equivalence", {}))
    e.popups.load(tables.get("popups", {}))
    e.leaving.load(tables.get("leaving", {}))


def restore_stats(stats: Any, saved: Mapping[str, Any]) -> None:
    """Give the figures ``stats`` (a dataclass) those a checkpoint saved, but the time."""
    known = {f.name for f in fields(stats)}
    for name, value in saved.items():
        if name in known and name != "elapsed":
            setattr(stats, name, value)
