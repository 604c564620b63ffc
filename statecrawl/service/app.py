"""The service's ASGI app: the JSON API over the job queue, server-sent events, the crawls'
artifacts and the web page (Starlette).

Safety: without a token the app answers only requests addressed to a loopback name (a page
of another site cannot reach it through DNS rebinding); with one, every API call brings it
(``Authorization: Bearer``, or the cookie ``POST /api/session`` sets). A request with a
body or an effect from a page of another origin is refused. Files are served only from
inside a job's own directories, after symlinks are resolved, and any HTML among them is
sandboxed (no script, an origin of its own), so a crawled page never runs on this origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..config import ServiceSettings
from ..directory import chain
from ..directory.crawl import load
from ..directory.figures import counts
from ..directory.layout import (
    GRAPH_JSON,
    QA,
    QA_VIEW,
    RECORDS,
    SCREENSHOT_TYPES,
    STATES,
    read_json,
    thumbnail_paths,
)
from ..errors import ArchiveError, ConfigError, StatecrawlError, one_line
from ..incremental.comparison import diff
from ..report import build_report
from ..version import __version__
from .jobs import ACTIVE, Job, JobConflict, Jobs, SettingsError, UnknownJob

HERE = Path(__file__).parent
STATIC = HERE / "static"
OPENAPI = HERE / "openapi.json"
COOKIE = "statecrawl_token"
EVENTS = "events.jsonl"
TAIL_EVERY = 0.25  # seconds between two looks at a job's events file
PICTURE_WAIT = 30.0  # seconds a state's thumbnail is looked for after its event was sent
MAX_FAILURES = 100  # failures a crawl's view lists
STATE_ID = 16  # hex digits of a state id
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
REPORT_POLICY = (  # the report's own (see report/static/index.html)
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'"
)
SANDBOX = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"
STATIC_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

log = logging.getLogger(__name__)


def error(
    status: int, message: str, headers: dict[str, str] | None = None, **extra: Any
) -> JSONResponse:
    """The JSON of a refused call: ``{"error": one line, ...}``."""
    return JSONResponse({"error": message, **extra}, status_code=status, headers=headers)


async def _refused(_request: Request, exc: Exception) -> Response:
    """A refused call's answer: 400 for bad input, 404 for an unknown crawl or route, 409 for
    what a crawl's status does not allow."""
    if isinstance(exc, HTTPException):
        return error(exc.status_code, exc.detail)
    if isinstance(exc, SettingsError):
        return error(400, str(exc), fields=exc.fields)
    status = {ConfigError: 400, UnknownJob: 404, JobConflict: 409, ArchiveError: 409}
    code = next((c for kind, c in status.items() if isinstance(exc, kind)), 500)
    return error(code, one_line(str(exc)))


