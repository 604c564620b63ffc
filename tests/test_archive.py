"""ArchiveWriter: WARC files checked by warcio and cdxj-indexer, dedup, rolling, index, errors."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from warcio.archiveiterator import ArchiveIterator

from statecrawl.archive import ArchiveWriter, lost_captures, read_resources, warc
from statecrawl.browser.network import Exchange
from statecrawl.config import Archive
from statecrawl.directory.layout import THUMBNAIL
from statecrawl.errors import ArchiveError
from statecrawl.replay.index import ArchiveIndex
from tests.conftest import run_tool

STARTED = 1_800_000_000.25
INFO = {"software": "statecrawl/test", "config": {"start_urls": ["http://127.0.0.1:8000/"]}}
SITE = "http://127.0.0.1:8000"


def exchange(path: str, body: bytes | None = b"<p>hello</p>", **fields: Any) -> Exchange:
    """An exchange as NetworkCapture would return it, with sensible defaults."""
    mime = fields.pop("mime", "text/html")
    extra = fields.pop("headers", [])
    values: dict[str, Any] = {
        "request_id": f"id-{path}",
        "url": SITE + path,
        "request_headers": [("Host", "127.0.0.1:8000"), ("Accept", "*/*")],
        "status": 200,
        "status_text": "OK",
        "response_headers": [("Content-Type", mime), *extra],
        "body": body,
        "mime_type": mime,
        "resource_type": "Document",
        "started": STARTED,
    }
    values.update(fields)
    return Exchange(**values)


def digest(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def parse_warc(path: Path) -> list[dict[str, Any]]:
    """Split a WARC file by hand (no warcio): headers, block, and the HTTP payload if any."""
    data = gzip.decompress(path.read_bytes())
    records = []
    while data:
        head, data = data.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        assert lines[0] == "WARC/1.1"
        headers = dict(line.split(": ", 1) for line in lines[1:])
        length = int(headers["Content-Length"])
        block, trailer, data = data[:length], data[length : length + 4], data[length + 4 :]
        assert trailer == b"\r\n\r\n"
        http = headers["Content-Type"].startswith("application/http")
        http_head, _, payload = block.partition(b"\r\n\r\n") if http else (b"", b"", block)
        records.append({"headers": headers, "block": block, "http": http_head, "payload": payload})
    return records


def warc_files(out: Path) -> list[Path]:
    return sorted((out / "archive").iterdir())


def all_records(out: Path) -> list[dict[str, Any]]:
    return [record for path in warc_files(out) for record in parse_warc(path)]


def types(records: list[dict[str, Any]]) -> list[str]:
    return [record["headers"]["WARC-Type"] for record in records]


def http_headers(record: dict[str, Any]) -> tuple[str, dict[str, str]]:
    first, *rest = record["http"].decode().split("\r\n")
    return first, {k.lower(): v for k, v in (line.split(": ", 1) for line in rest)}


def test_files_pass_warcio_check_index_and_cdxj_indexer(tmp_path: Path) -> None:
    post = exchange(
        "/api/search?x=1",
        b'{"hits": 3}',
        method="POST",
        mime="application/json",
        request_body=b'{"query": "laser"}',
        request_headers=[("Content-Type", "application/json")],
        resource_type="XHR",
    )
    with ArchiveWriter(tmp_path, Archive(), INFO) as writer:
        writer.write_exchange(exchange("/"), "s1")
        writer.write_exchange(post, "s1")
        writer.write_exchange(exchange("/missing", b"gone", status=404, status_text="NOT FOUND"))
        writer.write_exchange(exchange("/", body=b"<p>hello</p>", started=STARTED + 5), "s2")
        writer.write_exchange(exchange("/x", None, body_error="No resource with given identifier"))
        writer.write_exchange(
            exchange("/down", None, status=0, failed="net::ERR_CONNECTION_REFUSED")
        )
        writer.write_state("s1", "k1", SITE + "/", "<html>s1</html>", [], b"\x89PNG", None, None)
    (path,) = warc_files(tmp_path)
    assert path.name.endswith(".warc.gz") and path.name.startswith("statecrawl-")

    check = run_tool("warcio", "check", "-v", str(path))
    assert check.returncode == 0, check.stdout + check.stderr
    assert "digest pass" in check.stdout and "failed" not in check.stdout

    index = run_tool("warcio", "index", "-f", "warc-type,warc-target-uri,http:status", str(path))
    assert index.returncode == 0, index.stderr
    listed = [json.loads(line) for line in index.stdout.splitlines()]
    assert [entry["warc-type"] for entry in listed] == [
        "warcinfo",
        *["response", "request"] * 3,
        *["revisit", "request"],
        *["response", "request"],
        *["request", "metadata"],
        *["resource", "metadata", "resource"],
    ]
    assert listed[5]["http:status"] == "404"

    cdxj = run_tool("cdxj-indexer", "--post-append", str(path))
    assert cdxj.returncode == 0, cdxj.stderr
    lines = cdxj.stdout.splitlines()
    urls = [json.loads(line.split(" ", 2)[2])["url"] for line in lines]
    assert urls == [  # responses, revisit, state records; not warcinfo, requests, failure notes
        *[SITE + "/", SITE + "/api/search?x=1", SITE + "/missing", SITE + "/", SITE + "/x"],
        *["urn:statecrawl:state:s1:snapshot", "urn:statecrawl:state:s1:frames",
          "urn:statecrawl:state:s1:screenshot"],
    ]
    assert lines[1].startswith("1,0,0,127:8000)/api/search?__wb_method=post&query=laser&x=1 ")


def test_request_and_response_carry_headers_and_digests(tmp_path: Path) -> None:
    body = b"body { color: red }"
    gzipped = exchange(
        "/style.css?v=2",
        body,
        mime="text/css",
        headers=[
            ("Content-Encoding", "gzip"),
            ("Transfer-Encoding", "chunked"),
            ("Content-Length", "999"),
            ("Set-Cookie", "a=1"),
            ("Set-Cookie", "b=2"),
        ],
        http_version="HTTP/2",
        status_text="",
        request_headers=[(":authority", "127.0.0.1:8000"), ("Accept", "text/css")],
        referrer=SITE + "/",
    )
    post = exchange("/api", b"{}", method="POST", request_body=b"q=laser&page=2")
    with ArchiveWriter(tmp_path, Archive(), INFO) as writer:
        writer.write_exchange(gzipped, "s7")
        writer.write_exchange(post)
    warcinfo, response, request, post_response, post_request = all_records(tmp_path)

    assert warcinfo["headers"]["WARC-Type"] == "warcinfo"
    assert b"software: statecrawl/test" in warcinfo["block"]
    assert b'config: {"start_urls": ["http://127.0.0.1:8000/"]}' in warcinfo["block"]

    headers = response["headers"]
    assert headers["WARC-Type"] == "response"
    assert headers["WARC-Target-URI"] == SITE + "/style.css?v=2"
    assert headers["WARC-Date"] == "2027-01-15T08:00:00.250000Z"
    assert datetime.fromisoformat(headers["WARC-Date"]) == datetime.fromtimestamp(STARTED, UTC)
    assert headers["WARC-Payload-Digest"] == digest(body)
    assert headers["WARC-Block-Digest"] == digest(response["block"])
    assert headers["Content-Type"] == "application/http; msgtype=response"
    assert headers["WARC-Statecrawl-State"] == "s7"
    assert response["payload"] == body
    status, fields = http_headers(response)
    assert status == "HTTP/1.1 200 OK"
    assert fields["content-length"] == str(len(body))
    assert "content-encoding" not in fields and "transfer-encoding" not in fields
    assert response["http"].count(b"Set-Cookie") == 2

    assert request["headers"]["WARC-Type"] == "request"
    assert request["headers"]["WARC-Concurrent-To"] == headers["WARC-Record-ID"]
    assert request["headers"]["WARC-Date"] == headers["WARC-Date"]
    assert request["headers"]["WARC-Block-Digest"] == digest(request["block"])
    line, fields = http_headers(request)
    assert line == "GET /style.css?v=2 HTTP/1.1"
    assert fields["host"] == "127.0.0.1:8000" and ":authority" not in fields

    assert post_request["payload"] == b"q=laser&page=2"
    assert post_request["headers"]["WARC-Payload-Digest"] == digest(b"q=laser&page=2")
    line, fields = http_headers(post_request)
    assert line == "POST /api HTTP/1.1" and fields["content-length"] == "14"
    assert post_response["payload"] == b"{}"


def test_missing_body_and_failure_are_written_not_dropped(tmp_path: Path) -> None:
    lost = exchange("/lost", None, body_error="No resource with given identifier found")
    failed = exchange("/down", None, status=0, failed="net::ERR_CONNECTION_REFUSED")
    failed.resource_type = "Fetch"
    with ArchiveWriter(tmp_path, Archive(), INFO) as writer:
        writer.write_exchange(lost)
        writer.write_exchange(failed)
    _, response, _, request, error = all_records(tmp_path)
    error_header = response["headers"]["WARC-Statecrawl-Body-Error"]
    assert error_header == "No resource with given identifier found"
    assert response["payload"] == b""
    assert http_headers(response)[1]["content-length"] == "0"
    assert request["headers"]["WARC-Type"] == "request"
    assert request["headers"]["WARC-Target-URI"] == SITE + "/down"
    assert error["headers"]["WARC-Type"] == "metadata"
    assert error["headers"]["WARC-Refers-To"] == request["headers"]["WARC-Record-ID"]
    assert b"error: net::ERR_CONNECTION_REFUSED" in error["block"]
    assert b"resource-type: Fetch" in error["block"]


def test_identical_payload_becomes_revisit_and_changed_payload_a_response(tmp_path: Path) -> None:
    with ArchiveWriter(tmp_path, Archive(), INFO) as writer:
        writer.write_exchange(exchange("/", b"A" * 100), "s1")
        writer.write_exchange(exchange("/", b"A" * 100, started=STARTED + 1), "s2")
        writer.write_exchange(exchange("/", b"B" * 50, started=STARTED + 2), "s3")
        writer.write_exchange(exchange("/other", b"A" * 100))
        writer.write_exchange(exchange("/", None, from_cache=True, started=STARTED + 3), "s4")
        stats = writer.stats
    records = all_records(tmp_path)
    assert types(records) == [
        "warcinfo",
        *["response", "request", "revisit", "request", "response", "request"],
        *["response", "request", "revisit", "request"],
    ]
    original, revisit, changed = records[1], records[3], records[5]
    assert revisit["headers"]["WARC-Profile"] == (
        "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
    )
    assert revisit["headers"]["WARC-Refers-To-Target-URI"] == SITE + "/"
    assert revisit["headers"]["WARC-Refers-To-Date"] == original["headers"]["WARC-Date"]
    assert revisit["headers"]["WARC-Refers-To"] == original["headers"]["WARC-Record-ID"]
    assert revisit["headers"]["WARC-Payload-Digest"] == digest(b"A" * 100)
    assert revisit["payload"] == b"" and http_headers(revisit)[0] == "HTTP/1.1 200 OK"
    assert changed["payload"] == b"B" * 50
    cached = records[9]  # a cache hit without a body revisits the latest capture of its URL
    assert cached["headers"]["WARC-Refers-To"] == changed["headers"]["WARC-Record-ID"]
    assert (stats.revisits, stats.skipped) == (2, 0)
    assert stats.unique_payload_bytes == 250
    assert stats.records == len(records)
    assert stats.bytes == sum(path.stat().st_size for path in warc_files(tmp_path))


def test_dedup_skip_writes_duplicates_once(tmp_path: Path) -> None:
    with ArchiveWriter(tmp_path, Archive(dedup="skip"), INFO) as writer:
        writer.write_exchange(exchange("/"), "s1")
        writer.write_exchange(exchange("/"), "s2")
        stats = writer.stats
    assert types(all_records(tmp_path)) == ["warcinfo", "response", "request"]
    assert (stats.skipped, stats.revisits) == (1, 0)
    (entry,) = read_resources(tmp_path)
    assert entry["states"] == ["s1", "s2"] and entry["captures"] == 2
    assert entry["skipped"] is None


def test_dedup_state_skips_duplicates_fetched_on_the_way_to_a_state(tmp_path: Path) -> None:
    """The default: a state that fetches an archived payload again gets a revisit; the resets
    and replays that fetch it again on the way to a known state (no state) write nothing,
    unless what they fetch is new."""
    with ArchiveWriter(tmp_path, Archive(), INFO) as writer:
        writer.write_exchange(exchange("/", b"A"), "s1")
        writer.write_exchange(exchange("/", b"A", started=STARTED + 1))
        writer.write_exchange(exchange("/", b"A", started=STARTED + 2), "s2")
        writer.write_exchange(exchange("/", b"B", started=STARTED + 3))
        stats = writer.stats
    records = all_records(tmp_path)
    assert types(records) == ["warcinfo", "response", "request", "revisit", "request",
                              "response", "request"]
    assert records[3]["headers"]["WARC-Statecrawl-State"] == "s2"
    assert records[5]["payload"] == b"B"
    assert (stats.skipped, stats.revisits) == (1, 1)


def test_seeded_payloads_become_revisits_in_a_later_session(tmp_path: Path) -> None:
    with ArchiveWriter(tmp_path, Archive(), INFO) as first:
        first.write_exchange(exchange("/"))
        seen = first.seen
    with ArchiveWriter(tmp_path, Archive(), INFO) as second:
        second.seed(seen)
        second.write_exchange(exchange("/", started=STARTED + 60), "s1")
    older, newer = warc_files(tmp_path)
    assert older.name.endswith("-00000.warc.gz") and newer.name.endswith("-00001.warc.gz")
    original = parse_warc(older)[1]
    revisit = parse_warc(newer)[1]
    assert revisit["headers"]["WARC-Type"] == "revisit"
    assert revisit["headers"]["WARC-Refers-To"] == original["headers"]["WARC-Record-ID"]
    assert revisit["headers"]["WARC-Refers-To-Date"] == original["headers"]["WARC-Date"]


def test_rolling_starts_new_files_each_with_warcinfo(tmp_path: Path) -> None:
    noise = random.Random(7)
    settings = Archive(roll_size=1_000_000, prefix="roll")
    writer = ArchiveWriter(tmp_path, settings, INFO)
    for number in range(5):  # two 600 kB exchanges fill a file
        writer.write_exchange(exchange(f"/blob{number}", noise.randbytes(600_000)))
    during = [path.name for path in warc_files(tmp_path)]
    assert (tmp_path / "resources.jsonl").exists()  # rewritten at each roll
    writer.close()
    after = warc_files(tmp_path)
    assert len(after) == 3
    assert [name.endswith(".warc.gz") for name in during] == [True, True, False]
    assert during[-1].endswith(".warc.gz.open")
    for number, path in enumerate(after):
        assert path.name.startswith("roll-") and path.name.endswith(f"-{number:05d}.warc.gz")
        records = parse_warc(path)
        assert records[0]["headers"]["WARC-Type"] == "warcinfo"
        assert records[0]["headers"]["WARC-Filename"] == path.name
        assert types(records)[1:] == ["response", "request"] * (2 if number < 2 else 1)
        assert run_tool("warcio", "check", str(path)).returncode == 0
    assert writer.files == after
    assert len(read_resources(tmp_path)) == 5


def test_open_file_of_a_killed_crawl_is_readable(tmp_path: Path) -> None:
    writer = ArchiveWriter(tmp_path, Archive(), INFO)
    for number in range(5):
        writer.write_exchange(exchange(f"/page{number}", f"<p>{number}".encode()), "s1")
    writer.write_state("s1", "k1", SITE + "/page0", "<p>0", [{"added": 1}], None, None, None)
    (path,) = warc_files(tmp_path)  # not closed: as a killed crawl leaves it
    assert path.name.endswith(".warc.gz.open")
    with path.open("rb") as stream:
        read = [(r.rec_type, r.content_stream().read()) for r in ArchiveIterator(stream)]
    assert len(read) == 1 + 5 * 2 + 2
    assert ("response", b"<p>4") in read
    assert run_tool("warcio", "check", str(path)).returncode == 0
    writer.close()
    assert [p.name for p in warc_files(tmp_path)] == [path.name.removesuffix(".open")]


def test_filtered_exchanges_are_recorded_as_skipped(tmp_path: Path) -> None:
    settings = Archive(
        exclude_types=("video/",), exclude_extensions=(".mp4",), max_record_size=1000
    )
    with ArchiveWriter(tmp_path, settings, INFO) as writer:
        writer.write_exchange(exchange("/clip.mp4", b"x", mime="application/octet-stream"))
        writer.write_exchange(exchange("/stream", b"x", mime="video/webm"))
        writer.write_exchange(exchange("/big.json", b"x" * 1001, mime="application/json"))
        writer.write_exchange(exchange("/small.json", b"x" * 1000, mime="application/json"))
        stats = writer.stats
    with ArchiveWriter(tmp_path / "text", Archive(include_types=("text/",)), INFO) as writer:
        writer.write_exchange(exchange("/pic.png", b"png", mime="image/png"))
        writer.write_exchange(exchange("/"))
    assert stats.skipped == 3
    uris = [r["headers"].get("WARC-Target-URI") for r in all_records(tmp_path)]
    assert uris == [None, SITE + "/small.json", SITE + "/small.json"]
    reasons = {entry["url"]: entry["skipped"] for entry in read_resources(tmp_path)}
    assert reasons == {
        SITE + "/clip.mp4": "extension .mp4 is excluded",
        SITE + "/stream": "type video/webm is excluded (video/)",
        SITE + "/big.json": "body of 1001 bytes exceeds max_record_size 1000",
        SITE + "/small.json": None,
    }
    text = {entry["url"]: entry["skipped"] for entry in read_resources(tmp_path / "text")}
    assert text == {SITE + "/pic.png": "type image/png is not in include_types", SITE + "/": None}


def test_resource_index_lists_types_states_and_referrers(tmp_path: Path) -> None:
    css = b"""/* url(commented.png) */
    @import "base.css";
    .logo { background: url( 'img/logo.png' ) } .x { background: url(data:image/gif;base64,AA) }
    .y { mask: url(#shape) } .z { background: url(https://cdn.example/bg.webp) }"""
    with ArchiveWriter(tmp_path, Archive(), INFO) as writer:
        writer.write_exchange(exchange("/", headers=[("ETag", '"v1"')]), "s1")
        writer.write_exchange(
            exchange(
                "/css/site.css",
                css,
                mime="text/css",
                resource_type="Stylesheet",
                referrer=SITE + "/",
                headers=[("Last-Modified", "Mon, 01 Jan 2029 00:00:00 GMT")],
            ),
            "s1",
        )
        writer.write_exchange(
            exchange(
                "/css/img/logo.png",
                b"png",
                mime="image/png",
                referrer=SITE + "/css/site.css",
            ),
            "s2",
        )
        writer.write_exchange(exchange("/css/img/logo.png", b"png", mime="image/png"), "s1")
    entries = {entry["url"]: entry for entry in read_resources(tmp_path)}
    page, sheet = entries[SITE + "/"], entries[SITE + "/css/site.css"]
    assert (page["status"], page["content_type"], page["etag"], page["size"]) == (
        200,
        "text/html",
        '"v1"',
        len(b"<p>hello</p>"),
    )
    assert sheet["last_modified"] == "Mon, 01 Jan 2029 00:00:00 GMT"
    assert sheet["referrers"] == [SITE + "/"] and sheet["states"] == ["s1"]
    logo = entries[SITE + "/css/img/logo.png"]
    assert logo["referrers"] == [SITE + "/css/site.css"]  # named by url() and sent as Referer
    assert logo["states"] == ["s2", "s1"] and logo["captures"] == 2 and logo["size"] == 3
    imported = entries[SITE + "/css/base.css"]
    assert imported["referrers"] == [SITE + "/css/site.css"] and imported["status"] is None
    assert entries["https://cdn.example/bg.webp"]["referrers"] == [SITE + "/css/site.css"]
    assert not [url for url in entries if "commented" in url or "data:" in url or "#" in url]


def test_state_records(tmp_path: Path) -> None:
    frames = [{"t": 12, "added": ["<li>US1</li>"]}]
    action = {"event": "click", "name": "#search"}
    with ArchiveWriter(tmp_path, Archive(screenshot_format="webp"), INFO) as writer:
        writer.write_state(
            "ab12", "key9", SITE + "/#q", "<html>é</html>", frames, b"WEBP", "00", action
        )
    with ArchiveWriter(tmp_path / "quiet", Archive(), INFO) as writer:
        writer.write_state("cd34", "key8", SITE + "/", "<html></html>", None, None, None, None)
    _, snapshot, details, screenshot = all_records(tmp_path)
    assert snapshot["headers"]["WARC-Type"] == "resource"
    assert snapshot["headers"]["WARC-Target-URI"] == "urn:statecrawl:state:ab12:snapshot"
    assert snapshot["headers"]["WARC-Statecrawl-URL"] == SITE + "/#q"
    assert snapshot["headers"]["Content-Type"] == "text/html; charset=utf-8"
    assert snapshot["headers"]["WARC-Statecrawl-State"] == "ab12"
    assert snapshot["headers"]["WARC-Statecrawl-Key"] == "key9"
    assert snapshot["payload"] == "<html>é</html>".encode()
    assert snapshot["headers"]["WARC-Block-Digest"] == digest(snapshot["payload"])
    assert details["headers"]["WARC-Type"] == "metadata"
    assert details["headers"]["WARC-Target-URI"] == "urn:statecrawl:state:ab12:frames"
    assert details["headers"]["Content-Type"] == "application/json"
    assert details["headers"]["WARC-Refers-To"] == snapshot["headers"]["WARC-Record-ID"]
    assert json.loads(details["payload"]) == {"parent": "00", "action": action, "frames": frames}
    assert screenshot["headers"]["WARC-Target-URI"] == "urn:statecrawl:state:ab12:screenshot"
    assert screenshot["headers"]["Content-Type"] == "image/webp"
    assert screenshot["payload"] == b"WEBP"
    assert types(all_records(tmp_path / "quiet")) == ["warcinfo", "resource", "metadata"]



def test_a_snapshot_is_read_under_its_page_url_in_old_and_new_archives(tmp_path: Path) -> None:
    """A state's DOM is archived under a URN of its own, so no replayer answers its page's
    URL with it; the page's URL is its own header. An archive written before that header
    (the snapshot under the page's URL) reads the same."""
    with ArchiveWriter(tmp_path / "new", Archive(), INFO) as writer:
        writer.write_state("ab12", "key9", SITE + "/#q", "<html></html>", None, None, None, None)
    old = tmp_path / "old" / "archive"
    old.mkdir(parents=True)
    tags = {"WARC-Statecrawl-State": "ab12", "WARC-Statecrawl-Key": "key9"}
    snapshot = warc.record(SITE + "/#q", "resource", b"<html></html>", tags, "text/html")
    (old / "old.warc.gz").write_bytes(warc.serialize([snapshot]))
    for crawl in ("new", "old"):
        found = ArchiveIndex(tmp_path / crawl).snapshots["ab12"]
        assert (found.url, found.key) == (SITE + "/#q", "key9"), crawl
    assert ArchiveIndex(tmp_path / "new").urls() == set()  # no capture of the page

def test_unwritable_directory_raises_archive_error(tmp_path: Path) -> None:
    blocker = tmp_path / "out"
    blocker.write_text("a file where the crawl directory should be")
    with pytest.raises(ArchiveError, match=r"cannot create archive directory .*out") as error:
        ArchiveWriter(blocker, Archive(), INFO)
    assert "\n" not in str(error.value)


def test_write_failure_raises_archive_error_and_keeps_earlier_records(tmp_path: Path) -> None:
    resource = pytest.importorskip("resource")
    writer = ArchiveWriter(tmp_path, Archive(), INFO)
    writer.write_exchange(exchange("/"))
    (path,) = warc_files(tmp_path)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    size = path.stat().st_size
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + 100, limits[1]))  # a "full disk"
    try:
        with pytest.raises(ArchiveError, match=f"cannot write WARC file {path}") as error:
            writer.write_exchange(exchange("/big", os.urandom(50_000)))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
    assert "\n" not in str(error.value)
    assert path.stat().st_size == size
    assert types(parse_warc(path)) == ["warcinfo", "response", "request"]
    writer.write_exchange(exchange("/after"))
    writer.close()
    assert run_tool("warcio", "check", str(warc_files(tmp_path)[0])).returncode == 0
    assert types(all_records(tmp_path))[-2:] == ["response", "request"]


