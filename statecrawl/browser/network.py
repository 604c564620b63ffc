"""Capture every HTTP exchange the browser makes, from the CDP Network events ChromeDriver logs.

ChromeDriver records CDP events in its ``performance`` log when the session was started with the
capability ``goog:loggingPrefs = {"performance": "ALL"}``. ``NetworkCapture.drain`` pairs those
events into ``Exchange`` objects and fetches response bodies while the browser still holds them.
"""

from __future__ import annotations

import base64
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, TypeVar

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chromium.webdriver import ChromiumDriver

from ..errors import BrowserError
from ..redaction import redact_headers, strip_userinfo

Headers = list[tuple[str, str]]
Extra = TypeVar("Extra")  # what an extra-info event queues for its request

# Generous CDP buffers so bodies stay retrievable until the next drain.
TOTAL_BUFFER = 512 * 1024 * 1024
RESOURCE_BUFFER = 128 * 1024 * 1024

_PROTOCOLS = {"http/1.0": "HTTP/1.0", "http/1.1": "HTTP/1.1", "h2": "HTTP/2", "h3": "HTTP/3"}
_NO_BODY_STATUS = (204, 304)
_CDP_MESSAGE = re.compile(r'"message"\s*:\s*"((?:[^"\\]|\\.)*)"')


def performance_log(driver: ChromiumDriver) -> list[dict[str, Any]]:
    """The entries Chromium logged to the performance log since it was last read (reading
    empties it), each with its CDP event as JSON text in ``message``."""
    # selenium leaves get_log unannotated
    entries: list[dict[str, Any]] = driver.get_log("performance")  # type: ignore[no-untyped-call]
    return entries


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # requests that change nothing
CANCELLED = "ERR_ABORTED"  # Chromium's error for a request the page or the browser cancelled


@dataclass(slots=True)
class Exchange:
    """One HTTP request and its response (or failure) as the browser saw it, less its
    secrets: no userinfo in its URLs, no value of a credential header (``redaction``)."""

    request_id: str
    url: str
    method: str = "GET"
    request_headers: Headers = field(default_factory=list)
    request_body: bytes | None = None
    status: int = 0
    status_text: str = ""
    http_version: str = "HTTP/1.1"
    response_headers: Headers = field(default_factory=list)
    body: bytes | None = None
    body_error: str | None = None
    mime_type: str = ""
    resource_type: str = "Other"
    started: float = field(default_factory=time.time)
    from_cache: bool = False
    referrer: str | None = None
    failed: str | None = None
    redacted: bool = False  # a login's own exchange, its secrets taken out (``login.Secrets``)
    download: str | None = None  # the name of the file the browser saved it as (``download``)
    download_skipped: str | None = None  # why that file is not archived

    def response_header(self, name: str) -> str | None:
        """The first response header called ``name`` (any case), or None."""
        return _find(self.response_headers, name)

    def request_header(self, name: str) -> str | None:
        """The first request header called ``name`` (any case), or None."""
        return _find(self.request_headers, name)


@dataclass(slots=True)
class _Hop:
    """One request of a CDP request id (a redirect chain has several) while events arrive."""

    request_id: str
    request: dict[str, Any]
    started: float
    resource_type: str
    initiator: dict[str, Any]
    request_extra: Headers | None = None
    response: dict[str, Any] | None = None
    response_extra: dict[str, Any] | None = None
    expects_extra: bool = False
    served_from_cache: bool = False
    request_body: bytes | None = None
    body: bytes | None = None
    body_error: str | None = None
    failed: str | None = None
    deferred: bool = False

    @property
    def status(self) -> int:
        return int(self.response["status"]) if self.response else 0

    def exchange(self) -> Exchange:
        """The finished hop as an ``Exchange``."""
        response = self.response or {}
        request_headers = redact_headers(
            self.request_extra or _dict_headers(self.request.get("headers", {}))
        )
        referrer = _find(request_headers, "Referer") or _initiator_url(self.initiator)
        return Exchange(
            request_id=self.request_id,
            url=strip_userinfo(self.request["url"]),
            method=self.request.get("method", "GET"),
            request_headers=request_headers,
            request_body=self.request_body,
            status=self.status,
            status_text=response.get("statusText", ""),
            http_version=_PROTOCOLS.get(response.get("protocol", ""), "HTTP/1.1"),
            response_headers=redact_headers(self.response_headers()),
            body=self.body,
            body_error=self.body_error,
            mime_type=response.get("mimeType", ""),
            resource_type=self.resource_type,
            started=self.started,
            from_cache=self.from_cache,
            referrer=referrer and strip_userinfo(referrer),
            failed=self.failed,
        )

    @property
    def from_cache(self) -> bool:
        response = self.response or {}
        return bool(
            self.served_from_cache
            or response.get("fromDiskCache")
            or response.get("fromPrefetchCache")
        )

    def response_headers(self) -> Headers:
        """The raw headers when an ExtraInfo event gave them (with Set-Cookie), else CDP's."""
        if self.response_extra:
            text = self.response_extra.get("headersText")
            if text:
                return _parse_headers_text(text)
            return _dict_headers(self.response_extra.get("headers", {}))
        return _dict_headers((self.response or {}).get("headers", {}))


