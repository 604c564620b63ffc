"""Tests of the patent-search demo app: pure data functions, the HTTP API and one browser run."""

from __future__ import annotations

import csv
import io
import json
import re
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from statecrawl.demo_app import DemoApp, data, documents
from statecrawl.demo_app.server import STATIC_DIR, api_delay
from tests.conftest import chrome_driver

# ---- pure data functions ----------------------------------------------------------------------


def test_generation_is_deterministic() -> None:
    assert data.generate() == data.generate()
    assert data.patents() == data.patents() == data.generate()
    assert data.generate(seed=1) != data.generate()


def test_corpus_shape() -> None:
    corpus = data.patents()
    numbers = [p["number"] for p in corpus]
    assert len(corpus) == data.COUNT == 300
    assert len(set(numbers)) == len(numbers)
    assert all(re.fullmatch(r"US\d{7,8}B[12]", n) for n in numbers)
    for patent in corpus:
        assert data.FIRST_YEAR <= patent["year"] <= data.LAST_YEAR
        assert 5 <= len(patent["citations"]) <= 25
        assert len(set(patent["citations"])) == len(patent["citations"])
        assert patent["number"] not in patent["citations"]
        assert set(patent["citations"]) <= set(numbers)
        assert len(patent["claims"]) >= 3
        assert patent["claims"][0].startswith(("A ", "An "))
        assert len(patent["description"]) >= 4
        assert patent["title"] and patent["abstract"] and patent["fields"]


def test_get_returns_copies_and_none_for_unknown() -> None:
    first = data.patents()[0]
    assert data.get(first["number"]) == first
    assert data.get(first["number"].lower()) == first
    assert data.get("US0000000B1") is None
    copy = data.get(first["number"])
    assert copy is not None
    copy["title"] = "changed"
    assert data.get(first["number"]) == first


@pytest.mark.parametrize("query", data.DEMO_QUERIES)
def test_demo_queries_span_two_or_three_pages(query: str) -> None:
    hits = data.search(query)
    assert 11 <= len(hits) <= 30
    assert data.page_count(len(hits)) in (2, 3)


def test_demo_query_count() -> None:
    assert 2 <= len(data.DEMO_QUERIES) <= 3


def test_search_matches_whole_words_case_insensitively() -> None:
    hits = data.search("Battery")
    assert hits == data.search("battery") == data.search("  BATTERY ")
    assert all("battery" in data.query_words(p["title"]) for p in hits)
    expected = [p for p in data.patents() if "battery" in data.query_words(p["title"])]
    assert {p["number"] for p in hits} == {p["number"] for p in expected}
    assert data.search("batter") == []
    assert data.search("") == data.search("  !! ") == []


def test_search_requires_every_word_and_sorts_newest_first() -> None:
    both = data.search("battery module")
    assert both
    assert {p["number"] for p in both} < {p["number"] for p in data.search("battery")}
    keys = [(-p["year"], int(p["number"][2:-2])) for p in data.search("model")]
    assert keys == sorted(keys)


def test_search_fields_and_years() -> None:
    in_claims = data.search("battery", field="claims")
    assert all("battery" in data.query_words(" ".join(p["claims"])) for p in in_claims)
    in_abstract = data.search("drone", field="abstract")
    assert all("drone" in data.query_words(p["abstract"]) for p in in_abstract)
    ranged = data.search("battery", year_from=2010, year_to=2015)
    assert ranged and all(2010 <= p["year"] <= 2015 for p in ranged)
    assert data.search("battery", year_from=2020, year_to=2010) == []
    with pytest.raises(ValueError):
        data.search("battery", field="description")


@pytest.mark.parametrize(
    ("total", "pages"), [(0, 1), (1, 1), (10, 1), (11, 2), (20, 2), (21, 3), (30, 3)]
)
def test_page_count(total: int, pages: int) -> None:
    assert data.PAGE_SIZE == 10
    assert data.page_count(total) == pages


def test_snippet_shows_the_match() -> None:
    patent = data.search("drone", field="claims")[0]
    text = data.snippet(patent, "drone", field="claims")
    assert "drone" in text.lower()
    assert len(text) <= 182
    assert data.snippet(patent, "drone").startswith(patent["abstract"][:40])


