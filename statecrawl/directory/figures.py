"""The figures of a crawl at a glance: its counts (the one vocabulary every surface prints:
the CLI, ``graph.json``, the report, the service, ``statecrawl.analysis``), states per depth,
dead ends, strongly connected parts and the summary. They read the graph (and the records file
when the crawl's directory is known), so anything that holds one (a loaded crawl, a
:class:`.graph.StateGraph`) or a networkx graph itself will do."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol, TypeAlias, runtime_checkable

import networkx as nx

from ..config import checked
from ..errors import ConfigError
from .layout import RECORDS
from .paths import is_state, state_nodes


@runtime_checkable
class HasGraph(Protocol):
    """What holds a state graph: a loaded crawl, a :class:`.graph.StateGraph`."""

    @property
    def graph(self) -> nx.MultiDiGraph[str]: ...


GraphLike: TypeAlias = "HasGraph | nx.MultiDiGraph[str]"


def graph_of(crawl: GraphLike) -> nx.MultiDiGraph[str]:
    """The networkx graph of ``crawl``; a one-line ``ConfigError`` for anything else."""
    if isinstance(crawl, nx.MultiDiGraph):
        return crawl
    graph = crawl.graph if isinstance(crawl, HasGraph) else None
    if not isinstance(graph, nx.MultiDiGraph):
        raise ConfigError(
            f"crawl: expected a Crawl, StateGraph or MultiDiGraph, got {type(crawl).__name__}"
        )
    return graph


def state_graph(graph: nx.MultiDiGraph[str]) -> nx.MultiDiGraph[str]:
    """The subgraph of states alone (out-of-scope nodes left out)."""
    return graph.subgraph(state_nodes(graph))


@dataclass(frozen=True)
class Counts:
    """What a crawl found, counted one way everywhere (see :func:`counts`)."""

    states: int
    transitions: int
    inferred: int
    depth: int
    documents: int
    downloads: int
    out_of_scope: int
    records: int

    def describe(self) -> str:
        """The counts as one line, as the CLI, the report and the plot print them.

        >>> print(Counts(states=3, transitions=4, inferred=1, depth=2, documents=1,
        ...              downloads=2, out_of_scope=1, records=0).describe())
        ... # doctest: +NORMALIZE_WHITESPACE
        3 states, 4 transitions fired and 1 inferred, depth 2, 1 documents (2 downloads),
        1 out of scope, 0 records
        """
        return (
            f"{self.states} states, {self.transitions} transitions fired and "
            f"{self.inferred} inferred, "
            f"depth {self.depth}, {self.documents} documents ({self.downloads} downloads), "
            f"{self.out_of_scope} out of scope, {self.records} records"
        )


@checked
def counts(crawl: GraphLike, directory: str | Path | None = None) -> Counts:
    """The counts of a crawl, the one place they are computed.

    - ``states``: nodes of kind ``state`` (not documents, not out-of-scope pages).
    - ``transitions``: edges from a state to a state the crawl fired (a self-loop included);
      ``inferred``: such edges recorded without firing. A download or a link out of scope is
      not a transition.
    - ``depth``: the greatest depth of a state (actions from a start page); a document or an
      out-of-scope page has no depth of its own.
    - ``documents``: nodes of kind ``document``, each file a download saved once;
      ``downloads``: the edges to them, fired or inferred (one document can be downloaded
      from many states).
    - ``out_of_scope``: nodes of kind ``external``, the pages out of scope links lead to.
    - ``records``: the lines of the crawl's ``records.jsonl``, read from ``directory`` (by
      default the crawl's own); ``graph.json``'s figure when no directory is known.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("a", kind="state", depth=0)
    >>> g.add_node("b", kind="state", depth=1)
    >>> g.add_node("d", kind="document", url="http://app.test/a.pdf")
    >>> g.add_node("x", kind="external", url="http://elsewhere.test/")
    >>> for s, t, extra in [("a", "b", {}), ("b", "b", {}), ("b", "a", {"inferred": True}),
    ...                     ("a", "d", {"download": True}), ("b", "d", {"download": True}),
    ...                     ("a", "x", {"out_of_scope": True})]:
    ...     _ = g.add_edge(s, t, **extra)
    >>> c = counts(g)
    >>> (c.states, c.transitions, c.inferred, c.depth, c.documents, c.downloads, c.out_of_scope)
    (2, 2, 1, 1, 1, 2, 1)
    """
    graph = graph_of(crawl)
    kinds = Counter(str(data.get("kind", "state")) for _, data in graph.nodes(data=True))
    fired = inferred = downloads = 0
    for source, target, data in graph.edges(data=True):
        kind = graph.nodes[target].get("kind", "state")
        if kind == "document":
            downloads += 1
        elif kind == "state" and is_state(graph, source):
            inferred += bool(data.get("inferred"))
            fired += not data.get("inferred")
    depths = depth_profile(graph)
    if directory is None:
        directory = getattr(crawl, "path", None)
    return Counts(
        states=kinds["state"],
        transitions=fired,
        inferred=inferred,
        depth=max(depths, default=0),
        documents=kinds["document"],
        downloads=downloads,
        out_of_scope=kinds["external"],
        records=_records(graph, Path(directory) if directory is not None else None),
    )


def _records(graph: nx.MultiDiGraph[str], directory: Path | None) -> int:
    """The lines of ``directory``'s records file, else the count ``graph.json`` holds."""
    if directory is not None:
        try:
            with (directory / RECORDS).open("rb") as lines:
                return sum(1 for line in lines if line.strip())
        except OSError:
            return 0
    recorded = graph.graph.get("stats", {}).get("records")
    return recorded if isinstance(recorded, int) else 0


