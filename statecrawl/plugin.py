"""Lifecycle hooks of a crawl, for plug-ins such as the WARC archiver.

A hook sees the crawl through a :class:`CrawlView`: its settings, its directory and figures,
read-only, and one way to add to the record of a state or of the whole crawl. :class:`Hooks`
calls them: in the worker thread that found what they are told of, outside the crawl's lock
(a screenshot makes no other browser wait). A hook that raises is recorded in the crawl's
figures, its graph (``plugin_failures``) and the log, and the crawl goes on, unless the error
is one its plugin declares fatal (an archive that cannot be written).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

    from .baseline import Baseline
    from .browser import Browser
    from .config import Config
    from .directory import CrawlDirectory
    from .login import LoginPage
    from .memory import Memory
    from .network import Exchange
    from .state import Action, Snapshot, State

MAX_PLUGIN_FAILURES = 100  # plugin failures listed in the graph (all are counted)

log = logging.getLogger(__name__)


class CrawlView:
    """What a plugin sees of a crawl in progress: built from its settings, its directory,
    its memory and its figures (``stats`` gives a copy), read under ``lock``."""

    def __init__(
        self,
        config: Config,
        directory: CrawlDirectory,
        memory: Memory,
        stats: Callable[[], dict[str, Any]],
        lock: AbstractContextManager[Any],
        baseline: Baseline | None = None,
    ) -> None:
        self._config = config
        self._directory = directory
        self._memory = memory
        self._stats = stats
        self._lock = lock
        self._baseline = baseline

    @property
    def config(self) -> Config:
        """The crawl's settings."""
        return self._config

    @property
    def baseline(self) -> Baseline | None:
        """The earlier crawl an incremental crawl builds on (``None`` for a full crawl)."""
        return self._baseline

    @property
    def directory(self) -> CrawlDirectory:
        """The crawl directory, to write files of one's own into."""
        return self._directory

    @property
    def stats(self) -> dict[str, Any]:
        """The crawl's figures now (a copy)."""
        with self._lock:
            return self._stats()

    def graph(self) -> nx.MultiDiGraph:
        """A copy of the state graph now."""
        with self._lock:
            return self._memory.graph.graph.copy()

    def annotate(self, state_id: str, **attrs: Any) -> None:
        """Add ``attrs`` to the record of state ``state_id`` (a node of ``graph.json``)."""
        with self._lock:
            state = self._memory.resolve(state_id)
            if state in self._memory.graph.graph:
                self._memory.graph.node(state).update(attrs)

    def record(self, name: str, value: Any) -> None:
        """Set ``name`` among the crawl's own attributes in ``graph.json``."""
        with self._lock:
            self._memory.graph.graph.graph[name] = value


class Plugin:
    """Subclass and override what you need."""

    #: set to True to have the browsers capture network exchanges for ``on_exchanges``
    needs_network = False
    #: errors of this plugin's hooks that end the crawl (once every plugin was called)
    fatal: tuple[type[Exception], ...] = ()

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

    def login(self, page: LoginPage) -> None:
        """Log in, for flows a ``[login]`` form cannot describe (several steps, SSO on the
        same host); a plugin that overrides this is the crawl's way to log in. It runs in a
        clean browser each time the session ends, and leaves the page logged in."""
        raise NotImplementedError


def login_hook(plugins: Iterable[Plugin]) -> Callable[[LoginPage], None] | None:
    """The ``login`` of the first plugin that overrides it (``None``: none does)."""
    return next((p.login for p in plugins if type(p).login is not Plugin.login), None)


class Hooks:
    """Calls the plugins' hooks with ``view``. A hook may be called at once
    (:meth:`broadcast`) or deferred until the calling thread leaves the crawl's lock
    (:meth:`defer`, then :meth:`flush`). A failure is counted by ``failed`` (under
    ``lock``, given the message) and logged."""

    def __init__(
        self,
        plugins: Iterable[Plugin],
        view: CrawlView,
        failed: Callable[[str], None],
    ) -> None:
        self.plugins = list(plugins)
        self.view = view
        self._failed = failed
        self._deferred = threading.local()  # hooks a thread owes the plugins

    def defer(self, name: str, *args: Any) -> None:
        """Call hook ``name`` once this thread calls :meth:`flush`."""
        queue = getattr(self._deferred, "calls", None)
        if queue is None:
            queue = self._deferred.calls = []
        queue.append((name, args))

    def flush(self) -> None:
        """Call the hooks this thread deferred (outside the lock, while its browser still
        shows what they are about)."""
        calls, self._deferred.calls = getattr(self._deferred, "calls", None) or [], []
        for name, args in calls:
            self.broadcast(name, *args)

    def broadcast(self, name: str, *args: Any) -> None:
        """Call hook ``name`` of every plugin; one that raises is recorded, not fatal, unless
        its plugin declares the error fatal: then the first such error is raised once all
        were called."""
        fatal: Exception | None = None
        for plugin in self.plugins:
            try:
                getattr(plugin, name)(self.view, *args)
            except Exception as exc:  # a plugin's bug must not end the crawl
                if isinstance(exc, plugin.fatal):
                    fatal = fatal or exc
                    continue
                why = f"{type(plugin).__name__}.{name}: {type(exc).__name__}: {exc}"
                log.warning("plugin failed: %s", why)
                self._failed(why)
        if fatal is not None:
            raise fatal