# ---- a whole crawl, archived: real Chromium against a local XHR application -----------------

XHR_APP = """<!doctype html><html><head><title>Catalogue</title>
<link rel="stylesheet" href="/app.css"></head><body>
<nav id="nav"><button id="list">Items</button><button id="about">About</button></nav>
<main id="main"><p>Pick a section.</p></main>
<script src="/app.js"></script></body></html>"""

XHR_SCRIPT = """
const main = document.getElementById('main');
document.getElementById('about').addEventListener('click', () => {
  main.innerHTML = '<h2>About</h2><p>A small catalogue.</p>';
});
document.getElementById('list').addEventListener('click', () => {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', '/api/items');
  xhr.onload = () => {
    main.innerHTML = '<ul id="items"></ul>';
    for (const item of JSON.parse(xhr.responseText)) {
      const li = document.createElement('li');
      li.textContent = item.name;
      li.addEventListener('click', () => fetch('/api/detail', {
        method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({id: item.id}),
      }).then((r) => r.json()).then((d) => {
        main.innerHTML = '<article data-id="' + d.id + '"><h2>' + d.name + '</h2><p>'
          + d.text + '</p></article>';
      }));
      document.getElementById('items').appendChild(li);
    }
  };
  xhr.send();
});
"""

ITEMS = [{"id": i, "name": f"Item {i}", "text": f"Details of item {i}."} for i in range(1, 4)]