class Guard:
    """Checks every request before the app sees it (see the module's docstring)."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await refusal(scope, receive, send)

    def refusal(self, scope: Scope) -> Response | None:
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if self.token is None and urlsplit(f"//{host}").hostname not in LOOPBACK_NAMES:
            return error(403, f"this service answers loopback names only, not {host[:80]!r}")
        origin = headers.get("origin")
        if (
            scope["method"] not in ("GET", "HEAD")
            and origin is not None
            and urlsplit(origin).netloc != host
        ):
            return error(403, "a request from a page of another site is refused")
        path: str = scope["path"]
        if self.token is None or not path.startswith("/api/") or path == "/api/session":
            return None
        if _same(self.token, _bearer(headers) or _cookie(headers)):
            return None
        return error(401, "this service needs its token: Authorization: Bearer TOKEN",
                     headers={"WWW-Authenticate": "Bearer"})


def _bearer(headers: Headers) -> str | None:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def _cookie(headers: Headers) -> str | None:
    cookies = SimpleCookie()
    with contextlib.suppress(Exception):
        cookies.load(headers.get("cookie", ""))
    morsel = cookies.get(COOKIE)
    return morsel.value if morsel is not None else None


def _same(token: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(token.encode(), given.encode())


def send_file(root: Path, relative: str, policy: str = SANDBOX, **options: Any) -> Response:
    """The file ``relative`` below ``root``, only if it really is inside ``root`` once every
    symlink is resolved; HTML is served under ``policy`` (by default: sandboxed, inert)."""
    try:
        base = root.resolve(strict=True)
        path = (base / relative).resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # missing, a symlink loop, a NUL byte
        return error(404, f"no file {relative!r}")
    if not path.is_relative_to(base) or not path.is_file():
        return error(404, f"no file {relative!r}")
    headers = {"X-Content-Type-Options": "nosniff", "Content-Security-Policy": policy}
    return FileResponse(path, headers=headers, **options)


class Api:
    """The routes, over one job queue."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.jobs = Jobs(settings)
        self.token = settings.token()
        self.building: dict[str, threading.Lock] = {}  # job -> its report's or WACZ's build
        self.building_lock = threading.Lock()

    def routes(self) -> list[Route]:
        return [
            Route("/", self.page, methods=["GET"]),
            Route("/static/{name}", self.static, methods=["GET"]),
            Route("/api/openapi.json", self.openapi, methods=["GET"]),
            Route("/api/status", self.status, methods=["GET"]),
            Route("/api/session", self.session, methods=["POST"]),
            Route("/api/crawls", self.list, methods=["GET"]),
            Route("/api/crawls", self.create, methods=["POST"]),
            Route("/api/crawls/{id}", self.show, methods=["GET"]),
            Route("/api/crawls/{id}", self.delete, methods=["DELETE"]),
            Route("/api/crawls/{id}/stop", self.stop, methods=["POST"]),
            Route("/api/crawls/{id}/resume", self.resume, methods=["POST"]),
            Route("/api/crawls/{id}/recrawl", self.recrawl, methods=["POST"]),
            Route("/api/crawls/{id}/events", self.events, methods=["GET"]),
            Route("/api/crawls/{id}/graph.json", self.graph, methods=["GET"]),
            Route("/api/crawls/{id}/records.jsonl", self.records, methods=["GET"]),
            Route("/api/crawls/{id}/states/{state}/screenshot", self.screenshot, methods=["GET"]),
            Route("/api/crawls/{id}/states/{state}/thumbnail", self.thumbnail, methods=["GET"]),
            Route("/api/crawls/{id}/files/{path:path}", self.files, methods=["GET"]),
            Route("/api/crawls/{id}/report", self.report_root, methods=["GET"]),
            Route("/api/crawls/{id}/report/{path:path}", self.report, methods=["GET"]),
            Route("/api/crawls/{id}/export.wacz", self.wacz, methods=["GET"]),
            Route("/api/crawls/{id}/diff", self.diff, methods=["GET"]),
        ]

    # ---- the page -----------------------------------------------------------------------------
    async def page(self, _request: Request) -> Response:
        return send_file(STATIC, "index.html", PAGE_POLICY)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if Path(name).suffix not in STATIC_TYPES or "/" in name:
            return error(404, f"no file {name!r}")
        return send_file(STATIC, name, PAGE_POLICY, media_type=STATIC_TYPES[Path(name).suffix])

    async def openapi(self, _request: Request) -> Response:
        return send_file(HERE, OPENAPI.name, media_type="application/json")

    # ---- the service --------------------------------------------------------------------------
    async def status(self, _request: Request) -> Response:
        jobs = self.jobs.list()
        counts = {s: sum(j.status == s for j in jobs) for s in ("queued", "running")}
        s = self.settings
        return JSONResponse({
            "version": __version__, **counts, "max_running": s.max_running,
            "cluster": s.cluster, "token": self.token is not None,
            "caps": {"browser.count": s.max_browsers, "limits.max_time": s.max_time,
                     "limits.max_states": s.max_states},
        })

    async def session(self, request: Request) -> Response:
        body = await _body(request)
        given = body.get("token") if isinstance(body, dict) else None
        if self.token is None:
            return Response(status_code=204)
        if not isinstance(given, str) or not _same(self.token, given):
            return error(401, "wrong token")
        response = Response(status_code=204)
        response.set_cookie(COOKIE, given, httponly=True, samesite="strict", path="/")
        return response

    # ---- the queue ----------------------------------------------------------------------------
    async def list(self, request: Request) -> Response:
        jobs = self.jobs.list(request.query_params.get("status"))
        return JSONResponse({"crawls": [self.view(job) for job in jobs]})

    async def create(self, request: Request) -> Response:
        job = await run_in_threadpool(self.jobs.submit, await _body(request))
        return JSONResponse(self.view(job, full=True), status_code=201,
                            headers={"Location": f"/api/crawls/{job.id}"})

    async def show(self, request: Request) -> Response:
        return JSONResponse(self.view(self._job(request), full=True))

    async def delete(self, request: Request) -> Response:
        await run_in_threadpool(self.jobs.delete, self._job(request).id)
        return Response(status_code=204)

    async def stop(self, request: Request) -> Response:
        return JSONResponse(self.view(self.jobs.stop(self._job(request).id)))

    async def resume(self, request: Request) -> Response:
        return JSONResponse(self.view(self.jobs.resume(self._job(request).id)))

    async def recrawl(self, request: Request) -> Response:
        job = await run_in_threadpool(self.jobs.recrawl, self._job(request).id)
        return JSONResponse(self.view(job, full=True), status_code=201,
                            headers={"Location": f"/api/crawls/{job.id}"})

    def _job(self, request: Request) -> Job:
        return self.jobs.get(request.path_params["id"])

    def view(self, job: Job, full: bool = False) -> dict[str, Any]:
        """A job as the API shows it; ``full``: with its settings and failures."""
        crawl = self.jobs.crawls / job.id
        base = f"/api/crawls/{job.id}"
        data: dict[str, Any] = {
            "id": job.id, "status": job.status, "start_url": job.settings["start_urls"][0],
            "since": job.since, "created": job.created, "started": job.started,
            "finished": job.finished, "runs": job.runs, "error": job.error,
            "returncode": job.returncode, "stats": self.jobs.figures(job.id),
            "links": {
                "self": base, "events": f"{base}/events", "graph": f"{base}/graph.json",
                "report": f"{base}/report/", "wacz": f"{base}/export.wacz",
                "diff": f"{base}/diff?against=ID",
                **({"records": f"{base}/{RECORDS}"} if (crawl / RECORDS).is_file() else {}),
                **({"qa": f"{base}/files/{QA_VIEW}"} if (crawl / QA_VIEW).is_file() else {}),
            },
        }
        if full:
            data["settings"] = job.settings
            data["failures"] = failures(crawl / GRAPH_JSON)
            data["counts"] = counted(crawl) if job.status not in ACTIVE else None
            data["qa"] = qa_shares(crawl)
        return data

    # ---- live events --------------------------------------------------------------------------
    async def events(self, request: Request) -> Response:
        job = self._job(request)
        start = request.headers.get("last-event-id") or request.query_params.get("from") or "0"
        if not start.isdigit():
            raise ConfigError(f"from: expected a byte offset, got {start[:40]!r}")
        path = self.jobs.jobs / job.id / EVENTS
        return StreamingResponse(
            self._tail(request, job.id, path, int(start)), media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def _tail(
        self, request: Request, job_id: str, path: Path, offset: int
    ) -> AsyncIterator[str]:
        """The job's events file from byte ``offset`` as server-sent events (each line's
        ``event`` its type, its ``id`` the offset after it), a ``status`` event at each change
        of the job's status, and ``closed`` once the job has stopped and all is sent.

        A ``state`` event carries ``picture``, the URL of its thumbnail, only once the file
        exists (``null`` before); a thumbnail written later comes as a ``picture`` event, so
        the page never asks for a picture that is not there. All that is due at one look is
        sent as one write: a client that left costs one failed write, not one per event."""
        shown = None
        waiting: dict[str, float] = {}  # state -> when its event was sent without a picture
        try:
            while True:
                try:
                    job = self.jobs.get(job_id)
                except UnknownJob:
                    yield "event: closed\ndata: {}\n\n"
                    return
                chunk = _read_lines(path, offset)
                due = [self._event(job_id, line, after, waiting) for line, after in chunk]
                offset = chunk[-1][1] if chunk else offset
                due.append(self._pictures(job_id, waiting, final=job.status not in ACTIVE))
                if job.status != shown:
                    shown = job.status
                    due.append(f"event: status\ndata: {json.dumps(self.view(job))}\n\n")
                if job.status not in ACTIVE and not chunk:
                    yield "".join(due) + "event: closed\ndata: {}\n\n"
                    return
                if any(due):
                    yield "".join(due)
                if await request.is_disconnected():
                    log.debug("events of crawl %s: the client left", job_id)
                    return
                await asyncio.sleep(TAIL_EVERY)
        except asyncio.CancelledError:
            log.debug("events of crawl %s: the client left", job_id)
            raise

    def _event(self, job_id: str, line: str, offset: int, waiting: dict[str, float]) -> str:
        """An events line as a server-sent event ("" for a line that is not one); a ``state``
        event gets its ``picture`` (see :meth:`_tail`)."""
        kind = _kind(line)
        if kind is None:
            return ""
        if kind == "state":
            data = json.loads(line)
            state = str(data.get("id", ""))
            data["picture"] = self._picture_url(job_id, state)
            if data["picture"] is None and _state_id(state):
                waiting[state] = asyncio.get_running_loop().time()
            line = json.dumps(data, ensure_ascii=False)
        return f"id: {offset}\nevent: {kind}\ndata: {line}\n\n"

    def _pictures(self, job_id: str, waiting: dict[str, float], final: bool) -> str:
        """A ``picture`` event for each state in ``waiting`` whose thumbnail is there now;
        those looked for longer than ``PICTURE_WAIT`` (or at the ``final`` look) are given
        up."""
        now = asyncio.get_running_loop().time()
        found = []
        for state, since in list(waiting.items()):
            url = self._picture_url(job_id, state)
            if url is not None:
                data = json.dumps({"id": state, "picture": url})
                found.append(f"event: picture\ndata: {data}\n\n")
            if url is not None or final or now - since > PICTURE_WAIT:
                del waiting[state]
        return "".join(found)

    def _picture_url(self, job_id: str, state: str) -> str | None:
        """The URL of ``state``'s thumbnail, if the crawl has one for it."""
        if not _state_id(state) or not self._thumbnail(job_id, state).is_file():
            return None
        return f"/api/crawls/{job_id}/states/{state}/thumbnail"

    def _thumbnail(self, job_id: str, state: str) -> Path:
        """Where ``state``'s thumbnail is (an unchanged state of a recrawl: its baseline's)."""
        return chain.locate(self.jobs.crawls / job_id, *thumbnail_paths(state))

    # ---- artifacts ----------------------------------------------------------------------------
    async def graph(self, request: Request) -> Response:
        crawl = self.jobs.crawls / self._job(request).id
        if chain.reference(crawl) is None:
            return send_file(crawl, GRAPH_JSON, media_type="application/json")
        return JSONResponse(await run_in_threadpool(chain.graph_data, crawl))  # a recrawl's, whole

    async def records(self, request: Request) -> Response:
        return send_file(self.jobs.crawls / self._job(request).id, RECORDS,
                         media_type="application/x-ndjson")

    async def files(self, request: Request) -> Response:
        return send_file(self.jobs.crawls / self._job(request).id, request.path_params["path"])

    async def screenshot(self, request: Request) -> Response:
        job, state = self._job(request), request.path_params["state"]
        if not _state_id(state):
            return error(404, f"no state {state[:40]!r}")
        for suffix in SCREENSHOT_TYPES:  # (an unchanged state of a recrawl: its baseline's)
            path = chain.locate(self.jobs.crawls / job.id, f"{STATES}/{state}.{suffix}")
            if path.is_file():
                return send_file(path.parent, path.name)
        return error(404, f"no screenshot of state {state}")

    async def thumbnail(self, request: Request) -> Response:
        job, state = self._job(request), request.path_params["state"]
        if not _state_id(state):
            return error(404, f"no state {state[:40]!r}")
        path = self._thumbnail(job.id, state)
        if not path.is_file():
            return error(404, f"no thumbnail of state {state}")
        return send_file(path.parent, path.name)

    async def report_root(self, request: Request) -> Response:
        return RedirectResponse(f"/api/crawls/{self._job(request).id}/report/", 308)

    async def report(self, request: Request) -> Response:
        job = self._job(request)
        relative = request.path_params["path"] or "index.html"
        target = self.jobs.jobs / job.id / "report"
        if relative == "index.html":
            await run_in_threadpool(self._build, job.id, target / "index.html", build_report,
                                    target)
            return send_file(target, relative, REPORT_POLICY)
        return send_file(target, relative)

    async def wacz(self, request: Request) -> Response:
        from ..export.wacz import export_wacz

        job = self._job(request)
        target = self.jobs.jobs / job.id / "crawl.wacz"
        await run_in_threadpool(self._build, job.id, target, export_wacz, target)
        return send_file(target.parent, target.name, media_type="application/wacz",
                         filename=f"{job.id}.wacz")

    def _build(self, job_id: str, made: Path, build: Callable[..., Any], target: Path) -> None:
        """Build ``target`` from the job's crawl with ``build(crawl, target)`` unless ``made``
        is newer than its graph; one build of a job at a time."""
        crawl = self.jobs.crawls / job_id
        graph = crawl / GRAPH_JSON
        if not graph.is_file():
            raise ArchiveError(f"crawl {job_id} has no graph yet: wait for its first states")
        with self.building_lock:
            lock = self.building.setdefault(job_id, threading.Lock())
        with lock:
            if made.is_file() and made.stat().st_mtime >= graph.stat().st_mtime:
                return
            build(crawl, target)

    async def diff(self, request: Request) -> Response:
        job = self._job(request)
        other = self.jobs.get(request.query_params.get("against", ""))
        old, new = self.jobs.crawls / other.id, self.jobs.crawls / job.id
        for crawl in (old, new):
            if not (crawl / GRAPH_JSON).is_file():
                raise ArchiveError(f"crawl {crawl.name} has no graph yet")
        changes = await run_in_threadpool(lambda: diff(load(old), load(new)))
        return JSONResponse(changes)


async def _body(request: Request) -> Any:
    """The request's JSON body (``{}`` when it has none)."""
    raw = await request.body()
    if not raw:
        return {}
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ConfigError("settings: send them as Content-Type: application/json")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ConfigError(f"settings: not valid JSON: {exc}") from None


def _read_lines(path: Path, offset: int) -> list[tuple[str, int]]:
    """The whole lines of ``path`` from byte ``offset``, each with the offset after it."""
    try:
        with path.open("rb") as file:
            file.seek(offset)
            data = file.read()
    except OSError:
        return []
    found = []
    for raw in data.splitlines(keepends=True):
        if not raw.endswith(b"\n"):
            break  # a line being written
        offset += len(raw)
        line = raw.decode("utf-8", "replace").strip()
        if line:
            found.append((line, offset))
    return found


def _state_id(text: str) -> bool:
    """Whether ``text`` has the form of a state id."""
    return len(text) == STATE_ID and all(c in "0123456789abcdef" for c in text)


def _kind(line: str) -> str | None:
    """The ``event`` of an events line (``None`` for a line that is not one)."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    kind = data.get("event") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) and kind.isidentifier() else None


def counted(crawl: Path) -> dict[str, int] | None:
    """The counts of the crawl in directory ``crawl`` (see :func:`.counts`), if it has one."""
    try:
        return asdict(counts(load(crawl)))
    except StatecrawlError:
        return None


def qa_shares(crawl: Path) -> dict[str, float] | None:
    """The share of states that match in replay, per replayer that ran (``statecrawl qa``'s
    ``qa.json``), or None when the crawl had no QA."""
    try:
        data = read_json(crawl / QA)
        replayers = data["replayers"] if isinstance(data, dict) else {}
        return {
            name: float(figures["share"]) for name, figures in replayers.items()
            if not figures.get("error")
        } or None
    except (ValueError, KeyError, TypeError, OSError):
        return None


def failures(graph: Path) -> list[dict[str, Any]]:
    """The failures a crawl's ``graph.json`` lists: the crawl's own, then each state's."""
    try:
        data = json.loads(graph.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    found = [{"state": None, **f} for f in data.get("graph", {}).get("failures", [])]
    for node in data.get("nodes", []):
        found += [{"state": node.get("id"), **f} for f in node.get("failures", [])]
    return found[:MAX_FAILURES]


def create_app(settings: ServiceSettings) -> ASGIApp:
    """The service's app; its lifespan opens the job queue and closes it (stopping crawls)."""
    api = Api(settings)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        api.jobs.open()
        try:
            yield
        finally:
            await run_in_threadpool(api.jobs.close)

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        StatecrawlError: _refused, HTTPException: _refused
    }
    app = Starlette(routes=api.routes(), lifespan=lifespan, exception_handlers=handlers)
    app.state.api = api
    return Guard(app, api.token)
