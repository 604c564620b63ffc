"""Resume: what an explorer knows, to a checkpoint and back.

A :class:`Saver` writes checkpoints at moments the explorer holds its lock, each as the
rows changed since the last; :func:`restore` rebuilds an explorer's memory from the last
checkpoint (each state's DOM stays in ``states/``). Work in flight at a checkpoint is not
counted as fired, so it is done again.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, fields, replace
from typing import TYPE_CHECKING, Any

import networkx as nx

from .errors import ArchiveError
from .graph import StateGraph
from .state import Action, Snapshot, State
from .store import Changes, Checkpoint, Store

if TYPE_CHECKING:
    from .explorer import Explorer

SEPARATOR = " "  # between a state id and an action key in a table key (neither has spaces)


Row = tuple[Any, ...]


def _token(value: Any) -> Any:
    """What a table value is compared by: itself if a scalar, else its JSON."""
    if value is None or isinstance(value, str | int | float):
        return value
    return json.dumps(value, sort_keys=True, default=str)


def _diff(rows: dict[Any, Any], saved: dict[Any, Any]) -> tuple[list[Any], list[Any]]:
    """The keys of ``rows`` whose value differs from ``saved``'s, and the keys ``rows`` lost."""
    changed = [k for k, v in rows.items() if saved.get(k, _token) != v]
    return changed, [k for k in saved if k not in rows]


class Saver:
    """Writes an explorer's checkpoints to its store: the first one whole, each later one as
    the rows changed since the one before, so a checkpoint costs what changed, not what the
    crawl holds. Call :meth:`save` under the explorer's lock."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._whole = True
        # what the last checkpoint holds, as far as telling a change needs
        self._states: dict[str, Row] = {}
        self._fired: set[tuple[str, str]] = set()
        self._actions: set[tuple[str, str]] = set()
        self._volatile: frozenset[str] = frozenset()
        self._tables: dict[tuple[str, str], Any] = {}

    def save(self, explorer: Explorer) -> None:
        """Write a checkpoint of ``explorer`` now. Work in flight is not counted as fired:
        a crawl resumed from this checkpoint does it again."""
        e, whole = explorer, self._whole
        changes = Changes(replace=whole)
        rows, gone = changes.rows, changes.gone
        g = e.graph.graph
        nodes = set(g.nodes) if whole else set(e.graph.touched_nodes)
        rows["nodes"] = [(n, g.nodes[n]) for n in nodes if n in g]
        gone["nodes"] = [(n,) for n in nodes if n not in g]
        edges = set(g.edges(keys=True)) if whole else set(e.graph.touched_edges)
        rows["edges"] = [(*edge, g.edges[edge]) for edge in edges if g.has_edge(*edge)]
        gone["edges"] = [edge for edge in edges if not g.has_edge(*edge)]

        states = {
            s.id: (s.key, s.url, s.title, s.depth, s.found_at, s.unreachable, s.final)
            for s in e.states.values()
        }
        changed, lost = _diff(states, self._states)
        rows["states"] = [(i, *states[i]) for i in changed]
        gone["states"] = [(i,) for i in lost]

        in_flight = {(s.work.state, s.work.action.key) for s in e.executor.slots if s.work}
        fired = e.fired - in_flight
        rows["fired"] = sorted(fired - self._fired)
        gone["fired"] = sorted(self._fired - fired)
        actions = set(e.edge_actions)
        rows["actions"] = [
            (*k, e.edge_actions[k].to_data()) for k in sorted(actions - self._actions)
        ]
        gone["actions"] = sorted(self._actions - actions)

        effects = set(e.effects.table) if whole else set(e.effects.changed)
        rows["effects"] = e.effects.dump(sorted(effects & e.effects.table.keys()))
        gone["effects"] = [(k,) for k in effects - e.effects.table.keys()]
        rows["volatile"] = [(n,) for n in sorted(e.volatile - self._volatile)]
        gone["volatile"] = [(n,) for n in sorted(self._volatile - e.volatile)]

        values = {(name, k): v for name, table in _tables(e).items() for k, v in table.items()}
        tables = {key: _token(v) for key, v in values.items()}
        changed, lost = _diff(tables, self._tables)
        rows["tables"] = [(*key, values[key]) for key in changed]
        gone["tables"] = lost
        rows["meta"] = [("stats", asdict(e.stats))]

        self.store.write(changes)
        e.graph.touched_nodes -= nodes
        e.graph.touched_edges -= edges
        e.effects.changed -= effects
        self._whole = False
        self._states, self._fired, self._actions = states, fired, actions
        self._volatile, self._tables = e.volatile, tables


def _tables(e: Explorer) -> dict[str, Mapping[str, Any]]:
    """The explorer's small tables, by name (URL -> state, ...)."""
    return {
        "loads": e.loads,
        "links": e.links,
        "merged": e.merged,
        "per_url": e.per_url,
        "retried": {f"{s}{SEPARATOR}{k}": True for s, k in e.retried},
        "link_failures": e.link_failures,
        "departures": e.departures,
        **(e.recrawl.dump() if e.recrawl is not None else {}),
        "browsers": dict.fromkeys(e.executor.profiles(), True),
    }


def restore(explorer: Explorer, checkpoint: Checkpoint) -> None:
    """Give ``explorer`` the memory ``checkpoint`` holds."""
    e = explorer
    graph = nx.MultiDiGraph()
    for node, attrs in checkpoint.nodes:
        graph.add_node(node, **attrs)
    for source, target, key, attrs in checkpoint.edges:
        graph.add_edge(source, target, key=key, **attrs)
    e.graph = StateGraph(graph)
    for record in checkpoint.states:
        if not (e.out.path / e.out.snapshot_path(record.id)).is_file():
            raise ArchiveError(f"cannot resume: the DOM of state {record.id} is missing")
        snapshot = Snapshot(html="", **record.snapshot)  # the DOM stays on disk
        e.states[record.id] = State(
            id=record.id,
            key=record.key,
            url=record.url,
            title=record.title,
            depth=record.depth,
            found_at=record.found_at,
            snapshot=replace(snapshot, candidates=[]),  # the actions are what is kept of them
            actions=e.actions_of(snapshot),
            unreachable=record.unreachable,
            final=record.final,
        )
    e.index = {s.key: s.id for s in e.states.values()}
    e.fired = {(s, k) for s, k in checkpoint.fired}
    e.edge_actions = {(s, k): Action.from_data(a) for s, k, a in checkpoint.actions}
    e.effects.load(checkpoint.effects)
    e.volatile = frozenset(checkpoint.volatile)
    tables = checkpoint.tables
    e.loads = dict(tables.get("loads", {}))
    e.links = dict(tables.get("links", {}))
    e.merged = dict(tables.get("merged", {}))
    e.per_url = Counter(tables.get("per_url", {}))
    pairs = (key.partition(SEPARATOR) for key in tables.get("retried", {}))
    e.retried = {(state, action) for state, _, action in pairs}
    e.link_failures = dict(tables.get("link_failures", {}))
    e.departures = dict(tables.get("departures", {}))
    if e.recrawl is not None:
        e.recrawl.load(tables)
    known = {f.name for f in fields(e.stats)}
    for name, value in checkpoint.stats.items():
        if name in known and name != "elapsed":
            setattr(e.stats, name, value)