@pytest.fixture
def archived(site, crawl, tmp_path: Path):
    """Crawl the XHR app with the archive on; return the crawl and its directory."""
    from werkzeug import Response

    posted: list[bytes] = []

    def detail(request):
        posted.append(request.get_data())
        item = ITEMS[json.loads(request.get_data())["id"] - 1]
        return Response(json.dumps(item), content_type="application/json")

    site.html("/", XHR_APP)
    site.handler("/app.js", lambda r: Response(XHR_SCRIPT, content_type="text/javascript"))
    site.handler("/app.css", lambda r: Response(
        "body{background:url(/bg.png)} nav button{margin:4px}", content_type="text/css"))
    site.handler("/bg.png", lambda r: Response(PNG_1PX, content_type="image/png"))
    site.json("/api/items", [{"id": i["id"], "name": i["name"]} for i in ITEMS])
    site.handler("/api/detail", detail)
    out = tmp_path / "archived"
    archive = {"enabled": True, "screenshots": "all"}
    result = crawl(site.url("/"), out=out, archive=archive, max_depth=3)
    return result, out, posted


PNG_1PX = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9aw"
    "AAAABJRU5ErkJggg=="
)


def test_crawl_archive_is_valid_and_indexable(archived) -> None:
    _, out, _ = archived
    files = warc_files(out)
    assert files and all(f.name.endswith(".warc.gz") for f in files)
    for path in files:
        checked = run_tool("warcio", "check", "-v", str(path))
        assert checked.returncode == 0, checked.stdout + checked.stderr
        indexed = run_tool("cdxj-indexer", str(path))
        assert indexed.returncode == 0 and "/api/items" in indexed.stdout


