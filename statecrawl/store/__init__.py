"""The crawl store: what a crawl knows, kept durable so that it survives any interruption.

A :class:`Checkpoint` is a consistent picture of a crawl in progress: the state graph, every
state's identity and snapshot metadata (its DOM stays on disk in ``states/``), the (state,
action) pairs already fired, the inference table, learned volatile names and the URL tables.
The DOM of each URL's first fresh load is kept as it is met (volatility is learned by
comparing later loads with it). The frontier is not stored: it is what remains to fire,
rebuilt from the states and the fired set when a crawl resumes, so raising a limit and
resuming explores what the new limit allows.
A :class:`Store` keeps the last checkpoint and the history of runs; ``SqliteStore`` is the
implementation (``OUT/crawl.sqlite``).
"""

from __future__ import annotations

from typing import Any, Protocol

from .checkpoint import Checkpoint, Run, StateRecord
from .sqlite import SqliteStore, open_store

__all__ = ["Checkpoint", "Run", "SqliteStore", "StateRecord", "Store", "open_store"]


class Store(Protocol):
    """Where a crawl keeps its runs and its last checkpoint."""

    def start_run(self, config: dict[str, Any], started: str) -> int:
        """Record the start of a run; return its number."""
        ...

    def end_run(self, run: int, finished: str, stop_reason: str) -> None:
        """Record how a run ended."""
        ...

    def runs(self) -> list[Run]:
        """Every run, first first."""
        ...

    def first_load(self, url: str, html: str) -> str:
        """The DOM of the first fresh load of ``url`` (``html`` if this is the first)."""
        ...

    def save(self, checkpoint: Checkpoint) -> None:
        """Replace the last checkpoint, atomically."""
        ...

    def load(self) -> Checkpoint | None:
        """The last checkpoint, or ``None`` before the first."""
        ...

    def close(self) -> None: ...
