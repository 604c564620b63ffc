"""Deep-web acceptance: an independently written book-search SPA is crawled to full coverage.

The app (``tests/pages/search/``) has an unnamed query field known only by its placeholder, no
``<form>``, XHR results with Prev/Next, details behind per-card listeners and tabs behind one
delegated listener, and never changes its URL: every state is reached by replaying actions.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from werkzeug import Request, Response

from tests.conftest import Site
from tests.pages.search import catalogue

QUERIES = ("winter", "Lindqvist")  # 7 books (2 pages) and 13 books (3 pages), none shared
TABS = ("summary", "editions", "reviews")
# start -> search -> Next -> Next -> open a book -> another tab
DEPTH = 1 + (max(catalogue.expected(q)[0] for q in QUERIES) - 1) + 1 + 1

Content = tuple[str, str, str]  # ("results", query, page) or ("book", id, tab)


def serve(site: Site) -> None:
    """The app at /search/ and its JSON API, straight from the catalogue module."""
    site.page("/search/", "search/index.html")

    def reply(data: object, status: int = 200) -> Response:
        return Response(json.dumps(data), status=status, content_type="application/json")

    def find(request: Request) -> Response:
        page = request.args.get("page", "1")
        return reply(catalogue.find(request.args.get("q", ""), int(page) if page.isdigit() else 1))

    def book(request: Request) -> Response:
        found = catalogue.book(request.path.rsplit("/", 1)[-1])
        return reply(found) if found else reply({"error": "no such book"}, 404)

    site.handler("/search/api/find", find)
    site.prefix("/search/api/book/", book)


def content(html: str) -> Content | None:
    """What a state shows: a book's detail with its open tab, a results page, or neither."""
    book = re.search(r'<article class="book" data-book="(b\d+)"', html)
    if book:
        tab = re.search(r'<div class="panel" data-shown="(\w+)"', html)
        on = re.findall(r'<li data-tab="(\w+)" class="on">', html)
        assert tab and on == [tab.group(1)], "the open tab and the panel disagree"
        return ("book", book.group(1), tab.group(1))
    query = re.search(r'<p class="count">\d+ books match <q>([^<]*)</q>', html)
    where = re.search(r'<span class="where">Page (\d+) of \d+</span>', html)
    if query and where:
        return ("results", query.group(1), where.group(1))
    return None


def test_book_search_full_coverage(site: Site, crawl, tmp_path) -> None:
    """Every screen, once, with one browser and with three: the same state ids."""
    serve(site)
    results = [
        crawl(
            site.url("/search/"),
            inputs={"values": {"Title or author": list(QUERIES)}},
            max_depth=DEPTH,
            browser={"count": count},
            out=tmp_path / f"out-{count}",
        )
        for count in (1, 3)
    ]
    for result in results:
        check_coverage(result)
    one, three = ({s["id"] for s in r.states()} for r in results)
    assert one == three, f"{len(one ^ three)} ids differ between one browser and three"


def check_coverage(result) -> None:
    """Every results page and every book tab reached, each exactly once."""
    expected: set[Content] = set()
    for q in QUERIES:
        pages, ids = catalogue.expected(q)
        expected |= {("results", q, str(p)) for p in range(1, pages + 1)}
        expected |= {("book", i, t) for i in ids for t in TABS}
    assert len(expected) == 2 + 3 + (7 + 13) * 3

    htmls = {s["id"]: result.html(s["id"]) for s in result.states()}
    shown = {sid: content(html) for sid, html in htmls.items()}
    found = Counter(c for c in shown.values() if c is not None)

    missing = sorted(expected - set(found))
    assert not missing, f"{len(missing)} of {len(expected)} states not reached: {missing}"
    assert set(found) == expected  # nothing from another query, page or book
    assert len(set(htmls.values())) == len(htmls)  # no two states with the same DOM
    assert result.stats["unreachable"] == 0
    doubled = sorted(c for c, n in found.items() if n > 1)
    assert not doubled, (
        f"{len(doubled)} screens recorded as {sum(found[c] for c in doubled)} states "
        f"({len(result)} states in all), e.g. {doubled[:3]}"
    )
    assert len(result) <= 2 * len(expected) + 1, f"state blow-up: {len(result)} states"