def test_revision_0_is_the_generated_corpus() -> None:
    assert data.patents(0) == data.patents() == data.generate()
    assert data.changes(0, 0) == {"changed": [], "cited": [], "added": [], "removed": []}
    with pytest.raises(ValueError, match="unknown revision 2"):
        data.patents(2)


def test_revision_1_changes_what_the_issue_says() -> None:
    changes = data.changes(0, 1)
    old, new = data.patents(0), data.patents(1)
    assert data.patents(1) == new  # deterministic
    assert len(changes["changed"]) == round(0.05 * len(old)) == 15
    assert len(changes["cited"]) == 1
    assert len(changes["added"]) == 2 and len(changes["removed"]) == 1
    assert data.changes(1, 0) == {
        "changed": changes["changed"],
        "cited": changes["cited"],
        "added": changes["removed"],
        "removed": changes["added"],
    }
    before = {p["number"]: p for p in old}
    after = {p["number"]: p for p in new}
    for number in changes["changed"]:  # the abstract only, and its last sentence only
        a, b = before[number], after[number]
        assert {k for k in a if a[k] != b[k]} == {"abstract"}
        assert a["abstract"].rsplit(". ", 1)[0] == b["abstract"].rsplit(". ", 1)[0]
    (cited,) = changes["cited"]
    assert set(after[cited]["citations"]) > set(before[cited]["citations"])
    assert len(after[cited]["citations"]) == len(before[cited]["citations"]) + 1
    (removed,) = changes["removed"]
    assert not any(removed in p["citations"] for p in new)  # nothing cites a missing patent
    for patent in new:
        assert set(patent["citations"]) <= set(after)


def test_revision_1_adds_and_removes_results_of_the_demo_queries() -> None:
    changes = data.changes(0, 1)
    added, removed = set(changes["added"]), set(changes["removed"])
    hits = {
        query: [[p["number"] for p in data.search(query, revision=r)] for r in (0, 1)]
        for query in data.DEMO_QUERIES
    }
    assert added <= {n for _, after in hits.values() for n in after}
    assert removed <= {n for before, _ in hits.values() for n in before}
    changed_hits = {n for before, _ in hits.values() for n in before} & set(changes["changed"])
    assert changed_hits  # some changed patents are reached by the demo's crawl
    for before, after in hits.values():
        # no result moves: a new patent takes the removed one's place or comes last
        kept = [n for n in before if n not in removed]
        assert [n for n in after if n not in added] == kept
        for number in added & set(after):
            assert after.index(number) == len(after) - 1 or before[after.index(number)] in removed


def test_api_delay_is_deterministic_and_bounded() -> None:
    delays = [api_delay(f"/api/search?q=x&page={n}") for n in range(200)]
    assert all(0.03 <= d <= 0.15 for d in delays)
    assert len(set(delays)) > 20
    assert api_delay("/api/patent/US1") == api_delay("/api/patent/US1")


# ---- HTTP API ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app() -> Iterator[DemoApp]:
    with DemoApp(latency=False) as running:
        yield running


