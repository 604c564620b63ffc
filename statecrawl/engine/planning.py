"""Path planning: the cheapest known way to bring a browser to a state.

Pure functions over the state graph, so the engine's choice of a way (go on from where the
browser is, load a URL that shows a state, replay the known actions from there) is tested
without a browser.
"""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import networkx as nx

from ..state import Action

# What a page load costs, in replayed actions: on the demo app a load and its settle took
# about 0.4 s and a replayed action 0.05 to 0.1 s (see the README's benchmarks).
LOAD_COST = 4


@dataclass(frozen=True, slots=True)
class Plan:
    """A way to a state: load ``url`` (``None``: start where the browser is), which shows
    ``start``, then fire each step's action, each expected to lead to the step's state."""

    url: str | None
    start: str
    steps: tuple[tuple[Action, str], ...]


def _cost(action: Action) -> int:
    """What firing ``action`` again costs: a link is a page load."""
    return LOAD_COST if action.is_link else 1


def cost(way: Plan) -> int:
    """What ``way`` costs, in replayed actions: its load, then its steps."""
    return (LOAD_COST if way.url is not None else 0) + sum(_cost(a) for a, _ in way.steps)


def plan(
    graph: nx.MultiDiGraph[str],
    actions: Mapping[tuple[str, str], Action],
    target: str,
    *,
    current: str | None = None,
    starts: Mapping[str, str],
) -> Plan | None:
    """The cheapest known way to ``target``, or ``None`` when there is none.

    ``actions`` maps ``(source state, edge key)`` to the action of each transition that
    can be fired again; ``current`` is the state the browser shows, from where a way costs
    its steps; ``starts`` maps states to a URL that loads them, from where a way costs
    ``LOAD_COST`` more (a link step costs that much too). Ties go to the way found first in
    a search backwards from ``target``, nearest first.
    """
    order = itertools.count()
    cost: dict[str, int] = {target: 0}
    previous: dict[str, tuple[str, Action] | None] = {target: None}
    queue = [(0, next(order), target)]
    best: tuple[int, str, str | None] | None = None
    while queue:
        distance, _, node = heapq.heappop(queue)
        if best is not None and distance >= best[0]:
            break
        if distance > cost[node]:
            continue  # reached more cheaply since it was queued
        if node == current:
            best = (distance, node, None)
        elif node in starts and (best is None or distance + LOAD_COST < best[0]):
            best = (distance + LOAD_COST, node, starts[node])
        for source, _, key in graph.in_edges(node, keys=True):
            action = actions.get((source, key))
            if action is None or graph.nodes[source].get("kind") != "state":
                continue
            through = distance + _cost(action)
            if through < cost.get(source, through + 1):
                cost[source] = through
                previous[source] = (node, action)
                heapq.heappush(queue, (through, next(order), source))
    if best is None:
        return None
    _, start, url = best
    steps: list[tuple[Action, str]] = []
    step = start
    while (link := previous[step]) is not None:
        step, action = link
        steps.append((action, step))
    return Plan(url, start, tuple(steps))


def near(
    graph: nx.MultiDiGraph[str],
    actions: Mapping[tuple[str, str], Action],
    current: str | None,
    reach: int = LOAD_COST - 1,
) -> list[str]:
    """The states a browser showing ``current`` reaches by replaying at most ``reach``
    known actions (cheaper than a load), nearest first, ``current`` itself first; none when
    the browser's state is unknown."""
    if current is None or current not in graph:
        return []
    found = [current]
    seen = {current}
    level = [current]
    for _ in range(reach):
        following = []
        for node in level:
            for _, target, key in graph.out_edges(node, keys=True):
                action = actions.get((node, key))
                if (
                    target in seen
                    or action is None
                    or action.is_link
                    or graph.nodes[target].get("kind") != "state"
                ):
                    continue
                seen.add(target)
                following.append(target)
        found += following
        level = following
    return found


def shape(url: str) -> str:
    """What URLs of one kind share: the host, the path with its segments that hold digits
    as ``*`` (ids), and the query's names without their values.

    >>> shape("http://h/patent/US1234B2?tab=claims&x=1")
    'h/patent/*?tab&x'
    """
    parts = urlsplit(url)
    path = "/".join("*" if re.search(r"\d", segment) else segment
                    for segment in parts.path.split("/"))
    names = sorted({name for name, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return f"{parts.netloc}{path}" + (f"?{'&'.join(names)}" if names else "")