def depth_profile(crawl: GraphLike) -> dict[int, int]:
    """How many states were found at each depth.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.

    Returns
    -------
    dict of int to int
        ``{depth: number of states}``, by increasing depth.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_nodes_from([("a", {"depth": 0}), ("b", {"depth": 1}), ("c", {"depth": 1})])
    >>> depth_profile(g)
    {0: 1, 1: 2}
    """
    graph = graph_of(crawl)
    depths = (graph.nodes[n].get("depth") for n in state_nodes(graph))
    counts: Counter[int] = Counter(d for d in depths if d is not None)
    return dict(sorted(counts.items()))


def _explored(graph: nx.MultiDiGraph[str], node: str) -> bool:
    """Whether the crawl fired the state's actions: not cut off by the depth limit, not
    kept unexplored after a dangerous action, not unreachable."""
    attrs = graph.nodes[node]
    limit = graph.graph.get("config", {}).get("limits", {}).get("max_depth")
    depth = attrs.get("depth")
    beyond = limit is not None and depth is not None and depth >= limit
    return not (beyond or attrs.get("after_dangerous") or attrs.get("unreachable"))


@checked
def dead_ends(crawl: GraphLike) -> list[str]:
    """The explored states from which no action leads to another state.

    States the crawl did not explore (at the depth limit, after a dangerous action,
    unreachable) are not dead ends: nothing is known of where they lead. An action that
    leaves the crawl's scope does not count as a way out.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.

    Returns
    -------
    list of str
        State ids, in discovery order.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_edge("home", "about", key="k1")
    'k1'
    >>> g.add_edge("about", "about", key="k2")
    'k2'
    >>> dead_ends(g)
    ['about']
    """
    graph = graph_of(crawl)
    return [
        n
        for n in state_nodes(graph)
        if _explored(graph, n)
        and not any(t != n and is_state(graph, t) for t in graph.successors(n))
    ]


@checked
def strongly_connected_components(crawl: GraphLike) -> list[set[str]]:
    """The strongly connected components of the state graph: sets of states that can all
    reach each other.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.

    Returns
    -------
    list of set of str
        The components, largest first.

    Examples
    --------
    >>> g = nx.MultiDiGraph([("a", "b"), ("b", "a"), ("b", "c")])
    >>> [sorted(c) for c in strongly_connected_components(g)]
    [['a', 'b'], ['c']]
    """
    states = state_graph(graph_of(crawl))
    found = nx.strongly_connected_components(states)
    return sorted((set(c) for c in found), key=lambda c: (-len(c), min(c)))


@checked
def summary(crawl: GraphLike) -> dict[str, Any]:
    """The figures of a crawl at a glance.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.

    Returns
    -------
    dict
        ``start_url``; the :func:`counts` (``states``, ``transitions``, ``inferred``,
        ``documents``, ``downloads``, ``out_of_scope``, ``records``) with ``max_depth`` their
        ``depth``; ``depths`` (the depth profile); ``failures`` (actions that failed, from
        the states' records); ``unreachable`` (state id to the reason it could not be
        reached again); ``truncated`` (states whose DOM was cut); ``dead_ends`` and
        ``components`` (counts); ``volatile`` (the page parts learned to change by
        themselves); ``stop_reason`` and ``elapsed`` (seconds) from the run's figures.

    Examples
    --------
    >>> g = nx.MultiDiGraph(volatile=["#clock|content"])
    >>> g.add_node("a", kind="state", depth=0)
    >>> g.add_node("b", kind="state", depth=1, unreachable=True, unreachable_reason="gone")
    >>> g.add_node("x", kind="external", url="http://elsewhere.test/")
    >>> g.add_edge("a", "b", key="k1", event="click")
    'k1'
    >>> g.add_edge("a", "x", key="k2", event="click", out_of_scope=True)
    'k2'
    >>> s = summary(g)
    >>> s["states"], s["transitions"], s["out_of_scope"], s["max_depth"]
    (2, 1, 1, 1)
    >>> s["unreachable"], s["volatile"]
    ({'b': 'gone'}, ['#clock|content'])
    """
    graph = graph_of(crawl)
    states = state_nodes(graph)
    found = asdict(counts(crawl))
    stats = graph.graph.get("stats", {})
    return {
        "start_url": graph.graph.get("start_url"),
        **{name: value for name, value in found.items() if name != "depth"},
        "max_depth": found["depth"],
        "depths": depth_profile(graph),
        "failures": sum(len(graph.nodes[n].get("failures", ())) for n in states),
        "unreachable": {
            n: graph.nodes[n].get("unreachable_reason", "")
            for n in states
            if graph.nodes[n].get("unreachable")
        },
        "truncated": [n for n in states if graph.nodes[n].get("truncated")],
        "dead_ends": len(dead_ends(graph)),
        "components": len(strongly_connected_components(graph)),
        "volatile": list(graph.graph.get("volatile", [])),
        "stop_reason": stats.get("stop_reason"),
        "elapsed": stats.get("elapsed"),
    }


