"""The resource index (``statecrawl.archive.index``): what each URL's last capture said."""

from __future__ import annotations

from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from statecrawl.archive.index import ResourceIndex
from statecrawl.archive.writer import ArchiveWriter
from statecrawl.browser.network import Exchange
from statecrawl.config import Archive
from tests.test_archive import INFO

URL = "http://127.0.0.1:8000/favicon.ico"


def test_a_response_left_before_its_body_is_no_failure(tmp_path: Path) -> None:
    """Chromium fetches a favicon after the page, and aborts it when the crawl goes on: the
    response came (a 404 here), so the resource did not fail; a failure with no response
    did, until a capture answers again."""
    index = ResourceIndex(tmp_path)
    entry = index.add(Exchange("1", URL, status=404, failed="net::ERR_ABORTED"), None)
    assert (entry["status"], entry["failed"]) == (404, None)
    assert index.add(Exchange("2", URL, failed="net::ERR_CONNECTION_RESET"), None)["failed"]
    assert index.add(Exchange("3", URL, status=404), None)["failed"] is None
    entry = index.add(Exchange("4", URL, failed="net::ERR_ABORTED"), None)  # no response
    assert (entry["captures"], entry["failed"]) == (4, "net::ERR_ABORTED")


def test_a_request_cancelled_before_any_answer_is_not_archived(tmp_path: Path) -> None:
    """An unchanged recrawl wrote error metadata for Chromium's favicon fetch, aborted as the
    crawl moved on: nothing was exchanged, so nothing is written (a failure still is)."""
    with ArchiveWriter(tmp_path, Archive(), INFO) as writer:
        writer.write_exchange(Exchange("1", URL, failed="net::ERR_ABORTED"))
        writer.write_exchange(Exchange("2", URL + "?x", failed="net::ERR_CONNECTION_RESET"))
    kinds = [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI"))
             for warc in tmp_path.rglob("*.warc.gz") for r in ArchiveIterator(warc.open("rb"))]
    assert ("metadata", URL + "?x") in kinds and all(uri != URL for _, uri in kinds)