def fetch(
    app: DemoApp, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` and return status, headers and body, also for error statuses."""
    request = urllib.request.Request(app.url.rstrip("/") + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers), error.read()


def fetch_json(app: DemoApp, path: str) -> tuple[int, Any]:
    status, headers, body = fetch(app, path)
    assert headers["Content-Type"] == "application/json; charset=utf-8"
    return status, json.loads(body)


def test_url_and_port(app: DemoApp) -> None:
    assert app.port > 0
    assert app.url == f"http://127.0.0.1:{app.port}/"


def test_search_pages(app: DemoApp) -> None:
    query = data.DEMO_QUERIES[0]
    expected = data.search(query)
    pages = data.page_count(len(expected))
    seen = []
    for page in range(1, pages + 1):
        status, body = fetch_json(app, f"/api/search?q={query}&field=title&from=&to=&page={page}")
        assert status == 200
        assert set(body) == {"total", "page", "pages", "results"}
        assert (body["total"], body["page"], body["pages"]) == (len(expected), page, pages)
        last_page_size = len(expected) - (pages - 1) * data.PAGE_SIZE
        assert len(body["results"]) == (data.PAGE_SIZE if page < pages else last_page_size)
        for result in body["results"]:
            assert set(result) == {"number", "title", "year", "snippet"}
        seen += [r["number"] for r in body["results"]]
    assert seen == [p["number"] for p in expected]


def test_search_defaults_and_filters(app: DemoApp) -> None:
    status, body = fetch_json(app, "/api/search?q=Battery")
    assert status == 200
    assert body["page"] == 1
    assert body["total"] == len(data.search("battery"))
    status, body = fetch_json(app, "/api/search?q=battery&field=claims&from=2010&to=2015")
    assert body["total"] == len(data.search("battery", "claims", 2010, 2015))
    assert all(2010 <= r["year"] <= 2015 for r in body["results"])
    status, body = fetch_json(app, "/api/search?q=zeppelin")
    assert (status, body["total"], body["pages"], body["results"]) == (200, 0, 1, [])


def test_patent_detail(app: DemoApp) -> None:
    patent = data.search(data.DEMO_QUERIES[1])[0]
    status, body = fetch_json(app, f"/api/patent/{patent['number']}")
    assert status == 200
    for key in ("number", "title", "abstract", "year", "claims", "description", "fields"):
        assert body[key] == patent[key]
    assert body["citation_count"] == len(patent["citations"])


def test_citations_paging(app: DemoApp) -> None:
    patent = max(data.patents(), key=lambda p: len(p["citations"]))
    collected: list[str] = []
    offset: int | None = 0
    while offset is not None:
        status, body = fetch_json(app, f"/api/patent/{patent['number']}/citations?offset={offset}")
        assert status == 200
        assert body["total"] == len(patent["citations"])
        assert 1 <= len(body["items"]) <= data.CITATIONS_PAGE
        for item in body["items"]:
            assert set(item) == {"number", "title", "year"}
        collected += [item["number"] for item in body["items"]]
        offset = body["next_offset"]
        assert offset is None or offset == len(collected)
    assert collected == patent["citations"]
    status, body = fetch_json(app, f"/api/patent/{patent['number']}/citations")
    assert body["offset"] == 0 and body["next_offset"] == data.CITATIONS_PAGE


@pytest.mark.parametrize(
    "path",
    [
        "/api/patent/US0000000B1",
        "/api/patent/US0000000B1/citations?offset=0",
        "/api/nothing",
        "/api/search/extra",
        "/api/",
    ],
)
def test_not_found_json(app: DemoApp, path: str) -> None:
    status, body = fetch_json(app, path)
    assert status == 404
    assert body["status"] == 404 and body["error"]


@pytest.mark.parametrize(
    "query",
    [
        "",
        "q=",
        "q=%21%21",
        "q=battery&field=description",
        "q=battery&page=0",
        "q=battery&page=abc",
        "q=battery&page=99",
        "q=battery&from=abc",
        "q=battery&to=20x",
        "q=battery&from=2020&to=2010",
    ],
)
def test_bad_search_params(app: DemoApp, query: str) -> None:
    status, body = fetch_json(app, f"/api/search?{query}")
    assert status == 400
    assert body["status"] == 400 and body["error"]
    assert "Traceback" not in body["error"]


@pytest.mark.parametrize("offset", ["-1", "x", "999"])
def test_bad_citation_offset(app: DemoApp, offset: str) -> None:
    number = data.patents()[0]["number"]
    status, body = fetch_json(app, f"/api/patent/{number}/citations?offset={offset}")
    assert status == 400 and body["error"]


def test_post_is_rejected_with_json(app: DemoApp) -> None:
    request = urllib.request.Request(app.url + "api/search?q=battery", data=b"", method="POST")
    with pytest.raises(urllib.error.HTTPError) as caught, urllib.request.urlopen(request):
        pass
    with caught.value as error:
        assert error.code == 405
        assert json.loads(error.read())["error"]


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        ("app.js", "text/javascript; charset=utf-8"),
        ("app.css", "text/css; charset=utf-8"),
        ("index.html", "text/html; charset=utf-8"),
        ("favicon.svg", "image/svg+xml"),
    ],
)
def test_static_files(app: DemoApp, name: str, content_type: str) -> None:
    status, headers, body = fetch(app, f"/static/{name}")
    assert status == 200
    assert headers["Content-Type"] == content_type
    assert headers["Last-Modified"].endswith(" GMT")
    assert body == (STATIC_DIR / name).read_bytes()
    status, _, body = fetch(app, f"/static/{name}", {"If-None-Match": headers["ETag"]})
    assert (status, body) == (304, b"")
    status, _, _ = fetch(app, f"/static/{name}", {"If-Modified-Since": headers["Last-Modified"]})
    assert status == 304


@pytest.mark.parametrize(
    "path", ["/static/missing.js", "/static/", "/static/..%2Fserver.py", "/static/.hidden", "/nope"]
)
def test_unknown_files_are_404(app: DemoApp, path: str) -> None:
    status, headers, _ = fetch(app, path)
    assert status == 404
    assert headers["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "path",
    ["/", "/search", "/search?q=battery&field=title&from=&to=&page=2", "/patent/US7091802B2"],
)
def test_app_routes_serve_the_shell(app: DemoApp, path: str) -> None:
    status, headers, body = fetch(app, path)
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert body == (STATIC_DIR / "index.html").read_bytes()
    assert b'<form id="search-form"' in body


def test_shell_matches_the_data_module() -> None:
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    for name in ("from", "to"):
        select = re.search(rf'<select[^>]*name="{name}".*?</select>', html, re.DOTALL)
        assert select is not None
        values = re.findall(r'<option value="(\d*)"', select.group(0))
        assert values == ["", *map(str, data.YEARS)]
    assert re.findall(r'data-q="(\w+)"', html) == list(data.DEMO_QUERIES)
    assert f"Search {data.COUNT} granted patents" in html


def test_revision_1_server_serves_the_added_patents_and_not_the_removed_one(app: DemoApp) -> None:
    changes = data.changes(0, 1)
    with DemoApp(latency=False, revision=1) as revised:
        for number in changes["added"]:
            status, body = fetch_json(revised, f"/api/patent/{number}")
            assert status == 200 and body["number"] == number
        (removed,) = changes["removed"]
        status, body = fetch_json(revised, f"/api/patent/{removed}")
        assert (status, body["error"]) == (404, f"no patent {removed!r}")
        for query in data.DEMO_QUERIES:
            _, body = fetch_json(revised, f"/api/search?q={query}")
            assert body["total"] == len(data.search(query, revision=1))
        (cited,) = changes["cited"]
        _, body = fetch_json(revised, f"/api/patent/{cited}/citations")
        assert body["total"] == len(data.get(cited, revision=1)["citations"])
    assert fetch_json(app, f"/api/patent/{removed}")[0] == 200  # revision 0 still has it
    with pytest.raises(ValueError, match="unknown revision 7"):
        DemoApp(revision=7)


def test_latency_and_stop() -> None:
    app = DemoApp(latency=True).start()
    path = "/api/patent/US0000000B1"
    started = time.monotonic()
    status, _, _ = fetch(app, path)
    assert status == 404
    assert time.monotonic() - started >= api_delay(path)
    app.stop()
    app.stop()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", app.port), timeout=2):
        pass


# ---- one real browser run ---------------------------------------------------------------------


def test_browser_smoke(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    query = data.DEMO_QUERIES[0]
    hits = data.search(query)
    with DemoApp() as app:
        driver = chrome_driver(tmp_path / "profile", **{"goog:loggingPrefs": {"browser": "ALL"}})
        try:
            wait = WebDriverWait(driver, 15)
            driver.get(app.url)
            box = wait.until(ec.element_to_be_clickable((By.NAME, "q")))
            assert box.get_attribute("placeholder") == "Search patents"
            box.send_keys(query)
            driver.find_element(By.CSS_SELECTOR, "#search-form button[type=submit]").click()
            wait.until(ec.text_to_be_present_in_element((By.ID, "result-count"), "page 1 of"))
            first_page = [
                e.get_attribute("data-number")
                for e in driver.find_elements(By.CSS_SELECTOR, "#result-list [data-action=open]")
            ]
            assert first_page == [p["number"] for p in hits[: data.PAGE_SIZE]]
            assert driver.current_url.endswith(f"/search?q={query}&field=title&from=&to=&page=1")

            driver.find_element(By.CSS_SELECTOR, ".page-next[data-action=page]").click()
            wait.until(ec.text_to_be_present_in_element((By.ID, "result-count"), "page 2 of"))
            assert driver.current_url.endswith("&page=2")
            current = driver.find_element(By.CSS_SELECTOR, "#pagination .is-current")
            assert current.text == "2" and current.get_attribute("data-action") is None

            index, target = next(
                (i, p)
                for i, p in enumerate(hits[data.PAGE_SIZE :])
                if len(p["citations"]) > data.CITATIONS_PAGE
            )
            driver.find_elements(By.CSS_SELECTOR, "#result-list [data-action=open]")[index].click()
            wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#patent .claims")))
            assert driver.current_url.endswith(f"/patent/{target['number']}")
            assert driver.find_element(By.CSS_SELECTOR, ".patent-title").text == target["title"]
            claims = driver.find_elements(By.CSS_SELECTOR, "#tab-panel .claim")
            assert len(claims) == len(target["claims"])

            driver.find_element(By.CSS_SELECTOR, "[data-action=tab][data-tab=citations]").click()
            more = wait.until(ec.element_to_be_clickable((By.ID, "load-more")))
            citations = driver.find_elements(By.CSS_SELECTOR, "#citation-list .citation")
            assert len(citations) == data.CITATIONS_PAGE
            more.click()
            wait.until(
                lambda d: (
                    len(d.find_elements(By.CSS_SELECTOR, "#citation-list .citation"))
                    == min(2 * data.CITATIONS_PAGE, len(target["citations"]))
                )
            )
            shown = [
                e.get_attribute("data-number")
                for e in driver.find_elements(By.CSS_SELECTOR, "#citation-list .citation")
            ]
            assert shown == target["citations"][: len(shown)]
            assert re.fullmatch(
                r"Server time: \d\d:\d\d:\d\d", driver.find_element(By.ID, "clock").text
            )
            severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            assert severe == []
        finally:
            driver.quit()


def test_patent_pdfs_are_valid_and_deterministic(app: DemoApp) -> None:
    patent = data.patents()[7]
    status, headers, body = fetch(app, f"/files/{patent['number']}.pdf")
    assert status == 200 and headers["Content-Type"] == "application/pdf"
    assert body == documents.patent_pdf(data.get(patent["number"]))  # the same bytes each time
    assert body.startswith(b"%PDF-1.4\n") and body.endswith(b"%%EOF\n")
    xref = int(re.search(rb"startxref\n(\d+)\n", body).group(1))
    assert body[xref:].startswith(b"xref\n0 6\n")
    offsets = [int(o) for o in re.findall(rb"(\d{10}) 00000 n ", body[xref:])]
    assert [body[o:].split(b"\n", 1)[0] for o in offsets] == [b"%d 0 obj" % n for n in range(1, 6)]
    length = int(re.search(rb"/Length (\d+)", body).group(1))
    stream = body.split(b"stream\n", 1)[1].split(b"\nendstream", 1)[0]
    assert len(stream) == length and patent["number"].encode() in stream
    assert fetch(app, "/files/US0000000X0.pdf")[0] == 404


def test_the_csv_export_is_an_attachment_of_every_result(app: DemoApp) -> None:
    query = data.DEMO_QUERIES[0]
    status, headers, body = fetch(app, f"/export.csv?q={query}&field=title&from=&to=")
    assert status == 200 and headers["Content-Type"] == "text/csv; charset=utf-8"
    assert headers["Content-Disposition"] == f'attachment; filename="patents-{query}.csv"'
    rows = list(csv.reader(io.StringIO(body.decode("utf-8"))))
    assert rows[0] == ["number", "title", "year", "fields", "pdf"]
    assert [row[0] for row in rows[1:]] == [p["number"] for p in data.search(query)]
    assert fetch(app, "/export.csv?q=")[0] == 400