def test_every_state_has_snapshot_frames_and_screenshot(archived) -> None:
    result, out, _ = archived
    records = all_records(out)
    states = {s["id"] for s in result.states()}
    assert len(states) == 1 + 2 + 3  # start, about, list, three details
    snapshots = {r["headers"]["WARC-Statecrawl-State"] for r in records
                 if r["headers"]["WARC-Type"] == "resource"
                 and r["headers"]["Content-Type"].startswith("text/html")}
    frames = {r["headers"]["WARC-Target-URI"] for r in records
              if r["headers"]["WARC-Type"] == "metadata"}
    shots = screenshot_records(out)
    assert snapshots == states
    assert frames == {f"urn:statecrawl:state:{s}:frames" for s in states}
    assert set(shots) == states
    default = Archive()
    for state in result.states():
        image = (out / state["screenshot"]).read_bytes()
        assert state["screenshot"] == f"states/{state['id']}.{default.screenshot_format}"
        assert shots[state["id"]]["headers"]["Content-Type"] == "image/webp"
        assert shots[state["id"]]["payload"] == image
        with Image.open(io.BytesIO(image)) as decoded:
            assert (decoded.format, decoded.size) == ("WEBP", (1280, 900))


def screenshot_records(out: Path) -> dict[str, dict[str, Any]]:
    """The screenshot records of a crawl's archive, by state id."""
    found = {}
    for record in all_records(out):
        uri = record["headers"].get("WARC-Target-URI", "")
        if uri.startswith("urn:statecrawl:state:") and uri.endswith(":screenshot"):
            found[uri.split(":")[3]] = record
    return found


