"""Analysis of a crawl's state graph, for Jupyter and scripts, in the networkx style.

Every function takes the crawl first (a :class:`statecrawl.Crawl` from :func:`statecrawl.load`;
those that need no files also a bare ``networkx.MultiDiGraph`` of the crawl-directory contract)
and returns plain values: numbers, strings, lists, dicts, or pandas frames from
:func:`to_frames`. Nothing here starts a browser or imports Selenium. pandas and matplotlib
come with the ``analysis`` extra (``pip install 'statecrawl[analysis]'``).

>>> import statecrawl
>>> from statecrawl import analysis
>>> crawl = statecrawl.load("statecrawl-demo")  # doctest: +SKIP
>>> analysis.summary(crawl)["states"]  # doctest: +SKIP
97
"""

from __future__ import annotations

import importlib
import pprint
import re
from collections import Counter
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias

import networkx as nx

from . import coverage as js_coverage
from .config import argument, checked
from .directory.crawl import Crawl, find_state, recorded_config
from .directory.graph import StateGraph
from .directory.label import crawl_labels
from .directory.paths import (
    describe,
    edge_records,
    is_state,
    label,
    loaded,
    shortest_paths,
    state_nodes,
)
from .errors import ConfigError, StatecrawlError
from .harvest import records as result_records
from .incremental.comparison import diff
from .models.dom import visible_text

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = [
    "action_frequency",
    "coverage",
    "dead_ends",
    "depth_profile",
    "describe",
    "diff",
    "find_states",
    "label",
    "layers",
    "plot",
    "records",
    "replay_script",
    "shortest_path",
    "states_per_url",
    "strongly_connected_components",
    "summary",
    "to_frames",
]

GraphLike: TypeAlias = "Crawl | StateGraph | nx.MultiDiGraph[str]"




def _graph(crawl: GraphLike) -> nx.MultiDiGraph[str]:
    crawl = argument("crawl", crawl, Crawl | StateGraph | nx.MultiDiGraph)
    return crawl if isinstance(crawl, nx.MultiDiGraph) else crawl.graph


def _state_graph(graph: nx.MultiDiGraph[str]) -> nx.MultiDiGraph[str]:
    """The subgraph of states alone (out-of-scope nodes left out)."""
    return graph.subgraph(state_nodes(graph))


