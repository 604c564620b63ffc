"""The resource index of a crawl directory (``resources.jsonl``) and the payloads it names:
what the archive writes, and what an incremental crawl and the integrity check read back
(with the WARC records' headers)."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

from ..errors import ArchiveError
from .layout import RESOURCES

if TYPE_CHECKING:
    from warcio.statusandheaders import StatusAndHeaders

# On a state's DOM snapshot record (``urn:statecrawl:state:<id>:snapshot``): the page's URL.
# Here, not in the archive package, so that replay reads it without the archive's writers.
STATE_URL_TAG = "WARC-Statecrawl-URL"
# On a response record archived without its body (the browser did not give it): why.
BODY_ERROR_TAG = "WARC-Statecrawl-Body-Error"


@dataclass(frozen=True, slots=True)
class Seen:
    """A payload already archived: what later identical captures refer to."""

    url: str
    digest: str
    record_id: str
    date: str


def read_resources(directory: Path | str) -> list[dict[str, Any]]:
    """The resource index of a crawl directory, one dict per URL."""
    path = Path(directory) / RESOURCES
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ArchiveError(
            f"no resource index at {path}: is {directory} a crawl directory?"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ArchiveError(f"cannot read resource index {path}: {exc}") from None
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ArchiveError(f"{path}:{number}: not a JSON line: {exc}") from None
    return entries


def payload_digest(payload: bytes) -> str:
    """The WARC payload digest of ``payload``: ``sha1:`` + base32 of the SHA-1."""
    return "sha1:" + base64.b32encode(hashlib.sha1(payload).digest()).decode("ascii")


def snapshot_url(headers: StatusAndHeaders) -> str:
    """The URL of the page a state's snapshot record holds the DOM of: its own header, or
    (archives written before it had one) its target URI, then the page's URL."""
    url: str = headers.get_header(STATE_URL_TAG) or headers.get_header("WARC-Target-URI") or ""
    return url


def archived_headers(path: Path) -> Iterator[StatusAndHeaders]:
    """The WARC headers of every record of ``path``."""
    try:
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                yield record.rec_headers
    except (OSError, ArchiveLoadFailed) as exc:
        raise ArchiveError(f"cannot read WARC file {path}: {exc}") from None


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
