"""The analysis API and the Jupyter display: hand-built graphs and crawl directories (no
browser), then real crawls of local pages, and replay scripts run in a real Chromium."""

from __future__ import annotations

import ast
import doctest
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import matplotlib
import networkx as nx
import pytest

import statecrawl
from statecrawl import StatecrawlError, analysis
from statecrawl.directory import figures as directory_figures
from statecrawl.directory.crawl import CrawlDirectory
from statecrawl.directory.graph import StateGraph
from tests.conftest import Site

matplotlib.use("Agg")

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32  # shown inline as it is: its content is not read
# the display's own elements: anything else in its HTML came from a crawled page
DISPLAY_TAGS = {
    "style", "div", "table", "tr", "th", "td", "p", "figure", "img", "figcaption", "code",
}  # fmt: skip
HOSTILE = '</td><script>alert(1)</script><img src=x onerror="alert(2)">'


def write_crawl(
    path: Path,
    states: dict[str, tuple[str, str, int]],
    edges: list[tuple[str, str, str, dict[str, Any]]],
    **graph_attrs: Any,
) -> statecrawl.Crawl:
    """A crawl directory written as the explorer writes one: ``states`` maps an id to its URL,
    HTML and depth; ``edges`` are ``(source, target, key, attrs)``."""
    out = CrawlDirectory(path)
    graph = StateGraph()
    for state_id, (url, html, depth) in states.items():
        graph.add_state(
            state_id,
            url=url,
            title=f"title {state_id}",
            depth=depth,
            snapshot=out.write_state(state_id, html),
            screenshot=out.write_screenshot(state_id, PNG),
        )
    for source, target, key, attrs in edges:
        graph.add_transition(source, target, key, **attrs)
    graph.graph.graph.update({"start_url": "http://127.0.0.1:4/", "config": {}, **graph_attrs})
    out.write_graph(graph)
    return statecrawl.load(path)


def click(label: str) -> dict[str, Any]:
    return {
        "name": f'button "{label}"', "status": "visible", "event": "click", "action": "h",
        "kind": "script",
    }  # fmt: skip


