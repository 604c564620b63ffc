"""Downloads: a link or a button whose response the browser saves is archived as a document
with its bytes, tied to the state that offered it by a download edge, and is never a state."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from warcio.archiveiterator import ArchiveIterator
from werkzeug import Request, Response

import statecrawl
from statecrawl.archive import DOWNLOAD_TAG
from statecrawl.archive.integrity import check
from statecrawl.browser import Browser
from statecrawl.browser.download import Downloads
from statecrawl.config import Archive, Config, Timing
from statecrawl.demo_app import DemoApp, data, documents
from statecrawl.directory.resources import read_resources
from statecrawl.export.static import export_static
from statecrawl.replay.index import ArchiveIndex
from tests.conftest import Site

PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
CSV = b"number,year\nUS1,2020\n"
BLOB = b"number,title\nUS1,Battery\nUS2,Drone\n"


def _records(result: statecrawl.Crawl) -> list[tuple[str, str, bytes, dict[str, str]]]:
    """(type, URL, payload, WARC headers) of every record of a crawl's archive."""
    found = []
    for path in sorted((result.path / "archive").glob("*.warc.gz")):
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                headers = dict(record.rec_headers.headers)
                found.append((record.rec_type, headers.get("WARC-Target-URI", ""),
                              record.content_stream().read(), headers))  # fmt: skip
    return found


def _serve(site: Site) -> None:
    site.page("/", "downloads.html")
    site.html("/about", "<html><body><h1>About</h1><a href='/'>Home</a></body></html>")
    site.handler("/report.pdf", lambda _r: Response(PDF, content_type="application/pdf"))
    site.handler("/table.csv", lambda _r: Response(CSV, content_type="text/csv", headers={
        "Content-Disposition": "attachment; filename=table.csv"}))  # fmt: skip