TWO_PAGES = """<!doctype html><html><head><title>{name}</title></head><body>
<a href="{other}">other page</a>
<button onclick="document.getElementById('o').textContent = 'on'">switch</button>
<p id="o">off</p><p style="color:#c00;font:24px serif">page {name}</p></body></html>"""


@pytest.fixture
def two_pages(site) -> tuple[str, str]:
    """Two pages linking to each other, each with a switch: two states at each URL."""
    site.html("/", TWO_PAGES.format(name="one", other="/two"))
    site.html("/two", TWO_PAGES.format(name="two", other="/"))
    return site.url("/"), site.url("/two")


@pytest.mark.parametrize(("image_format", "decoded_as"),
                         [("png", "PNG"), ("jpeg", "JPEG"), ("webp", "WEBP")])
def test_screenshots_decode_in_their_format_at_the_viewport_size(
    two_pages, crawl, tmp_path: Path, image_format: str, decoded_as: str
) -> None:
    out = tmp_path / image_format
    archive = {"enabled": True, "screenshots": "all", "screenshot_format": image_format,
               "screenshot_quality": 50}
    viewport = {"window_width": 640, "window_height": 480}
    result = crawl(two_pages[0], out=out, archive=archive, browser=viewport)
    states = list(result.states())
    shots = screenshot_records(out)
    assert len(states) == 4 and set(shots) == {s["id"] for s in states}
    for state in states:
        assert state["screenshot"] == f"states/{state['id']}.{image_format}"
        image = (out / state["screenshot"]).read_bytes()
        assert shots[state["id"]]["payload"] == image
        assert shots[state["id"]]["headers"]["Content-Type"] == f"image/{image_format}"
        with Image.open(io.BytesIO(image)) as decoded:
            assert (decoded.format, decoded.size) == (decoded_as, (640, 480))
        assert result.state(state["id"]).screenshot == out / state["screenshot"]