def test_doctests_run() -> None:
    result = doctest.testmod(analysis, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 30
    assert result.failed == 0
    figures = doctest.testmod(directory_figures, optionflags=doctest.ELLIPSIS)
    assert figures.attempted > 15  # (summary, depths, dead ends, components: analysis's too)
    assert figures.failed == 0


def test_summary_counts_what_the_graph_records() -> None:
    g = nx.MultiDiGraph(
        volatile=["#clock|content"], stats={"stop_reason": "finished", "elapsed": 2.5}
    )
    g.add_node("a", kind="state", depth=0)
    g.add_node("b", kind="state", depth=1, truncated=True)
    g.add_node("c", kind="state", depth=1, unreachable=True, unreachable_reason="key changed")
    g.add_node("d", kind="state", depth=2, failures=[{"error": "timeout"}, {"error": "crash"}])
    g.add_node("x", kind="external", url="http://elsewhere.test/")
    g.add_edge("a", "b", key="k1")
    g.add_edge("a", "c", key="k2")
    g.add_edge("b", "d", key="k3")
    g.add_edge("c", "d", key="k3", inferred=True)
    g.add_edge("d", "x", key="k4", out_of_scope=True)
    s = analysis.summary(g)
    assert (s["states"], s["transitions"], s["inferred"], s["out_of_scope"]) == (4, 3, 1, 1)
    assert s["max_depth"] == 2
    assert s["depths"] == {0: 1, 1: 2, 2: 1}
    assert s["failures"] == 2
    assert s["unreachable"] == {"c": "key changed"}
    assert s["truncated"] == ["b"]
    assert s["volatile"] == ["#clock|content"]
    assert s["dead_ends"] == 1  # d: only a way out of scope
    assert s["components"] == 4
    assert (s["stop_reason"], s["elapsed"]) == ("finished", 2.5)


def test_dead_ends_leave_out_what_was_not_explored() -> None:
    g = nx.MultiDiGraph(config={"limits": {"max_depth": 2}})
    g.add_node("root", depth=0)
    g.add_node("loop", depth=1)
    g.add_node("limit", depth=2)
    g.add_node("after_logout", depth=1, after_dangerous=True)
    g.add_node("lost", depth=1, unreachable=True)
    for target in ("loop", "limit", "after_logout", "lost"):
        g.add_edge("root", target, key=target)
    g.add_edge("loop", "loop", key="self")
    assert analysis.dead_ends(g) == ["loop"]


def test_strongly_connected_components_ignore_out_of_scope_nodes() -> None:
    g = nx.MultiDiGraph([("a", "b"), ("b", "a"), ("b", "c"), ("c", "x"), ("x", "c")])
    g.nodes["x"]["kind"] = "external"
    assert analysis.strongly_connected_components(g) == [{"a", "b"}, {"c"}]


def test_shortest_path_prefers_fired_transitions() -> None:
    g = nx.MultiDiGraph()
    g.add_node("home", depth=0)
    g.add_node("other_root", depth=0)
    g.add_edge("home", "menu", key="k1", **click("Menu"), inferred=True)
    g.add_edge("home", "menu", key="k2", **click("Open menu"))
    g.add_edge("menu", "item", key="k3", **click("Item"))
    g.add_edge("other_root", "item", key="k4", **click("Shortcut"), inferred=True)
    g.add_edge("home", "home", key="k5", **click("Nothing"))
    assert [s["step"] for s in analysis.shortest_path(g, "menu")] == ['click "Open menu"']
    steps = analysis.shortest_path(g, "item")
    assert [(s["source"], s["key"], s["target"]) for s in steps] == [("other_root", "k4", "item")]
    assert analysis.shortest_path(g, "home") == []


def test_shortest_path_errors_are_statecrawl_errors() -> None:
    g = nx.MultiDiGraph()
    g.add_node("aa1", depth=0)
    g.add_node("aa2", depth=1)
    with pytest.raises(StatecrawlError, match="no state"):
        analysis.shortest_path(g, "zz")
    with pytest.raises(StatecrawlError, match="several states"):
        analysis.shortest_path(g, "aa")
    with pytest.raises(StatecrawlError, match="no known path"):
        analysis.shortest_path(g, "aa2")
    with pytest.raises(StatecrawlError, match="configuration"):
        analysis.replay_script(g, "aa1")


def test_replay_script_keeps_crawled_text_as_literals() -> None:
    name = 'button "a\\"\\"\\" \\n\'\'\' ); import os; os.system(\\"x\\")"'
    g = nx.MultiDiGraph(config={"start_urls": ["http://127.0.0.1:4/"], "out": "/tmp/x"})
    g.add_node("home", depth=0, url="http://127.0.0.1:4/'''\"\"\"")
    g.add_edge("home", "next", key="k1", name=name, event="click", kind="script")
    script = analysis.replay_script(g, "next")
    tree = ast.parse(script)
    values = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and node.targets[0].id.isupper()
    }
    assert values["STEPS"] == [("k1", analysis.describe({"name": name, "event": "click"}))]
    assert values["START_URL"] == "http://127.0.0.1:4/'''\"\"\""
    assert values["TARGET"] == "next"
    assert "out" not in values["CONFIG"]
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import) and n.names[0].name == "os"]


def test_labels_and_steps() -> None:
    name = 'div > a[href="x y"] "Go \\"home\\""'
    assert analysis.label(name) == ('div > a[href="x y"]', 'Go "home"')
    assert analysis.label("window") == ("window", "")
    scroll = {"name": 'window "end of page"', "event": "scroll", "kind": "script"}
    assert analysis.describe(scroll) == 'scroll "end of page"'
    submit = {"name": 'form ""', "event": "submit", "kind": "submit", "action": "GET /s q=x"}
    assert analysis.describe(submit) == "submit form (GET /s q=x)"


def test_action_frequency_and_states_per_url() -> None:
    g = nx.MultiDiGraph()
    g.add_nodes_from([("a", {"url": "u1"}), ("b", {"url": "u1"}), ("c", {"url": "u2"})])
    g.add_nodes_from([("a2", {"url": "u1"})])
    g.add_edge("a", "b", key="next", **click("Next"))
    g.add_edge("b", "a2", key="next", **click("Next"))
    g.add_edge("a2", "a2", key="next", **click("Next"))
    g.add_edge("a", "c", key="help", **click("Help"))
    frequency = analysis.action_frequency(g)
    assert [(a["key"], a["transitions"], a["states"]) for a in frequency] == [
        ("next", 3, 3),
        ("help", 1, 1),
    ]
    assert frequency[0]["step"] == 'click "Next"'
    assert analysis.states_per_url(g) == {"u1": 3, "u2": 1}


