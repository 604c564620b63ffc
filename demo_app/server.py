"""A small standard-library HTTP server for the patent-search demo single-page application."""

from __future__ import annotations

import email.utils
import hashlib
import json
import re
import sys
import threading
import time
import zlib
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from . import data, documents

STATIC_DIR = Path(__file__).resolve().parent / "static"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
_STATIC_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")
_APP_ROUTE = re.compile(r"/(?:search/?|patent/[^/]+/?)?")
_PATENT_API = re.compile(r"/api/patent/([^/]+)(/citations)?")
_PATENT_PDF = re.compile(r"/files/([A-Za-z0-9]+)\.pdf")


def api_delay(target: str) -> float:
    """Simulated latency in seconds (0.03 to 0.15) for a request target, the same on every call."""
    return (30 + zlib.crc32(target.encode("utf-8")) % 121) / 1000


class ApiError(Exception):
    """An error answered to the client as a JSON body with this HTTP status."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Response:
    """A complete HTTP response, built before anything is written to the socket."""

    status: HTTPStatus
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


def _json_response(payload: Any, status: HTTPStatus = HTTPStatus.OK) -> Response:
    """Encode ``payload`` as an uncached JSON response."""
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"}
    return Response(status, body, headers)


def _error(status: HTTPStatus, message: str) -> Response:
    """A JSON error body ``{"error": message, "status": code}``."""
    return _json_response({"error": message, "status": int(status)}, status)


def _param(params: dict[str, list[str]], name: str, default: str = "") -> str:
    """The first value of a query parameter, stripped."""
    return params.get(name, [default])[0].strip()


def _int_param(params: dict[str, list[str]], name: str, low: int, high: int) -> int | None:
    """An optional integer parameter within ``[low, high]``; None when absent or blank."""
    raw = _param(params, name)
    if not raw:
        return None
    if not re.fullmatch(r"-?\d{1,6}", raw) or not low <= int(raw) <= high:
        raise ApiError(
            HTTPStatus.BAD_REQUEST,
            f"parameter {name!r} must be an integer in {low}..{high}, got {raw!r}",
        )
    return int(raw)


def search_payload(params: dict[str, list[str]], revision: int = 0) -> dict[str, Any]:
    """The body of ``/api/search``: one page of results for the query parameters."""
    query = _param(params, "q")
    where = _param(params, "field") or "title"
    hits = search_hits(params, revision)
    pages = data.page_count(len(hits))
    page = _int_param(params, "page", 1, 999_999) or 1
    if page > pages:
        raise ApiError(HTTPStatus.BAD_REQUEST, f"page {page} is past the last page ({pages})")
    start = (page - 1) * data.PAGE_SIZE
    results = [
        {
            "number": p["number"],
            "title": p["title"],
            "year": p["year"],
            "snippet": data.snippet(p, query, where),
        }
        for p in hits[start : start + data.PAGE_SIZE]
    ]
    return {"total": len(hits), "page": page, "pages": pages, "results": results}


def search_hits(params: dict[str, list[str]], revision: int = 0) -> list[data.Patent]:
    """Every patent the query parameters match (``q``, ``field``, ``from``, ``to``), checked."""
    query = _param(params, "q")
    if not data.query_words(query):
        raise ApiError(HTTPStatus.BAD_REQUEST, "parameter 'q' must contain at least one word")
    where = _param(params, "field") or "title"
    if where not in data.FIELDS:
        raise ApiError(HTTPStatus.BAD_REQUEST, f"parameter 'field' must be one of {data.FIELDS}")
    year_from = _int_param(params, "from", 1000, 9999)
    year_to = _int_param(params, "to", 1000, 9999)
    if year_from is not None and year_to is not None and year_from > year_to:
        raise ApiError(HTTPStatus.BAD_REQUEST, "parameter 'from' must not be after 'to'")
    return data.search(query, where, year_from, year_to, revision)


def patent_payload(number: str, revision: int = 0) -> dict[str, Any]:
    """The body of ``/api/patent/<number>``."""
    patent = data.get(number, revision)
    if patent is None:
        raise ApiError(HTTPStatus.NOT_FOUND, f"no patent {number!r}")
    return {
        "number": patent["number"],
        "title": patent["title"],
        "abstract": patent["abstract"],
        "year": patent["year"],
        "fields": patent["fields"],
        "claims": patent["claims"],
        "description": patent["description"],
        "citation_count": len(patent["citations"]),
    }


def citations_payload(
    number: str, params: dict[str, list[str]], revision: int = 0
) -> dict[str, Any]:
    """The body of ``/api/patent/<number>/citations``: CITATIONS_PAGE cited patents."""
    patent = data.get(number, revision)
    if patent is None:
        raise ApiError(HTTPStatus.NOT_FOUND, f"no patent {number!r}")
    cited = patent["citations"]
    offset = _int_param(params, "offset", 0, len(cited)) or 0
    items = [
        {"number": other["number"], "title": other["title"], "year": other["year"]}
        for other in (data.get(n, revision) for n in cited[offset : offset + data.CITATIONS_PAGE])
        if other is not None
    ]
    end = offset + len(items)
    return {
        "number": patent["number"],
        "total": len(cited),
        "offset": offset,
        "items": items,
        "next_offset": end if end < len(cited) else None,
    }


def _static_response(path: Path, request_headers: Any) -> Response:
    """A file with its content type and validators; 304 when the client's copy is current."""
    body = path.read_bytes()
    modified = int(path.stat().st_mtime)
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    headers = {
        "Content-Type": CONTENT_TYPES.get(path.suffix, "application/octet-stream"),
        "Last-Modified": email.utils.formatdate(modified, usegmt=True),
        "ETag": etag,
        "Cache-Control": "no-cache",
    }
    if_none_match = request_headers.get("If-None-Match")
    if_modified_since = request_headers.get("If-Modified-Since")
    if if_none_match is not None:
        fresh = etag in [tag.strip() for tag in if_none_match.split(",")] or if_none_match == "*"
    elif if_modified_since is not None:
        try:
            since = email.utils.parsedate_to_datetime(if_modified_since).timestamp()
        except (TypeError, ValueError):
            since = -1.0
        fresh = modified <= since
    else:
        fresh = False
    if fresh:
        return Response(HTTPStatus.NOT_MODIFIED, b"", headers)
    return Response(HTTPStatus.OK, body, headers)