def test_screenshots_new_url_takes_one_per_url_and_none_takes_none(
    two_pages, crawl, tmp_path: Path
) -> None:
    archive = {"enabled": True, "screenshots": "new-url"}
    result = crawl(two_pages[0], out=tmp_path / "new-url", archive=archive, browser={"count": 2})
    states = list(result.states())
    shot = [s for s in states if s.get("screenshot")]
    assert len(states) == 4
    assert sorted(s["url"] for s in shot) == sorted(two_pages)
    assert set(screenshot_records(tmp_path / "new-url")) == {s["id"] for s in shot}
    assert all(s["depth"] == min(t["depth"] for t in states if t["url"] == s["url"])
               for s in shot)  # breadth-first: the first state found at its URL
    files = [f.name for f in (tmp_path / "new-url" / "states").iterdir() if f.suffix != ".html"]
    assert len([f for f in files if not f.endswith(THUMBNAIL)]) == 2
    assert sorted(f for f in files if f.endswith(THUMBNAIL)) == sorted(  # thumbnails: every state
        f"{s['id']}.{THUMBNAIL}" for s in states)

    archive = {"enabled": True, "screenshots": "none"}
    result = crawl(two_pages[0], out=tmp_path / "none", archive=archive)
    assert len(list(result.states())) == 4
    assert not [s for s in result.states() if s.get("screenshot")]
    assert not screenshot_records(tmp_path / "none")
    names = [f.name for f in (tmp_path / "none" / "states").iterdir()]
    assert all(name.endswith((".html", THUMBNAIL)) for name in names)


