"""The figures of a crawl at a glance: states per depth, dead ends, strongly connected parts
and the summary every reader shows (the report, Jupyter, ``statecrawl.analysis``). They read
the graph alone, so anything that holds one (a loaded crawl, a :class:`.graph.StateGraph`) or
a networkx graph itself will do."""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol, TypeAlias, runtime_checkable

import networkx as nx

from ..config import checked
from ..errors import ConfigError
from .paths import edge_records, is_state, state_nodes


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
        ``start_url``; ``states``; ``transitions`` between states (fired), ``inferred``
        (recorded without firing) and ``out_of_scope``; ``downloads`` (edges to the documents
        downloads saved, see :mod:`statecrawl.browser.download`); ``max_depth`` and ``depths`` (the
        depth profile); ``failures`` (actions that failed, from the states' records);
        ``unreachable`` (state id to the reason it could not be reached again);
        ``truncated`` (states whose DOM was cut); ``dead_ends`` and ``components`` (counts);
        ``volatile`` (the page parts learned to change by themselves); ``stop_reason`` and
        ``elapsed`` (seconds) from the run's figures.

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
    fired = inferred = outside = downloads = 0
    for edge in edge_records(graph):
        if edge.get("download"):
            downloads += 1
        elif not is_state(graph, edge["target"]):
            outside += 1
        elif edge.get("inferred"):
            inferred += 1
        else:
            fired += 1
    depths = depth_profile(graph)
    stats = graph.graph.get("stats", {})
    return {
        "start_url": graph.graph.get("start_url"),
        "states": len(states),
        "transitions": fired,
        "inferred": inferred,
        "out_of_scope": outside,
        "downloads": downloads,
        "max_depth": max(depths, default=0),
        "depths": depths,
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


