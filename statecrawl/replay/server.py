"""A loopback server that plays a crawl's archive back, so the archived application runs
offline.

How: the server is Chromium's HTTP proxy (:meth:`ReplayServer.proxy_flags`). The browser asks
it for the application's own URLs (``http://127.0.0.1:8000/api/search?q=…``), so URLs, and
with them state keys, stay exactly as crawled: no URL is rewritten and no script is injected,
because a rewritten DOM would be another state. Every request is answered from the archive
and nothing is ever forwarded: a request with no capture gets a 404, one outside the crawl's
scope a 403, an HTTPS tunnel (``CONNECT``) a 403; each is logged as a :class:`Miss`.

Asked directly (``http://127.0.0.1:PORT/``), the server shows a landing page listing the
crawl's states; each opens as recorded (its DOM with scripts removed, styles and images from
the archive, links to the views of other states, anything else inert; see
:mod:`statecrawl.replay.rewrite`), under a Content-Security-Policy header that allows nothing
but this server. The landing page links to the live pages only when it was itself asked
through the proxy (so the browser runs them offline); otherwise it names them.

Hostile clients: request heads and bodies are bounded, a bad ``Content-Length`` is a 400, a
request to this server must name it in ``Host`` (so a page that rebinds its own name to
loopback cannot read the archive), and a malformed request gets a 4xx and a log line at debug
level, never a traceback.

Why warcio and not pywb: pywb 2.10 installs from PyPI here and was tried: it indexes these
WARCs and replays their pages (the interop test in ``tests/test_export.py``), but it does not
fit replay for verification. It picks among captures by time, so asked for ``app.js`` without
a timestamp it answered the latest capture, a ``304 Not Modified`` with no body, which a fresh
browser cannot use; this index passes over such captures and prefers those recorded on the
way to the state being replayed (``WARC-Statecrawl-State``). Its proxy mode inserts its banner
into HTML pages unless configured not to, and a changed DOM is another state. It imports
gevent's monkey-patching of the standard library (``pywb.apps.frontendapp``), which would
patch the threads and sockets Selenium uses in the same process. It needs a collection tree
and an index built first (``wb-manager``), and it answers a miss with an HTML page, while
``verify`` names each missing exchange. So the server is a warcio index of the records
(:mod:`statecrawl.replay.index`) with pywb-style fuzzy matching, on the standard library's
HTTP server, with no new dependency.
"""

from __future__ import annotations

import html
import http.client
import io
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import TextIO
from urllib.parse import parse_qsl, quote, urlsplit

from ..directory.crawl import Crawl, find_state, load
from ..directory.layout import SCREENSHOT_TYPES
from ..errors import ArchiveError, ConfigError, StatecrawlError
from ..scope import Scope
from .index import CALLBACK_NAMES, ArchiveIndex
from .rewrite import CSP, rewrite_css, serialize, static_html

LOG = logging.getLogger("statecrawl.replay")
LOOPBACK = "127.0.0.1"
# Headers about the connection or the wire encoding: the server sets its own.
HOP_HEADERS = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length",
     "proxy-authenticate", "proxy-connection", "te", "trailer", "upgrade"}
)  # fmt: skip
ARCHIVE_PATH = "/archive/"
STATE_PATH = "/state/"
SCREENSHOT_PATH = "/screenshot/"
MAX_HEAD = 256 * 1024  # bytes of request line and headers (Chromium sends at most 256 KiB)
MAX_BODY = 16 * 1024 * 1024  # bytes of a request body
TIMEOUT = 30.0  # seconds a client may pause mid-request
LINGER = 2.0  # seconds to read what a client still sends after the last answer


