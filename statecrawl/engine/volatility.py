"""Volatility: what of a page changes with no user action, learned as the crawl goes.

Two loads of one URL that differ (a clock, a nonce), a state met again with values
generated per action (ids, uuids) and what the page agent sees change while nothing is fired
name parts to mask. Each time names are learned, every state of the crawl memory is keyed
again, and states that turn out equal are merged. Every mask keeps its evidence (``masks``
in the memory and in ``graph.json``).

A mask must never hide what an action did. The agent's sightings are timing: an action's
late effect (content a fade loads into the page's content area after the page settled)
looks like a change with no action. So a sighting that covers more than ``SMALL_SHARE`` of
the page's text is held, not used; only two observations with no action between them (two
loads, a replay) mask so much, and those name the smallest parts that differ.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import ArchiveError
from ..models import generated_between, volatile_between
from ..models.dom import text_shares
from ..redaction import strip_userinfo
from ..state import Snapshot, State

if TYPE_CHECKING:
    from ..directory.crawl import CrawlDirectory
    from ..models import StateModel
    from ..store import Store
    from .memory import Memory

log = logging.getLogger(__name__)

# The share of a page's text above which a name the agent saw change is held, not masked.
SMALL_SHARE = 0.2


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

    def learn(self, names: Iterable[str], how: str, url: str, html: str = "") -> None:
        """Mask ``names``, seen to change with no user action (``how``: ``reload``,
        ``replay``, ``watched``) on a page of ``url`` whose DOM is ``html``; re-key every
        state and merge those that turn out equal."""
        memory = self.memory
        new = set(names) - memory.volatile
        if not new:
            return
        shares = text_shares(html, new)
        for name in sorted(new):
            share = round(shares.get(name, 0.0), 3)
            memory.masks[name] = {"how": how, "url": url, "share": share}
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

    def watched(self, snapshot: Snapshot) -> None:
        """What the page agent saw change while nothing was fired: masked when it covers
        little of the page, held when it covers more than ``SMALL_SHARE`` of its text. A
        held name stays held unless two observations with no action between them name it."""
        memory = self.memory
        names = set(snapshot.volatile) - memory.volatile - memory.masks.keys()
        if not names:
            return
        # (a name the agent saw earlier in this document, not on this page: judged later)
        shares = text_shares(snapshot.html, names)
        held = {name for name, share in shares.items() if share > SMALL_SHARE}
        for name in sorted(held):
            share = round(shares[name], 3)
            memory.masks[name] = {"how": "watched", "url": snapshot.url, "share": share,
                                  "held": True}  # fmt: skip
            log.info(
                "not masking %s: it covers %d %% of the text of %s, and what the page changes "
                "after it settled may be what an action did", name, share * 100, snapshot.url,
            )
        self.learn(shares.keys() - held, "watched", snapshot.url, snapshot.html)

    def loaded(self, url: str, snapshot: Snapshot) -> None:
        """A fresh load of ``url``: what differs from its first load is volatile."""
        html = strip_userinfo(snapshot.html)  # as the store keeps it
        first = self.store.first_load(url, html)
        if first is not html:
            self.learn(volatile_between(first, html) or (), "reload", url, html)
        self.watched(snapshot)

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
                        self.learn(names, "replay", snapshot.url, snapshot.html)
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
