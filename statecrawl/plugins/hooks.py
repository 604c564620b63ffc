"""Lifecycle hooks of a crawl, for plug-ins such as the WARC archiver.

A hook sees the crawl through a :class:`CrawlView`: its settings, its directory and figures,
read-only, and one way to add to the record of a state or of the whole crawl. :class:`Hooks`
calls them: in the worker thread that found what they are told of, outside the crawl's lock
(a screenshot makes no other browser wait). A hook that raises is recorded in the crawl's
figures, its graph (``plugin_failures``) and the log, and the crawl goes on, unless the error
is one its plugin declares fatal (an archive that cannot be written).

A new state comes to ``on_state`` as one :class:`StateEvent`. A plugin whose ``on_state``
still takes the six arguments of earlier releases (``crawl, state, snapshot, browser, parent,
action``) is called that way, with a ``DeprecationWarning``, for one more release.
"""

from __future__ import annotations

import inspect
import logging
import threading
import warnings
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..ledger import phase

if TYPE_CHECKING:
    import networkx as nx

    from ..browser import BrowserLike
    from ..browser.login import LoginPage
    from ..browser.network import Exchange
    from ..config import Config
    from ..directory.crawl import CrawlDirectory
    from ..directory.graph import StateGraph
    from ..incremental.baseline import Baseline
    from ..state import Action, Snapshot, State

MAX_PLUGIN_FAILURES = 100  # plugin failures listed in the graph (all are counted)

log = logging.getLogger(__name__)
# the parameters of ``on_state`` before StateEvent; a plugin taking them is called that way
_OLD_PARAMETERS = ("crawl", "state", "snapshot", "browser", "parent", "action")
_deprecations: dict[Any, Any] = {}  # the warnings registry of the old-style hooks' warnings


@dataclass(frozen=True, slots=True)
class StateEvent:
    """A new state, as ``Plugin.on_state`` is told of it: the state, what the browser
    showed, the browser that still shows it, and the way in."""

    #: the state found (id, key, URL, title, depth, actions)
    state: State
    #: what the browser returned for it: DOM, frames and, from another process, pictures
    snapshot: Snapshot
    #: the browser that shows the state (``None`` when it is in another process, as with the
    #: Dask executor: then ``snapshot.screenshot`` holds its screenshot, if the archive
    #: takes them)
    browser: BrowserLike | None
    #: the id of the state ``action`` was fired in (``None`` for a start state)
    parent: str | None
    #: the action that led here from ``parent`` (``None`` for a start state)
    action: Action | None


class Knowledge(Protocol):
    """What a crawl knows, as a plugin's view reads it (the engine's memory): the state
    graph, and the id a state has now."""

    graph: StateGraph

    def resolve(self, state_id: str) -> str: ...


class CrawlView:
    """What a plugin sees of a crawl in progress: built from its settings, its directory,
    its memory and its figures (``stats`` gives a copy), read under ``lock``."""

    def __init__(
        self,
        config: Config,
        directory: CrawlDirectory,
        memory: Knowledge,
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

    def graph(self) -> nx.MultiDiGraph[str]:
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

    def on_state(self, crawl: CrawlView, event: StateEvent) -> None:
        """A new state was found: ``event`` says which, how it was reached and which browser
        shows it."""

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
    ``lock``, given the message) and logged. A plugin whose ``on_state`` takes the old
    arguments gets them from the :class:`StateEvent`, and its class one ``DeprecationWarning``
    when the hooks are made."""

    def __init__(
        self,
        plugins: Iterable[Plugin],
        view: CrawlView,
        failed: Callable[[str], None],
    ) -> None:
        self.plugins = list(plugins)
        self.view = view
        # decided once per plugin: which take on_state's old arguments (one warning a class)
        self._old_on_state = [_takes_old_arguments(plugin) for plugin in self.plugins]
        warned: set[type[Plugin]] = set()
        for plugin, old in zip(self.plugins, self._old_on_state, strict=True):
            if old and type(plugin) not in warned:
                warned.add(type(plugin))
                _warn_old_on_state(plugin)
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
        with phase("archive"):
            for name, args in calls:
                self.broadcast(name, *args)

    def broadcast(self, name: str, *args: Any) -> None:
        """Call hook ``name`` of every plugin; one that raises is recorded, not fatal, unless
        its plugin declares the error fatal: then the first such error is raised once all
        were called."""
        fatal: Exception | None = None
        for plugin, old in zip(self.plugins, self._old_on_state, strict=True):
            given = _old_arguments(*args) if old and name == "on_state" else args
            try:
                getattr(plugin, name)(self.view, *given)
            except Exception as exc:  # a plugin's bug must not end the crawl
                if isinstance(exc, plugin.fatal):
                    fatal = fatal or exc
                    continue
                why = f"{type(plugin).__name__}.{name}: {type(exc).__name__}: {exc}"
                log.warning("plugin failed: %s", why)
                self._failed(why)
        if fatal is not None:
            raise fatal


def _takes_old_arguments(plugin: Plugin) -> bool:
    """Whether ``plugin.on_state`` takes the six arguments of earlier releases rather than
    ``(crawl, event)``."""
    try:
        signature = inspect.signature(plugin.on_state)
    except (TypeError, ValueError):  # no signature to read: called the new way
        return False
    try:
        signature.bind(*_OLD_PARAMETERS)
    except TypeError:
        return False
    return True


def _old_arguments(event: StateEvent) -> tuple[Any, ...]:
    """``event`` as the arguments after ``crawl`` of an old-style ``on_state``."""
    return event.state, event.snapshot, event.browser, event.parent, event.action


def _warn_old_on_state(plugin: Plugin) -> None:
    """Say that ``plugin``'s class has an old-style ``on_state``, where that hook is defined
    (shown once there under the default filters; by default in ``__main__`` and notebooks)."""
    hook = plugin.on_state
    code = getattr(inspect.unwrap(getattr(hook, "__func__", hook)), "__code__", None)
    warnings.warn_explicit(
        f"{type(plugin).__qualname__}.on_state({', '.join(_OLD_PARAMETERS)}) is deprecated:"
        " take (crawl, event), a statecrawl.StateEvent; the old form goes in the next release",
        DeprecationWarning,
        filename=code.co_filename if code is not None else "<plugin>",
        lineno=code.co_firstlineno if code is not None else 0,
        module=type(plugin).__module__,
        registry=_deprecations,
    )
