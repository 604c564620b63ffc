"""Volatility: what of a page changes with no user action, learned as the crawl goes.

Two loads of one URL that differ (a clock, a nonce) and a state met again with values
generated per action (ids, uuids) name parts to mask. Each time names are learned, every
state of the crawl memory is keyed again, and states that turn out equal are merged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import ArchiveError
from ..models import generated_between, volatile_between
from ..redaction import strip_userinfo
from ..state import Snapshot, State

if TYPE_CHECKING:
    from ..directory.crawl import CrawlDirectory
    from ..models import StateModel
    from ..store import Store
    from .memory import Memory


class Volatility:
    """Learns volatile names into ``memory`` and keys states with ``model``; DOMs are read
    back from ``directory``, the first load of each URL kept in ``store``; ``merge(old,
    keeper)`` folds a state into one that turned out equal."""

    def __init__(
        self,
        memory: Memory,
        model: StateModel,
        directory: CrawlDirectory,
        store: Store,
        merge: Callable[[str, str], None],
    ) -> None:
        self.memory = memory
        self.model = model
        self.directory = directory
        self.store = store
        self.merge = merge

    def learn(self, names: set[str]) -> None:
        """Add volatile names; re-key every state and merge those that turn out equal."""
        memory = self.memory
        new = names - memory.volatile
        if not new:
            return
        memory.volatile = memory.volatile | new
        index: dict[str, str] = {}
        for state in sorted(memory.states.values(), key=lambda s: (s.depth, s.found_at)):
            key = self.model.key(self.full(state), memory.volatile)
            if key != state.key:
                state.key = key
                memory.graph.touched_nodes.add(state.id)  # its record changes
            keeper = index.setdefault(key, state.id)
            if keeper != state.id:
                self.merge(state.id, keeper)
        memory.index = index

    def loaded(self, url: str, snapshot: Snapshot) -> None:
        """A fresh load of ``url``: what differs from its first load is volatile."""
        html = strip_userinfo(snapshot.html)  # as the store keeps it
        first = self.store.first_load(url, html)
        if first is not html:
            self.learn(volatile_between(first, html) or set())
        self.learn(set(snapshot.volatile))

    def reconcile(self, snapshots: list[Snapshot], expected: list[str]) -> list[str | None]:
        """The states ``snapshots`` show. One that differs from the state it was expected to be
        only in values generated per action (ids, uuids, timestamps) is that state: those
        parts are learned as volatile first."""
        memory = self.memory
        while True:
            volatile = memory.volatile
            reached = [memory.index.get(self.model.key(s, volatile)) for s in snapshots]
            for snapshot, got, wanted in zip(snapshots, reached, expected, strict=False):
                want = memory.resolve(wanted)
                state = memory.states.get(want)
                if got != want and state is not None:
                    names = generated_between(self.full(state).html, snapshot.html)
                    if names and not names <= memory.volatile:
                        self.learn(names)
                        break  # keys changed: look again
            else:
                return reached

    def full(self, state: State) -> Snapshot:
        """``state``'s snapshot with its DOM, read back from the crawl directory: states keep
        no DOM in memory, so memory does not grow with the DOMs of a crawl."""
        path = self.directory.path / self.directory.snapshot_path(state.id)
        try:
            html = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ArchiveError(f"the DOM of state {state.id} is gone: {exc}") from None
        snapshot = state.snapshot or Snapshot(url=state.url, title=state.title, html="")
        return replace(snapshot, html=html)
