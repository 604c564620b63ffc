"""Path planning over a state graph, without a browser."""

from __future__ import annotations

import doctest
import itertools

import networkx as nx

from statecrawl.engine import planning
from statecrawl.engine.planning import LOAD_COST, Plan, near, plan, shape
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


def chain(start: str, length: int, end: str) -> list[tuple[str, str, str]]:
    """``length`` transitions from ``start`` to ``end`` through states of their own."""
    names = [start, *(f"{start}{i}" for i in range(1, length)), end]
    return [(a, f"{a}>{b}", b) for a, b in itertools.pairwise(names)]


def test_replaying_is_preferred_to_a_load_until_it_costs_more() -> None:
    """From the browser's state ``n`` steps away, or a load of a state one step away: a load
    costs ``LOAD_COST`` steps, and at a tie the nearer start wins."""
    for n, loads in ((LOAD_COST, False), (LOAD_COST + 1, True), (LOAD_COST + 2, True)):
        g, actions = graph(*chain("cur", n, "t"), ("root", "r", "t"))
        way = plan(g, actions, "t", current="cur", starts={"root": "http://h/"})
        assert way is not None
        assert (way.url == "http://h/") is loads, n
        assert len(way.steps) == (1 if loads else n)


def test_a_link_step_costs_a_load() -> None:
    g, actions = graph(("cur", "a", "m"), ("m", "b", "t"))
    link = Action(name="a next", status="visible", event="click", action="http://h/next",
                  kind="link", locator="a", label="next")
    g.add_edge("cur", "t", key=link.key)
    actions[("cur", link.key)] = link
    way = plan(g, actions, "t", current="cur", starts={})
    assert way is not None and labels(way) == [("a", "m"), ("b", "t")]
    g2, actions2 = graph(*chain("cur", LOAD_COST + 1, "t"))
    g2.add_edge("cur", "t", key=link.key)
    actions2[("cur", link.key)] = link
    way = plan(g2, actions2, "t", current="cur", starts={})
    assert way is not None and [a for a, _ in way.steps] == [link]


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


def test_near_lists_what_replays_reach_nearest_first() -> None:
    g, actions = graph(
        ("cur", "a", "x"), ("cur", "b", "y"), ("x", "c", "z"), ("z", "d", "far"),
        ("far", "e", "farther"), ("y", "f", "cur"),
    )
    assert near(g, actions, "cur", reach=3) == ["cur", "x", "y", "z", "far"]
    assert near(g, actions, "cur", reach=1) == ["cur", "x", "y"]
    assert near(g, actions, None) == []
    assert near(g, actions, "unknown") == []


def test_near_leaves_out_links_transitions_not_refirable_and_external_nodes() -> None:
    g, actions = graph(("cur", "a", "x"), ("cur", "b", "y"))
    del actions[("cur", act("b").key)]
    link = Action(name="a l", status="visible", event="click", action="http://h/l", kind="link")
    g.add_node("l", kind="state")
    g.add_edge("cur", "l", key=link.key)
    actions[("cur", link.key)] = link
    g.add_node("ext", kind="external")
    g.add_edge("cur", "ext", key="k")
    actions[("cur", "k")] = act("k")
    assert near(g, actions, "cur") == ["cur", "x"]


def test_shape_groups_urls_of_one_kind() -> None:
    assert shape("http://h/patent/US11893160B2") == shape("http://h/patent/US10228588B1")
    assert shape("http://h/search?q=a&page=1") == shape("http://h/search?page=2&q=b")
    assert shape("http://h/search?q=a") != shape("http://h/search?q=a&page=2")
    assert shape("http://h/patent/X1") != shape("http://other/patent/X1")
    assert shape("http://h/about") != shape("http://h/help")


def test_doctests_pass() -> None:
    assert doctest.testmod(planning).failed == 0
