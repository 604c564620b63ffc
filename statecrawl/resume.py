"""Resume: what an explorer knows, to a checkpoint and back.

The explorer hands :func:`capture` a consistent moment (it holds its lock); :func:`restore`
rebuilds its memory from the last checkpoint, reading each state's DOM back from
``states/``. Work in flight at the checkpoint is not counted as fired, so it is done again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, fields
from typing import TYPE_CHECKING

import networkx as nx

from .errors import ArchiveError
from .graph import StateGraph
from .state import Action, Snapshot, State
from .store import Checkpoint, StateRecord

if TYPE_CHECKING:
    from .explorer import Explorer

SEPARATOR = " "  # between a state id and an action key in a table key (neither has spaces)


def capture(explorer: Explorer) -> Checkpoint:
    """A checkpoint of ``explorer`` now (call it under the explorer's lock)."""
    e = explorer
    in_flight = {(s.work.state, s.work.action.key) for s in e.executor.slots if s.work is not None}
    g = e.graph.graph
    return Checkpoint(
        nodes=[(n, dict(a)) for n, a in g.nodes(data=True)],
        edges=[(u, v, k, dict(a)) for u, v, k, a in g.edges(keys=True, data=True)],
        states=[
            StateRecord(
                s.id, s.key, s.url, s.title, s.depth, s.found_at, s.unreachable, s.final,
                s.snapshot.meta() if s.snapshot is not None else {},
            )
            for s in e.states.values()
        ],
        fired=sorted(e.fired - in_flight),
        actions=[(s, k, a.to_data()) for (s, k), a in e.edge_actions.items()],
        effects=e.effects.dump(),
        volatile=sorted(e.volatile),
        tables={
            "loads": dict(e.loads),
            "links": dict(e.links),
            "merged": dict(e.merged),
            "per_url": dict(e.per_url),
            "retried": {f"{s}{SEPARATOR}{k}": True for s, k in e.retried},
            "link_failures": dict(e.link_failures),
            "departures": dict(e.departures),
            **(e.recrawl.dump() if e.recrawl is not None else {}),
            "browsers": dict.fromkeys(e.executor.profiles(), True),
        },
        stats=asdict(e.stats),
    )


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
            snapshot=snapshot,
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