def _not_found_page() -> Response:
    """A small HTML 404 page for unknown non-API paths."""
    body = (
        b"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Not found</title>"
        b"</head><body><h1>Not found</h1><p><a href='/'>Back to patent search</a></p>"
        b"</body></html>"
    )
    return Response(HTTPStatus.NOT_FOUND, body, {"Content-Type": CONTENT_TYPES[".html"]})


class _Server(ThreadingHTTPServer):
    """Threaded server that carries the app settings and stays quiet about dropped clients."""

    daemon_threads = True
    latency: bool = True
    revision: int = 0

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignore clients that hang up; report anything else as usual."""
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    """Routes requests to static files, the app shell and the JSON API."""

    server: _Server
    protocol_version = "HTTP/1.1"
    timeout = 30

    def version_string(self) -> str:
        """The Server header value."""
        return "PatentSearchDemo/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        """Do not log requests."""

    def do_GET(self) -> None:
        """Serve a GET request."""
        self._respond(send_body=True)

    def do_HEAD(self) -> None:
        """Serve a HEAD request: the GET headers without a body."""
        self._respond(send_body=False)

    def _method_not_allowed(self) -> None:
        """Answer 405 to methods that change state: this API is read-only."""
        self._send(_error(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and HEAD are supported"), True)

    do_POST = do_PUT = do_PATCH = do_DELETE = _method_not_allowed

    def _respond(self, send_body: bool) -> None:
        """Route the request and write the response; errors never reach the client as tracebacks."""
        try:
            response = self._route()
        except ApiError as error:
            response = _error(error.status, error.message)
        except Exception:
            response = _error(HTTPStatus.INTERNAL_SERVER_ERROR, "internal server error")
        if self.server.latency and self.path.startswith("/api/"):
            time.sleep(api_delay(self.path))
        self._send(response, send_body)

    def _route(self) -> Response:
        """Pick the response for the request target."""
        target = urlsplit(self.path)
        path = unquote(target.path)
        params = parse_qs(target.query, keep_blank_values=True)
        if path.startswith("/api/"):
            revision = self.server.revision
            if path == "/api/search":
                return _json_response(search_payload(params, revision))
            match = _PATENT_API.fullmatch(path)
            if match and match.group(2):
                return _json_response(citations_payload(match.group(1), params, revision))
            if match:
                return _json_response(patent_payload(match.group(1), revision))
            raise ApiError(HTTPStatus.NOT_FOUND, f"no API endpoint {path!r}")
        if path.startswith("/static/"):
            name = path.removeprefix("/static/")
            candidate = STATIC_DIR / name
            if _STATIC_NAME.fullmatch(name) and candidate.is_file():
                return _static_response(candidate, self.headers)
            return _not_found_page()
        if _APP_ROUTE.fullmatch(path):
            return _static_response(STATIC_DIR / "index.html", self.headers)
        return self._document(path, params) or _not_found_page()

    def _document(self, path: str, params: dict[str, list[str]]) -> Response | None:
        """A patent's PDF (``/files/<number>.pdf``) or a query's CSV export (``/export.csv``,
        an attachment); None for any other path."""
        revision = self.server.revision
        match = _PATENT_PDF.fullmatch(path)
        if match:
            patent = data.get(match.group(1), revision)
            if patent is None:
                return None
            return Response(HTTPStatus.OK, documents.patent_pdf(patent),
                            {"Content-Type": "application/pdf"})  # fmt: skip
        if path != "/export.csv":
            return None
        body = documents.results_csv(search_hits(params, revision))
        name = "-".join(data.query_words(_param(params, "q"))) or "results"
        return Response(HTTPStatus.OK, body, {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": f'attachment; filename="patents-{name}.csv"',
        })  # fmt: skip

    def _send(self, response: Response, send_body: bool) -> None:
        """Write status, headers and (unless HEAD or 304) the body."""
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if send_body and response.body:
            self.wfile.write(response.body)


class DemoApp:
    """The demo server: ``with DemoApp() as app: ...`` serves on ``app.url`` in a daemon thread.

    ``revision`` is the revision of the patent corpus served (one of ``data.REVISIONS``).
    """

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, latency: bool = True, revision: int = 0
    ) -> None:
        if revision not in data.REVISIONS:
            raise ValueError(f"unknown revision {revision!r}; expected one of {data.REVISIONS}")
        self.host = host
        self.port = port
        self.latency = latency
        self.revision = revision
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The app's base URL, ``http://HOST:PORT/``; the port is known once started."""
        return f"http://{self.host}:{self.port}/"

    def start(self) -> DemoApp:
        """Bind the socket (port 0 picks a free port) and serve in a daemon thread."""
        if self._server is not None:
            raise RuntimeError("DemoApp is already running")
        server = _Server((self.host, self.port), _Handler)
        server.latency = self.latency
        server.revision = self.revision
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, name=f"demo-app-{self.port}", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the listening socket; does nothing if not running."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = None
        self._thread = None

    def __enter__(self) -> DemoApp:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