class NetworkCapture:
    """Turns the performance log of one Chrome session into ``Exchange`` objects.

    Call ``start()`` once, then ``drain()`` whenever the page has settled and always before
    navigating away: Chrome forgets the bodies of a document's requests when the next one commits.
    """

    def __init__(
        self,
        driver: ChromiumDriver,
        *,
        total_buffer: int = TOTAL_BUFFER,
        resource_buffer: int = RESOURCE_BUFFER,
    ) -> None:
        self._driver = driver
        self._buffers = {
            "maxTotalBufferSize": total_buffer,
            "maxResourceBufferSize": resource_buffer,
        }
        self._live: dict[str, _Hop] = {}
        self.writes: list[tuple[str, str]] = []  # unsafe requests sent since taken
        self._ended: list[_Hop] = []
        self._request_extra: dict[str, list[tuple[int, Headers]]] = {}
        self._response_extra: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        self._bodies_seen: set[str] = set()
        self._drains = 0
        self.download_events: list[tuple[str, dict[str, Any]]] = []  # ``download`` reads them
        self._handlers = {
            "Page.downloadWillBegin": self._on_download,
            "Page.downloadProgress": self._on_download,
            "Network.requestWillBeSent": self._on_request,
            "Network.requestWillBeSentExtraInfo": self._on_request_extra,
            "Network.requestServedFromCache": self._on_served_from_cache,
            "Network.responseReceived": self._on_response,
            "Network.responseReceivedExtraInfo": self._on_response_extra,
            "Network.loadingFinished": self._on_finished,
            "Network.loadingFailed": self._on_failed,
        }

    def start(self) -> None:
        """Enable the CDP Network domain with large buffers so bodies stay available."""
        self._cdp("Network.enable", self._buffers)

    def drain(self, *, final: bool = False) -> list[Exchange]:
        """Every exchange completed since the last drain, in completion order.

        Unfinished requests stay pending for a later drain; ``final=True`` returns them too
        (without a response they carry ``failed``, with one a ``body_error``).
        """
        try:
            entries = performance_log(self._driver)
        except WebDriverException as exc:
            raise BrowserError(f"cannot read the performance log: {_cdp_error(exc)}") from None
        self._drains += 1
        for entry in entries:
            message = json.loads(entry["message"]).get("message", {})
            handler = self._handlers.get(message.get("method", ""))
            if handler is not None:
                handler(message.get("params", {}))
        return self._collect(final)

    def take_writes(self) -> list[tuple[str, str]]:
        """The method and URL of each request that may change server-side state (a method
        other than GET, HEAD or OPTIONS) made since the last call, answered or not: known as
        it is sent, where its exchange comes out of :meth:`drain` only once its body has come
        (a fetch resolves, and the page moves on, before that)."""
        taken, self.writes = self.writes, []
        return taken

    @property
    def pending(self) -> int:
        """How many requests have started but not yet come out of ``drain``."""
        return len(self._live) + len(self._ended)

    # -- event handlers ----------------------------------------------------------------------

    def _on_request(self, params: dict[str, Any]) -> None:
        request_id = params["requestId"]
        previous = self._live.pop(request_id, None)
        if previous is not None:
            redirect = params.get("redirectResponse")
            if redirect is not None:
                self._set_response(previous, redirect, params.get("redirectHasExtraInfo", False))
                previous.body_error = "the browser does not keep the body of a redirect response"
            else:
                previous.failed = "superseded by a new request with the same id"
            self._ended.append(previous)
        request = params["request"]
        if not request["url"].startswith(("http://", "https://")):
            return
        hop = _Hop(
            request_id=request_id,
            request=request,
            started=float(params.get("wallTime") or time.time()),
            resource_type=params.get("type", "Other"),
            initiator=params.get("initiator", {}),
        )
        method = str(request.get("method", "GET")).upper()
        if method not in SAFE_METHODS:
            self.writes.append((method, strip_userinfo(request["url"])))
        hop.request_body = self._post_body(request_id, request)
        queued = self._request_extra.get(request_id)
        if queued:
            hop.request_extra = queued.pop(0)[1]
        self._live[request_id] = hop

    def _on_request_extra(self, params: dict[str, Any]) -> None:
        request_id = params["requestId"]
        headers = _dict_headers(params.get("headers", {}))
        hop = self._live.get(request_id)
        if hop is not None and hop.request_extra is None:
            hop.request_extra = headers
        else:
            self._request_extra.setdefault(request_id, []).append((self._drains, headers))

    def _on_served_from_cache(self, params: dict[str, Any]) -> None:
        hop = self._live.get(params["requestId"])
        if hop is not None:
            hop.served_from_cache = True

    def _on_response(self, params: dict[str, Any]) -> None:
        hop = self._live.get(params["requestId"])
        if hop is not None:
            hop.resource_type = params.get("type", hop.resource_type)
            self._set_response(hop, params["response"], params.get("hasExtraInfo", False))

    def _on_response_extra(self, params: dict[str, Any]) -> None:
        request_id = params["requestId"]
        for hop in (*self._ended, self._live.get(request_id)):
            if (
                hop is not None
                and hop.request_id == request_id
                and hop.expects_extra
                and hop.response_extra is None
                and hop.status == params.get("statusCode")
            ):
                hop.response_extra = params
                return
        self._response_extra.setdefault(request_id, []).append((self._drains, params))

    def _on_finished(self, params: dict[str, Any]) -> None:
        hop = self._live.pop(params["requestId"], None)
        if hop is None:
            return
        if hop.response is None:
            hop.failed = "loading finished without a response"
        else:
            self._fetch_body(hop)
        self._ended.append(hop)

    def _on_failed(self, params: dict[str, Any]) -> None:
        hop = self._live.pop(params["requestId"], None)
        if hop is None:
            return
        error = params.get("errorText") or "loading failed"
        if params.get("blockedReason"):
            error = f"{error} ({params['blockedReason']})"
        if hop.response is None:
            hop.failed = error
        else:
            hop.body_error = f"loading failed after the response headers: {error}"
        self._ended.append(hop)

    def _on_download(self, params: dict[str, Any]) -> None:
        self.download_events.append((params["guid"], params))

    # -- helpers -------------------------------------------------------------------------------

    def _set_response(self, hop: _Hop, response: dict[str, Any], has_extra: bool) -> None:
        hop.response = response
        hop.expects_extra = bool(has_extra) and not hop.from_cache
        queued = self._response_extra.get(hop.request_id, [])
        for index, (_, extra) in enumerate(queued):
            if extra.get("statusCode") == hop.status:
                hop.response_extra = queued.pop(index)[1]
                break

    def _fetch_body(self, hop: _Hop) -> None:
        url = hop.request["url"]
        if hop.request.get("method") == "HEAD" or hop.status in _NO_BODY_STATUS:
            hop.body = b""
            return
        if hop.from_cache and url in self._bodies_seen:
            return
        try:
            reply = self._driver.execute_cdp_cmd(
                "Network.getResponseBody", {"requestId": hop.request_id}
            )
        except WebDriverException as exc:
            hop.body_error = _cdp_error(exc)
            return
        body = reply.get("body", "")
        data = base64.b64decode(body) if reply.get("base64Encoded") else body.encode("utf-8")
        declared = _find(hop.response_headers(), "Content-Length") or "0"
        if not data and declared.strip() not in ("", "0"):
            # Chrome drops the data of resources it could not use (an undecodable image, say).
            hop.body_error = f"the browser returned no body for Content-Length {declared.strip()}"
            return
        hop.body = data
        self._bodies_seen.add(url)

    def _post_body(self, request_id: str, request: dict[str, Any]) -> bytes | None:
        if not request.get("hasPostData"):
            return None
        entries = request.get("postDataEntries")
        if entries and all("bytes" in entry for entry in entries):
            return b"".join(base64.b64decode(entry["bytes"]) for entry in entries)
        if "postData" in request:
            text: str = request["postData"]
            return text.encode("utf-8")
        try:
            reply = self._driver.execute_cdp_cmd(
                "Network.getRequestPostData", {"requestId": request_id}
            )
        except WebDriverException:
            return None
        data = reply.get("postData", "")
        return base64.b64decode(data) if reply.get("base64Encoded") else data.encode("utf-8")

    def _collect(self, final: bool) -> list[Exchange]:
        ready: list[Exchange] = []
        waiting: list[_Hop] = []
        for hop in self._ended:
            if hop.expects_extra and hop.response_extra is None and not hop.deferred and not final:
                hop.deferred = True  # its raw headers may arrive with the next drain
                waiting.append(hop)
            else:
                ready.append(hop.exchange())
        self._ended = waiting
        if final:
            for hop in self._live.values():
                if hop.response is None:
                    hop.failed = "not finished when the capture was drained"
                else:
                    hop.body_error = "loading had not finished when the capture was drained"
                ready.append(hop.exchange())
            self._live.clear()
        self._forget_stale_extras(final)
        return ready

    def _forget_stale_extras(self, final: bool) -> None:
        active = set(self._live) | {hop.request_id for hop in self._ended}
        self._forget_stale(self._request_extra, active, final)
        self._forget_stale(self._response_extra, active, final)

    def _forget_stale(
        self, queues: dict[str, list[tuple[int, Extra]]], active: set[str], final: bool
    ) -> None:
        for request_id in list(queues):
            kept = [
                item
                for item in queues[request_id]
                if not final and (request_id in active or item[0] >= self._drains - 1)
            ]
            if kept:
                queues[request_id] = kept
            else:
                del queues[request_id]

    def _cdp(self, command: str, params: dict[str, Any]) -> dict[str, Any]:
        try:
            result: dict[str, Any] = self._driver.execute_cdp_cmd(command, params)
            return result
        except WebDriverException as exc:
            raise BrowserError(f"CDP {command} failed: {_cdp_error(exc)}") from None