def test_xhr_responses_and_post_bodies_are_archived(archived) -> None:
    result, out, posted = archived
    records = all_records(out)
    responses = {r["headers"]["WARC-Target-URI"]: r for r in records
                 if r["headers"]["WARC-Type"] == "response"}
    items = responses[result.start_url + "api/items"]
    assert json.loads(items["payload"]) == [{"id": i["id"], "name": i["name"]} for i in ITEMS]
    assert result.start_url + "bg.png" in responses  # referred to from CSS only
    requests = [r for r in records if r["headers"]["WARC-Type"] == "request"
                and r["headers"].get("WARC-Target-URI", "").endswith("/api/detail")]
    bodies = {r["payload"] for r in requests}
    assert {json.dumps({"id": i["id"]}, separators=(",", ":")).encode() for i in ITEMS} <= bodies
    assert posted  # the server really saw the POSTs
    details = [r for r in records if r["headers"].get("WARC-Target-URI", "").endswith("/api/detail")
               and r["headers"]["WARC-Type"] in ("response", "revisit")]
    assert len(details) >= len(ITEMS)
    index = {entry["url"]: entry for entry in read_resources(out)}
    assert index[result.start_url + "bg.png"]["referrers"] == [result.start_url + "app.css"]


@pytest.mark.parametrize("dedup", ["revisit", "state"])
def test_resets_do_not_duplicate_payloads(site, crawl, tmp_path: Path, dedup: str) -> None:
    site.page("/", "tree.html")
    out = tmp_path / "tree"
    archive = {"enabled": True, "dedup": dedup}
    result = crawl(site.url("/"), out=out, archive=archive, max_depth=2)
    assert result.stats["resets"] >= 10
    records = all_records(out)
    pages = [r for r in records if r["headers"].get("WARC-Target-URI") == site.url("/")]
    kinds = [r["headers"]["WARC-Type"] for r in pages]
    assert kinds.count("response") == 1  # loaded at every reset, stored once
    if dedup == "state":  # the page fetched again on the way to a state: nothing written
        assert kinds.count("revisit") == 1  # the root state's second load
        assert result.graph.graph["archive"]["skipped"] >= result.stats["resets"] - 1
        return
    assert kinds.count("revisit") >= result.stats["resets"] - 1
    revisit = next(r for r in pages if r["headers"]["WARC-Type"] == "revisit")
    assert revisit["headers"]["WARC-Profile"].endswith("identical-payload-digest")
    assert revisit["headers"]["WARC-Refers-To-Target-URI"] == site.url("/")
    stats = result.graph.graph["archive"]
    exchange_bytes = sum(len(r["block"]) for r in records
                         if r["headers"]["WARC-Type"] in ("request", "response", "revisit"))
    assert exchange_bytes < 3 * stats["unique_payload_bytes"] + 1500 * result.stats["resets"]


