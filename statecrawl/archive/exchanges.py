"""The records of one network exchange: request and response, a revisit of a payload archived
before, request and error for one that failed, and a page-made (blob) document; and which
exchanges the archive settings leave out."""

from __future__ import annotations

import http
import io
from urllib.parse import urlsplit

from warcio.recordloader import ArcWarcRecord
from warcio.statusandheaders import StatusAndHeaders

from ..browser.network import Exchange
from ..config import Archive
from ..directory.resources import BODY_ERROR_TAG, Seen, payload_digest
from ..errors import one_line
from .warc import BUILDER, DOWNLOAD_TAG, REDACTED_TAG, record, record_id

CACHED_BODY = "served from the browser cache; the body was captured earlier"

# Headers that describe the wire encoding; CDP hands back decoded bodies, so they are rewritten.
_WIRE_HEADERS = {"content-encoding", "transfer-encoding", "content-length"}


def capture(
    ex: Exchange, digest: str | None, date: str, state_id: str | None
) -> list[ArcWarcRecord]:
    """Response and request of an exchange whose payload (of ``digest``; ``None`` when its
    body could not be had) is archived whole."""
    body = ex.body or b""
    tags = _tags(date, state_id, ex.redacted)
    if ex.download is not None:
        tags[DOWNLOAD_TAG] = ex.download
    if ex.body is None:
        tags[BODY_ERROR_TAG] = one_line(ex.body_error or CACHED_BODY)
    else:
        tags["WARC-Payload-Digest"] = digest or payload_digest(body)
    response = BUILDER.create_warc_record(
        ex.url,
        "response",
        payload=io.BytesIO(body),
        length=len(body),
        warc_headers_dict=tags,
        http_headers=_response_http(ex, len(body)),
    )
    return [response, _request(ex, date, state_id, record_id(response))]


def duplicate(ex: Exchange, earlier: Seen, date: str, state_id: str | None) -> list[ArcWarcRecord]:
    """Revisit and request of an exchange whose payload ``earlier`` holds."""
    tags = _tags(date, state_id, ex.redacted)
    tags["WARC-Refers-To"] = earlier.record_id
    length = len(ex.body) if ex.body is not None else None
    revisit = BUILDER.create_revisit_record(
        ex.url,
        earlier.digest,
        earlier.url,
        earlier.date,
        http_headers=_response_http(ex, length),
        warc_headers_dict=tags,
    )
    return [revisit, _request(ex, date, state_id, record_id(revisit))]


def failure(ex: Exchange, date: str, state_id: str | None) -> list[ArcWarcRecord]:
    """Request and error metadata of an exchange that got no response."""
    request = _request(ex, date, state_id, None)
    fields = {"error": ex.failed or "no response", "resource-type": ex.resource_type}
    text = "".join(f"{name}: {one_line(value)}\r\n" for name, value in fields.items())
    tags = {**_tags(date, state_id, ex.redacted), "WARC-Refers-To": record_id(request)}
    return [request, record(ex.url, "metadata", text.encode("utf-8"), tags)]


def blob(
    ex: Exchange, digest: str, earlier: Seen | None, date: str, state_id: str | None
) -> ArcWarcRecord:
    """A document a script made in the page (a blob URL, new each time): a resource record,
    or a revisit of ``earlier``, the first one with the same bytes."""
    assert ex.body is not None
    tags = {**_tags(date, state_id), DOWNLOAD_TAG: ex.download or ""}
    if earlier is None:
        return record(
            ex.url, "resource", ex.body, {**tags, "WARC-Payload-Digest": digest}, ex.mime_type
        )
    tags["WARC-Refers-To"] = earlier.record_id
    return BUILDER.create_revisit_record(
        ex.url, digest, earlier.url, earlier.date, warc_headers_dict=tags
    )


def skip_reason(ex: Exchange, settings: Archive) -> str | None:
    """Why ``settings`` leave ``ex`` out of the archive (``None``: they keep it)."""
    if ex.download_skipped:
        return ex.download_skipped
    path = urlsplit(ex.url).path.lower()
    extension = next((e for e in settings.exclude_extensions if path.endswith(e.lower())), None)
    if extension:
        return f"extension {extension} is excluded"
    kind = mime(ex)
    included = any(kind.startswith(t.lower()) for t in settings.include_types)
    if ex.status and settings.include_types and not included:
        return f"type {kind or 'unknown'} is not in include_types"
    excluded = next((t for t in settings.exclude_types if kind.startswith(t.lower())), None)
    if ex.status and kind and excluded:
        return f"type {kind} is excluded ({excluded})"
    limit = settings.max_record_size
    if limit is not None and ex.body is not None and len(ex.body) > limit:
        return f"body of {len(ex.body)} bytes exceeds max_record_size {limit}"
    return None


def mime(ex: Exchange) -> str:
    """The media type of the response, lower case, without parameters ("" when unknown)."""
    return (ex.mime_type or ex.response_header("Content-Type") or "").split(";")[0].strip().lower()


def _request(
    ex: Exchange, date: str, state_id: str | None, concurrent_to: str | None
) -> ArcWarcRecord:
    body = ex.request_body or b""
    parts = urlsplit(ex.url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = [(k, v) for k, v in ex.request_headers if not _rewritten(k)]
    if not any(k.lower() == "host" for k, _ in headers):
        headers.insert(0, ("Host", parts.netloc.rpartition("@")[2]))
    if ex.request_body is not None:
        headers.append(("Content-Length", str(len(body))))
    tags = _tags(date, state_id, ex.redacted)
    if concurrent_to:
        tags["WARC-Concurrent-To"] = concurrent_to
    return BUILDER.create_warc_record(
        ex.url,
        "request",
        payload=io.BytesIO(body),
        length=len(body),
        warc_headers_dict=tags,
        http_headers=StatusAndHeaders(
            f"{ex.method} {target} HTTP/1.1", headers, is_http_request=True
        ),
    )


def _response_http(ex: Exchange, length: int | None) -> StatusAndHeaders:
    """A correct HTTP/1.x head for a decoded body of ``length`` bytes (None: keep the length)."""
    headers = [(k, v) for k, v in ex.response_headers if not _rewritten(k)]
    if length is not None:
        headers.append(("Content-Length", str(length)))
    else:
        headers.extend((k, v) for k, v in ex.response_headers if k.lower() == "content-length")
    try:
        phrase = ex.status_text or http.HTTPStatus(ex.status).phrase
    except ValueError:
        phrase = "Unknown"
    version = "HTTP/1.0" if ex.http_version == "HTTP/1.0" else "HTTP/1.1"
    return StatusAndHeaders(f"{ex.status} {phrase}", headers, protocol=version)


def _rewritten(name: str) -> bool:
    """Headers rebuilt for the archived message, and HTTP/2 pseudo-headers."""
    return name.startswith(":") or name.lower() in _WIRE_HEADERS


def _tags(date: str, state_id: str | None, redacted: bool = False) -> dict[str, str]:
    """The WARC headers of an exchange's records; ``redacted``: a login's exchange whose
    secrets were taken out (``statecrawl.browser.login.Secrets``)."""
    tags = {"WARC-Date": date}
    if redacted:
        tags[REDACTED_TAG] = "login"
    if state_id is not None:
        tags["WARC-Statecrawl-State"] = state_id
    return tags
