"""State labels: derived from the crawl directory alone, no browser."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

import statecrawl
from statecrawl.directory.label import (
    action_text,
    crawl_labels,
    label_graph,
    state_labels,
    uniqueness,
)

PAGE = "<html><head><title>Errands · app</title></head><body><h1>Errands</h1>{}</body></html>"
ADD = {"name": '#app > input "new errand"', "event": "keydown:Enter", "kind": "submit",
       "action": "ENTER #app > input errand=buy%20milk"}  # fmt: skip


def click(locator: str, text: str) -> dict[str, str]:
    return {"name": f'{locator} "{text}"', "event": "click", "kind": "script", "action": "x"}


def errands() -> tuple[nx.MultiDiGraph, dict[str, str]]:
    """A single-page app's graph (one title for every state) and its snapshots."""
    pages = {
        "root": "",
        "one": "<ul><li><span>buy milk</span><button>\u00d7</button></li></ul><p>1 errand left</p>",
        "two": "<ul><li><span>buy milk</span></li><li><span>buy milk</span></li></ul>"
               "<p>2 errands left</p>",
        "open1": "<ul><li><span>buy milk</span></li></ul><p>1 errand left</p>",
        "open2": "<ul><li><span>buy milk</span></li><li><span>buy milk</span></li></ul>"
                 "<p>2 errands left</p>",
        "tick1": '<ul><li><input type="checkbox" aria-label="done" checked>'
                 "<span>buy milk</span></li><li><span>buy milk</span></li></ul>",
        "tick2": '<ul><li><span>buy milk</span></li><li><input type="checkbox" '
                 'aria-label="done" checked><span>buy milk</span></li></ul>',
        "hidden": '<ul><li><span>buy milk</span></li></ul><p>1 errand left</p>'
                  '<div hidden>secret</div><script>var x = "code"</script><p>shown</p>',
    }
    graph = nx.MultiDiGraph()
    for n, (node, _body) in enumerate(pages.items()):
        url = "http://h/app/" + ("#/open" if node in ("open1", "open2", "hidden") else "")
        graph.add_node(node, kind="state", title="Errands · app", url=url, found_at=n,
                       depth={"root": 0, "one": 1, "hidden": 3}.get(node, 2))  # fmt: skip
    graph.add_node("ext", kind="external", url="http://elsewhere.example/about")
    graph.add_edge("root", "one", key="a", **ADD)
    graph.add_edge("one", "two", key="a", **ADD)
    graph.add_edge("two", "one", key="r", **click("li:nth-of-type(2) > button", "\u00d7"))
    graph.add_edge("one", "open1", key="o", **click("footer > a:nth-of-type(2)", "Open"))
    graph.add_edge("two", "open2", key="o", **click("footer > a:nth-of-type(2)", "Open"))
    graph.add_edge("two", "tick1", key="t1", **click("ul > li:nth-of-type(1) > input", "done"))
    graph.add_edge("two", "tick2", key="t2", **click("ul > li:nth-of-type(2) > input", "done"))
    graph.add_edge("open1", "hidden", key="h", **click("h1", ""))
    graph.add_edge("one", "ext", key="e", **click("a", "About"))
    return graph, {node: PAGE.format(body) for node, body in pages.items()}


def test_action_text() -> None:
    assert action_text(ADD) == 'enter "buy milk"'
    assert action_text(click("footer > a:nth-of-type(2)", "Open")) == '"Open"'
    assert action_text({"name": "div > button:nth-of-type(3)", "event": "dblclick"}) == (
        "dblclick button"
    )
    submit = {"name": '#f "search"', "event": "submit", "kind": "submit",
              "action": "SCRIPT GET q=battery&field=title&from=&to="}  # fmt: skip
    assert action_text(submit) == 'submit "battery", "title"'
    long = click("a", "word " * 30)
    assert len(action_text(long)) == 42 and action_text(long).endswith("…\"")


def test_labels_say_what_the_first_action_did_and_changed() -> None:
    graph, pages = errands()
    labels = state_labels(graph, pages.get)
    assert labels["root"] == "Errands"  # the start state: the title, less the shared part
    assert labels["one"] == 'enter "buy milk" · 1 errand left'  # a close button's "x" says nothing
    assert labels["two"] == 'enter "buy milk" · 2 errands left'  # reached first from "one"
    # nothing shown changed but the URL; then a text of each that the other lacks
    assert labels["open1"] == '"Open" · #/open · 1 errand left'
    assert labels["open2"] == '"Open" · #/open · 2 errands left'
    # the same action on two rows: the checked box, then the place of each
    assert labels["tick1"] == '"done" · ☑ done · li 1'
    assert labels["tick2"] == '"done" · ☑ done · li 2'
    assert labels["hidden"] == "h1 · shown"  # hidden text and scripts are not shown
    assert labels["ext"] == "http://elsewhere.example/about"
    assert uniqueness(labels) == 1.0


