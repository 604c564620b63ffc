"""What WARC files already hold, read back: the payloads later captures refer to, the state
parts archived, and the captures the resource index claims but no record holds (the records'
headers are read by ``directory.resources``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders

from ..directory.layout import RESOURCES
from ..directory.resources import Seen, archived_headers, payload, read_resources
from .warc import DOWNLOAD_TAG


def archived_payloads(path: Path) -> Iterator[Seen]:
    """The payloads ``path`` holds in response records: what a later capture refers to."""
    return (seen for headers in archived_headers(path) if (seen := payload(headers)))


def state_part(headers: StatusAndHeaders) -> tuple[str, str] | None:
    """The state a record archives and which part of it: ``snapshot`` (see
    :func:`snapshot_state`), ``frames``, ``screenshot`` or ``thumbnail``; ``None`` for other
    records."""
    state = headers.get_header("WARC-Statecrawl-State")
    if state is None:
        return None
    if snapshot_state(headers) is not None:
        return state, "snapshot"
    uri = headers.get_header("WARC-Target-URI") or ""
    part = uri.rpartition(":")[2]
    return (state, part) if uri == f"urn:statecrawl:state:{state}:{part}" else None


def snapshot_state(headers: StatusAndHeaders) -> str | None:
    """The state whose DOM a record holds or refers to (a revisit of an unchanged state),
    by the id it had when archived; ``None`` for any other record."""
    if not headers.get_header("WARC-Statecrawl-Key"):
        return None
    state: str | None = headers.get_header("WARC-Statecrawl-State")
    return state


def lost_captures(directory: Path, files: Iterable[Path]) -> list[str]:
    """The URLs the resource index says were captured whole that no record of ``files``
    holds: their records were lost. None when a crawl was killed before it wrote its
    first index (it claims no capture; its states' records may still have been waiting
    in the archive's spool)."""
    if not (directory / RESOURCES).is_file():
        return []
    held = {
        h.get_header("WARC-Target-URI")
        for path in files
        for h in archived_headers(path)
        if h.get_header("WARC-Type") in ("response", "revisit") or h.get_header(DOWNLOAD_TAG)
    }
    return sorted(
        e["url"] for e in read_resources(directory)
        if e.get("status") and not e.get("skipped") and not e.get("failed")
        and e["url"] not in held
    )
