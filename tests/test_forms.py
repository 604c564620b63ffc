"""Form handling against real pages in a real headless Chromium: typed values, submits,
enumerated selects, radios and checkboxes, scripted forms, pagination and the CLI's --input."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from werkzeug import Request, Response

import statecrawl
import statecrawl.cli
from tests.conftest import Site, labels

Crawler = Callable[..., statecrawl.Crawl]

SEARCH_FORM = """<!doctype html><title>search</title>
<form action="/results"><input name="q"><button>Search</button></form>"""

RESULTS = re.compile(r'<h1 id="results">([^<]*)</h1>')


def echo_results(request: Request) -> Response:
    """A results page that renders the query it was given (GET args or POST body)."""
    query = request.args if request.method == "GET" else request.form
    text = " ".join(f"{k}={v}" for k, v in sorted(query.items(multi=True)))
    body = f'<!doctype html><title>results</title><h1 id="results">{html.escape(text)}</h1>'
    return Response(body, content_type="text/html; charset=utf-8")


def edges_from(result: statecrawl.Crawl, source: str) -> list[dict[str, Any]]:
    """The transitions leaving ``source``, each with its action ``key``."""
    return [
        {"key": key, **data}
        for _, _, key, data in result.graph.out_edges(source, keys=True, data=True)
    ]


def start_id(result: statecrawl.Crawl) -> str:
    """The id of the start state (depth 0)."""
    (start,) = [s["id"] for s in result.states() if s["depth"] == 0]
    return start


def queries(site: Site, path: str) -> list[dict[str, list[str]]]:
    """The parsed query strings of the requests the server received for ``path``."""
    return [
        parse_qs(urlsplit(r).query, keep_blank_values=True)
        for r in site.requests
        if urlsplit(r).path == path
    ]


def test_get_form_each_value_requested_and_a_state(site: Site, crawl: Crawler) -> None:
    """A GET form submits each given value to its action URL; each result page is a state."""
    site.html("/", SEARCH_FORM)
    site.handler("/results", echo_results)
    result = crawl(site.url("/"), max_depth=1, inputs={"values": {"q": ["alpha", "beta"]}})
    assert "/results?q=alpha" in site.requests
    assert "/results?q=beta" in site.requests
    assert labels(result, RESULTS.pattern) == {"", "q=alpha", "q=beta"}
    submits = [t for t in result.transitions() if t["event"] == "submit"]
    assert len(submits) == 2


def test_post_form_body_received_and_in_the_action(site: Site, crawl: Crawler) -> None:
    """A POST form sends the typed value in its body once a submit; the edge names the value."""
    posted: list[dict[str, str]] = []

    def receive(request: Request) -> Response:
        if request.method == "POST":
            posted.append(dict(request.form))
        return echo_results(request)

    site.html("/", """<!doctype html><title>post</title>
<form method="post" action="/post"><input type="hidden" name="token" value="t1">
<input name="q"><input type="submit" value="Send"></form>""")
    site.handler("/post", receive)
    result = crawl(site.url("/"), max_depth=1, inputs={"values": {"q": ["alpha", "beta"]}})
    assert sorted(posted, key=lambda f: f["q"]) == [
        {"token": "t1", "q": "alpha"}, {"token": "t1", "q": "beta"}
    ]
    assert labels(result, RESULTS.pattern) == {"", "q=alpha token=t1", "q=beta token=t1"}
    actions = sorted(t["action"] for t in result.transitions() if t["event"] == "submit")
    assert len(actions) == 2
    assert all(a.startswith("POST ") for a in actions)
    assert "q=alpha" in actions[0] and "q=beta" in actions[1]


SCRIPTED = """<!doctype html><title>scripted</title>
<form id="search"><input name="q"><button type="submit">Go</button></form>
<ul id="hits"></ul>
<script>
document.getElementById('search').addEventListener('submit', (event) => {
  event.preventDefault();
  const q = event.target.elements.q.value;
  fetch('/api/search?q=' + encodeURIComponent(q)).then((r) => r.json()).then((data) => {
    document.getElementById('hits').innerHTML =
      data.hits.map((h) => '<li class="hit">' + h + '</li>').join('');
  });
});
</script>"""


def search_api(request: Request) -> Response:
    """JSON hits for a query: two made-up titles naming it."""
    q = request.args.get("q", "")
    hits = [f"{q} result {i}" for i in (1, 2)]
    return Response(json.dumps({"hits": hits}), content_type="application/json")


def test_scripted_submit_one_action_per_value(site: Site, crawl: Crawler) -> None:
    """A submit handled by script (preventDefault + fetch): typing and submitting is one
    action, one edge per value from the start state, each to its own state."""
    site.html("/", SCRIPTED)
    site.handler("/api/search", search_api)
    values = ["alpha", "beta", "gamma"]
    result = crawl(site.url("/"), max_depth=1, inputs={"values": {"q": values}})
    assert labels(result, r'<li class="hit">([^<]*) result 1<') == {"", *values}
    edges = edges_from(result, start_id(result))
    assert [t["event"] for t in edges] == ["submit"] * 3
    assert len({t["target"] for t in edges}) == 3
    assert len({t["key"] for t in edges}) == 3
    assert {f"/api/search?q={v}" for v in values} <= set(site.requests)


# A form library's way: the button is enabled on the render after the values were typed.
VALIDATED = SCRIPTED.replace('<button type="submit">', '<button type="submit" disabled>').replace(
    "<script>",
    """<script>