def _optional(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        name = module.split(".")[0]
        raise StatecrawlError(
            f"{name} is needed for this: pip install 'statecrawl[analysis]'"
        ) from None


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
    graph = _graph(crawl)
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
    graph = _graph(crawl)
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
    states = _state_graph(_graph(crawl))
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
    graph = _graph(crawl)
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


@checked
def shortest_path(crawl: GraphLike, state_id: str) -> list[dict[str, Any]]:
    """The fewest actions that lead from a start page to a state.

    Fired transitions are preferred to inferred ones (recorded without firing) of the same
    length; of several paths left, the one whose start URL and action keys come first in
    order, so two crawls of one application give the same path to the same place.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.
    state_id : str
        The state's id, or a prefix of it that names one state only.

    Returns
    -------
    list of dict
        One dict per action, in order: the transition's attributes (``source``, ``target``,
        ``key``, ``name``, ``status``, ``event``, ``action``, ``kind``…) and ``step``, the
        action as a person reads it (see :func:`describe`). Empty for a start state.

    Raises
    ------
    StatecrawlError
        When no state has that id, or no known path leads to it.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("home", depth=0, url="http://127.0.0.1:8000/")
    >>> g.add_edge("home", "list", key="k1", name='button "Show list"', event="click")
    'k1'
    >>> g.add_edge("list", "item", key="k2", name='li:nth-of-type(2) "Pears"', event="click")
    'k2'
    >>> [s["step"] for s in shortest_path(g, "item")]
    ['click "Show list"', 'click "Pears"']
    """
    graph = _graph(crawl)
    target = find_state(graph, state_id)
    found = shortest_paths(graph).get(target)
    if found is None:
        raise StatecrawlError(f"no known path from a start page to state {target}")
    return [{**edge, "step": describe(edge)} for edge in found[1]]


# The settings a browser runs with (what the page agent offers, how it waits, what it may load).
REPLAY_SETTINGS = ("start_urls", "limits", "timing", "scope", "inputs", "browser", "model")
REPLAY_SCRIPT = '''\
"""Replay the shortest known way to state {target} of a statecrawl crawl.

Generated by statecrawl.analysis.replay_script. It loads the start page in a fresh headless
Chromium, finds each action again among those the page offers (by its key) and fires it,
then checks the key of the state reached. Exit status 0 when it is the expected state.
"""

import sys

from statecrawl import Config
from statecrawl.browser import Browser
from statecrawl.models import get_model

CONFIG = {config}
VOLATILE = {volatile}
START_URL = {start}
STEPS = {steps}  # (action key, the action as a person reads it)
TARGET = {target!r}

config = Config.from_mapping(CONFIG)
with Browser(config) as browser:
    browser.volatile = list(VOLATILE)
    snapshot = browser.load(START_URL)
    for key, step in STEPS:
        action = next((a for a in snapshot.actions() if a.key == key), None)
        if action is None:
            sys.exit(f"the page does not offer: {{step}}")
        print(step)
        snapshot = browser.fire(action)
reached = get_model(config.model).key(snapshot, frozenset(VOLATILE))
print(f"reached state {{reached}} at {{snapshot.url}}")
sys.exit(0 if reached == TARGET else f"expected state {{TARGET}}, reached {{reached}}")
'''


@checked
def replay_script(crawl: GraphLike, state_id: str) -> str:
    """A Python script that brings a browser to a state along :func:`shortest_path`.

    The script starts a headless Chromium with statecrawl, loads the start page, fires each
    action and checks that the state reached has the expected key (exit status 0, else 1).
    Crawled text appears in it only as Python string literals.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph (its ``config`` attribute is needed).
    state_id : str
        The state's id, or a prefix of it that names one state only.

    Returns
    -------
    str
        The source of the script; save it and run it with ``python``.

    Examples
    --------
    >>> g = nx.MultiDiGraph(config={"start_urls": ["http://127.0.0.1:8000/"]})
    >>> g.add_node("home", depth=0, url="http://127.0.0.1:8000/")
    >>> g.add_edge("home", "list", key="k1", name='button "Show list"', event="click")
    'k1'
    >>> script = replay_script(g, "list")
    >>> "('k1', 'click \\"Show list\\"')" in script
    True
    >>> compile(script, "replay.py", "exec") is not None
    True
    """
    graph = _graph(crawl)
    target = find_state(graph, state_id)
    steps = shortest_path(graph, target)
    start = steps[0]["source"] if steps else target
    recorded = (
        crawl.config if isinstance(crawl, Crawl)
        else recorded_config(graph, "the graph")
    )
    config = {k: v for k, v in recorded.to_dict().items() if k in REPLAY_SETTINGS}
    return REPLAY_SCRIPT.format(
        config=pprint.pformat(config, indent=1, width=96, sort_dicts=False),
        volatile=pprint.pformat(list(graph.graph.get("volatile", [])), width=96),
        start=repr(graph.nodes[start]["url"]),
        steps=pprint.pformat([(s["key"], s["step"]) for s in steps], width=96),
        target=target,
    )


@checked
def action_frequency(crawl: GraphLike) -> list[dict[str, Any]]:
    """How often each action was taken: in how many transitions and from how many states.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.

    Returns
    -------
    list of dict
        One dict per action key (``key``, ``name``, ``event``, ``action``, ``step``,
        ``transitions``, ``states``), most frequent first.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> for source, target in [("a", "b"), ("b", "b"), ("c", "b")]:
    ...     _ = g.add_edge(source, target, key="k1", name='button "Home"', event="click")
    >>> _ = g.add_edge("a", "c", key="k2", name='button "Help"', event="click")
    >>> [(a["step"], a["transitions"]) for a in action_frequency(g)]
    [('click "Home"', 3), ('click "Help"', 1)]
    """
    found: dict[str, dict[str, Any]] = {}
    sources: dict[str, set[str]] = {}
    for edge in edge_records(_graph(crawl)):
        key = edge["key"]
        if key not in found:
            found[key] = {
                "key": key,
                "name": edge.get("name", ""),
                "event": edge.get("event", ""),
                "action": edge.get("action", ""),
                "step": describe(edge),
                "transitions": 0,
            }
        found[key]["transitions"] += 1
        sources.setdefault(key, set()).add(edge["source"])
    for key, entry in found.items():
        entry["states"] = len(sources[key])
    return sorted(found.values(), key=lambda a: (-a["transitions"], a["name"]))


@checked
def states_per_url(crawl: GraphLike) -> dict[str, int]:
    """How many states each URL shows.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.

    Returns
    -------
    dict of str to int
        ``{url: number of states}``, most states first.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_nodes_from([("a", {"url": "http://h/"}), ("b", {"url": "http://h/"}),
    ...                   ("c", {"url": "http://h/about"})])
    >>> states_per_url(g)
    {'http://h/': 2, 'http://h/about': 1}
    """
    graph = _graph(crawl)
    return dict(Counter(graph.nodes[n].get("url", "") for n in state_nodes(graph)).most_common())


@checked
def find_states(crawl: Crawl, text: str, *, regex: bool = False, case: bool = False) -> list[str]:
    """The states whose visible text (see :func:`visible_text`) contains ``text``.

    Parameters
    ----------
    crawl : Crawl
        A loaded crawl (the snapshots are read from its directory).
    text : str
        What to look for: plain text, or a regular expression when ``regex`` is true.
    regex : bool, default False
        Whether ``text`` is a regular expression.
    case : bool, default False
        Whether the match is case-sensitive.

    Returns
    -------
    list of str
        State ids, in discovery order.

    Examples
    --------
    >>> crawl = statecrawl.load("statecrawl-demo")  # doctest: +SKIP
    >>> find_states(crawl, "battery pack")  # doctest: +SKIP
    ['5f0c2b8e9a1d4c77', ...]
    """
    crawl = loaded(crawl, "find_states")
    text = argument("text", text, str)
    regex, case = argument("regex", regex, bool), argument("case", case, bool)
    try:
        pattern = re.compile(text if regex else re.escape(text), 0 if case else re.IGNORECASE)
    except re.error as exc:
        raise ConfigError(f"text: invalid regular expression {text!r}: {exc}") from None
    return [s["id"] for s in crawl.states() if pattern.search(visible_text(crawl.html(s["id"])))]


@checked
def coverage(crawl: Crawl) -> pd.DataFrame:
    """The JavaScript coverage of a crawl, per script (``coverage.json``; pandas: the
    ``analysis`` extra).

    Parameters
    ----------
    crawl : Crawl
        A loaded crawl (its ``coverage.json`` is read from its directory).

    Returns
    -------
    pandas.DataFrame
        One row per script URL (an inline script's is its document's), most functions
        first: ``url``, ``functions_covered``, ``functions_total``, ``bytes_covered``,
        ``bytes_total`` (characters of the source), ``sources`` (distinct sources seen at the
        URL). Empty for a crawl that recorded no coverage (``browser.coverage`` off).

    Examples
    --------
    >>> crawl = statecrawl.load("statecrawl-demo")  # doctest: +SKIP
    >>> coverage(crawl)[["url", "functions_covered", "functions_total"]]  # doctest: +SKIP
                                    url  functions_covered  functions_total
    0  http://127.0.0.1:8000/static/app.js                 61               74
    """
    pandas = _optional("pandas")
    crawl = loaded(crawl, "coverage")
    data = js_coverage.read(crawl.path) or {"scripts": []}
    columns = ["url", "functions_covered", "functions_total", "bytes_covered", "bytes_total"]
    rows = [{**{c: s[c] for c in columns}, "sources": len(s["sources"])} for s in data["scripts"]]
    frame: pd.DataFrame = pandas.DataFrame(rows, columns=[*columns, "sources"])
    return frame.sort_values("functions_total", ascending=False, kind="stable").reset_index(
        drop=True
    )


@checked
def records(crawl: Crawl) -> pd.DataFrame:
    """The records the crawl's result lists showed, one row per detail, deduplicated by its
    key (:mod:`statecrawl.harvest.records`; pandas: the ``analysis`` extra).

    Parameters
    ----------
    crawl : Crawl
        A loaded crawl (its state DOMs are read from its directory).

    Returns
    -------
    pandas.DataFrame
        ``key`` (the detail's URL or id), ``title`` and the item's other labelled fields
        (``year``, ``assignee``, a table's columns by header), ``query`` (the values of the
        last form submitted on the shortest way to the list, as ``name=value`` text),
        ``page``, ``list_state`` and ``detail_state`` (``None`` when the crawl did not open
        it). In the order the lists were first reached.

    Examples
    --------
    >>> crawl = statecrawl.load("statecrawl-demo")  # doctest: +SKIP
    >>> records(crawl).groupby("query").size()  # doctest: +SKIP
    query
                  30
    q=battery&field=title    18
    """
    pandas = _optional("pandas")
    crawl = loaded(crawl, "records")
    rows = result_records.collect(crawl.graph, crawl.html)
    for row in rows:
        row["query"] = result_records.query_text(row["query"])
    first = ["key", "title"]
    rest = sorted({c for r in rows for c in r} - {*first, *result_records.PLACE})
    table: pd.DataFrame = pandas.DataFrame(rows, columns=[*first, *rest, *result_records.PLACE])
    return table


@checked
def to_frames(crawl: GraphLike) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The states and the transitions as pandas DataFrames (pandas: the ``analysis`` extra).

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.

    Returns
    -------
    states : pandas.DataFrame
        One row per state, indexed by id: every node attribute, plus ``in_transitions`` and
        ``out_transitions`` (counts of transitions from and to other states); of a
        :class:`~statecrawl.Crawl`, its ``label`` (see :mod:`statecrawl.directory.label`) too.
    transitions : pandas.DataFrame
        One row per transition: ``source``, ``target``, ``key``, ``name``, ``label``,
        ``status``, ``event``, ``action``, ``kind``, ``out_of_scope`` and the other edge
        attributes.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("a", url="http://h/", depth=0)
    >>> g.add_edge("a", "b", key="k1", name='button "Go"', event="click")
    'k1'
    >>> states, transitions = to_frames(g)
    >>> int(states.loc["a", "out_transitions"]), transitions.loc[0, "label"]
    (1, 'Go')
    """
    pandas = _optional("pandas")
    graph = _graph(crawl)
    states = state_nodes(graph)
    inner = _state_graph(graph)
    names = crawl_labels(graph, crawl.path) if isinstance(crawl, Crawl) else {}
    state_rows = [
        {
            **{k: v for k, v in graph.nodes[n].items() if k != "id"},
            **({"label": names[n]} if n in names else {}),
            "id": n,
            "in_transitions": sum(1 for s, _ in inner.in_edges(n) if s != n),
            "out_transitions": sum(1 for _, t in inner.out_edges(n) if t != n),
        }
        for n in states
    ]
    edge_rows = [
        {
            **edge,
            "label": label(edge.get("name", ""))[1],
            "out_of_scope": not is_state(graph, edge["target"]) and not edge.get("download"),
        }
        for edge in edge_records(graph)
    ]
    first = ["source", "target", "key", "name", "label", "status", "event", "action", "kind"]
    transitions = pandas.DataFrame(edge_rows)
    if not transitions.empty:
        rest = [c for c in transitions.columns if c not in first]
        transitions = transitions[[c for c in first if c in transitions.columns] + rest]
    frame = pandas.DataFrame(state_rows)
    return (frame.set_index("id") if not frame.empty else frame), transitions


@checked
def layers(crawl: GraphLike) -> dict[str, tuple[float, float]]:
    """Positions of the nodes layered by depth: x is the depth (out-of-scope nodes one
    layer beyond the deepest), y spreads each layer, ordered by the mean place of each
    node's predecessors in the layer before to keep edges short.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.

    Returns
    -------
    dict of str to (float, float)
        A networkx layout: node to ``(x, y)``.

    Examples
    --------
    >>> g = nx.MultiDiGraph([("a", "b"), ("a", "c")])
    >>> nx.set_node_attributes(g, {"a": 0, "b": 1, "c": 1}, "depth")
    >>> layers(g)
    {'a': (0, 0.0), 'b': (1, -0.5), 'c': (1, 0.5)}
    """
    graph = _graph(crawl)
    deepest = max(depth_profile(graph), default=0)
    by_layer: dict[int, list[str]] = {}
    for node, attrs in graph.nodes(data=True):
        depth = attrs.get("depth") if is_state(graph, node) else None
        by_layer.setdefault(deepest + 1 if depth is None else depth, []).append(node)
    pos: dict[str, tuple[float, float]] = {}
    for depth in sorted(by_layer):
        nodes = by_layer[depth]

        def place(node: str, nodes: list[str] = nodes) -> float:
            ys = [pos[p][1] for p in graph.predecessors(node) if p in pos and p != node]
            return sum(ys) / len(ys) if ys else float(nodes.index(node))

        nodes = sorted(nodes, key=place)
        middle = (len(nodes) - 1) / 2
        for i, node in enumerate(nodes):
            pos[node] = (depth, i - middle)
    return pos


@checked
def plot(crawl: GraphLike, ax: Axes | None = None, *, labels: bool | None = None) -> Axes:
    """Draw the state graph layered by depth (matplotlib: the ``analysis`` extra).

    Start states are green, unreachable ones red, states with failures orange, out-of-scope
    targets grey.

    Parameters
    ----------
    crawl : Crawl or networkx.MultiDiGraph
        A loaded crawl or its graph.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.
    labels : bool, optional
        Whether to write the first characters of each state's id beside it (by default for
        graphs of at most 60 nodes).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> g = nx.MultiDiGraph([("a", "b")])
    >>> nx.set_node_attributes(g, {"a": 0, "b": 1}, "depth")
    >>> plot(g).get_xlabel()
    'depth (actions from a start page)'
    """
    plt = _optional("matplotlib.pyplot")
    graph = _graph(crawl)
    if ax is None:
        width = 2 + 1.6 * (max(depth_profile(graph), default=0) + 2)
        _, ax = plt.subplots(figsize=(min(width, 16), 6))
    pos = layers(graph)
    simple: nx.DiGraph[str] = nx.DiGraph(graph)
    colours = []
    for node in simple:
        attrs = graph.nodes[node]
        if not is_state(graph, node):
            colours.append("#b0b0b0")
        elif attrs.get("unreachable"):
            colours.append("#d62728")
        elif attrs.get("failures"):
            colours.append("#ff7f0e")
        elif attrs.get("depth") == 0:
            colours.append("#2ca02c")
        else:
            colours.append("#1f77b4")
    size = 300 if len(simple) <= 60 else 60
    nx.draw_networkx_edges(
        simple, pos, ax=ax, node_size=size, alpha=0.4, arrowsize=8, edge_color="#555555"
    )
    nx.draw_networkx_nodes(simple, pos, ax=ax, node_size=size, node_color=colours)
    if labels if labels is not None else len(simple) <= 60:
        names = {n: str(n)[:4] for n in simple}
        nx.draw_networkx_labels(simple, pos, labels=names, ax=ax, font_size=7)
    ax.set_xlabel("depth (actions from a start page)")
    ax.tick_params(left=False, labelleft=False, bottom=True, labelbottom=True)
    ax.set_title(f"{len(state_nodes(graph))} states, {graph.number_of_edges()} transitions")
    return ax
