"""Path planning: the cheapest known way to bring a browser to a state.

Pure functions over the state graph, so the engine's choice of a way (go on from where the
browser is, load a URL that shows a state, replay the known actions from there) is tested
without a browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx

from .state import Action


@dataclass(frozen=True, slots=True)
class Plan:
    """A way to a state: load ``url`` (``None``: start where the browser is), which shows
    ``start``, then fire each step's action, each expected to lead to the step's state."""

    url: str | None
    start: str
    steps: tuple[tuple[Action, str], ...]


def plan(
    graph: nx.MultiDiGraph,
    actions: Mapping[tuple[str, str], Action],
    target: str,
    *,
    current: str | None = None,
    starts: Mapping[str, str],
) -> Plan | None:
    """The cheapest known way to ``target``, or ``None`` when there is none.

    ``actions`` maps ``(source state, edge key)`` to the action of each transition that
    can be fired again; ``current`` is the state the browser shows, from where a way costs
    its steps; ``starts`` maps states to a URL that loads them, from where a way costs one
    step more (a load costs about one action). Ties go to the way found first in a
    breadth-first search backwards from ``target``.
    """
    previous: dict[str, tuple[str, Action] | None] = {target: None}
    level = [target]
    best: tuple[int, str, str | None] | None = None
    distance = 0
    while level and (best is None or distance < best[0]):
        for node in level:
            if node == current:
                found = (distance, node, None)
            elif node in starts:
                found = (distance + 1, node, starts[node])
            else:
                continue
            if best is None or found[0] < best[0]:
                best = found
        following = []
        for node in level:
            for source, _, key in graph.in_edges(node, keys=True):
                if source in previous or graph.nodes[source].get("kind") != "state":
                    continue
                action = actions.get((source, key))
                if action is None:
                    continue
                previous[source] = (node, action)
                following.append(source)
        level = following
        distance += 1
    if best is None:
        return None
    _, start, url = best
    steps: list[tuple[Action, str]] = []
    step = start
    while (link := previous[step]) is not None:
        step, action = link
        steps.append((action, step))
    return Plan(url, start, tuple(steps))
