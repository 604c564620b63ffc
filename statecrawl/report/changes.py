"""What changed since an earlier crawl, as the report marks it.

A report compares its crawl with an earlier one when asked (``statecrawl report NEW
--against OLD``: :func:`statecrawl.analysis.diff`), and an incremental crawl with the crawl
it was made since, by default (its ``changes.json``). States are marked new or changed; a
changed one carries its text diff and the earlier state's picture; deleted states are listed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..directory.crawl import Crawl, load
from ..directory.layout import CHANGES
from ..errors import ArchiveError
from ..incremental.comparison import diff

MAX_DIFF = 20_000  # characters of a change's text diff in a state's file


@dataclass(frozen=True)
class Comparison:
    """A crawl's states against an earlier crawl's (``changes``: as :func:`diff` gives
    them), and the earlier crawl itself when its directory is still there."""

    changes: dict[str, Any]
    earlier: Crawl | None
    against: str

    def marks(self) -> dict[str, str]:
        """``"new"`` or ``"changed"`` by state id."""
        marks = {entry["id"]: "new" for entry in self.changes.get("new", ())}
        marks.update({entry["id"]: "changed" for entry in self.changes.get("changed", ())})
        return marks

    def change(self, node: str) -> dict[str, Any] | None:
        """A changed state's change: the earlier id, similarity, minor and the text diff."""
        found = next((c for c in self.changes.get("changed", ()) if c["id"] == node), None)
        if found is None:
            return None
        text = str(found.get("diff") or "")
        return {
            "old": found.get("old"),
            "similarity": found.get("similarity"),
            "minor": found.get("minor"),
            "diff": text if len(text) <= MAX_DIFF else text[:MAX_DIFF] + "\n…",
        }

    def summary(self) -> dict[str, Any]:
        """The counts, and the deleted states as they were (label, URL, path, reason)."""
        keep = ("id", "label", "title", "url", "path", "reason")
        return {
            "against": self.against,
            **{name: len(self.changes.get(name, ())) for name in ("unchanged", "changed", "new")},
            "deleted": [{k: d.get(k) for k in keep} for d in self.changes.get("deleted", ())],
        }

    def before(self, old: str) -> Path | None:
        """The earlier state's picture: its thumbnail, else its screenshot (``None`` when it
        has neither, or the earlier crawl's directory is gone)."""
        if self.earlier is None:
            return None
        if old not in self.earlier.graph:
            return None
        state = self.earlier.state(old)
        return state.thumbnail or state.screenshot


def compare(crawl: Crawl, against: Path | None) -> Comparison | None:
    """The comparison a report of ``crawl`` shows: with ``against`` when given, else with
    the crawl an incremental crawl was made since; ``None`` for neither."""
    if against is not None:
        given = load(against)
        return Comparison(diff(given, crawl), given, str(against))
    try:
        changes = json.loads((crawl.path / CHANGES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(changes, dict):
        return None
    since = (crawl.graph.graph.get("incremental") or {}).get("since")
    earlier: Crawl | None = None
    if isinstance(since, str):
        try:
            earlier = load(since)
        except ArchiveError:  # moved or removed since: the marks stay, the pictures go
            earlier = None
    return Comparison(changes, earlier, str(since or "the earlier crawl"))
