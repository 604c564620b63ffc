"""The records of one state: its DOM as a resource, its frames (with how it was reached) as
metadata, its screenshot and thumbnail; or one revisit when an earlier crawl holds its DOM."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from warcio.recordloader import ArcWarcRecord

from ..directory.layout import SCREENSHOT_TYPES, image_format
from ..directory.resources import STATE_URL_TAG, Seen
from ..errors import ArchiveError
from .warc import BUILDER, record, record_id, snapshot_uri, warc_date


def state_records(
    state_id: str,
    key: str,
    url: str,
    html: str,
    frames: list[Any] | None,
    screenshot: bytes | None,
    screenshot_format: str,
    parent: str | None,
    action: dict[str, Any] | None,
    rearchived: str | None = None,
    thumbnail: bytes | None = None,
    missing: Mapping[str, str] | None = None,
) -> list[ArcWarcRecord]:
    """The records of a state: its DOM, its frames, its ``screenshot`` (an image in
    ``screenshot_format``, or ``None``) and its ``thumbnail`` (a WebP, or ``None``), each
    linked to the DOM's; ``rearchived``: why it is archived again from its files;
    ``missing``: the pictures it has none of, and why (said in the frames' record)."""
    described: dict[str, Any] = {"parent": parent, "action": action, "frames": frames}
    if rearchived is not None:
        described["rearchived"] = rearchived
    if missing:
        described["missing"] = dict(missing)
    try:
        details = json.dumps(described, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as exc:
        raise ArchiveError(f"state {state_id}: frames or action are not JSON: {exc}") from None
    tags = {"WARC-Date": warc_date(), "WARC-Statecrawl-State": state_id}
    snapshot = record(
        snapshot_uri(state_id),
        "resource",
        html.encode("utf-8"),
        {**tags, "WARC-Statecrawl-Key": key, STATE_URL_TAG: url},
        content_type="text/html; charset=utf-8",
    )
    linked = {**tags, "WARC-Refers-To": record_id(snapshot)}
    records = [
        snapshot,
        record(
            f"urn:statecrawl:state:{state_id}:frames",
            "metadata",
            details,
            linked,
            content_type="application/json",
        ),
    ]
    thumbnail_format = image_format(thumbnail) if thumbnail is not None else "webp"
    pictures = [("screenshot", screenshot, screenshot_format),
                ("thumbnail", thumbnail, thumbnail_format)]
    for part, image, kind in pictures:
        if image is not None:
            uri = f"urn:statecrawl:state:{state_id}:{part}"
            content_type = SCREENSHOT_TYPES[kind]
            records.append(record(uri, "resource", image, linked, content_type=content_type))
    return records


def unchanged_state_record(state_id: str, key: str, url: str, earlier: Seen) -> ArcWarcRecord:
    """A revisit record for a state whose DOM is the one ``earlier`` (an earlier crawl's
    snapshot record) holds."""
    tags = {
        "WARC-Date": warc_date(),
        "WARC-Statecrawl-State": state_id,
        "WARC-Statecrawl-Key": key,
        STATE_URL_TAG: url,
        "WARC-Refers-To": earlier.record_id,
    }
    return BUILDER.create_revisit_record(
        snapshot_uri(state_id), earlier.digest, earlier.url, earlier.date, warc_headers_dict=tags
    )
