"""Path planning over a state graph, without a browser."""

from __future__ import annotations

import networkx as nx

from statecrawl.planning import Plan, plan
from statecrawl.state import Action


def act(label: str) -> Action:
    return Action(name=f"#{label} {label}", status="visible,enabled", event="click",
                  action=f"listener:{label}", locator=f"#{label}", label=label)


def graph(*edges: tuple[str, str, str]) -> tuple[nx.MultiDiGraph, dict[tuple[str, str], Action]]:
    """A state graph of ``(source, label, target)`` transitions, and its actions."""
    g = nx.MultiDiGraph()
    actions = {}
    for source, label, target in edges:
        for node in (source, target):
            g.add_node(node, kind="state")
        action = act(label)
        g.add_edge(source, target, key=action.key)
        actions[(source, action.key)] = action
    return g, actions


def labels(way: Plan) -> list[tuple[str, str]]:
    return [(action.label, target) for action, target in way.steps]


def test_from_a_loaded_url_along_the_shortest_path() -> None:
    g, actions = graph(("a", "x", "b"), ("b", "y", "c"), ("a", "z", "c"), ("c", "w", "d"))
    way = plan(g, actions, "d", starts={"a": "http://h/"})
    assert way is not None
    assert (way.url, way.start) == ("http://h/", "a")
    assert labels(way) == [("z", "c"), ("w", "d")]


def test_from_where_the_browser_is_when_that_is_cheaper() -> None:
    g, actions = graph(("a", "x", "b"), ("b", "y", "c"), ("c", "w", "d"))
    way = plan(g, actions, "d", current="c", starts={"a": "http://h/"})
    assert way == Plan(None, "c", way.steps)
    assert labels(way) == [("w", "d")]


def test_a_load_costs_one_step() -> None:
    """From the browser's state two steps away, or a load of a state one step away: the load
    costs as much, and the first found (the nearer start) wins the tie."""
    g, actions = graph(("cur", "p", "m"), ("m", "q", "t"), ("root", "r", "t"))
    way = plan(g, actions, "t", current="cur", starts={"root": "http://h/"})
    assert way is not None and way.url == "http://h/" and labels(way) == [("r", "t")]


def test_a_state_a_url_loads_needs_no_steps() -> None:
    g, actions = graph(("a", "x", "b"))
    assert plan(g, actions, "b", starts={"b": "http://h/b"}) == Plan("http://h/b", "b", ())
    assert plan(g, actions, "b", current="b", starts={}) == Plan(None, "b", ())


def test_no_way() -> None:
    g, actions = graph(("a", "x", "b"), ("c", "y", "d"))
    assert plan(g, actions, "d", starts={"a": "http://h/"}) is None


def test_transitions_that_cannot_be_fired_again_and_external_nodes_are_not_used() -> None:
    g, actions = graph(("a", "x", "b"), ("b", "y", "c"))
    del actions[("a", act("x").key)]  # an inferred transition: no action recorded
    assert plan(g, actions, "c", starts={"a": "http://h/"}) is None
    g.add_node("ext", kind="external")
    g.add_edge("ext", "c", key="k")
    actions[("ext", "k")] = act("k")
    assert plan(g, actions, "c", starts={"ext": "http://elsewhere/"}) is None
