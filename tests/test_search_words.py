"""Search boxes get words: without inputs, a search box (in a form, beside a button, or alone,
a live search) is sent with a few of the page's own words, the harvester's first queries, not
empty; and the default crawl records the graph of the exhaustive one."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug import Request, Response

import statecrawl
from statecrawl.harvest.queries import forms
from statecrawl.harvest.words import SEARCH_WORDS, search_actions
from statecrawl.state import Action
from statecrawl.testing import difference
from tests.conftest import Site, served

SEEDS = ("Brandywine tomato seeds", "Genovese basil seeds", "Sugar snap pea", "Scarlet runner bean",
         "Lemon cucumber seeds")

FORM_PAGE = """<!doctype html><title>Seed catalogue</title>
<h1>Seed catalogue</h1><p>Heirloom seeds for a small garden, sown by hand.</p>
<form action="/find" role="search"><input type="search" name="q" placeholder="Search seeds">
<button>Go</button></form><a href="/loose">the quick finder</a>"""

LOOSE_PAGE = """<!doctype html><title>Seed finder</title>
<h1>Seed finder</h1>
<div><input id="finder" placeholder="Find seeds"><button id="go">Go</button></div>
<ul id="out"><li>Type a word.</li></ul><a href="/live">search as you type</a>
<script>
const seeds = %s;
document.getElementById('go').addEventListener('click', () => {
  const word = document.getElementById('finder').value.trim().toLowerCase();
  const found = word ? seeds.filter((s) => s.toLowerCase().includes(word)) : [];
  document.getElementById('out').innerHTML = word
    ? found.map((s) => '<li class="hit">' + s + '</li>').join('') || '<li>No seed matches.</li>'
    : '<li>Enter a word.</li>';
});
</script>"""

LIVE_PAGE = """<!doctype html><title>Seed search</title>
<h1>Seed search</h1>
<p><label for="live">Seeds:</label> <input id="live" placeholder="Search as you type"></p>
<ul id="list"><li>Type a word.</li></ul>
<script>
const seeds = %s;
document.getElementById('live').addEventListener('input', (event) => {
  const word = event.target.value.trim().toLowerCase();
  const found = word ? seeds.filter((s) => s.toLowerCase().includes(word)) : [];
  document.getElementById('list').innerHTML =
    found.map((s) => '<li class="hit">' + s + '</li>').join('') || '<li>No seed matches.</li>';
});
</script>"""


def find(request: Request) -> Response:
    """The server's search: "enter a word" for an empty query, else the matching records."""
    word = request.args.get("q", "").strip().lower()
    if not word:
        body = "<p>Enter a word.</p>"
    else:
        hits = [s for s in SEEDS if word in s.lower()]
        body = "".join(f'<li class="hit">{html.escape(s)}</li>' for s in hits) or "<p>None.</p>"
    page = f"<!doctype html><title>Seed catalogue</title><h1>Seed catalogue</h1>{body}"
    return Response(page, content_type="text/html; charset=utf-8")


@pytest.fixture(scope="module")
def shop() -> Iterator[Site]:
    for site in served("127.0.0.1"):
        site.html("/", FORM_PAGE)
        site.html("/loose", LOOSE_PAGE % repr(list(SEEDS)).replace("'", '"'))
        site.html("/live", LIVE_PAGE % repr(list(SEEDS)).replace("'", '"'))
        site.handler("/find", find)
        yield site


@pytest.fixture(scope="module")
def crawls(shop: Site, tmp_path_factory: pytest.TempPathFactory) -> dict[str, statecrawl.Crawl]:
    out = tmp_path_factory.mktemp("words")
    return {
        name: statecrawl.crawl([shop.url("/")], out=out / name, archive={"enabled": False},
                               explore={"shortcuts": shortcuts})
        for name, shortcuts in (("default", True), ("exhaustive", False))
    }


def test_a_search_box_gets_the_page_words_and_reaches_results(crawls) -> None:
    hits = [s for s in crawls["default"].states()
            if 'class="hit"' in Path(crawls["default"].path, s["snapshot"]).read_text()]
    urls = {s["url"].split("/", 3)[-1] for s in hits}
    assert "find?q=seeds" in urls, urls  # the form's placeholder word
    assert any(u == "loose" for u in urls), urls  # the box beside a button, in the page
    assert any(u == "live" for u in urls), urls  # the box alone: typed into, then Enter


def test_a_lone_search_box_is_typed_into_under_the_agents_label() -> None:
    url = "http://127.0.0.1/live"
    page = LIVE_PAGE % "[]"
    typed = search_actions(page, url, (), seed=1)
    assert len(typed) == SEARCH_WORDS
    assert {(a.event, a.locator, a.label) for a in typed} == {("keydown:Enter", "#live", "seeds")}
    assert all(a.action == f"ENTER #live live={a.values[0][1]}" for a in typed)


def test_the_default_crawl_records_the_exhaustive_graph(crawls) -> None:
    assert difference(crawls["exhaustive"], crawls["default"]) is None


def test_words_are_few_the_same_each_time_and_none_for_given_values() -> None:
    url = "http://127.0.0.1/"
    first = search_actions(FORM_PAGE, url, (), seed=1)
    assert [a.values[0][1] for a in first] == ["seeds", "seed"]  # placeholder, then page
    assert len(first) == SEARCH_WORDS
    assert first == search_actions(FORM_PAGE, url, (), seed=1)
    box = first[0].values[0][0]
    given = Action("f", "visible", "submit", "GET /find q=tulip", kind="submit",
                   locator=first[0].locator, values=((box, "tulip"),))
    assert search_actions(FORM_PAGE, url, (given,), seed=1) == []
    plain = FORM_PAGE.replace('role="search"', "").replace('type="search" name="q"', 'name="n"')
    plain = plain.replace("Search seeds", "Name")
    assert forms(plain, url) and search_actions(plain, url, (), seed=1) == []
