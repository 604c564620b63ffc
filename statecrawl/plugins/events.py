"""A crawl's live figures as JSON lines, for a program watching it (``statecrawl serve``).

:class:`EventLog` is both the crawl's progress callback and a plugin: it appends one line
``{"event": "progress", ...}`` with the figures at most every ``EVERY`` seconds, one
``{"event": "state", ...}`` for each state as it is found, and ``{"event": "end", ...}`` with
the final figures. Each line is flushed whole, so a reader tailing the file never sees half
of one; a resumed crawl appends to the same file.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import ArchiveError
from .hooks import CrawlView, Plugin, StateEvent

if TYPE_CHECKING:
    from ..stats import Stats

EVERY = 0.5  # seconds between two progress lines
# the running figures; the end line's are the crawl's counts (see directory/figures.py)
FIGURES = ("states", "transitions", "inferred", "documents", "downloads", "out_of_scope",
           "records", "frontier", "resets", "failures", "max_depth", "elapsed")


class EventLog(Plugin):
    """Appends a crawl's events to the JSON-lines file ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()  # states come from the browsers' threads
        self.last = -EVERY
        try:
            self.file: IO[str] = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close)
        except OSError as exc:
            raise ArchiveError(f"cannot write events to {path}: {exc.strerror or exc}") from None

    def __call__(self, stats: Stats) -> None:
        """The progress callback: a line of figures, unless one was written just now."""
        if stats.elapsed - self.last >= EVERY:
            self.last = stats.elapsed
            self.write("progress", figures(vars(stats)))

    def on_state(self, crawl: CrawlView, event: StateEvent) -> None:
        state, action = event.state, event.action
        self.write(
            "state",
            {"id": state.id, "url": state.url, "title": state.title, "depth": state.depth,
             "parent": event.parent, "action": action.name if action is not None else None},
        )

    def end(self, stats: dict[str, Any]) -> None:
        """The crawl is over with the figures ``stats`` (its graph's)."""
        self.write("end", {**figures(stats), "stop_reason": stats.get("stop_reason")})

    def write(self, event: str, data: dict[str, Any]) -> None:
        """Append the line of ``event`` with ``data`` and the time (seconds since the epoch)."""
        line = json.dumps({"event": event, "time": time.time(), **data}, ensure_ascii=False)
        with self.lock:
            if not self.file.closed:
                self.file.write(line + "\n")
                self.file.flush()

    def close(self) -> None:
        """Close the file (safe twice); later events are dropped."""
        with self.lock:
            self.file.close()


def figures(stats: dict[str, Any]) -> dict[str, Any]:
    """The figures a watcher shows, from a crawl's stats: counts, and transitions a second."""
    shown = {name: stats.get(name, 0) for name in FIGURES}
    elapsed = shown["elapsed"]
    shown["rate"] = round(shown["transitions"] / elapsed, 2) if elapsed else 0.0
    return shown
