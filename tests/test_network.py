"""NetworkCapture against a real headless Chromium and a local HTTP server on 127.0.0.1."""

from __future__ import annotations

import gzip
import json
import socket
import struct
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait
from warcio.archiveiterator import ArchiveIterator
from werkzeug import Request, Response

from statecrawl.archive import ArchiveWriter
from statecrawl.browser.network import Exchange, NetworkCapture
from statecrawl.config import Archive
from tests.conftest import chrome_driver


def png(red: int = 255) -> bytes:
    """A valid 2x2 PNG (Chrome returns no body for images it cannot decode)."""
    rows = b"".join(b"\x00" + bytes((red, 0, 0)) * 2 for _ in range(2))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    chrome = chrome_driver(
        tmp_path_factory.mktemp("profile"), **{"goog:loggingPrefs": {"performance": "ALL"}}
    )
    yield chrome
    chrome.quit()


@pytest.fixture
def server(httpserver: HTTPServer) -> HTTPServer:
    """The plugin's server (on 127.0.0.1, see conftest.py), with a quiet favicon."""
    httpserver.expect_request("/favicon.ico").respond_with_data("", status=404)
    return httpserver


@pytest.fixture
def capture(driver: webdriver.Chrome) -> NetworkCapture:
    """A fresh capture on a blank page with an empty cache; earlier events are discarded."""
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    network = NetworkCapture(driver)
    network.start()
    network.drain(final=True)
    return network


def collect(
    driver: webdriver.Chrome, capture: NetworkCapture, urls: set[str]
) -> dict[str, list[Exchange]]:
    """Drain until an exchange for every URL in ``urls`` has come out."""
    found: dict[str, list[Exchange]] = {}

    def complete(_: object) -> bool:
        for exchange in capture.drain():
            found.setdefault(exchange.url, []).append(exchange)
        return urls <= found.keys()

    WebDriverWait(driver, 10, poll_frequency=0.05).until(complete)
    return found