const q = document.querySelector('input[name=q]');
q.addEventListener('input', () => setTimeout(() => {
  document.querySelector('button').disabled = q.value.trim() === '';
}, 0));""",
)


def test_a_button_enabled_once_the_values_are_seen_is_pressed(site: Site, crawl: Crawler) -> None:
    """A submit button disabled until the page saw the typed values: the crawl presses it
    once the page settled after typing, each value to its own state."""
    site.html("/", VALIDATED)
    site.handler("/api/search", search_api)
    values = ["alpha", "beta"]
    result = crawl(site.url("/"), max_depth=1, inputs={"values": {"q": values}})
    assert labels(result, r'<li class="hit">([^<]*) result 1<') == {"", *values}
    assert {f"/api/search?q={v}" for v in values} <= set(site.requests)


def test_fields_matched_by_label_aria_label_and_placeholder(site: Site, crawl: Crawler) -> None:
    """A NAME matches a field's label text, its aria-label, or its placeholder."""
    site.html("/", """<!doctype html><title>match</title>
<form class="f" data-field="keyword"><label for="kw">Keyword</label><input id="kw">
  <button>Find</button></form>
<form class="f" data-field="inventor"><input aria-label="Inventor"><button>Find</button></form>
<form class="f" data-field="assignee"><input placeholder="Assignee"><button>Find</button></form>
<p id="out"></p>
<script>
for (const form of document.querySelectorAll('form.f')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    document.getElementById('out').textContent =
      form.dataset.field + '=' + form.querySelector('input').value;
  });
}
</script>""")
    result = crawl(site.url("/"), max_depth=1, inputs={
        "values": {"Keyword": ["k1"], "Inventor": ["i1"], "Assignee": ["a1"]},
    })
    assert labels(result, r'<p id="out">([^<]*)</p>') == {
        "", "keyword=k1", "inventor=i1", "assignee=a1"
    }
    edges = edges_from(result, start_id(result))
    assert sorted(t["event"] for t in edges) == ["submit"] * 3


ENUMERATED = """<!doctype html><title>enumerate</title>
<form action="/results">
  <select name="field"><option value="a">A</option><option value="b">B</option>
    <option value="c">C</option><option value="d">D</option></select>
  <label><input type="radio" name="kind" value="x" checked> X</label>
  <label><input type="radio" name="kind" value="y"> Y</label>
  <label><input type="radio" name="kind" value="z"> Z</label>
  <label><input type="checkbox" name="flag" value="on"> only granted</label>
  <button>Search</button>
</form>"""


def test_select_enumerated_up_to_max_options(site: Site, crawl: Crawler) -> None:
    """A select with 4 options is submitted with 3 of them at most, current option first."""
    site.html("/", ENUMERATED)
    site.handler("/results", echo_results)
    result = crawl(site.url("/"), max_depth=1, inputs={"max_options": 3})
    sent = queries(site, "/results")
    assert sorted({q["field"][0] for q in sent}) == ["a", "b", "c"]
    assert sum(q["field"] == ["b"] for q in sent) == 1
    assert sum(q["field"] == ["c"] for q in sent) == 1
    assert {"field=b", "field=c"} <= labels(result, r'<h1 id="results">(field=[bc])')