def test_visible_text_leaves_out_what_is_not_shown() -> None:
    html = (
        "<html><head><title>Head</title><style>p{}</style></head><body>"
        "<p>One</p><div hidden>hidden</div><p>wor<b>ld</b>, <a>link</a>.</p>"
        "<div style='display: none'>gone</div>"
        "<div style='color: red'>Two</div><noscript>js</noscript><template>tpl</template>"
        "<x-card><template shadowrootmode='open'><b>Shadow</b></template></x-card>"
        "<script>document.write('no')</script>Three</body></html>"
    )
    assert analysis.visible_text(html) == "One world, link. Two Shadow Three"
    assert analysis.visible_text(html, lines=True) == "One\nworld, link.\nTwo\nShadow\nThree"
    assert analysis.visible_text("<li>a\n  b</li><li><i>c\n</i>d</li>", lines=True) == "a b\nc d"
    assert analysis.visible_text("   ") == ""


def test_find_states_searches_snapshots(tmp_path: Path) -> None:
    crawl = write_crawl(
        tmp_path,
        {
            "a": ("http://h/", "<p>Lithium <b>battery</b> pack</p>", 0),
            "b": ("http://h/2", "<p>Drone</p><script>'battery pack'</script>", 1),
            "c": ("http://h/3", "<p>BATTERY   PACK</p>", 1),
        },
        [],
    )
    assert analysis.find_states(crawl, "battery pack") == ["a", "c"]
    assert analysis.find_states(crawl, "battery pack", case=True) == ["a"]
    assert analysis.find_states(crawl, r"^drone$", regex=True) == ["b"]
    with pytest.raises(StatecrawlError, match=r"statecrawl\.load"):
        analysis.find_states(crawl.graph, "drone")  # type: ignore[arg-type]


def test_find_states_and_diff_leave_masked_parts_out(tmp_path: Path) -> None:
    clock = '<p id="clock">Server time: {}</p><p data-t="{}">Claims</p>'
    masks = ["#clock|content", "html/body/p|@data-t"]
    old = write_crawl(tmp_path / "old", {"a": ("http://h/", clock.format("10:00:01", 1), 0)},
                      [], volatile=masks)  # fmt: skip
    new = write_crawl(tmp_path / "new", {"b": ("http://h/", clock.format("11:30:02", 2), 0)},
                      [], volatile=masks)  # fmt: skip
    assert analysis.find_states(old, "Claims") == ["a"]
    assert analysis.find_states(old, "Server time") == analysis.find_states(old, "10:00") == []
    assert analysis.visible_text(old.html("a"), volatile=masks) == "Claims"
    [changed] = analysis.diff(old, new)["changed"]
    assert changed["diff"] == ""  # the clock is all that changed


