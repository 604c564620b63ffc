"""Reading a crawl's graph: its states and edges, the shortest action path to each state,
and an action as a person reads it. Shared by the analysis functions and the comparison of
two crawls; plain networkx, no browser."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from typing import Any

import networkx as nx

from ..config import argument, checked
from ..models.dom import visible_text

INFERRED_COST = 1.001  # an edge recorded without firing is taken only when no fired one is as short


def is_state(graph: nx.MultiDiGraph[str], node: str) -> bool:
    kind: str = graph.nodes[node].get("kind", "state")
    return kind == "state"


def state_nodes(graph: nx.MultiDiGraph[str]) -> list[str]:
    return [n for n in graph if is_state(graph, n)]


def edge_records(graph: nx.MultiDiGraph[str]) -> Iterator[dict[str, Any]]:
    """Every edge's attributes with its ``source``, ``target`` and action ``key``."""
    for source, target, key, data in graph.edges(keys=True, data=True):
        yield {**data, "source": source, "target": target, "key": key}


def masked(graph: nx.MultiDiGraph[str]) -> frozenset[str]:
    """The names of the parts a crawl masked as volatile (``graph.json``'s ``volatile``):
    text derived to tell states apart or to search leaves them out."""
    return frozenset(n for n in graph.graph.get("volatile") or () if isinstance(n, str))


def searched_text(graph: nx.MultiDiGraph[str], html: str) -> str:
    """The text a search looks in, of a state's serialized DOM ``html``: its visible text
    (:func:`.visible_text`: blocks apart, hidden parts out) without what the crawl masked.
    ``analysis.find_states`` and the report's search both read this and nothing else."""
    return visible_text(html, volatile=masked(graph))


@checked
def label(name: str) -> tuple[str, str]:
    """Split an action's ``name`` into its locator and its label.

    Parameters
    ----------
    name : str
        The ``name`` of a transition: the element's locator, a space, its label as JSON.

    Returns
    -------
    tuple of str
        ``(locator, label)``; the label is empty when the name holds none.

    Examples
    --------
    >>> label('html > body > button:nth-of-type(2) "Next page"')
    ('html > body > button:nth-of-type(2)', 'Next page')
    """
    name = argument("name", name, str)
    for at in (i for i, c in enumerate(name) if c == " " and name[i + 1 : i + 2] == '"'):
        try:
            text = json.loads(name[at + 1 :])
        except ValueError:
            continue
        if isinstance(text, str):
            return name[:at], text
    return name, ""


@checked
def describe(edge: dict[str, Any]) -> str:
    """A transition's action as a person reads it.

    Parameters
    ----------
    edge : dict
        A transition's attributes (``name``, ``event``, ``kind``, ``action``).

    Returns
    -------
    str
        The event and the element's label (its locator when it has none), with the URL of a
        link or the values of a submit.

    Examples
    --------
    >>> describe({"name": 'a:nth-of-type(1) "Next"', "event": "click", "kind": "link",
    ...           "action": "http://127.0.0.1:8000/?page=2"})
    'click "Next" -> http://127.0.0.1:8000/?page=2'
    """
    edge = argument("edge", edge, Mapping)
    locator, text = label(str(edge.get("name", "")))
    what = json.dumps(text, ensure_ascii=False) if text else locator
    step = f"{edge.get('event', '?')} {what}"
    if edge.get("kind") == "link":
        step += f" -> {edge.get('action', '')}"
    elif edge.get("kind") == "submit":
        step += f" ({edge.get('action', '')})"
    return step


@checked
def shortest_paths(graph: nx.MultiDiGraph[str]) -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """The shortest path to every state reachable from a start page: its start state and
    its transitions (see :func:`shortest_path`), of several such paths the one whose start
    URL and action keys come first, so that two crawls of one application pick the same."""
    roots = [n for n in state_nodes(graph) if graph.nodes[n].get("depth") == 0]
    best: nx.DiGraph[str] = nx.DiGraph()
    best.add_nodes_from(state_nodes(graph))
    for edge in edge_records(graph):
        source, goal = edge["source"], edge["target"]
        if source == goal or not is_state(graph, goal):
            continue
        cost = INFERRED_COST if edge.get("inferred") else 1.0
        known = best.get_edge_data(source, goal)
        if known is None or (cost, edge["key"]) < (known["weight"], known["edge"]["key"]):
            best.add_edge(source, goal, weight=cost, edge=edge)
    distance = nx.multi_source_dijkstra_path_length(best, roots) if roots else {}
    paths: dict[str, tuple[str, list[dict[str, Any]]]] = {root: (root, []) for root in roots}

    def order(path: tuple[str, list[dict[str, Any]]]) -> tuple[str, list[str]]:
        return graph.nodes[path[0]].get("url", ""), [e["key"] for e in path[1]]

    for node in sorted(distance, key=distance.__getitem__):
        if node not in paths:
            paths[node] = min(
                (
                    (paths[source][0], [*paths[source][1], data["edge"]])
                    for source, _, data in best.in_edges(node, data=True)
                    if source in paths
                    and math.isclose(distance[source] + data["weight"], distance[node])
                ),
                key=order,
            )
    return paths