@dataclass(frozen=True, slots=True)
class Miss:
    """A request the archive could not answer."""

    method: str
    url: str
    status: int
    reason: str
    at: float

    def __str__(self) -> str:
        text = f"{self.status} {self.method} {self.url}: {self.reason}"
        return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class ReplayServer:
    """Serves the archive of the crawl in ``directory`` on loopback; see the module's text.

    Use as a context manager (``with ReplayServer(path) as server: server.url``), or call
    :meth:`serve_forever`. ``on_miss`` is called with each :class:`Miss`.
    """

    def __init__(
        self,
        directory: Path | str,
        *,
        port: int = 0,
        on_miss: Callable[[Miss], None] | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.crawl: Crawl = load(self.directory)
        self.index = ArchiveIndex(self.directory)
        self.scope = Scope(self.crawl.config)
        self.on_miss = on_miss
        self.misses: list[Miss] = []
        self.served = 0
        self.prefer: tuple[str, ...] = ()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._urls = self.index.urls()
        self._views: dict[str, str] = {}  # a state's URL: the view of its shallowest state
        for state in sorted(self.crawl.states(), key=lambda s: s.get("depth") or 0):
            self._views.setdefault(state.get("url") or "", STATE_PATH + state["id"])
        if not 0 <= port <= 65535:
            raise ConfigError(f"--port: expected 0 to 65535, got {port}")
        try:
            self._server = _Server((LOOPBACK, port), _Handler, self)
        except OSError as exc:
            raise StatecrawlError(
                f"cannot listen on {LOOPBACK}:{port}: {exc.strerror or exc}"
            ) from None

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """The landing page."""
        return f"http://{LOOPBACK}:{self.port}/"

    def names_self(self, host: str) -> bool:
        """Whether ``host`` (a ``Host`` header or a URL's netloc) is this server's address."""
        names = {f"{LOOPBACK}:{self.port}", f"localhost:{self.port}"}
        if self.port == 80:
            names |= {LOOPBACK, "localhost"}
        return host.strip().lower() in names

    def proxy_flags(self) -> list[str]:
        """Chromium flags that send every request, loopback ones included, to this server."""
        return [f"--proxy-server=http://{LOOPBACK}:{self.port}", "--proxy-bypass-list=<-loopback>"]

    def start(self) -> ReplayServer:
        """Serve in a background thread."""
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="statecrawl-replay", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted."""
        try:
            self._server.serve_forever()
        finally:
            self._server.server_close()

    def stop(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
            self._thread = None
        self._server.server_close()

    def __enter__(self) -> ReplayServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @contextmanager
    def preferring(self, states: tuple[str, ...]) -> Iterator[list[Miss]]:
        """While in the block, captures recorded on the way to ``states`` answer first (the
        last one most); yields the misses that happen meanwhile."""
        with self._lock:
            self.prefer = states
            start = len(self.misses)
        seen: list[Miss] = []
        try:
            yield seen
        finally:
            with self._lock:
                self.prefer = ()
                seen.extend(self.misses[start:])

    # -- answering -----------------------------------------------------------------------------

    def allowed(self, url: str) -> bool:
        """Whether the crawl's browser could have fetched ``url``: its hosts are the start
        origins' and ``scope.allow``'s."""
        return reachable(self.scope, url)

    def answer(
        self, method: str, url: str, body: bytes, content_type: str
    ) -> tuple[int, str, list[tuple[str, str]], bytes]:
        """Status, reason, headers and body for a request to the application at ``url``."""
        if not url.startswith("http://") or not self.allowed(url):
            return self._miss(method, url, HTTPStatus.FORBIDDEN, "out of the crawl's scope")
        with self._lock:
            prefer = self.prefer
        asked = "GET" if method == "HEAD" else method  # a HEAD is answered by the GET's head
        capture, fuzzy = self.index.lookup(asked, url, body, content_type, prefer=prefer)
        if capture is None:
            return self._miss(method, url, HTTPStatus.NOT_FOUND, "no recorded exchange")
        try:
            payload = self.index.payload(capture)
        except ArchiveError as exc:
            return self._miss(method, url, HTTPStatus.NOT_FOUND, str(exc))
        if fuzzy:
            payload = _jsonp(payload, capture.url, url)
        headers = [(k, v) for k, v in capture.headers if k.lower() not in HOP_HEADERS]
        with self._lock:
            self.served += 1
        return capture.status, capture.reason, headers, payload

    def _miss(
        self, method: str, url: str, status: HTTPStatus, reason: str
    ) -> tuple[int, str, list[tuple[str, str]], bytes]:
        miss = Miss(method, url, int(status), reason, time.time())
        with self._lock:
            self.misses.append(miss)
        LOG.info("%s", miss)
        if self.on_miss is not None:
            self.on_miss(miss)
        text = f"statecrawl replay: {miss}\n".encode()
        return status, status.phrase, [("Content-Type", "text/plain; charset=utf-8")], text

    # -- the landing page and recorded views ---------------------------------------------------

    def own(
        self, path: str, proxied: bool = False
    ) -> tuple[int, str, list[tuple[str, str]], bytes]:
        """A request to the server itself (``proxied``: through the proxy): landing page,
        state views, archived resources; each under the views' Content-Security-Policy."""
        status, reason, headers, body = self._own(path, proxied)
        return status, reason, [*headers, ("Content-Security-Policy", CSP)], body

    def _own(self, path: str, proxied: bool) -> tuple[int, str, list[tuple[str, str]], bytes]:
        target = urlsplit(path).path
        if target == "/":
            return _page(self.landing(live=proxied))
        if target.startswith(STATE_PATH):
            return self._state_view(target[len(STATE_PATH) :])
        if target.startswith(SCREENSHOT_PATH):
            return self._screenshot(target[len(SCREENSHOT_PATH) :])
        if path.startswith(ARCHIVE_PATH):
            return self._archived(path[len(ARCHIVE_PATH) :])
        return _text(HTTPStatus.NOT_FOUND, f"nothing at {path}")

    def landing(self, live: bool = False) -> str:
        """The landing page: every state, with its snapshot view and its live URL, a link
        only when ``live`` (the browser asking uses this server as its proxy)."""
        rows = []
        for state in self.crawl.states():
            sid = html.escape(state["id"])
            url = html.escape(state.get("url") or "")
            shown = f'<a href="{url}">{url}</a>' if live else f"<code>{url}</code>"
            shot = (
                f'<img src="{SCREENSHOT_PATH}{sid}" alt="" loading="lazy" width="160">'
                if state.get("screenshot")
                else ""
            )
            rows.append(
                f'<tr><td>{shot}</td><td><a href="{STATE_PATH}{sid}">'
                f"{html.escape(state.get('title') or sid)}</a><br><code>{sid}</code></td>"
                f"<td>{state.get('depth', '')}</td><td>{shown}</td></tr>"
            )
        flags = " ".join(self.proxy_flags())
        return (
            '<!DOCTYPE html><html><head><meta charset="utf-8"><title>statecrawl replay</title>'
            "<style>body{font:14px sans-serif;margin:2em}td{padding:4px 8px;"
            "vertical-align:top;border-bottom:1px solid #ddd}</style></head><body>"
            f"<h1>Replay of {html.escape(str(self.directory))}</h1>"
            f"<p>{len(rows)} states. A state's title opens it as recorded; its URL runs the "
            f"archived application, in a browser started with <code>{html.escape(flags)}"
            "</code>. Nothing is fetched from the network.</p>"
            "<table><tr><th></th><th>state</th><th>depth</th><th>live URL</th></tr>"
            + "".join(rows)
            + "</table></body></html>"
        )

    def _state_view(self, name: str) -> tuple[int, str, list[tuple[str, str]], bytes]:
        try:
            state = self.crawl.state(find_state(self.crawl.graph, name))
            recorded = state.html()
        except (StatecrawlError, OSError, KeyError) as exc:
            return _text(HTTPStatus.NOT_FOUND, f"no state {name}: {exc}")
        root = static_html(recorded, state.url, self._view_url, self._views.get)
        return _page(serialize(root) if root is not None else "")

    def _screenshot(self, name: str) -> tuple[int, str, list[tuple[str, str]], bytes]:
        try:
            path = self.crawl.state(find_state(self.crawl.graph, name)).screenshot
        except StatecrawlError:
            path = None
        if path is None:
            return _text(HTTPStatus.NOT_FOUND, f"no screenshot of {name}")
        kind = SCREENSHOT_TYPES[path.suffix[1:]]
        return 200, "OK", [("Content-Type", kind)], path.read_bytes()

    def _archived(self, url: str) -> tuple[int, str, list[tuple[str, str]], bytes]:
        status, reason, headers, body = self.answer("GET", url, b"", "")
        mime = next((v for k, v in headers if k.lower() == "content-type"), "")
        if mime.split(";")[0].strip().lower() == "text/css":
            css = rewrite_css(body.decode("utf-8", "replace"), url, self._view_url)
            body = css.encode("utf-8")
            headers = [*[(k, v) for k, v in headers if k.lower() != "content-type"],
                       ("Content-Type", "text/css; charset=utf-8")]  # fmt: skip
        return status, reason, headers, body

    def _view_url(self, url: str) -> str | None:
        """Where a recorded view finds a resource: this server's archive path, if archived."""
        return ARCHIVE_PATH + quote(url, safe=":/?&=%;,+@") if url in self._urls else None


def serve(directory: Path | str, port: int = 0, stream: TextIO | None = None) -> None:
    """``statecrawl replay``: serve a crawl's archive until interrupted, logging each miss."""
    stream = stream or sys.stderr
    server = ReplayServer(directory, port=port, on_miss=lambda miss: print(miss, file=stream))
    print(
        f"replaying {server.directory} ({len(server.crawl)} states, "
        f"{len(server.index.captures)} exchanges) at {server.url}\n"
        f"run the archived application in a browser started with: "
        f"{' '.join(server.proxy_flags())}",
        file=stream,
        flush=True,
    )
    server.serve_forever()


def reachable(scope: Scope, url: str) -> bool:
    """Whether a crawl of ``scope`` could have fetched ``url``: its hosts are the start
    origins' and ``scope.allow``'s."""
    netloc = urlsplit(url).netloc
    return any(_host_matches(netloc, host) for host in scope.hosts())


def _host_matches(netloc: str, host: str) -> bool:
    if host.startswith("*."):
        return netloc.split(":")[0].endswith(host[1:])
    return netloc == host or (":" not in host and netloc.split(":")[0] == host)


def _jsonp(payload: bytes, recorded: str, requested: str) -> bytes:
    """Put the requested JSONP callback name where the recorded one was."""
    old = dict(parse_qsl(urlsplit(recorded).query))
    new = dict(parse_qsl(urlsplit(requested).query))
    for name in CALLBACK_NAMES:
        before, after = old.get(name), new.get(name)
        if before and after and before != after and payload.lstrip().startswith(before.encode()):
            return payload.replace(before.encode(), after.encode(), 1)
    return payload


def _page(text: str) -> tuple[int, str, list[tuple[str, str]], bytes]:
    return 200, "OK", [("Content-Type", "text/html; charset=utf-8")], text.encode("utf-8")


def _text(status: HTTPStatus, text: str) -> tuple[int, str, list[tuple[str, str]], bytes]:
    headers = [("Content-Type", "text/plain; charset=utf-8")]
    return int(status), status.phrase, headers, text.encode("utf-8")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(
        self, address: tuple[str, int], handler: type[_Handler], replay: ReplayServer
    ) -> None:
        self.replay = replay
        super().__init__(address, handler)

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that hangs up or stalls mid-answer is no error; anything else is logged."""
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError)):
            LOG.exception("replay server error answering %s", client_address)

    # a TCP server's requests are sockets (typeshed's type also has a UDP server's tuples)
    def shutdown_request(self, request: socket.socket) -> None:  # type: ignore[override]
        """Close a connection only once the client stops sending (for up to ``LINGER``
        seconds): closing with unread bytes would reset it, and a refusal sent before the
        whole request was read would be lost."""
        deadline = time.monotonic() + LINGER
        try:
            request.shutdown(socket.SHUT_WR)
            while (left := deadline - time.monotonic()) > 0:
                request.settimeout(left)
                if not request.recv(65536):
                    break
        except OSError:
            pass
        self.close_request(request)


class _Head:
    """A request stream whose lines may add up to ``left`` bytes: the request's head."""

    def __init__(self, stream: io.BufferedIOBase, left: int) -> None:
        self.stream = stream
        self.left = left

    def readline(self, limit: int = -1) -> bytes:
        budget = self.left + 1 if limit < 0 else min(limit, self.left + 1)
        line = self.stream.readline(budget)
        self.left -= len(line)
        if self.left < 0:
            raise http.client.LineTooLong(f"request head over {MAX_HEAD} bytes")
        return line


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    default_request_version = "HTTP/1.0"  # a refusal of a request with none has a status line
    timeout = TIMEOUT
    server: _Server
    raw_requestline: bytes  # read by handle_one_request before it calls parse_request

    def parse_request(self) -> bool:
        """The standard parsing, with the head bounded by ``MAX_HEAD``; HTTP/0.9 refused."""
        stream = self.rfile
        # the standard parsing reads the head by readline alone, which _Head bounds
        self.rfile = _Head(stream, MAX_HEAD - len(self.raw_requestline))  # type: ignore[assignment]
        try:
            parsed = super().parse_request()
        finally:
            self.rfile = stream
        if parsed and len(self.requestline.split()) == 2:
            self.send_error(HTTPStatus.BAD_REQUEST, "HTTP/0.9 is not served")
            return False
        return parsed

    def do_GET(self) -> None:
        self._handle()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

    def do_CONNECT(self) -> None:
        replay = self.server.replay
        status, reason, headers, body = replay._miss(
            "CONNECT", self.path, HTTPStatus.FORBIDDEN, "HTTPS is not replayed"
        )
        self._send(status, reason, headers, body)
        self.close_connection = True

    def _handle(self) -> None:
        replay = self.server.replay
        path = self.path
        try:
            parts = urlsplit(path)
        except ValueError:
            return self._refuse(HTTPStatus.BAD_REQUEST, f"not a URL: {path}")
        absolute = parts.scheme in ("http", "https") and bool(parts.netloc)
        if not absolute and not path.startswith("/"):
            return self._refuse(HTTPStatus.BAD_REQUEST, f"not a path: {path}")
        hosts = self.headers.get_all("Host") or []
        host = hosts[0] if len(hosts) == 1 else None
        if not absolute and not replay.names_self(host or ""):
            return self._refuse(
                HTTPStatus.MISDIRECTED_REQUEST if host else HTTPStatus.BAD_REQUEST,
                f"Host: expected {LOOPBACK}:{replay.port}, got {', '.join(hosts) or 'none'}",
            )
        body = self._body()
        if body is None:
            return None
        if absolute and not replay.names_self(parts.netloc):
            content_type = self.headers.get("Content-Type") or ""
            answer = replay.answer(self.command, path, body, content_type)
        elif absolute:
            answer = replay.own(path[len(parts.scheme) + 3 + len(parts.netloc) :] or "/", True)
        else:
            answer = replay.own(path)
        self._send(*answer)
        return None

    def _body(self) -> bytes | None:
        """The request's body, read whole; None once a refusal was sent instead."""
        if self.headers.get("Transfer-Encoding") is not None:
            self._refuse(HTTPStatus.LENGTH_REQUIRED, "a body needs a Content-Length")
            return None
        lengths = {v.strip() for v in self.headers.get_all("Content-Length") or ("0",)}
        value = lengths.pop() if len(lengths) == 1 else ", ".join(sorted(lengths))
        if not (value.isascii() and value.isdigit()):
            self._refuse(HTTPStatus.BAD_REQUEST, f"Content-Length: not a size: {value}")
            return None
        if len(value) > len(str(MAX_BODY)) or int(value) > MAX_BODY:
            self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a body over {MAX_BODY} bytes")
            return None
        length = int(value)
        try:
            body = self.rfile.read(length) if length else b""
        except OSError as exc:  # the client stalled (timeout) or went away
            LOG.debug("%s: reading a body: %s", self.address_string(), exc)
            self.close_connection = True
            return None
        if len(body) < length:
            self._refuse(HTTPStatus.BAD_REQUEST, f"body cut at {len(body)} of {length} bytes")
            return None
        return body

    def _refuse(self, status: HTTPStatus, text: str) -> None:
        """Answer a request that cannot be served, and close its connection."""
        self.close_connection = True
        self._send(*_text(status, f"statecrawl replay: {text}\n"))

    def _send(self, status: int, reason: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.log_request(status)
        self.send_response_only(status, reason)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        LOG.debug("%s " + format, self.address_string(), *args)