def test_diff_by_id_and_by_action_path(tmp_path: Path) -> None:
    long_news = " ".join(f"word{n}" for n in range(300))
    old = write_crawl(
        tmp_path / "old",
        {
            "home": ("http://h/", "<p>Home</p>", 0),
            "list1": ("http://h/list", "<ul><li>a</li></ul>", 1),
            "news1": ("http://h/news", f"<p>{long_news}</p>", 1),
            "gone": ("http://h/gone", "<p>Gone</p>", 1),
            "team": ("http://h/team", "<p>Team</p>", 1),
            "deep": ("http://h/deep", "<p>Deep</p>", 2),
        },
        [
            ("home", "list1", "k-list", click("List")),
            ("home", "news1", "k-news", click("News")),
            ("home", "gone", "k-gone", click("Gone")),
            ("home", "team", "k-team", click("Team")),
            ("gone", "deep", "k-deep", click("Deep")),
        ],
    )
    new = write_crawl(
        tmp_path / "new",
        {
            "home": ("http://h/", "<p>Home</p>", 0),
            "list2": ("http://h/list", "<ol><li>x</li><li>y</li></ol>", 1),
            "news2": ("http://h/news", f"<p>{long_news.replace('word7 ', 'seven ')}</p>", 1),
            "more": ("http://h/more", "<p>More</p>", 1),
        },
        [
            ("home", "list2", "k-list", click("List")),
            ("home", "news2", "k-news", click("News")),
            ("home", "more", "k-more", click("More")),
            ("home", "list2", "k-team", click("Team")),  # a second way to list2
        ],
    )
    changes = analysis.diff(old, new)
    assert changes["unchanged"] == ["home"]
    assert [(c["old"], c["id"], c["minor"]) for c in changes["changed"]] == [
        ("list1", "list2", False),
        ("news1", "news2", True),
    ]
    news = changes["changed"][1]
    assert news["similarity"] >= 0.9
    assert (news["url"], news["title"], news["path"]) == (
        "http://h/news", "title news2", ['click "News"']
    )  # fmt: skip
    assert news["diff"].splitlines() == [
        "--- news1", "+++ news2", "@@ -1 +1 @@", f"-{long_news}",
        f"+{long_news.replace('word7 ', 'seven ')}",
    ]  # fmt: skip
    assert changes["new"] == [
        {"id": "more", "label": "title more", "url": "http://h/more", "title": "title more",
         "path": ['click "More"']}
    ]
    assert [(d["id"], d["reason"], d["now"], d["gone"]) for d in changes["deleted"]] == [
        ("gone", "the action is gone", None, 'click "Gone"'),
        ("team", "its path now leads to another state", "list2", None),
        ("deep", "the action is gone", None, 'click "Gone"'),
    ]
    assert changes["deleted"][2]["path"] == ['click "Gone"', 'click "Deep"']
    assert changes["transitions_added"] == [("home", "k-more", "more"), ("home", "k-team", "list2")]
    assert changes["transitions_removed"] == [
        ("gone", "k-deep", "deep"),
        ("home", "k-gone", "gone"),
        ("home", "k-team", "team"),
    ]
    assert json.loads(json.dumps(changes))["changed"][0]["old"] == "list1"  # plain data
    strict = analysis.diff(old, new, threshold=1.0)
    assert [c["minor"] for c in strict["changed"]] == [False, False]
    same = analysis.diff(old, old)
    assert same["unchanged"] == ["home", "list1", "news1", "gone", "team", "deep"]
    assert not any(same[k] for k in same if k != "unchanged")


def test_shortest_path_of_several_takes_the_first_keys(tmp_path: Path) -> None:
    """Two crawls that met one state's ways in in another order give it the same path."""
    for order in ([("k-b", "B"), ("k-a", "A")], [("k-a", "A"), ("k-b", "B")]):
        g = nx.MultiDiGraph()
        g.add_node("home", depth=0, url="http://h/")
        for key, name in order:
            g.add_edge("home", "x", key=key, name=f'button "{name}"', event="click")
        assert [s["key"] for s in analysis.shortest_path(g, "x")] == ["k-a"]


def test_to_frames(tmp_path: Path) -> None:
    crawl = write_crawl(
        tmp_path,
        {"a": ("http://h/", "<p>A</p>", 0), "b": ("http://h/b", "<p>B</p>", 1)},
        [("a", "b", "k1", click("Go")), ("b", "b", "k2", click("Stay"))],
    )
    states, transitions = analysis.to_frames(crawl)
    assert list(states.index) == ["a", "b"]
    assert states.loc["b", "url"] == "http://h/b"
    assert states["out_transitions"].tolist() == [1, 0]
    assert states["in_transitions"].tolist() == [0, 1]
    assert list(transitions.columns[:9]) == [
        "source", "target", "key", "name", "label", "status", "event", "action", "kind",
    ]  # fmt: skip
    assert transitions["label"].tolist() == ["Go", "Stay"]
    assert not transitions["out_of_scope"].any()
    empty_states, empty_transitions = analysis.to_frames(nx.MultiDiGraph())
    assert empty_states.empty and empty_transitions.empty


