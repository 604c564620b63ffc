"""What WARC files already hold, read back: their records' headers, the payloads later captures
refer to, the state parts archived, and the captures the resource index claims but no record
holds."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.statusandheaders import StatusAndHeaders

from ..directory.layout import RESOURCES
from ..directory.resources import Seen, read_resources
from ..errors import ArchiveError
from .warc import BODY_ERROR_TAG, DOWNLOAD_TAG


def archived_headers(path: Path) -> Iterator[StatusAndHeaders]:
    """The WARC headers of every record of ``path``."""
    try:
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                yield record.rec_headers
    except (OSError, ArchiveLoadFailed) as exc:
        raise ArchiveError(f"cannot read WARC file {path}: {exc}") from None


def archived_payloads(path: Path) -> Iterator[Seen]:
    """The payloads ``path`` holds in response records: what a later capture refers to."""
    return (seen for headers in archived_headers(path) if (seen := payload(headers)))


def payload(headers: StatusAndHeaders) -> Seen | None:
    """The payload a response record holds, if it holds one (one archived without its body,
    which the browser did not give, holds none of the resource's)."""
    digest = headers.get_header("WARC-Payload-Digest")
    if headers.get_header("WARC-Type") != "response" or not digest or headers.get_header(
        BODY_ERROR_TAG
    ):
        return None
    return Seen(
        headers.get_header("WARC-Target-URI"),
        digest,
        headers.get_header("WARC-Record-ID"),
        headers.get_header("WARC-Date"),
    )


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