def test_a_distinctive_title_names_its_state() -> None:
    graph, pages = errands()
    for n, node in enumerate(("one", "two")):
        graph.nodes[node]["title"] = f"Patent US{n} · Claims tab · app"
    labels = state_labels(graph, pages.get)
    assert labels["one"] == "Patent US0 · Claims tab"
    assert labels["two"] == "Patent US1 · Claims tab"
    assert labels["root"] == "Errands"


def test_labels_are_stored_at_the_end_and_read_back(tmp_path: Path) -> None:
    graph, pages = errands()
    (tmp_path / "states").mkdir()
    for node, html in pages.items():
        graph.nodes[node]["snapshot"] = f"states/{node}.html"
        (tmp_path / "states" / f"{node}.html").write_text(html)
    derived = crawl_labels(graph, tmp_path)
    assert derived == state_labels(graph, pages.get)
    label_graph(graph, tmp_path)
    statecrawl.StateGraph(graph).write(tmp_path)
    loaded = statecrawl.load(tmp_path)
    assert dict(loaded.graph.nodes(data="label")) == derived
    (tmp_path / "states" / "one.html").unlink()  # stored labels need no snapshot
    assert crawl_labels(loaded.graph, tmp_path) == derived


def test_uniqueness() -> None:
    assert uniqueness({}) == 1.0
    assert uniqueness({"a": "x", "b": "x", "c": "y", "d": "z"}) == 0.5


CLOCK = '<p id="clock">Server time: {}</p>'
SEARCH = {"name": '#search "Search"', "event": "submit", "kind": "submit"}


def patents() -> tuple[nx.MultiDiGraph, dict[str, str]]:
    """A search app whose clock the crawl masked: one patent opened from the results of two
    queries (first in one list, second in the other) gives two states that differ only by
    the clock and a masked attribute (and what the form holds)."""
    results = "<ul><li><a>US1 Battery pack</a></li><li><a>US2 Drone frame</a></li></ul>"
    patent = '<h2>US1 Battery pack</h2><div data-seen="{}">Claims</div>'
    pages = {
        "root": CLOCK.format("10:00:01"),
        "battery": CLOCK.format("10:00:02") + results,
        "drone": CLOCK.format("10:00:03") + "<ul><li><a>US3 Drone frame</a></li>"
                 "<li><a>US1 Battery pack</a></li></ul>",
        "us1a": CLOCK.format("10:00:04") + patent.format("t=10:00:04"),
        "us1b": CLOCK.format("10:00:05") + patent.format("t=10:00:05"),
    }
    graph = nx.MultiDiGraph(volatile=["#clock|content", "html/body/div|@data-seen"])
    for n, node in enumerate(pages):
        graph.add_node(node, kind="state", title="Patents", url="http://h/", found_at=n,
                       depth={"root": 0, "battery": 1, "drone": 1}.get(node, 2))  # fmt: skip
    for query in ("battery", "drone"):
        graph.add_edge("root", query, key=query, **SEARCH, action=f"SCRIPT GET q={query}")
    graph.add_edge("battery", "us1a", key="o", **click("ul > li:nth-of-type(1) > a", "US1"))
    graph.add_edge("drone", "us1b", key="o", **click("ul > li:nth-of-type(2) > a", "US1"))
    return graph, {node: PAGE.format(body) for node, body in pages.items()}


def test_labels_leave_masked_parts_out_and_name_the_query_that_led_there() -> None:
    graph, pages = patents()
    labels = state_labels(graph, pages.get)
    assert not [label for label in labels.values() if "10:00" in label or "time" in label]
    assert uniqueness(labels) == 1.0
    assert 'submit "battery"' in labels["us1a"] and 'submit "drone"' in labels["us1b"]
    assert "drone" not in labels["us1a"] and "battery" not in labels["us1b"]


def test_a_masked_attribute_value_never_shows() -> None:
    graph, pages = patents()
    for node in ("us1a", "us1b"):  # the only text of the patent page is in a masked attribute
        pages[node] = PAGE.format(CLOCK.format("10:00") + f'<input value="seen {node}">')
    graph.graph["volatile"].append("html/body/input|@value")
    labels = state_labels(graph, pages.get)
    assert not [label for label in labels.values() if "seen" in label or "10:00" in label]
    assert labels["us1a"] != labels["us1b"]


def test_a_masked_title_names_no_state() -> None:
    graph, pages = patents()
    for n, node in enumerate(("battery", "drone")):  # a title that counts the seconds
        graph.nodes[node]["title"] = f"Patents · {n} s ago"
        pages[node] = pages[node].replace("<title>Errands · app", f"<title>Patents · {n} s ago")
    assert state_labels(graph, pages.get)["battery"] == "Patents · 0 s ago"
    graph.graph["volatile"].append("html/head/title|content")
    labels = state_labels(graph, pages.get)
    assert labels["battery"] == 'submit "battery" · US1 Battery pack'
    assert not [label for label in labels.values() if "ago" in label]
