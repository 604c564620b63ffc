"""Offline replay: crawls whose servers are stopped, played back from their archives alone.

The demo app and two test apps are crawled, their servers stopped, then ``statecrawl verify``
replays every state in a real Chromium whose proxy is the replay server: the fidelity must
be at least 95 %. A replayed state looks like its recorded screenshot; out-of-scope URLs, HTTPS
tunnels and unknown requests are refused and logged; no socket leaves loopback.
"""

from __future__ import annotations

import http.client
import io
import json
import shutil
import signal
import socket
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops
from werkzeug import Response

import statecrawl
from statecrawl.analysis import shortest_path
from statecrawl.archive import ArchiveWriter
from statecrawl.browser import Browser
from statecrawl.browser.network import Exchange
from statecrawl.cli import main
from statecrawl.config import Archive
from statecrawl.demo_app import DemoApp
from statecrawl.replay import ArchiveIndex, ReplayServer, verify
from statecrawl.replay.fidelity import replay_config
from tests.conftest import BIN, PAGES, Site, crawl_demo, drop_records, error_line, serving
from tests.test_search_app import serve as serve_search

MIN_FIDELITY = 0.95


@pytest.fixture(scope="module")
def demo_crawl(tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    """The demo app crawled to depth 2 with one query; the app is stopped afterwards."""
    with DemoApp(latency=False) as app:
        return crawl_demo(app, tmp_path_factory.mktemp("demo"))


def crawl_stopped(out: Path, setup: Any, path: str, **options: Any) -> statecrawl.Crawl:
    """Serve a test app, crawl it into ``out``, stop its server."""
    with serving("127.0.0.1") as server:
        site = Site(server)
        setup(site)
        return statecrawl.crawl(site.url(path), out=out, **options)


def serve_router(site: Site) -> None:
    for route in ("", "a", "b", "c"):
        site.page(f"/router/{route}", "router.html")
    for name, payload in json.loads((PAGES / "router_api.json").read_text()).items():
        site.json(f"/router/api/{name}", payload)


@pytest.fixture(scope="module")
def router_crawl(tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    return crawl_stopped(tmp_path_factory.mktemp("router"), serve_router, "/router/")


@pytest.fixture(scope="module")
def search_crawl(tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    return crawl_stopped(
        tmp_path_factory.mktemp("search"),
        serve_search,
        "/search/",
        max_depth=2,
        inputs={"values": {"Title or author": ["winter"]}},
    )


@pytest.fixture
def no_outside_sockets(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Fail any connection this process opens to an address outside loopback."""
    tried: list[Any] = []
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else ""
        if host and not (host.startswith("127.") or host in ("::1", "localhost")):
            tried.append(address)
            raise OSError(f"test: no connection outside loopback ({address})")
        return connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    yield tried


def test_demo_app_fidelity_through_the_cli(
    demo_crawl: statecrawl.Crawl, capsys: pytest.CaptureFixture[str], no_outside_sockets: list
) -> None:
    assert len(demo_crawl) >= 20
    assert main(["verify", str(demo_crawl.path), "--min-fidelity", str(MIN_FIDELITY)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("replay fidelity ")
    reproduced, total = (int(n) for n in out.split(": ")[1].split(" states")[0].split(" of "))
    assert total == len(demo_crawl) and reproduced / total >= MIN_FIDELITY, out
    assert not no_outside_sockets


@pytest.mark.parametrize("name", ["router_crawl", "search_crawl"])
def test_test_app_fidelity(name: str, request: pytest.FixtureRequest) -> None:
    crawl: statecrawl.Crawl = request.getfixturevalue(name)
    result = verify(crawl.path)
    assert len(result.checks) == len(crawl) >= 4
    assert result.fidelity >= MIN_FIDELITY, result.report()


def pixel_difference(recorded: bytes, replayed: bytes) -> float:
    """The fraction of pixels that differ by more than a little in some channel."""
    a = Image.open(io.BytesIO(recorded)).convert("RGB")
    b = Image.open(io.BytesIO(replayed)).convert("RGB")
    assert a.size == b.size
    mask = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return sum(mask.histogram()[255:]) / (a.size[0] * a.size[1])


def test_replayed_states_look_like_their_screenshots(demo_crawl: statecrawl.Crawl) -> None:
    """The deepest state with a screenshot, driven live through the replay proxy, and its
    recorded view on the landing page, both look like the screenshot taken during the crawl."""
    deepest = max((s for s in demo_crawl.states() if s["screenshot"]), key=lambda s: s["depth"])
    recorded = (demo_crawl.path / deepest["screenshot"]).read_bytes()
    with ReplayServer(demo_crawl.path) as server:
        config = replay_config(demo_crawl, server)
        with Browser(config) as browser:
            browser.volatile = list(demo_crawl.graph.graph["volatile"])
            steps = shortest_path(demo_crawl, deepest["id"])
            snapshot = browser.reset(demo_crawl.graph.nodes[steps[0]["source"]]["url"])
            for step in steps:
                action = next(a for a in snapshot.actions() if a.key == step["key"])
                snapshot = browser.fire(action)
            settings = demo_crawl.config.archive  # each shot taken as the crawl took its own
            shot = (settings.screenshot_format, settings.quality)
            assert pixel_difference(recorded, browser.screenshot(*shot)) < 0.02
            browser.load(f"{server.url}state/{deepest['id']}")
            assert pixel_difference(recorded, browser.screenshot(*shot)) < 0.05
        assert server.served > 0
        with urllib.request.urlopen(server.url, timeout=10) as landing:
            listed = landing.read().decode()
        assert all(f"/state/{s['id']}" in listed for s in demo_crawl.states())


def fetch(proxy: str, url: str, method: str = "GET") -> tuple[int, bytes]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": proxy}))
    try:
        with opener.open(urllib.request.Request(url, method=method), timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_unknown_out_of_scope_and_https_requests_are_refused_and_logged(
    tmp_path: Path, other_site: Site, no_outside_sockets: list
) -> None:
    other_site.html("/pixel", "<p>elsewhere</p>")

    def page(site: Site) -> None:
        site.html(
            "/",
            f'<title>t</title><img src="{other_site.url("/pixel")}"><button id="b" '
            "onclick=\"fetch('/api/n').then(r => r.text()).then(t => "
            "document.getElementById('o').textContent = t)\">go</button><p id=o></p>",
        )
        site.handler("/api/n", lambda _r: Response("42", content_type="text/plain"))

    crawl = crawl_stopped(tmp_path / "out", page, "/")
    assert len(crawl) == 2
    origin = crawl.start_url.rstrip("/")
    with ReplayServer(crawl.path) as server:
        proxy = f"http://127.0.0.1:{server.port}"
        assert fetch(proxy, origin + "/api/n") == (200, b"42")
        assert fetch(proxy, origin + "/api/n", "POST")[0] == 404
        assert fetch(proxy, origin + "/api/n", "HEAD") == (200, b"")
        assert fetch(proxy, origin + "/never")[0] == 404
        assert fetch(proxy, other_site.url("/pixel"))[0] == 403
        assert fetch(proxy, "http://example.com/")[0] == 403
        tunnel = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        tunnel.request("CONNECT", "example.com:443")
        assert tunnel.getresponse().status == 403
        tunnel.close()
        logged = [(m.status, m.method, m.url) for m in server.misses]
    assert logged == [
        (404, "POST", origin + "/api/n"),
        (404, "GET", origin + "/never"),
        (403, "GET", other_site.url("/pixel")),
        (403, "GET", "http://example.com/"),
        (403, "CONNECT", "example.com:443"),
    ]
    result = verify(crawl.path)
    assert result.fidelity == 1.0, result.report()
    assert other_site.requests == []  # neither the crawl nor the replay reached it
    assert not no_outside_sockets


SITE = "http://127.0.0.1:8000"


def test_index_matches_exactly_then_fuzzily(tmp_path: Path) -> None:
    """Exact method, URL and body first; then volatile parameters (cache busters, timestamps)
    left out, every other one still equal; a 304 never answers; revisits find their payload."""

    def exchange(path: str, body: bytes, **fields: Any) -> Exchange:
        values: dict[str, Any] = {
            "request_id": path,
            "url": SITE + path,
            "status": 200,
            "status_text": "OK",
            "response_headers": [("Content-Type", "application/json")],
            "body": body,
            "mime_type": "application/json",
        }
        return Exchange(**{**values, **fields})

    post = {"method": "POST", "request_headers": [("Content-Type", "application/json")]}
    with ArchiveWriter(tmp_path, Archive(), {}) as writer:
        writer.write_exchange(exchange("/api?q=a&_=1700000000000", b"A"), "s1")
        writer.write_exchange(exchange("/api?q=b&_=1700000000001", b"B"), "s2")
        writer.write_exchange(exchange("/api?q=b&_=1700000000001", b"B"), "s3")  # a revisit
        writer.write_exchange(
            exchange("/p", b"P1", request_body=b'{"q": "a", "ts": 1700000000000}', **post)
        )
        writer.write_exchange(exchange("/p", b"P2", request_body=b'{"q": "b"}', **post))
        writer.write_exchange(exchange("/app.js", b"", status=304, status_text="Not Modified"))
        writer.write_exchange(exchange("/app.js", b"js()"))
    index = ArchiveIndex(tmp_path)

    def body(method: str, path: str, data: bytes = b"", **kw: Any) -> tuple[bytes | None, bool]:
        capture, fuzzy = index.lookup(method, SITE + path, data, "application/json", **kw)
        return (index.payload(capture) if capture else None), fuzzy

    assert body("GET", "/api?q=a&_=1700000000000") == (b"A", False)
    assert body("GET", "/api?_=1800000000000&q=b") == (b"B", True)
    assert body("GET", "/api?q=c&_=1700000000000")[0] is None
    assert body("GET", "/api?q=b&_=1700000000001") == (b"B", False)
    assert body("POST", "/p", b'{"q": "a", "ts": 1800000000000}') == (b"P1", True)
    assert body("POST", "/p", b'{"q": "b"}') == (b"P2", False)
    assert body("POST", "/p", b'{"q": "c"}')[0] is None
    assert body("GET", "/p")[0] is None
    assert body("GET", "/app.js") == (b"js()", False)
    preferred, _ = index.lookup("GET", SITE + "/api?q=b&_=1", prefer=["s3"])
    assert preferred is not None and preferred.state == "s3"


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "not a crawl directory" in error_line(capsys, ["verify", str(tmp_path)])
    assert "not a crawl directory" in error_line(capsys, ["replay", str(tmp_path)])
    assert "--min-fidelity" in error_line(capsys, ["verify", str(tmp_path), "--min-fidelity", "x"])


def test_a_state_whose_exchange_is_missing_is_reported(
    router_crawl: statecrawl.Crawl, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The router's /router/api/b answers dropped from a copy of the archive: the state that
    shows it is not reproduced, and the reason names the missing exchange."""
    copy = tmp_path / "copy"
    shutil.copytree(router_crawl.path, copy)
    drop_records(copy, "/b")
    assert main(["verify", str(copy), "--min-fidelity", "0.9"]) == 2
    out = capsys.readouterr().out
    bravo = next(s["id"] for s in router_crawl.states() if s["url"].endswith("/router/b"))
    assert out.startswith("replay fidelity 75.0%: 3 of 4 states"), out
    assert f"  {bravo}: " in out
    assert "/router/api/b: no recorded exchange" in out


def test_replay_command_serves_until_stopped(demo_crawl: statecrawl.Crawl) -> None:
    command = [str(BIN / "statecrawl"), "replay", str(demo_crawl.path), "--port", "0"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        assert first.startswith(f"replaying {demo_crawl.path} ({len(demo_crawl)} states"), first
        url = first.rsplit(" at ", 1)[1].strip()
        assert "--proxy-server=http://127.0.0.1:" in process.stderr.readline()
        with urllib.request.urlopen(url, timeout=10) as landing:
            assert landing.status == 200 and b"/state/" in landing.read()
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 128 + signal.SIGTERM


def malformed(own: str) -> dict[str, tuple[bytes, int]]:
    """Requests a hostile client may send the replay server at ``own``, with the answer each
    must get."""
    host = f"Host: {own}\r\n".encode()
    post = b"POST /state/x HTTP/1.1\r\n" + host

    def length(value: bytes) -> bytes:
        return post + b"Content-Length: " + value + b"\r\n\r\n"

    return {
        "one word": (b"NONSENSE\r\n\r\n", 400),
        "a bad version": (b"GET / HTTP/x.y\r\n" + host + b"\r\n", 400),
        "HTTP/0.9": (b"GET /\r\n\r\n", 400),
        "a path not UTF-8": (b"GET /state/\xff\xfe%ff HTTP/1.1\r\n" + host + b"\r\n", 404),
        "an unclosed IPv6 host": (b"GET http://[::1/ HTTP/1.1\r\n" + host + b"\r\n", 400),
        "no path": (b"GET nothing HTTP/1.1\r\n" + host + b"\r\n", 400),
        "a 70 KB request line": (b"GET /" + b"x" * 70_000 + b" HTTP/1.1\r\n" + host + b"\r\n", 414),
        "a 70 KB header": (
            b"GET / HTTP/1.1\r\n" + host + b"X: " + b"x" * 70_000 + b"\r\n\r\n",
            431,
        ),
        "200 headers": (b"GET / HTTP/1.1\r\n" + host + b"X: x\r\n" * 200 + b"\r\n", 431),
        "a 300 KB head": (
            b"GET / HTTP/1.1\r\n"
            + host
            + b"".join(b"X%d: %s\r\n" % (i, b"x" * 60_000) for i in range(5))
            + b"\r\n",
            431,
        ),
        "Content-Length: abc": (length(b"abc"), 400),
        "a negative Content-Length": (length(b"-5"), 400),
        "a huge Content-Length": (length(b"99999999999999"), 413),
        "a 10,000-digit Content-Length": (length(b"9" * 10_000), 413),
        "two Content-Lengths": (post + b"Content-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
        "a chunked body": (
            post + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            411,
        ),
        "a body cut short": (length(b"100") + b"0123456789", 400),
        "a body over 16 MiB": (length(b"%d" % (16 * 1024 * 1024 + 1)) + b"x" * 1000, 413),
        "another Host (DNS rebinding)": (
            b"GET / HTTP/1.1\r\nHost: rebound.example:80\r\n\r\n",
            421,
        ),
        "another port": (b"GET / HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n", 421),
        "no Host": (b"GET / HTTP/1.1\r\n\r\n", 400),
        "two Hosts": (b"GET / HTTP/1.1\r\n" + host + b"Host: rebound.example\r\n\r\n", 400),
    }


def test_malformed_requests_get_a_4xx_and_no_traceback(router_crawl: statecrawl.Crawl) -> None:
    """Raw requests to a running ``statecrawl replay``: each malformed one gets its 4xx, the
    server answers a normal request after each, and writes nothing to stderr but its banner
    and the line saying it was stopped."""
    command = [str(BIN / "statecrawl"), "replay", str(router_crawl.path), "--port", "0"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        url = process.stderr.readline().rsplit(" at ", 1)[1].strip()
        process.stderr.readline()  # the proxy flags
        own = url.split("/")[2]
        answers = {}
        for name, (request, _) in malformed(own).items():
            with socket.create_connection(("127.0.0.1", int(own.split(":")[1])), 10) as sock:
                sock.sendall(request)
                sock.shutdown(socket.SHUT_WR)  # a client that sent all it will send
                reply = http.client.HTTPResponse(sock)
                reply.begin()
                answers[name] = reply.status
            with urllib.request.urlopen(url, timeout=10) as landing:
                assert landing.status == 200, name
        assert answers == {name: status for name, (_, status) in malformed(own).items()}
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=10)
    assert [line for line in err.splitlines() if not line.startswith("statecrawl: stopped")] == []