def test_layers_and_plot() -> None:
    g = nx.MultiDiGraph([("r", "a"), ("r", "b"), ("a", "c"), ("b", "d"), ("d", "x")])
    nx.set_node_attributes(g, {"r": 0, "a": 1, "b": 1, "c": 2, "d": 2}, "depth")
    g.nodes["x"]["kind"] = "external"
    pos = analysis.layers(g)
    assert {n: x for n, (x, _) in pos.items()} == {"r": 0, "a": 1, "b": 1, "c": 2, "d": 2, "x": 3}
    assert pos["c"][1] < pos["d"][1]  # children follow their parents' order
    ax = analysis.plot(g)
    assert ax.get_title() == "5 states, 4 transitions, 1 out of scope"
    assert len(ax.collections[-1].get_offsets()) == 6  # every node drawn


def test_plot_leaves_out_self_loops_and_a_crowd_of_documents() -> None:
    """Every column is as tall as the others, a state's edges to itself are not drawn (they
    were ellipses across the whole figure), and 31 documents are a note, not a column."""
    g = nx.MultiDiGraph([("r", "a"), ("r", "b"), ("a", "a"), ("a", "r")])
    nx.set_node_attributes(g, {"r": 0, "a": 1, "b": 1}, "depth")
    nx.set_node_attributes(g, {"r": "Home", "a": "About", "b": "Team"}, "label")
    for n in range(31):
        g.add_node(f"d{n}", kind="document")
        g.add_edge("b", f"d{n}")
    ax = analysis.plot(g)
    assert len(ax.collections[-1].get_offsets()) == 3  # the states only
    ys = [y for _, y in ax.collections[-1].get_offsets()]
    assert max(ys) == 1 and min(ys) == -1
    texts = [t.get_text() for t in ax.texts]
    assert {"Home", "About", "Team"} <= set(texts)
    assert "31 documents and out-of-scope pages not drawn" in texts
    assert len(ax.patches) == 3  # r -> a, r -> b, a -> r (an arc); no loop on a


class Markup(HTMLParser):
    """The elements and attributes of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def assert_inert(html: str) -> None:
    """Only the display's own markup: no script, no event handler, images from data only."""
    markup = Markup()
    markup.feed(html)
    for tag, attrs in markup.tags:
        assert tag in DISPLAY_TAGS, tag
        assert not [a for a in attrs if a.startswith("on")], attrs
        if tag == "img":
            assert re.match(r"data:image/(png|jpeg|webp);base64,", attrs["src"] or "")


def test_display_escapes_crawled_strings(tmp_path: Path) -> None:
    crawl = write_crawl(
        tmp_path,
        {
            "a": (f"http://h/?{HOSTILE}", "<p>A</p>", 0),
            "b": ("javascript:alert(3)", "<p>B</p>", 1),
        },
        [("a", "b", "k1", {**click(HOSTILE), "status": HOSTILE})],
        stats={"stop_reason": HOSTILE},
    )
    graph = crawl.graph
    graph.nodes["a"]["title"] = HOSTILE
    graph.nodes["b"]["failures"] = [{"name": HOSTILE, "error": HOSTILE}]
    graph.nodes["b"]["unreachable"] = True
    graph.nodes["b"]["unreachable_reason"] = HOSTILE
    StateGraph(graph).add_external(HOSTILE, "x1")
    graph.add_edge("b", "x1", key="k2", **click(HOSTILE))
    views = [crawl.state("a"), crawl.state("b")]
    for html in (crawl._repr_html_(), *(view._repr_html_() for view in views)):
        assert_inert(html)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert crawl._repr_html_().count("<img") == 2


def test_state_view(tmp_path: Path) -> None:
    crawl = write_crawl(
        tmp_path,
        {"a1": ("http://h/", "<p>A</p>", 0), "b1": ("http://h/b", "<p>B</p>", 1)},
        [("a1", "b1", "k1", click("Go")), ("b1", "b1", "k2", click("Stay"))],
    )
    view = crawl.state("b")
    assert (view.id, view.url, view.title, view.depth) == ("b1", "http://h/b", "title b1", 1)
    assert view.screenshot == tmp_path / "states" / "b1.png"
    assert view.html() == "<p>B</p>"
    assert [(t["source"], t["key"]) for t in view.in_actions] == [("a1", "k1")]
    assert [(t["target"], t["key"]) for t in view.out_actions] == [("b1", "k2")]
    (tmp_path / "states" / "a1.png").unlink()
    assert crawl.state("a1").screenshot is None
    assert "<img" not in crawl.state("a1")._repr_html_()
    with pytest.raises(StatecrawlError, match="no state"):
        crawl.state("")
    with pytest.raises(StatecrawlError, match="no state"):
        crawl.state("c")