def test_radio_and_checkbox_enumerated(site: Site, crawl: Crawler) -> None:
    """Each radio of a group (up to ``max_options``) and both checkbox states are submitted,
    one field varied at a time around the first choices: a/x/off, +b, +c, +y, +z, +flag."""
    site.html("/", ENUMERATED)
    site.handler("/results", echo_results)
    result = crawl(site.url("/"), max_depth=1, inputs={"max_options": 3})
    sent = queries(site, "/results")
    assert sorted({q["kind"][0] for q in sent}) == ["x", "y", "z"]
    assert {"flag" in q for q in sent} == {True, False}
    assert len(sent) == 6
    assert sum(q == {"field": ["a"], "kind": ["x"]} for q in sent) == 1
    submits = [t for t in edges_from(result, start_id(result)) if t["event"] == "submit"]
    assert len(submits) == 6 and len({t["key"] for t in submits}) == 6
    assert len(result) == 7


def test_given_values_restrict_a_select(site: Site, crawl: Crawler) -> None:
    """``inputs.values`` naming a select restricts it to the given options."""
    site.html("/", ENUMERATED)
    site.handler("/results", echo_results)
    crawl(site.url("/"), max_depth=1, inputs={"max_options": 3, "values": {"field": ["c", "d"]}})
    assert {q["field"][0] for q in queries(site, "/results")} == {"c", "d"}


def test_text_without_value_left_alone_unless_default_text(
    site: Site, crawl: Crawler, tmp_path: Path
) -> None:
    """A text field with no given value is not typed into, unless ``default_text`` is set."""
    site.html("/", SEARCH_FORM)
    site.handler("/results", echo_results)
    result = crawl(site.url("/"), max_depth=1)
    assert not [t for t in result.transitions() if t["event"] == "submit"]
    assert not any("q=" in str(t["action"]) for t in result.transitions())
    assert all(q.get("q", [""]) == [""] for q in queries(site, "/results"))

    site.requests.clear()
    typed = crawl(site.url("/"), max_depth=1, out=tmp_path / "typed",
                  inputs={"default_text": "test"})
    submits = [t for t in typed.transitions() if t["event"] == "submit"]
    assert len(submits) == 1 and "q=test" in submits[0]["action"]
    assert "/results?q=test" in site.requests
    assert "q=test" in labels(typed, RESULTS.pattern)


PAGINATED = """<!doctype html><title>pages</title>
<ol id="list"><li>page 1 item</li></ol><p id="page">page 1 of 3</p>
<button id="next">Next</button>
<script>
let page = 1;
const next = document.getElementById('next');
next.addEventListener('click', () => {
  fetch('/api/page?n=' + (page + 1)).then((r) => r.json()).then((data) => {
    page = data.n;
    const items = data.items.map((i) => '<li>' + i + '</li>');
    document.getElementById('list').innerHTML = items.join('');
    document.getElementById('page').textContent = 'page ' + page + ' of 3';
    next.disabled = page >= 3;
  });
});
</script>"""


def test_next_button_fired_on_every_page(site: Site, crawl: Crawler) -> None:
    """'Next' has one label and one handler on every page, yet leads somewhere new from each."""

    def page(request: Request) -> Response:
        n = int(request.args["n"])
        data = {"n": n, "items": [f"page {n} item {i}" for i in (1, 2)]}
        return Response(json.dumps(data), content_type="application/json")

    site.html("/", PAGINATED)
    site.handler("/api/page", page)
    result = crawl(site.url("/"), max_depth=2)
    assert labels(result, r'<p id="page">page (\d) of 3</p>') == {"1", "2", "3"}
    nexts = [t for t in result.transitions() if "Next" in t["name"]]
    assert len(nexts) == 2
    assert len({t["source"] for t in nexts}) == 2 and len({t["target"] for t in nexts}) == 2
    assert not any(t.get("inferred") for t in nexts)


def test_cli_repeated_input_explores_each_value(site: Site, tmp_path: Path) -> None:
    """``--input q=alpha --input q=beta`` on the command line explores both values."""
    site.html("/", SEARCH_FORM)
    site.handler("/results", echo_results)
    out = tmp_path / "cli"
    status = statecrawl.cli.main([
        "crawl", site.url("/"), "--out", str(out), "--input", "q=alpha", "--input", "q=beta",
        "--no-archive", "-q", "--max-depth", "1",
    ])
    assert status == 0
    result = statecrawl.load(out)
    assert labels(result, RESULTS.pattern) == {"", "q=alpha", "q=beta"}
    data = json.loads((out / "graph.json").read_text())
    assert data["graph"]["config"]["inputs"]["values"] == {"q": ["alpha", "beta"]}