def wait_for(driver: webdriver.Chrome, script: str) -> None:
    WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda d: d.execute_script(script))


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_captures_every_exchange(
    driver: webdriver.Chrome, server: HTTPServer, capture: NetworkCapture
) -> None:
    nowhere = f"http://127.0.0.1:{closed_port()}/nowhere"
    page = (
        '<!doctype html><html><head><link rel="stylesheet" href="/style.css">'
        '<script src="/app.js"></script></head><body><img src="/pic.png">'
        '<img src="/broken.png"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
        "</body></html>"
    )
    css = 'body { background: url("bg.png") }'
    script = f"""
    window.addEventListener('load', async () => {{
      await (await fetch('/api/data.json')).json();
      await new Promise(done => {{
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/submit');
        xhr.setRequestHeader('Content-Type', 'application/json');
        xhr.onloadend = done;
        xhr.send(JSON.stringify({{query: 'laser', page: 2}}));
      }});
      await (await fetch('/redirect')).text();
      await (await fetch('/missing')).text();
      try {{ await fetch('{nowhere}'); }} catch (error) {{}}
      document.body.dataset.done = '1';
    }});
    """
    server.expect_request("/").respond_with_data(page, content_type="text/html")
    server.expect_request("/style.css").respond_with_data(
        css, content_type="text/css", headers={"Set-Cookie": "session=abc"}
    )
    server.expect_request("/app.js").respond_with_data(script, content_type="text/javascript")
    server.expect_request("/pic.png").respond_with_data(png(), content_type="image/png")
    server.expect_request("/bg.png").respond_with_data(png(0), content_type="image/png")
    server.expect_request("/broken.png").respond_with_data(b"not a png", content_type="image/png")
    server.expect_request("/api/data.json").respond_with_json({"patents": ["US1"]})
    server.expect_request("/api/submit", method="POST").respond_with_json({"ok": True})
    server.expect_request("/redirect").respond_with_data(
        "", status=302, headers={"Location": "/target"}
    )
    server.expect_request("/target").respond_with_data("arrived", content_type="text/plain")
    server.expect_request("/missing").respond_with_data("no such thing", status=404)

    url = server.url_for
    driver.get(url("/"))
    wait_for(driver, "return document.body.dataset.done === '1'")
    paths = ["/", "/style.css", "/app.js", "/pic.png", "/bg.png", "/broken.png"]
    paths += ["/api/data.json", "/api/submit", "/redirect", "/target", "/missing"]
    found = collect(driver, capture, {url(p) for p in paths} | {nowhere})
    one = {address: exchanges[0] for address, exchanges in found.items()}

    assert not [address for address in found if not address.startswith("http")]
    document = one[url("/")]
    assert (document.status, document.resource_type, document.mime_type) == (
        200,
        "Document",
        "text/html",
    )
    assert document.body == page.encode()
    assert document.request_header("Host") == f"127.0.0.1:{server.port}"
    assert document.started > 1_600_000_000 and document.http_version.startswith("HTTP/1.")

    stylesheet = one[url("/style.css")]
    assert stylesheet.body == css.encode() and stylesheet.resource_type == "Stylesheet"
    assert stylesheet.response_header("Set-Cookie") == "session=abc"
    assert stylesheet.referrer == url("/")
    assert one[url("/bg.png")].referrer == url("/style.css")
    assert one[url("/bg.png")].body == png(0)
    assert one[url("/app.js")].body == script.encode()
    image = one[url("/pic.png")]
    assert (image.body, image.resource_type, image.from_cache) == (png(), "Image", False)
    broken = one[url("/broken.png")]
    assert broken.body is None and "no body" in (broken.body_error or "")

    data = one[url("/api/data.json")]
    assert data.resource_type == "Fetch" and json.loads(data.body or b"") == {"patents": ["US1"]}
    assert data.response_header("content-type") == "application/json"
    assert data.request_header("Cookie") == "session=abc"
    post = one[url("/api/submit")]
    assert (post.method, post.resource_type, post.status) == ("POST", "XHR", 200)
    assert json.loads(post.request_body or b"") == {"query": "laser", "page": 2}
    assert post.request_header("Content-Type") == "application/json"
    assert json.loads(post.body or b"") == {"ok": True}

    redirect = one[url("/redirect")]
    assert redirect.status == 302 and redirect.response_header("Location") == "/target"
    assert redirect.body is None and redirect.body_error
    target = one[url("/target")]
    assert target.request_id == redirect.request_id and target.body == b"arrived"
    missing = one[url("/missing")]
    assert (missing.status, missing.body) == (404, b"no such thing")
    failed = one[nowhere]
    assert failed.status == 0 and failed.failed == "net::ERR_CONNECTION_REFUSED"
    assert failed.referrer == url("/")  # the Referer header: the document, not the script
    assert all(len(exchanges) == 1 for exchanges in found.values())


def blocking_handler(entered: threading.Event, release: threading.Event) -> object:
    def respond(_: Request) -> Response:
        entered.set()
        release.wait(10)
        return Response("late", content_type="text/plain")

    return respond


def serve_held_fetch(server: HTTPServer) -> tuple[threading.Event, threading.Event]:
    """Serve /wait, a page whose fetch of /slow is held until ``release`` is set."""
    entered, release = threading.Event(), threading.Event()
    server.expect_request("/slow").respond_with_handler(blocking_handler(entered, release))
    page = "<script>fetch('/slow').then(r => r.text()).then(t => document.title = t)</script>"
    server.expect_request("/wait").respond_with_data(page, content_type="text/html")
    return entered, release


def test_unfinished_request_comes_out_of_a_later_drain(
    driver: webdriver.Chrome, server: HTTPServer, capture: NetworkCapture
) -> None:
    entered, release = serve_held_fetch(server)
    try:
        driver.get(server.url_for("/wait"))
        assert entered.wait(10)
        first = collect(driver, capture, {server.url_for("/wait")})
        assert server.url_for("/slow") not in first
        assert capture.pending >= 1
    finally:
        release.set()
    wait_for(driver, "return document.title === 'late'")
    later = collect(driver, capture, {server.url_for("/slow")})
    assert later[server.url_for("/slow")][0].body == b"late"