# ---- real crawls ------------------------------------------------------------------------------


def test_reading_a_crawl_does_not_import_selenium(small_crawl: statecrawl.Crawl) -> None:
    code = (
        "import statecrawl, sys\n"
        f"crawl = statecrawl.load({str(small_crawl.path)!r})\n"
        "first = next(crawl.states())['id']\n"
        "statecrawl.analysis.summary(crawl); statecrawl.analysis.to_frames(crawl)\n"
        "crawl._repr_html_(); crawl.state(first)._repr_html_()\n"
        "statecrawl.analysis.replay_script(crawl, first)\n"
        "print('selenium' in sys.modules)\n"
        "statecrawl.crawl\n"
        "print('selenium' in sys.modules, callable(statecrawl.crawl))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["False", "True", "True"]


def test_analysis_of_a_real_crawl(small_crawl: statecrawl.Crawl) -> None:
    s = analysis.summary(small_crawl)
    assert (s["states"], s["transitions"], s["depths"]) == (21, 20, {0: 1, 1: 4, 2: 16})
    assert s["stop_reason"] == "finished"
    assert s["unreachable"] == {} and s["failures"] == 0
    assert analysis.dead_ends(small_crawl) == []  # depth-2 states were never explored
    assert len(analysis.strongly_connected_components(small_crawl)) == 21
    assert analysis.states_per_url(small_crawl) == {small_crawl.start_url: 21}
    found = analysis.find_states(small_crawl, "1.2")
    assert len(found) == 1
    assert small_crawl.state(found[0]).depth == 2
    steps = analysis.shortest_path(small_crawl, found[0])
    assert [s["step"] for s in steps] == ['click "child 1"', 'click "child 2"']
    states, transitions = analysis.to_frames(small_crawl)
    assert len(states) == 21 and len(transitions) == 20
    html = small_crawl._repr_html_()
    assert html.count("<img") == 6
    assert_inert(html)


def run_script(script: str, path: Path) -> subprocess.CompletedProcess[str]:
    path.write_text(script, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, check=False, timeout=60
    )


def test_replay_script_reaches_the_state(small_crawl: statecrawl.Crawl, tmp_path: Path) -> None:
    target = analysis.find_states(small_crawl, "3.0")[0]
    done = run_script(analysis.replay_script(small_crawl, target), tmp_path / "replay.py")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        'click "child 3"',
        'click "child 0"',
        f"reached state {target} at {small_crawl.start_url}",
    ]


FIND_PAGE = """<!DOCTYPE html>
<html><head><title>Find</title></head><body>
<form id="find"><input name="q" placeholder="Fruit"><button type="submit">Find</button></form>
<div id="out"></div>
<script>
const out = document.getElementById("out");
document.getElementById("find").addEventListener("submit", (event) => {
  event.preventDefault();
  const q = event.target.q.value;
  out.innerHTML = '<p>Results for <b></b></p><button type="button" id="open">Open</button>';
  out.querySelector("b").textContent = q;
  document.getElementById("open").addEventListener("click", () => {
    out.innerHTML = '<h2 id="detail"></h2>';
    out.querySelector("h2").textContent = "Detail of " + q;
  });
});
</script></body></html>"""


def test_replay_script_submits_form_values(site: Site, crawl, tmp_path: Path) -> None:
    site.html("/", FIND_PAGE)
    result = crawl(site.url("/"), max_depth=2, inputs={"values": {"q": ["apple", "pear"]}})
    [target] = analysis.find_states(result, "detail of pear")
    steps = analysis.shortest_path(result, target)
    assert [s["event"] for s in steps] == ["submit", "click"]
    assert "q=pear" in steps[0]["step"]
    done = run_script(analysis.replay_script(result, target), tmp_path / "replay.py")
    assert done.returncode == 0, done.stderr
    assert f"reached state {target}" in done.stdout
