"""Lifecycle hooks of a crawl, for plug-ins such as the WARC archiver.

A hook sees the crawl through a :class:`CrawlView`: its settings, its directory and figures,
read-only, and one way to add to the record of a state or of the whole crawl. Hooks run in
the worker thread that found what they are told of, outside the crawl's lock (a screenshot
makes no other browser wait); a hook that raises is recorded in the crawl's figures, its graph
(``plugin_failures``) and the log, and the crawl goes on.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

    from .baseline import Baseline
    from .browser import Browser
    from .config import Config
    from .directory import CrawlDirectory
    from .explorer import Explorer
    from .network import Exchange
    from .state import Action, Snapshot, State


class CrawlView:
    """What a plugin sees of a crawl in progress."""

    def __init__(self, explorer: Explorer) -> None:
        self._explorer = explorer

    @property
    def config(self) -> Config:
        """The crawl's settings."""
        return self._explorer.config

    @property
    def baseline(self) -> Baseline | None:
        """The earlier crawl an incremental crawl builds on (``None`` for a full crawl)."""
        recrawl = self._explorer.recrawl
        return recrawl.baseline if recrawl is not None else None

    @property
    def directory(self) -> CrawlDirectory:
        """The crawl directory, to write files of one's own into."""
        return self._explorer.out

    @property
    def stats(self) -> dict[str, Any]:
        """The crawl's figures now (a copy)."""
        with self._explorer.lock:
            return asdict(self._explorer.stats)

    def graph(self) -> nx.MultiDiGraph:
        """A copy of the state graph now."""
        with self._explorer.lock:
            return self._explorer.graph.graph.copy()

    def annotate(self, state_id: str, **attrs: Any) -> None:
        """Add ``attrs`` to the record of state ``state_id`` (a node of ``graph.json``)."""
        with self._explorer.lock:
            state = self._explorer.resolve(state_id)
            if state in self._explorer.graph.graph:
                self._explorer.graph.node(state).update(attrs)

    def record(self, name: str, value: Any) -> None:
        """Set ``name`` among the crawl's own attributes in ``graph.json``."""
        with self._explorer.lock:
            self._explorer.graph.graph.graph[name] = value


class Plugin:
    """Subclass and override what you need."""

    #: set to True to have the browsers capture network exchanges for ``on_exchanges``
    needs_network = False

    def on_start(self, crawl: CrawlView) -> None:
        """The first browser is up and the crawl directory exists."""

    def on_state(
        self,
        crawl: CrawlView,
        state: State,
        snapshot: Snapshot,
        browser: Browser | None,
        parent: str | None,
        action: Action | None,
    ) -> None:
        """A new state was found by firing ``action`` in ``parent``; ``browser`` shows it
        (``None`` when the browser is in another process, as with the Dask executor: then
        ``snapshot.screenshot`` holds its screenshot, if the archive takes them)."""

    def on_transition(
        self, crawl: CrawlView, source: str, action: Action, target: str, snapshot: Snapshot | None
    ) -> None:
        """An action was fired in ``source`` and led to ``target`` (``snapshot`` is ``None``
        for a transition inferred without firing)."""

    def on_exchanges(self, crawl: CrawlView, state: str | None, exchanges: list[Exchange]) -> None:
        """Network exchanges the browser made on its way to ``state``."""

    def on_finish(self, crawl: CrawlView) -> None:
        """The crawl is over; the graph is about to be written for the last time."""
