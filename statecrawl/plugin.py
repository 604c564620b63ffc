"""Lifecycle hooks of a crawl, for plug-ins such as the WARC archiver."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .browser import Browser
    from .explorer import Explorer
    from .network import Exchange
    from .state import Action, Snapshot, State


class Plugin:
    """Subclass and override what you need; hooks run under the crawl's lock, in order."""

    #: set to True to have the browsers capture network exchanges for ``on_exchanges``
    needs_network = False

    def on_start(self, explorer: Explorer) -> None:
        """The first browser is up and the crawl directory exists."""

    def on_state(
        self,
        explorer: Explorer,
        state: State,
        snapshot: Snapshot,
        browser: Browser,
        parent: str | None,
        action: Action | None,
    ) -> None:
        """A new state was found by firing ``action`` in ``parent``; ``browser`` shows it."""

    def on_transition(
        self, explorer: Explorer, source: str, action: Action, target: str, snapshot: Snapshot
    ) -> None:
        """An action was fired in ``source`` and led to ``target``."""

    def on_exchanges(
        self, explorer: Explorer, state: str | None, exchanges: list[Exchange]
    ) -> None:
        """Network exchanges the browser made on its way to ``state``."""

    def on_finish(self, explorer: Explorer) -> None:
        """The crawl is over; the graph is about to be written for the last time."""