def _find(headers: Headers, name: str) -> str | None:
    name = name.lower()
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def _dict_headers(headers: dict[str, str]) -> Headers:
    """CDP header objects join repeated headers with newlines; split them back."""
    return [(name, part) for name, value in headers.items() for part in str(value).split("\n")]


def _parse_headers_text(text: str) -> Headers:
    """Headers of a raw HTTP/1.x response head (status line first), in their wire order."""
    headers: Headers = []
    for line in text.split("\r\n")[1:]:
        if not line:
            break
        if line[0] in " \t" and headers:
            name, value = headers[-1]
            headers[-1] = (name, f"{value} {line.strip()}")
        elif ":" in line:
            name, value = line.split(":", 1)
            headers.append((name.strip(), value.strip()))
    return headers


def _initiator_url(initiator: dict[str, Any]) -> str | None:
    url: str | None = initiator.get("url")
    if url:
        return url
    frames = initiator.get("stack", {}).get("callFrames", [])
    return next((frame["url"] for frame in frames if frame.get("url")), None)


def _cdp_error(exc: WebDriverException) -> str:
    """The one-line reason inside a WebDriver error (CDP errors nest a JSON ``message``)."""
    text = str(exc.msg or exc.__class__.__name__)
    match = _CDP_MESSAGE.search(text)
    if match:
        message: str = json.loads(f'"{match.group(1)}"')
        return message
    return text.strip().splitlines()[0]
