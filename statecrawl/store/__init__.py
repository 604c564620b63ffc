"""The crawl store: what a crawl knows, kept durable so that it survives any interruption.

A :class:`Checkpoint` is a consistent picture of a crawl in progress: the state graph, every
state's identity and snapshot metadata (its DOM stays on disk in ``states/``; the metadata
is kept once, when the state is found), the (state, action) pairs already fired, the
inference table, learned volatile names and the URL tables. The DOM of each URL's first
fresh load is kept as it is met (volatility is learned by comparing later loads with it).
The frontier is not stored: it is what remains to fire, rebuilt from the states and the
fired set when a crawl resumes, so raising a limit and resuming explores what the new limit
allows. Each checkpoint is written as the :class:`Changes` to the last one, so its cost
follows the work done since, not the size of the crawl. A :class:`Store` keeps the last
checkpoint and the history of runs; ``SqliteStore`` is the implementation
(``OUT/crawl.sqlite``).
"""

from __future__ import annotations

from typing import Any, Protocol

from .checkpoint import Changes, Checkpoint, Run, StateRecord
from .sqlite import SqliteStore, open_store

__all__ = ["Changes", "Checkpoint", "Run", "SqliteStore", "StateRecord", "Store", "open_store"]


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

    def add_snapshot(self, state: str, meta: dict[str, Any]) -> None:
        """Keep the snapshot metadata of a new state, at once."""
        ...

    def rename_snapshots(self, names: dict[str, str]) -> None:
        """States got new ids (old id -> new id)."""
        ...

    def write(self, changes: Changes) -> None:
        """Make a checkpoint of ``changes`` to the last one, atomically."""
        ...

    def load(self) -> Checkpoint | None:
        """The last checkpoint, or ``None`` before the first."""
        ...

    def close(self) -> None: ...
