"""The resource index of a crawl directory (``resources.jsonl``) and the payloads it names:
what the archive writes, and what an incremental crawl and the integrity check read back."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ArchiveError
from .layout import RESOURCES

if TYPE_CHECKING:
    from warcio.statusandheaders import StatusAndHeaders

# On a state's DOM snapshot record (``urn:statecrawl:state:<id>:snapshot``): the page's URL.
# Here, not in the archive package, so that replay reads it without the archive's writers.
STATE_URL_TAG = "WARC-Statecrawl-URL"


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
