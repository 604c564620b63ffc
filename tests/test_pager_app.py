"""Script pagination at one URL: a patent-search SPA whose "Next" depends on the query on show.

The app (``tests/pages/pager/``) shows the results of every query at one URL, fetched by XHR;
one "Next" button with one listener pages through whatever query is on show (it reads the
query from a script variable, not from the page), and a patent's detail opens on a hash route
beside the results, with the pager still working there. "Next" fired for one query says
nothing of where it leads for another, so a crawl must fire it for every query to reach
every page, and every detail and tab behind those pages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from werkzeug import Request, Response

from statecrawl.testing import difference, transitions
from tests.conftest import Site
from tests.pages.pager import patents

QUERIES = ("battery", "graphene")
PAGES = max(patents.pages(q, f) for q in QUERIES for f in patents.FIELDS)  # 3
# start -> search -> other field -> Next -> Next -> open a patent -> another tab
DEPTH = 1 + 1 + (PAGES - 1) + 1 + 1
COUNTS = (1, 2)  # browsers

MARKER = re.compile(r"\b(?:PAGE [a-z]+/[a-z]+/\d+|(?:DETAIL|ABSTRACT|CLAIMS|CITATIONS) US\d+B2)\b")


def serve(site: Site) -> None:
    """The app at /pager/, its script and style, and its JSON API, straight from ``patents``."""
    site.page("/pager/", "pager/index.html")
    for name, mimetype in (("app.js", "text/javascript"), ("style.css", "text/css")):
        text = (Path(__file__).parent / "pages" / "pager" / name).read_text(encoding="utf-8")
        site.handler(f"/pager/{name}", lambda _r, t=text, m=mimetype: Response(t, mimetype=m))

    def reply(data: object, status: int = 200) -> Response:
        return Response(json.dumps(data), status=status, content_type="application/json")

    def search(request: Request) -> Response:
        page = request.args.get("page", "1")
        q, field = request.args.get("q", ""), request.args.get("field", "title")
        return reply(patents.search(q, field, int(page) if page.isdigit() else 1))

    def patent(request: Request) -> Response:
        parts = request.path.removeprefix("/pager/api/patent/").split("/")
        part = parts[1] if len(parts) == 2 else None
        if part == "claims":
            found = patents.claims(parts[0])
        elif part == "citations":
            found = patents.citations(parts[0])
        else:
            found = patents.patent(parts[0]) if len(parts) == 1 else None
        return reply(found) if found else reply({"error": "no such patent"}, 404)

    site.handler("/pager/api/search", search)
    site.prefix("/pager/api/patent/", patent)


def content(html: str) -> frozenset[str]:
    """What a state shows: the markers of its results page, its detail and the detail's tab."""
    return frozenset(MARKER.findall(html))


def crawls(site: Site, crawl, tmp_path: Path, name: str, **options) -> dict[int, object]:
    """The app crawled with each browser count of ``COUNTS``, each into its own directory."""
    return {
        count: crawl(
            site.url("/pager/"),
            inputs={"values": {"Search patents": list(QUERIES)}},
            max_depth=DEPTH,
            browser={"count": count},
            out=tmp_path / f"{name}-{count}",
            **options,
        )
        for count in COUNTS
    }


def shown(result) -> set[str]:
    """Every marker some state of a crawl shows."""
    found: set[str] = set()
    for state in result.states():
        found |= content(result.html(state["id"]))
    return found


def check_coverage(results: dict[str, object]) -> None:
    """Every marker reached by every crawl (missing ones listed per crawl), and one set of
    state ids for all of them."""
    expected = patents.markers(QUERIES)
    assert len(expected) == 4 * PAGES + 4 * 23  # 12 results pages, 23 patents with 4 screens
    missing = {name: sorted(expected - shown(r)) for name, r in results.items()}
    assert not any(missing.values()), "markers not reached: " + "; ".join(
        f"{name}: {len(m)} of {len(expected)} {m}" for name, m in missing.items() if m
    )
    ids = {name: {s["id"] for s in r.states()} for name, r in results.items()}
    first, *others = ids
    for other in others:
        assert ids[first] == ids[other], (
            f"{len(ids[first] ^ ids[other])} state ids differ between {first} and {other}"
        )


def test_every_page_and_detail_with_any_browser_count(site: Site, crawl, tmp_path: Path) -> None:
    """Every results page of both queries in both fields, and every detail and tab behind
    them, with one browser and with two: the same state ids and transitions."""
    serve(site)
    results = crawls(site, crawl, tmp_path, "out")
    check_coverage({f"{n} browser(s)": r for n, r in results.items()})
    one, two = (transitions(results[n]) for n in COUNTS)
    assert one == two, f"{len(one ^ two)} transitions differ between 1 and 2 browsers"


def test_the_default_crawl_is_the_exhaustive_one(site: Site, crawl, tmp_path: Path) -> None:
    """Two levels deep (the first pages, page 2 and the details beside page 1: the
    exhaustive crawl reaches every state from the start page, so a deeper one takes long),
    the shortcuts give the graph of the crawl that takes none."""
    serve(site)
    options = {"inputs": {"values": {"Search patents": list(QUERIES)}}, "max_depth": 2}
    default = crawl(site.url("/pager/"), out=tmp_path / "default", **options)
    exhaustive = crawl(
        site.url("/pager/"), out=tmp_path / "exhaustive", explore={"shortcuts": False}, **options
    )
    why = difference(exhaustive, default)
    assert why is None, why