def test_final_drain_returns_unfinished_requests(
    driver: webdriver.Chrome, server: HTTPServer, capture: NetworkCapture
) -> None:
    entered, release = serve_held_fetch(server)
    try:
        driver.get(server.url_for("/wait"))
        assert entered.wait(10)
        last = {ex.url: ex for ex in capture.drain(final=True)}
    finally:
        release.set()
    assert last[server.url_for("/slow")].failed == "not finished when the capture was drained"
    assert capture.pending == 0
    wait_for(driver, "return document.title === 'late'")
    driver.get("about:blank")
    assert server.url_for("/slow") not in {ex.url for ex in capture.drain()}


def test_cached_bodies_are_fetched_once(
    driver: webdriver.Chrome, server: HTTPServer, capture: NetworkCapture
) -> None:
    page = '<img src="/logo.png"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
    server.expect_request("/cached").respond_with_data(page, content_type="text/html")
    server.expect_request("/logo.png").respond_with_data(
        png(), content_type="image/png", headers={"Cache-Control": "max-age=600"}
    )
    logo = server.url_for("/logo.png")
    driver.get(server.url_for("/cached"))
    first = collect(driver, capture, {server.url_for("/cached"), logo})
    assert first[logo][0].body == png() and not first[logo][0].from_cache

    driver.get(server.url_for("/cached"))
    again = collect(driver, capture, {server.url_for("/cached"), logo})
    cached = again[logo][0]
    assert cached.from_cache and cached.status == 200
    assert cached.body is None and cached.body_error is None
    assert again[server.url_for("/cached")][0].body == page.encode()
    assert len(server.log) == 3  # the page twice, the image once
    assert not [url for url in {**first, **again} if url.startswith("data:")]


def test_body_lost_by_navigating_before_draining_is_reported(
    driver: webdriver.Chrome, server: HTTPServer, capture: NetworkCapture
) -> None:
    server.expect_request("/first").respond_with_data("<p>first", content_type="text/html")
    server.expect_request("/second").respond_with_data("<p>second", content_type="text/html")
    driver.get(server.url_for("/first"))
    driver.get(server.url_for("/second"))
    found = collect(driver, capture, {server.url_for("/first"), server.url_for("/second")})
    lost = found[server.url_for("/first")][0]
    assert lost.status == 200 and lost.body is None
    assert lost.body_error == "No resource with given identifier found"
    assert found[server.url_for("/second")][0].body == b"<p>second"


def test_captured_exchanges_archive_as_valid_warc(
    driver: webdriver.Chrome, server: HTTPServer, capture: NetworkCapture, tmp_path: Path
) -> None:
    text = "decoded text " * 50
    page = "<script>fetch('/zipped').then(r => r.text()).then(t => document.title = 'ok')</script>"
    server.expect_request("/zip").respond_with_data(page, content_type="text/html")
    server.expect_request("/zipped").respond_with_data(
        gzip.compress(text.encode()),
        content_type="text/plain",
        headers={"Content-Encoding": "gzip"},
    )
    driver.get(server.url_for("/zip"))
    wait_for(driver, "return document.title === 'ok'")
    found = collect(driver, capture, {server.url_for("/zip"), server.url_for("/zipped")})
    zipped = found[server.url_for("/zipped")][0]
    assert zipped.body == text.encode()  # CDP hands back the decoded body
    assert zipped.response_header("Content-Encoding") == "gzip"

    with ArchiveWriter(tmp_path, Archive(), {"software": "test"}) as writer:
        for exchanges in found.values():
            for exchange in exchanges:
                writer.write_exchange(exchange, "s1")
    (path,) = (tmp_path / "archive").iterdir()
    check = subprocess.run(
        [str(Path(sys.executable).parent / "warcio"), "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout
    with path.open("rb") as stream:
        payloads = {
            record.rec_headers.get_header("WARC-Target-URI"): record.content_stream().read()
            for record in ArchiveIterator(stream)
            if record.rec_type == "response"
        }
    assert payloads[server.url_for("/zipped")] == text.encode()