REPLAY = """
const [html, frames] = arguments;
const doc = new DOMParser().parseFromString(html, 'text/html');
const at = (path) => path.reduce((node, i) => node.childNodes[i], doc);
for (const frame of frames) {
  for (const op of frame.ops) {
    const node = at(op.p);
    if (op.k === 'html') node.innerHTML = op.v;
    else if (op.k === 'text') node.data = op.v;
    else if (op.v === null) node.removeAttribute(op.n);
    else node.setAttribute(op.n, op.v);
  }
}
return '<!DOCTYPE html>\\n' + doc.documentElement.outerHTML;
"""


def test_frames_replayed_over_parent_reproduce_child(archived) -> None:
    from statecrawl.browser import Browser
    from statecrawl.config import Config
    from statecrawl.models import DomModel
    from statecrawl.state import Snapshot

    result, out, _ = archived
    metadata = {
        r["headers"]["WARC-Target-URI"].split(":")[3]: json.loads(r["payload"])
        for r in all_records(out)
        if r["headers"]["WARC-Type"] == "metadata"
        and r["headers"]["WARC-Target-URI"].startswith("urn:statecrawl:state:")
    }  # (an exchange that failed, such as a favicon aborted by a navigation, has one too)
    volatile = frozenset(result.graph.graph["volatile"])
    key = DomModel().key
    checked = 0
    with Browser(Config(start_urls=(result.start_url,))) as browser:
        browser.web.get("about:blank")
        for state_id, meta in metadata.items():
            if meta["parent"] is None:
                continue
            replayed = browser.web.execute_script(REPLAY, result.html(meta["parent"]),
                                                  meta["frames"])
            assert key(Snapshot(url="", title="", html=replayed), volatile) == key(
                Snapshot(url="", title="", html=result.html(state_id)), volatile
            ), f"frames of {state_id} do not rebuild it"
            checked += 1
    assert checked == len(metadata) - 1


def test_a_crawl_killed_before_its_first_resource_index_lost_no_capture(tmp_path: Path) -> None:
    # (its states' records may still have been in the archive's spool: --resume archives
    # them again from states/, and must not fail for want of an index)
    assert lost_captures(tmp_path, []) == []


def test_a_redirect_archived_without_its_body_is_replayed(tmp_path: Path) -> None:
    """Chromium gives no body of a redirect to archive: its capture still answers, with its
    status and Location (a form's GET that the server redirects, as Datasette's filters)."""
    moved = exchange("/f?q=", None, status=302, status_text="Found", body_error="no body",
                     headers=[("Location", "/f")])  # fmt: skip
    with ArchiveWriter(tmp_path, Archive(), INFO) as writer:
        writer.write_exchange(moved, "ab12")
        writer.write_exchange(exchange("/gone", None, body_error="no body"), "ab12")
    index = ArchiveIndex(tmp_path)
    capture, _ = index.lookup("GET", SITE + "/f?q=")
    assert capture is not None and (capture.status, capture.header("Location")) == (302, "/f")
    assert index.payload(capture) == b""
    assert index.lookup("GET", SITE + "/gone")[0] is None  # a page with no body: a miss
