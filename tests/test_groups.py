"""The report's groups of states (statecrawl/report/groups.py): pure, no browser."""

from __future__ import annotations

from statecrawl.directory.graph import StateGraph
from statecrawl.models.dom import structure_digest
from statecrawl.report.builder import first_reached
from statecrawl.report.groups import Group, group_states, shape_name, url_patterns

HOST = "http://127.0.0.1:8000"


def test_url_patterns_replace_the_parts_that_vary() -> None:
    urls = [f"{HOST}/", f"{HOST}/about", f"{HOST}/help",
            *(f"{HOST}/item/{n}" for n in (7, 42, 1001)),
            *(f"{HOST}/find?q={q}&page={p}&sort=date" for q, p in (("a", 1), ("b", 2))),
            f"{HOST}/page1", f"{HOST}/page2", f"{HOST}/#/users/3/posts", f"{HOST}/#/users/9/posts"]
    assert url_patterns(urls) == [
        "/", "/about", "/help", "/item/*", "/item/*", "/item/*",
        "/find?q=*&page=*&sort=date", "/find?q=*&page=*&sort=date",
        "/*", "/*", "/#users/*/posts", "/#users/*/posts",
    ]


def test_a_short_pattern_keeps_the_query_items_that_vary() -> None:
    urls = [f"{HOST}/find?q={q}&page=1&sort=date" for q in "abc"]
    assert url_patterns(urls, short=True) == ["/find?q=*"] * 3
    assert url_patterns([f"{HOST}/find?sort=date"] * 2, short=True) == ["/find"] * 2


def test_digitless_segments_are_parameters_only_when_they_take_many_values() -> None:
    slugs = [f"{HOST}/blog/{word}" for word in ("alpha", "beta", "gamma", "delta")]
    assert set(url_patterns(slugs)) == set(u.removeprefix(HOST) for u in slugs)
    assert set(url_patterns([*slugs, f"{HOST}/blog/epsilon"])) == {"/blog/*"}


def test_the_host_is_named_only_when_hosts_differ() -> None:
    assert url_patterns(["http://a.test/x/1", "http://b.test/x/2"]) == [
        "a.test/x/1", "b.test/x/2"]


def test_states_of_a_pattern_or_a_structure_are_grouped() -> None:
    detail = structure_digest("<html><body><h1>t</h1><div class=claims></div></body></html>")
    alike = structure_digest("<html><body><main id=app><p>x</p></main></body></html>")
    urls = [f"{HOST}/", *(f"{HOST}/patent/US{n}B2" for n in range(4)), f"{HOST}/app",
            f"{HOST}/app", f"{HOST}/app", f"{HOST}/other", None]
    structures = [structure_digest("<p>home</p>"), detail, detail, None, structure_digest("<i>"),
                  alike, alike, structure_digest("<b>"), alike, alike]
    groups = group_states(urls, structures)
    # the patents by their pattern (whatever their structure); the app's states, and the
    # one at /other, by their shared structure; the out-of-scope node (no URL) never
    assert groups == [Group(name="/patent/*", members=(1, 2, 3, 4)),
                      Group(name="/app and 1 other URL", members=(5, 6, 8, 9))]
    assert group_states(urls, structures, min_size=5) == []


DOCS = [
    "/index.html", "/contents.html", "/glossary.html", "/about.html", "/bugs.html",
    *(f"/library/{m}.html" for m in ("os", "sys", "re", "json", "asyncio-task", "index")),
    *(f"/tutorial/{p}.html" for p in ("index", "introduction", "controlflow", "classes")),
    *(f"/whatsnew/{v}.html" for v in ("3.12", "3.11", "3.10")), "/whatsnew/index.html",
    *(f"/genindex-{c}.html" for c in "ABCDEFG"),
    "/c-api/index.html", "/c-api/intro.html", "/howto/index.html", "/faq/index.html",
    "/using/index.html", "/_sources/library/os.rst.txt", "/_sources/library/sys.rst.txt",
]


def test_a_docs_site_is_grouped_by_folder_and_named_by_path_shape() -> None:
    urls = [HOST + path for path in DOCS]
    groups = {g.name: [DOCS[n] for n in g.members] for g in group_states(urls, [None] * len(urls))}
    # a folder of pages of its own is no parameter: one group per folder, not "/*/*"
    assert groups == {
        "/*.html": [*DOCS[:5], *(f"/genindex-{c}.html" for c in "ABCDEFG")],
        "/library/*.html": DOCS[5:11],
        "/tutorial/*.html": DOCS[11:15],
        "/whatsnew/*.html": DOCS[15:19],
    }
    patterns = url_patterns(urls)
    assert patterns[DOCS.index("/c-api/intro.html")] == "/c-api/*.html"
    assert patterns[DOCS.index("/_sources/library/os.rst.txt")] == "/_sources/library/os.rst.txt"


def test_a_group_is_named_by_what_its_patterns_share() -> None:
    assert shape_name(["/patent/*"] * 3) == "/patent/*"
    assert shape_name(["/library/os.html", "/library/sys.html"]) == "/library/*.html"
    assert shape_name(["/library/os.html", "/tutorial/os.html"]) == "/*/os.html"
    assert shape_name(["/docs/a/x.html", "/docs/b.html"]) == "/docs/**/*.html"
    assert shape_name(["/docs/a/index.html", "/docs/index.html"]) == "/docs/**/index.html"
    assert shape_name(["/search?q=*&page=*", "/search?q=*"]) == "/search?q=*"
    assert shape_name(["/find?q=a", "/find?q=b", "/find?q=b"]) == "/find?q=*"
    assert shape_name(["/#users/*/posts", "/#users/*/likes"]) == "/#users/*/*"
    assert shape_name(["a.test/x/*", "a.test/x/*"]) == "a.test/x/*"
    assert shape_name(["a.test/x/*", "b.test/x/*"]) == "*/x/*"
    # nothing shared but a length: the most common and a count of the others
    assert shape_name(["/app", "/app", "/other", "/help"]) == "/app and 2 other URLs"
    assert shape_name([]) == "same structure"


def test_structure_digest_ignores_text_and_attribute_values() -> None:
    a = structure_digest("<div class='b a' title=x><p>one</p></div>")
    assert a == structure_digest("<div class='a b' title=y><p>two</p></div>")
    assert a != structure_digest("<div class='a b'><p>one</p><p>two</p></div>")


def test_first_reached_gives_a_forest_of_first_transitions() -> None:
    graph = StateGraph()
    for node, depth, found in (("a", 0, 0), ("b", 1, 2), ("c", 1, 1), ("d", 2, 3), ("x", 1, 4),
                               ("y", 1, 5)):
        graph.add_state(node, url=f"{HOST}/{node}", depth=depth, found_at=found)
    pairs = (("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "a"), ("x", "y"), ("y", "x"))
    for key, (source, target) in enumerate(pairs):
        graph.add_transition(source, target, f"k{key}", name="x", status="", event="click",
                             action="")
    nodes = list(graph.graph.nodes)
    parents = first_reached(graph.graph, nodes, {n: i for i, n in enumerate(nodes)})
    # d from c, found before b; x and y reach only each other: the loop is cut
    assert parents[:4] == [-1, 0, 0, 2]
    assert sorted(parents[4:]) == [-1, 4]