def test_links_and_a_blob_button_are_archived_documents(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    _serve(site)
    started = time.monotonic()
    result = crawl(site.url("/"), max_depth=1, archive={"thumbnails": False})
    took = time.monotonic() - started
    graph = result.graph
    states = [n for n, k in graph.nodes(data="kind") if k == "state"]
    assert len(states) == 2, [graph.nodes[n]["url"] for n in states]  # the page and /about
    documents = {d["filename"]: d for n, d in graph.nodes(data=True) if d["kind"] == "document"}
    assert set(documents) == {"report.pdf", "table.csv", "export.csv"}
    assert documents["report.pdf"]["content_type"] == "application/pdf"
    assert documents["report.pdf"]["size"] == len(PDF)
    assert documents["export.csv"]["size"] == len(BLOB)
    start = next(n for n in states if graph.nodes[n]["url"] == site.url("/"))
    edges = [(s, d) for s, t, d in graph.edges(data=True) if d.get("download")]
    assert len(edges) == 3 and all(s == start for s, _ in edges)
    assert {d["event"] for _, d in edges} == {"click"}
    archived = {(kind, url): (body, headers) for kind, url, body, headers in _records(result)}
    body, headers = archived["response", site.url("/report.pdf")]
    assert body == PDF and headers[DOWNLOAD_TAG] == "report.pdf"
    assert archived["response", site.url("/table.csv")][0] == CSV
    blobs = [(k, b, h[DOWNLOAD_TAG]) for (k, u), (b, h) in archived.items() if "blob:" in u]
    assert blobs == [("resource", BLOB, "export.csv")]
    rows = {row["url"]: row for row in read_resources(result.path)}
    assert rows[site.url("/report.pdf")]["download"] == "report.pdf"
    assert rows[site.url("/report.pdf")]["size"] == len(PDF)
    assert result.stats["documents"] == 3
    assert check(result.path).problems == []  # each document's record is where its row says
    assert took < 30, f"the crawl took {took:.1f}s: a download hung it"


def test_at_the_depth_limit_only_links_to_documents_are_loaded(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    """A state at the depth limit gets its PDF archived (a document is no state beyond the
    limit); a ``.pdf`` link that shows a page adds no state, and a plain link is not loaded."""
    names = ("report.pdf", "notes.pdf", "about")
    links = "".join(f"<a href='/{name}'>{name}</a> " for name in names)
    site.html("/", f"<html><body><h1>Papers</h1>{links}</body></html>")
    site.handler("/report.pdf", lambda _r: Response(PDF, content_type="application/pdf"))
    site.html("/notes.pdf", "<html><body><h1>Notes, as a page</h1></body></html>")
    site.html("/about", "<html><body><h1>About</h1></body></html>")
    result = crawl(site.url("/"), max_depth=0, archive={"thumbnails": False})
    graph = result.graph
    assert [d["url"] for _, d in graph.nodes(data=True) if d["kind"] == "state"] == [site.url("/")]
    documents = [d["filename"] for _, d in graph.nodes(data=True) if d["kind"] == "document"]
    assert documents == ["report.pdf"]
    assert "/notes.pdf" in site.requests and "/about" not in site.requests
    assert result.stats["failures"] == 0


def _broken(_request: Request) -> Response:
    """An attachment whose connection breaks after its first kilobyte, every time."""

    def body() -> Any:
        yield b"x" * 1000
        raise ConnectionError("the server went away")

    headers = {"Content-Disposition": "attachment; filename=broken.zip", "Content-Length": "100000"}
    return Response(body(), content_type="application/zip", headers=headers)


def test_an_attachment_over_the_cap_is_skipped_and_a_broken_one_failed(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    site.html("/", "<html><body><a href='/big.zip'>All data</a> <a href='/broken.zip'>Broken</a>"
                   "</body></html>")  # fmt: skip
    big = b"z" * 3_000_000
    site.handler("/big.zip", lambda _r: Response(big, content_type="application/zip", headers={
        "Content-Disposition": "attachment; filename=all.zip"}))  # fmt: skip
    site.handler("/broken.zip", _broken)
    archive = {"thumbnails": False, "max_download": 1_000_000}
    result = crawl(site.url("/"), max_depth=1, archive=archive)
    graph = result.graph
    assert [k for _, k in graph.nodes(data="kind")].count("state") == 1
    documents = {d["filename"]: d for _, d in graph.nodes(data=True) if d["kind"] == "document"}
    assert documents["all.zip"]["skipped"].endswith("exceeds archive.max_download 1000000")
    assert documents["all.zip"]["size"] == len(big)
    assert "stopped after" in documents["broken.zip"]["failed"]
    rows = {row["url"]: row for row in read_resources(result.path)}
    assert rows[site.url("/big.zip")]["skipped"] == documents["all.zip"]["skipped"]
    assert rows[site.url("/big.zip")]["size"] == len(big)
    assert rows[site.url("/broken.zip")]["failed"] == documents["broken.zip"]["failed"]
    archived = {(kind, url) for kind, url, _, _ in _records(result)}
    assert ("response", site.url("/big.zip")) not in archived
    assert ("response", site.url("/broken.zip")) not in archived
    assert ("metadata", site.url("/broken.zip")) in archived  # the failure, as for any exchange


def test_the_demo_pdf_is_served_by_the_static_export(tmp_path: Path) -> None:
    with DemoApp(latency=False) as app:
        patent = data.patents()[3]
        pdf_url = f"{app.url}files/{patent['number']}.pdf"
        # the detail page alone: its search form and its links home are left out
        result = statecrawl.crawl(f"{app.url}patent/{patent['number']}", out=tmp_path / "out",
                                  max_depth=1, archive={"thumbnails": False},
                                  inputs={"max_options": 1},
                                  scope={"exclude": [r"/search", r"/$"]})  # fmt: skip
        expected = documents.patent_pdf(data.get(patent["number"]))
    (document,) = [d for _, d in result.graph.nodes(data=True) if d["kind"] == "document"]
    assert document["url"] == pdf_url and document["size"] == len(expected)
    assert ArchiveIndex(result.path).resource(pdf_url) == ("application/pdf", expected)
    export_static(result.path, tmp_path / "static")
    pages = [p.read_text(encoding="utf-8") for p in (tmp_path / "static" / "states").iterdir()]
    links = {m for page in pages for m in re.findall(r'href="(\.\./assets/[^"]+\.pdf)"', page)}
    assert len(links) == 1
    saved = (tmp_path / "static" / "states" / links.pop()).resolve()
    assert saved.read_bytes() == expected


def test_without_the_archive_a_download_is_still_a_document(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    """No network capture, so no log of downloads: the saved file itself tells the load was a
    download, named by the link's URL."""
    site.html("/", "<html><body><a href='/report.pdf'>Report</a></body></html>")
    site.handler("/report.pdf", lambda _r: Response(PDF, content_type="application/pdf"))
    result = crawl(site.url("/"), max_depth=1)  # the fixture's default: no archive
    kinds = dict(result.graph.nodes(data="kind"))
    assert sorted(kinds.values()) == ["document", "state"]
    (document,) = [d for _, d in result.graph.nodes(data=True) if d["kind"] == "document"]
    assert document["url"] == site.url("/report.pdf") and document["size"] == len(PDF)
    assert document["content_type"] == "application/pdf"


def _serve_exports(site: Site) -> None:
    """A results page whose export form posts to the server and whose Report button's
    script sets ``location``: both navigations turn into downloads."""
    site.html("/", """<html><body><h1>Results</h1>
      <form method="post" action="/export"><input type="hidden" name="q" value="battery">
      <button>Export CSV</button></form>
      <button id="pdf" onclick="location.href = '/report.pdf?download=1'">Report</button>
      </body></html>""")
    site.handler("/export", lambda _r: Response(CSV, content_type="text/csv", headers={
        "Content-Disposition": "attachment; filename=results.csv"}))  # fmt: skip
    site.handler("/report.pdf", lambda _r: Response(PDF, content_type="application/pdf", headers={
        "Content-Disposition": "attachment; filename=report.pdf"}))  # fmt: skip


def test_a_form_and_a_script_whose_navigation_turns_into_a_download(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    """Each navigation turns into a download, the page stays where it was, and the crawl
    goes on from it at once (it waited out the load timeout, then recorded a failure and no
    document)."""
    _serve_exports(site)
    result = crawl(site.url("/"), max_depth=1, archive={"thumbnails": False},
                   timing={"load_timeout": 20})  # fmt: skip
    graph = result.graph
    assert [k for _, k in graph.nodes(data="kind")].count("state") == 1
    documents = {d["filename"]: d for _, d in graph.nodes(data=True) if d["kind"] == "document"}
    assert set(documents) == {"results.csv", "report.pdf"}
    assert documents["results.csv"]["size"] == len(CSV)
    assert result.stats["failures"] == 0
    archived = {(kind, url): body for kind, url, body, _ in _records(result)}
    assert archived["response", site.url("/report.pdf?download=1")] == PDF


def test_without_the_archive_a_navigation_turned_download_is_named_by_its_url(
    site: Site, crawl: Callable[..., statecrawl.Crawl]
) -> None:
    _serve_exports(site)
    result = crawl(site.url("/"), max_depth=1, timing={"load_timeout": 20})
    documents = [d for _, d in result.graph.nodes(data=True) if d["kind"] == "document"]
    urls = {d["url"] for d in documents}
    assert urls == {site.url("/export"), site.url("/report.pdf?download=1")}
    assert {d["size"] for d in documents} == {len(CSV), len(PDF)}
    assert result.stats["failures"] == 0



def test_the_page_tells_of_a_download_it_asked_for(site: Site) -> None:
    """The browser may begin a script's download after the page settled: the snapshot names
    the downloads the page asked for, and the browser waits for them."""
    _serve(site)
    with Browser(Config(start_urls=(site.url("/"),), archive=Archive(thumbnails=False))) as browser:
        (export,) = [a for a in browser.load(site.url("/")).actions() if a.label == "Export as CSV"]
        after = browser.fire(export)
    assert [(url.split(":", 1)[0], name) for url, name in after.saving] == [("blob", "export.csv")]
    assert [(d["filename"], d["size"]) for d in after.downloads] == [("export.csv", len(BLOB))]


def test_a_broken_download_link_is_a_failed_document_not_a_load_timeout(site: Site) -> None:
    """A ``download`` link whose server answers 404: with the log, the browser begins the
    download and cancels it; with no log, it begins none, and the crawl waits for it only
    until the settle timeout (it waited out the load timeout and recorded nothing)."""
    site.html("/", "<html><body><a href='/missing.csv' download=table.csv>Table</a></body></html>")
    timing = Timing(settle_timeout_ms=1000, load_timeout=60)
    for archived in (False, True):
        config = Config(start_urls=(site.url("/"),), timing=timing,
                        archive=Archive(enabled=archived, thumbnails=False))  # fmt: skip
        with Browser(config, capture_network=archived) as browser:
            (link,) = browser.load(site.url("/")).actions()
            (document,) = browser.fire(link).downloads
        assert (document["url"], document["filename"]) == (site.url("/missing.csv"), "table.csv")
        assert document["digest"] is None and document["failed"], document
        if not archived:
            assert document["failed"] == "the browser began no download within 1000 ms"
            assert document["content_type"] == "text/csv"


def test_a_download_asked_for_that_never_began_is_a_failed_document(tmp_path: Path) -> None:
    downloads = Downloads(tmp_path, Archive())
    asked = [["http://h/report", "report.pdf"], ["blob:http://h/1", ""]]
    documents = downloads.take([], "never began", asked=asked)
    assert [(d["filename"], d["content_type"], d["failed"]) for d in documents] == [
        ("report.pdf", "application/pdf", "never began"),
        ("1", "application/octet-stream", "never began"),
    ]
    assert downloads.take([], None, asked=asked) == []  # (nothing failed: nothing to say)


def test_a_download_asked_for_is_waited_for_until_it_shows(tmp_path: Path) -> None:
    """Asked for (or begun), a download ends only once the log named it or, with no log, its
    file is in the folder; not asked for, an empty folder has nothing to wait for."""
    downloads = Downloads(tmp_path, Archive())
    assert downloads.ended(logged=True) and downloads.ended(logged=False)
    assert not downloads.ended(logged=True, begun=True)
    assert not downloads.ended(logged=False, begun=True)
    (tmp_path / "guid-1").write_bytes(BLOB)
    assert downloads.ended(logged=False, begun=True)
    assert not downloads.ended(logged=True, begun=True)  # a file the log has not named yet
    downloads.update([("guid-1", {"url": "blob:x", "suggestedFilename": "export.csv"})])
    assert not downloads.ended(logged=True, begun=True)  # named, still going
    downloads.update([("guid-1", {"state": "completed", "receivedBytes": len(BLOB)})])
    assert downloads.ended(logged=True, begun=True)
