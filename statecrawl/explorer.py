"""The crawl loop: take work from the frontier, reach its state, fire, observe, record.

One worker thread drives each browser; they share the frontier, the graph and the index of
state keys under one lock. Browsers are slow and everything else is fast, so the loop's job is
to keep each browser on useful transitions: it continues from the state a browser is in when
the strategy allows, resets through a state's own URL when that URL reproduces the state, and
replays the shortest known path otherwise.
"""

from __future__ import annotations

import contextlib
import logging
import re
import signal
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import urllib3
from selenium.common.exceptions import WebDriverException

from . import __version__
from .archive import Archiver
from .browser import Browser, end_leftovers, reason
from .config import Config
from .directory import Crawl, CrawlDirectory, load
from .errors import (
    ActionFailed,
    ArchiveError,
    BrowserCrashed,
    ConfigError,
    NavigationError,
    PageTimeout,
    StatecrawlError,
    Unreachable,
)
from .graph import StateGraph
from .models import generated_between, get_model, volatile_between
from .network import Exchange
from .plugin import CrawlView, Plugin
from .resume import capture, restore
from .scope import Scope
from .state import Action, Snapshot, State, digest
from .store import open_store
from .strategies import Work, get_strategy


@dataclass
class Stats:
    """Running figures of a crawl."""

    states: int = 0
    transitions: int = 0
    resets: int = 0
    replayed: int = 0
    failures: int = 0
    unreachable: int = 0
    out_of_scope: int = 0
    inferred: int = 0
    capped: int = 0
    restarts: int = 0
    plugin_failures: int = 0
    frontier: int = 0
    max_depth: int = 0
    elapsed: float = 0.0

    @property
    def rate(self) -> float:
        """Transitions per second so far."""
        return self.transitions / self.elapsed if self.elapsed > 0 else 0.0


STOP_GRACE = 3.0  # seconds a stopped crawl waits for work in progress before killing browsers
SAVE_EVERY = 1.0  # seconds between checkpoints: at most this much work is lost to a kill
SEED_ATTEMPTS = 2  # loads of a start page that hangs the browser, each in a new browser
REACH_ATTEMPTS = 2  # failed ways to a state, at different times, before it counts as unreachable
MAX_PLUGIN_FAILURES = 100  # plugin failures listed in the graph (all are counted)

log = logging.getLogger(__name__)


class Worker:
    """One browser and the state its page shows."""

    def __init__(self, browser: Browser, name: str) -> None:
        self.browser = browser
        self.name = name
        self.current: str | None = None
        self.busy = False
        self.work: Work | None = None  # in flight: not fired yet for a checkpoint


class Explorer:
    """Explores the applications at ``config.start_urls`` into a state graph."""

    def __init__(
        self,
        config: Config,
        *,
        plugins: Iterable[Plugin] = (),
        progress: Callable[[Stats], None] | None = None,
        browser_factory: Callable[[Config, bool], Browser] | None = None,
    ) -> None:
        self.config = config
        # (config, capture network) -> a worker's browser: Chromium, or a FakeBrowser in tests
        self.browser_factory = browser_factory or (lambda c, net: Browser(c, capture_network=net))
        self.scope = Scope(config)
        self.model = get_model(config.model)
        self.strategy = get_strategy(config.strategy, seed=config.seed)
        self.plugins: list[Plugin] = [*([Archiver()] if config.archive.enabled else []), *plugins]
        self.progress = progress
        self.out = CrawlDirectory(
            config.out or Path(tempfile.mkdtemp(prefix="statecrawl-")),
            overwrite=config.overwrite,
            resume=config.resume,
        )
        self.graph = StateGraph()
        self.states: dict[str, State] = {}
        self.index: dict[str, str] = {}  # state key -> state id
        self.merged: dict[str, str] = {}  # id of a state merged into another -> that one's id
        self.volatile: frozenset[str] = frozenset()
        self.loads: dict[str, str | None] = {}  # URL -> the state a fresh load of it shows
        self.links: dict[str, str] = {}  # followed link URL -> target state
        self.link_failures: dict[str, str] = {}  # link URL -> why loading it failed
        self.departures: dict[str, list[str]] = {}  # link URL -> where its page left the scope
        self.edge_actions: dict[tuple[str, str], Action] = {}  # (source, action key) -> action
        self.fired: set[tuple[str, str]] = set()
        self.per_url: Counter[str] = Counter()
        self.retried: set[tuple[str, str]] = set()
        self.missed: Counter[str] = Counter()  # state -> failed attempts to reach it
        # action key -> (URLs of the states it was fired in, the states it led to)
        self.effects: dict[str, tuple[set[str], set[str]]] = {}
        self.stats = Stats()
        self.lock = threading.RLock()
        self.wakeup = threading.Condition(self.lock)
        self.started = 0.0
        self.stopping = False
        self.stop_requested = False  # stop() was called: abandon work, restart no browser
        self._stop_timer: threading.Timer | None = None
        self._time_limit: threading.Timer | None = None
        self.stop_reason = "finished"
        self.workers: list[Worker] = []
        self.started_at = datetime.now(UTC)
        self._dangerous_patterns = [re.compile(p) for p in config.dangerous]
        self._last_checkpoint = 0.0
        self._last_save = 0.0
        self.view = CrawlView(self)
        self._deferred = threading.local()  # hooks a thread owes the plugins
        self.store = open_store(self.out.path)
        self.run_id = 0
        if config.resume:
            checkpoint = self.store.load()
            if checkpoint is None:
                raise ArchiveError(f"{self.out.path} holds no checkpoint to resume from")
            restore(self, checkpoint)
            log.info("resuming %s: %d states known", self.out.path, len(self.states))
            end_leftovers(checkpoint.tables.get("browsers", {}))  # a killed run's Chromium
            for state in sorted(self.states.values(), key=lambda s: (s.depth, s.found_at)):
                if not (state.unreachable or state.final) and state.depth < config.limits.max_depth:
                    self._push(state)

    # ---- the run -------------------------------------------------------------------------------
    def run(self) -> Crawl:
        """Crawl until the frontier is empty, a limit is reached or ``stop()`` is called;
        return the result.

        However the crawl ends (an error, a dead browser, ``stop()``), what was found is
        written, every plugin finishes (the WARC is closed) and every browser is ended. Run
        from the main thread with Python's default SIGINT handler, Ctrl-C works as ``stop()``
        and raises ``KeyboardInterrupt`` once all that is done.
        """
        self.started = time.monotonic()
        self.started_at = datetime.now(UTC)
        self.run_id = self.store.start_run(self.config.to_dict(), self.started_at.isoformat())
        log.info("run %d of the crawl in %s started", self.run_id, self.out.path)
        if self.config.limits.max_time is not None:
            # At the time limit the crawl stops as stop() stops it: an action still in flight
            # STOP_GRACE seconds later (a hung page, a slow load) is abandoned.
            limit = self.config.limits.max_time
            self._time_limit = threading.Timer(limit, self.stop, ("max-time",))
            self._time_limit.daemon = True
            self._time_limit.start()
        with self._ctrl_c_stops() as interrupted:
            try:
                self._crawl()
            except Exception:
                if not self.stop_requested:  # after a stop, errors are its echoes
                    with contextlib.suppress(Exception):  # the first error is the one to see
                        self._finish()
                    raise
            except BaseException:  # KeyboardInterrupt, SystemExit
                self.stop()
                with contextlib.suppress(Exception):
                    self._finish()
                raise
            self._finish()
        if interrupted:
            raise KeyboardInterrupt
        return load(self.out.path)

    def stop(self, reason: str = "interrupted") -> None:
        """End the crawl soon and cleanly: no new work starts, and ``run()`` returns once what
        was found is written. Safe to call from a signal handler or another thread. Work
        still running ``STOP_GRACE`` seconds later (a hung page), or at a second call, is
        abandoned: its browser is killed."""
        if self.stop_requested:
            self._abandon()
            return
        self.stop_requested = True
        self.stop_reason = reason
        self.stopping = True
        if self.lock.acquire(blocking=False):  # never wait for the lock in a signal handler
            try:
                self.wakeup.notify_all()
            finally:
                self.lock.release()
        self._stop_timer = threading.Timer(STOP_GRACE, self._abandon)
        self._stop_timer.daemon = True
        self._stop_timer.start()

    def _abandon(self) -> None:
        """Kill the browsers of workers still busy after a stop, so their calls fail at once."""
        for worker in list(self.workers):
            if worker.busy:
                worker.browser.kill()

    @contextlib.contextmanager
    def _ctrl_c_stops(self) -> Iterator[list[int]]:
        """Within ``run()`` in the main thread, Ctrl-C calls ``stop()`` instead of raising
        ``KeyboardInterrupt`` wherever the crawl happens to be (say, halfway through a WARC
        record); yields the signals received. A handler the caller installed is left alone."""
        received: list[int] = []
        if (
            threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        ):
            yield received
            return

        def handle(signum: int, _frame: object) -> None:
            received.append(signum)
            self.stop()

        previous = signal.signal(signal.SIGINT, handle)
        try:
            yield received
        finally:
            signal.signal(signal.SIGINT, previous)

    def _crawl(self) -> None:
        """Start the browsers, seed the start URLs, and work until there is nothing to do."""
        self.workers = [
            Worker(self.browser_factory(self.config, self.wants_network()), f"b{i}")
            for i in range(self.config.browser.count)
        ]
        for worker in self.workers:
            worker.browser.volatile = sorted(self.volatile)
        first = self.workers[0]
        first.busy = True  # while seeding, as for any work: a stop's grace applies
        first.browser.start()
        self._broadcast("on_start")
        self._seed(first)
        first.busy = False
        for worker in self.workers[1:]:
            if not self.stop_requested:
                worker.browser.start()
        errors: list[BaseException] = []
        threads = [
            threading.Thread(target=self._work_thread, args=(w, errors), name=w.name, daemon=True)
            for w in self.workers[1:]
            if w.browser.driver is not None
        ]
        for thread in threads:
            thread.start()
        try:
            self._work(first)
        except BaseException:
            self._halt()
            raise
        finally:
            for thread in threads:
                thread.join()
        if errors and not self.stop_requested:
            raise errors[0]

    def _work_thread(self, worker: Worker, errors: list[BaseException]) -> None:
        """A worker thread's body: its error stops the crawl and is raised by ``run()``."""
        try:
            self._work(worker)
        except BaseException as exc:
            errors.append(exc)
            self._halt()

    def _halt(self) -> None:
        """Let no worker take new work."""
        with self.lock:
            self.stopping = True
            self.wakeup.notify_all()

    def wants_network(self) -> bool:
        """Whether a plugin reads the browser's network log (the archive does)."""
        return any(p.needs_network for p in self.plugins)

    def _seed(self, worker: Worker) -> None:
        """Load each start URL twice: the root states, and what changes with no user action.
        A start page that hangs the browser (a busy script, a load that never ends) is tried
        once more in a new browser (without it nothing can be crawled), then recorded as a
        failure of the crawl in the graph's ``failures``; an unreachable one is an error."""
        for url in self.config.start_urls:
            for attempt in range(SEED_ATTEMPTS):
                try:
                    first = worker.browser.reset(url)
                    second = worker.browser.reset(url)
                    break
                except PageTimeout as exc:
                    if self.stop_requested:
                        return
                    log.warning("start page %s hung the browser: %s", url, exc)
                    self._recover(worker)
                    if attempt + 1 == SEED_ATTEMPTS:
                        with self.lock:
                            self.stats.failures += 1
                            failures = self.graph.graph.graph.setdefault("failures", [])
                            failures.append({"url": url, "error": str(exc)})
            else:
                continue
            exchanges = worker.browser.take_exchanges()
            with self.lock:
                self._learn(volatile_between(first.html, second.html) or set())
                self._learn(set(second.volatile))
                root = self._observe(second, worker, 0, exchanges)
                if root is not None:
                    self.loads[url] = root
                    self.store.first_load(url, second.html)
                    worker.current = root
            self._flush()

    def _work(self, worker: Worker) -> None:
        """Take work and do it until there is none left or the crawl stops."""
        while True:
            with self.lock:
                work = self._next(worker)
                if work is not None:
                    worker.busy = True
                    worker.work = work
            if work is None:
                self._flush()  # hooks of transitions inferred on the way
                return
            try:
                self._attempt(worker, work)
            finally:
                self._flush()
                with self.lock:
                    worker.busy = False
                    worker.work = None
                    self.wakeup.notify_all()
                    self._tick()

    def _attempt(self, worker: Worker, work: Work) -> None:
        """Do one work item. A browser that hangs or dies is replaced, and the work retried or
        recorded as a failure; after ``stop()`` the work is just abandoned (the stop may have
        killed the browser under it)."""
        try:
            self._transition(worker, work)
        except Exception as exc:
            if self.stop_requested:
                return
            if isinstance(exc, PageTimeout):  # a hung page: trying again would hang again
                self._record_failure(work, str(exc))
            elif isinstance(exc, BrowserCrashed):
                self._retry_or_fail(work, str(exc))
            elif isinstance(exc, WebDriverException):
                self._retry_or_fail(work, reason(exc))
            elif isinstance(exc, OSError | urllib3.exceptions.HTTPError):
                # ChromeDriver itself is gone: the connection to it fails.
                self._retry_or_fail(work, f"lost the browser driver: {exc.__class__.__name__}")
            else:
                raise
            self._recover(worker)

    def _next(self, worker: Worker) -> Work | None:
        """The next work item for ``worker``, waiting while other workers may add more."""
        while True:
            if self.stopping or self._limit_reached():
                self.stopping = True
                self.wakeup.notify_all()
                return None
            work = self.strategy.pop(worker.current)
            if work is not None:
                state = self.states.get(work.state)
                if state is None or state.unreachable:
                    continue
                self.fired.add((work.state, work.action.key))
                if self._infer(work):
                    continue
                return work
            if not any(w.busy for w in self.workers):
                self.wakeup.notify_all()
                return None
            self.wakeup.wait(timeout=1.0)

    def _infer(self, work: Work) -> bool:
        """Record without firing a script action known to lead to one state from anywhere:
        one target, reached from states of several different URLs."""
        after = self.config.limits.same_effect_after
        effect = self.effects.get(work.action.key)
        if after is None or work.action.is_link or effect is None:
            return False
        urls, targets = effect
        if len(urls) < after or len(targets) != 1:
            return False
        (target,) = targets
        if target not in self.states:
            return False
        self._connect(work.state, work.action, target, None, inferred=True)
        self._improve(target, work.depth + 1)
        self.stats.inferred += 1
        return True

    def _limit_reached(self) -> bool:
        limits = self.config.limits
        if limits.max_states is not None and len(self.states) >= limits.max_states:
            self.stop_reason = "max-states"
            return True
        if limits.max_time is not None and time.monotonic() - self.started >= limits.max_time:
            self.stop_reason = "max-time"
            return True
        return False

    def _recover(self, worker: Worker) -> None:
        log.warning("restarting browser %s", worker.name)
        try:
            worker.browser.restart()
        except StatecrawlError:
            with self.lock:
                self.stopping = True
                self.stop_reason = "browser-failed"
            raise
        with self.lock:
            worker.current = None
            self.stats.restarts += 1

    # ---- one transition ----------------------------------------------------------------------
    def _transition(self, worker: Worker, work: Work) -> None:
        source = self.states[work.state]
        action = work.action
        if action.is_link:
            self._follow(worker, source, action)
            return
        try:
            if worker.current != source.id:
                self._reach(worker, source)
                source = self.states[self.resolve(source.id)]
            snapshot = worker.browser.fire(action)
            exchanges = worker.browser.take_exchanges()
        except Unreachable:
            with self.lock:
                state = self.states.get(self.resolve(source.id))
                if state is not None and not state.unreachable:  # to be tried again later
                    self.fired.discard((state.id, action.key))
                    self.strategy.push(Work(state.id, action, state.depth))
            return
        except ActionFailed as exc:
            self._record_failure(work, str(exc))
            return
        except PageTimeout:
            raise  # a hung page: recorded by _attempt, which replaces the browser
        except NavigationError as exc:
            self._record_failure(work, str(exc))
            worker.current = None
            return
        with self.lock:
            self._learn(set(snapshot.volatile))
            source = self.states.get(self.resolve(source.id), source)
            target = self._observe(snapshot, worker, source.depth + 1, exchanges, source.id, action)
            worker.current = target
            if target is not None:
                self._connect(source.id, action, target, snapshot)
            for url in snapshot.popups:
                self._popup(source, action, url)
            if self._dangerous(action):
                # A logout may have ended the session: only a reset can be trusted next.
                worker.current = None

    def _popup(self, source: State, action: Action, url: str) -> None:
        """A window the action tried to open: a link of the source state, never a window."""
        link = Action(
            name=f"{action.name} popup",
            status=action.status,
            event="popup",
            action=url,
            kind="link",
            locator=action.locator,
            label=action.label,
        )
        if (source.id, link.key) in self.fired:
            return
        if url in self.scope:
            self.strategy.push(Work(source.id, link, source.depth))
        else:
            self.fired.add((source.id, link.key))
            self._external(source.id, link, url)

    def _follow(self, worker: Worker, source: State, action: Action) -> None:
        """A link: its target depends on its URL only, so each URL is loaded once, and a URL
        that failed to load, or whose page left the scope by itself as it loaded (a form
        submitted or a refresh to another host), is not loaded again."""
        url = action.action
        with self.lock:
            if url not in self.scope:
                self._external(source.id, action, url)
                return
            if url in self.departures:
                for target_url in self.departures[url]:
                    self._external(source.id, action, target_url)
                return
            if url in self.link_failures:
                self._record_failure(Work(source.id, action, source.depth), self.link_failures[url])
                return
            known = self.links.get(url) or self.loads.get(url)
            if known is not None and known in self.states:
                self._connect(source.id, action, known, None, inferred=True)
                self._improve(known, source.depth + 1)
                return
        try:
            snapshot = self._fresh_load(worker, url)
            exchanges = worker.browser.take_exchanges()
        except NavigationError as exc:
            with self.lock:
                self.link_failures[url] = str(exc)
            if isinstance(exc, PageTimeout):
                raise  # a hung page: recorded by _attempt, which replaces the browser
            self._record_failure(Work(source.id, action, source.depth), str(exc))
            worker.current = None
            return
        with self.lock:
            if snapshot.blocked:  # the page left the scope by itself: never a state of it
                self.departures[url] = list(dict.fromkeys(snapshot.blocked))
                for target_url in self.departures[url]:
                    self._external(source.id, action, target_url)
                worker.current = None
                return
            target = self._observe(snapshot, worker, source.depth + 1, exchanges, source.id, action)
            worker.current = target
            if target is None:
                return
            self.links[url] = target
            self.loads.setdefault(url, target)
            self._connect(source.id, action, target, snapshot)

    def _fresh_load(self, worker: Worker, url: str) -> Snapshot:
        """Reset the browser onto ``url``, learning volatility from repeated loads of it."""
        snapshot = worker.browser.reset(url)
        with self.lock:
            self.stats.resets += 1
            first = self.store.first_load(url, snapshot.html)
            if first is not snapshot.html:
                self._learn(volatile_between(first, snapshot.html) or set())
            self._learn(set(snapshot.volatile))
        return snapshot

    # ---- reaching a state again -----------------------------------------------------------
    def _reach(self, worker: Worker, state: State) -> None:
        """Bring ``worker``'s browser to ``state``: by known actions from where it is, by the
        state's own URL, or by loading a URL and replaying the shortest known path. Raises
        ``Unreachable`` when all fail; the state is marked unreachable at the
        ``REACH_ATTEMPTS``-th such failure only."""
        with self.lock:
            own_url_untried = state.url not in self.loads
        if own_url_untried and state.url in self.scope:
            snapshot = self._fresh_load(worker, state.url)
            with self.lock:
                shown = self._reconcile([snapshot], [state.id])[0]
                self.loads[state.url] = shown
                worker.current = shown
                if shown == self.resolve(state.id):
                    return
        why: str | None = "no known path to it"
        for attempt in range(2):
            with self.lock:
                plan = self._plan(state, worker.current if attempt == 0 else None, attempt > 0)
            if plan is None:
                break
            why = self._replay(worker, *plan)
            if why is None:
                return
        with self.lock:
            state = self.states.get(self.resolve(state.id), state)
            if worker.current == state.id:
                return
            self.missed[state.id] += 1
            if self.missed[state.id] < REACH_ATTEMPTS:
                # A replay can fail once for reasons that pass (a page slowed down by a loaded
                # machine): the work goes back to the frontier, to be tried again later.
                log.info("state %s not reached (%s): trying again later", state.id, why)
                raise Unreachable(state.id)
            log.warning("state %s is unreachable: %s", state.id, why)
            state.unreachable = True
            self.stats.unreachable += 1
            self.strategy.discard(state.id)
            node = self.graph.graph.nodes[state.id]
            node["unreachable"] = True
            node["unreachable_reason"] = why
        raise Unreachable(state.id)

    def _plan(
        self, state: State, current: str | None, roots_only: bool
    ) -> tuple[str | None, str, list[tuple[Action, str]]] | None:
        """The cheapest known way to ``state``: from the browser's ``current`` state, or from a
        state some URL loads (a load costs about one action).

        Returns the URL to load (``None`` to start where the browser is), the state the way
        starts from, and the ``(action, expected target)`` steps.
        """
        starts = {sid: url for url, sid in self.loads.items() if sid is not None}
        if roots_only:
            roots = {self.loads.get(u) for u in self.config.start_urls}
            starts = {sid: url for sid, url in starts.items() if sid in roots}
        previous: dict[str, tuple[str, Action] | None] = {state.id: None}
        level = [state.id]
        best: tuple[int, str, str | None] | None = None
        g = self.graph.graph
        distance = 0
        while level and (best is None or distance < best[0]):
            for node in level:
                if node == current:
                    found = (distance, node, None)
                elif node in starts:
                    found = (distance + 1, node, starts[node])
                else:
                    continue
                if best is None or found[0] < best[0]:
                    best = found
            following = []
            for node in level:
                for source, _, key in g.in_edges(node, keys=True):
                    if source in previous or g.nodes[source].get("kind") != "state":
                        continue
                    action = self.edge_actions.get((source, key))
                    if action is None:
                        continue
                    previous[source] = (node, action)
                    following.append(source)
            level = following
            distance += 1
        if best is None:
            return None
        _, start, url = best
        path: list[tuple[Action, str]] = []
        step = start
        while previous[step] is not None:
            nxt, action = previous[step]  # type: ignore[misc]
            path.append((action, nxt))
            step = nxt
        return url, start, path

    def _replay(
        self, worker: Worker, url: str | None, start: str, path: list[tuple[Action, str]]
    ) -> str | None:
        """Load ``url`` (if any) and fire ``path``, checking each state's key on the way;
        ``None`` when the browser got there, else why not."""
        try:
            if url is not None:
                snapshot = self._fresh_load(worker, url)
                with self.lock:
                    worker.current = self._reconcile([snapshot], [start])[0]
                    start = self.resolve(start)
                    if worker.current != start:
                        return f"loading {url} shows another state than {start}"
            if worker.current != start:
                return f"the browser left {start}"
            while path:
                if path[0][0].is_link:
                    snapshots = [self._fresh_load(worker, path[0][0].action)]
                else:
                    batch = next((i for i, (a, _) in enumerate(path) if a.is_link), len(path))
                    snapshots = worker.browser.replay([a for a, _ in path[:batch]])
                with self.lock:
                    self.stats.replayed += len(snapshots)
                    for snapshot in snapshots:
                        self._learn(set(snapshot.volatile))
                    expected = [target for _, target in path[: len(snapshots)]]
                    reached = self._reconcile(snapshots, expected)
                    worker.current = reached[-1]  # the browser went as far as the batch did
                for (action, target), got in zip(path, reached, strict=False):
                    if got != self.resolve(target):
                        return f"{action.event} on {action.name} led to another state than {target}"
                path = path[len(snapshots) :]
            return None
        except PageTimeout:
            raise  # a hung page: recorded by _attempt, which replaces the browser
        except (ActionFailed, NavigationError) as exc:
            with self.lock:
                worker.current = None
            return f"replay failed: {exc}"

    def _reconcile(self, snapshots: list[Snapshot], expected: list[str]) -> list[str | None]:
        """The states ``snapshots`` show. One that differs from the state it was expected to be
        only in values generated per action (ids, uuids, timestamps) is that state: those
        parts are learned as volatile first."""
        while True:
            reached = [self.index.get(self.model.key(s, self.volatile)) for s in snapshots]
            for snapshot, got, wanted in zip(snapshots, reached, expected, strict=False):
                want = self.resolve(wanted)
                state = self.states.get(want)
                if got != want and state is not None:
                    names = generated_between(self._full(state).html, snapshot.html)
                    if names and not names <= self.volatile:
                        self._learn(names)
                        break  # keys changed: look again
            else:
                return reached

    # ---- recording ------------------------------------------------------------------------
    def _observe(
        self,
        snapshot: Snapshot,
        worker: Worker,
        depth: int,
        exchanges: list[Exchange],
        parent: str | None = None,
        action: Action | None = None,
    ) -> str | None:
        """The state ``snapshot`` shows: a known one, or a new one if limits allow."""
        key = self.model.key(snapshot, self.volatile)
        state_id = self.index.get(key)
        if state_id is not None:
            self._improve(state_id, depth)
        else:
            state_id = self._add_state(key, snapshot, worker, depth, parent, action)
        if exchanges:
            self._hook("on_exchanges", state_id, exchanges)
        return state_id

    def _add_state(
        self,
        key: str,
        snapshot: Snapshot,
        worker: Worker,
        depth: int,
        parent: str | None,
        action: Action | None,
    ) -> str | None:
        limits = self.config.limits
        if limits.max_states is not None and len(self.states) >= limits.max_states:
            return None
        per_url = limits.max_states_per_url
        if per_url is not None and self.per_url[snapshot.url] >= per_url:
            self.stats.capped += 1
            return None
        self.per_url[snapshot.url] += 1
        state_id = key
        state = State(
            id=state_id,
            key=key,
            url=snapshot.url,
            title=snapshot.title,
            depth=depth,
            found_at=round(time.monotonic() - self.started, 3),
            snapshot=replace(snapshot, html="", frames=None),  # the DOM is on disk only
            actions=self.actions_of(snapshot),
        )
        self.states[state_id] = state
        self.index[key] = state_id
        self.stats.states = len(self.states)
        self.stats.max_depth = max(self.stats.max_depth, depth)
        log.debug("state %s at depth %d: %s", state_id, depth, snapshot.url)
        self.graph.add_state(
            state_id,
            url=state.url,
            title=state.title,
            depth=depth,
            snapshot=self.out.write_state(state_id, snapshot.html),
            screenshot=None,
            found_at=state.found_at,
            status=snapshot.status,
            settle_timed_out=snapshot.timed_out,
        )
        if snapshot.truncated:
            self.graph.graph.nodes[state_id]["truncated"] = True
        self._hook("on_state", state, snapshot, worker.browser, parent, action)
        if action is not None and self._dangerous(action):
            # What follows a logout or a delete runs without the session or the data the rest
            # of the crawl has: the state is kept, but not explored further.
            state.final = True
            self.graph.graph.nodes[state_id]["after_dangerous"] = True
        elif depth < limits.max_depth:
            self._push(state)
        return state_id

    def actions_of(self, snapshot: Snapshot) -> list[Action]:
        """The actions worth firing in a state, dangerous ones last or left out."""
        actions = snapshot.actions()
        dangerous = [a for a in actions if self._dangerous(a)]
        if not dangerous:
            return actions
        safe = [a for a in actions if not self._dangerous(a)]
        return safe if self.config.dangerous_policy == "skip" else safe + dangerous

    def _dangerous(self, action: Action) -> bool:
        return any(
            p.search(action.label) or (action.is_link and p.search(action.action))
            for p in self._dangerous_patterns
        )

    def _push(self, state: State) -> None:
        for action in state.actions:
            if (state.id, action.key) not in self.fired:
                self.strategy.push(Work(state.id, action, state.depth))

    def _improve(self, state_id: str, depth: int) -> None:
        """A shorter way to a known state: give it the smaller depth and its due work."""
        state = self.states[state_id]
        if depth >= state.depth:
            return
        state.depth = depth
        self.graph.graph.nodes[state_id]["depth"] = depth
        self.strategy.discard(state_id)
        if depth < self.config.limits.max_depth and not (state.unreachable or state.final):
            self._push(state)

    def _connect(
        self,
        source: str,
        action: Action,
        target: str,
        snapshot: Snapshot | None,
        inferred: bool = False,
    ) -> None:
        self.edge_actions[(source, action.key)] = action
        if not inferred:
            urls, targets = self.effects.setdefault(action.key, (set(), set()))
            urls.add(self.states[source].url)
            targets.add(target)
        attrs: dict[str, Any] = {
            "name": action.name,
            "status": action.status,
            "event": action.event,
            "action": action.action,
            "kind": action.kind,
        }
        if action.hover:
            attrs["hover"] = action.hover
        if inferred:
            attrs["inferred"] = True
        if snapshot is not None:
            attrs["settle_ms"] = snapshot.settle_ms
            if snapshot.timed_out:
                attrs["settle_timed_out"] = True
            if snapshot.dialogs:
                attrs["dialogs"] = snapshot.dialogs
            if snapshot.popups:
                attrs["popups"] = snapshot.popups
            if snapshot.navigated:
                attrs["navigated"] = snapshot.navigated
            if snapshot.blocked:
                attrs["blocked"] = snapshot.blocked
                self.stats.out_of_scope += len(snapshot.blocked)
        self.graph.add_transition(source, target, action.key, **attrs)
        if not inferred:
            self.stats.transitions += 1
        self._hook("on_transition", source, action, target, snapshot)

    def _external(self, source: str, action: Action, url: str) -> None:
        node = "x" + digest("external", url)[1:]
        self.graph.add_external(url, node)
        self.graph.add_transition(
            source, node, action.key, name=action.name, status=action.status,
            event=action.event, action=action.action, kind=action.kind, out_of_scope=True,
        )
        self.stats.out_of_scope += 1

    def _retry_or_fail(self, work: Work, reason: str) -> None:
        """The browser died or hung during ``work``: try it once more in a new browser (the
        cause may lie elsewhere), and record it as a failure the second time."""
        with self.lock:
            attempt = (work.state, work.action.key)
            if attempt not in self.retried:
                self.retried.add(attempt)
                self.fired.discard(attempt)
                self.strategy.push(work)
                return
        self._record_failure(work, reason)

    def _record_failure(self, work: Work, reason: str) -> None:
        log.info("failed in state %s: %s: %s", work.state, work.action.name, reason)
        with self.lock:
            self.stats.failures += 1
            if work.state not in self.states:
                return
            node = self.graph.graph.nodes[work.state]
            node.setdefault("failures", []).append(
                {"key": work.action.key, "name": work.action.name, "event": work.action.event,
                 "action": work.action.action, "error": reason}
            )

    # ---- volatility ---------------------------------------------------------------------------
    def _learn(self, names: set[str]) -> None:
        """Add volatile names; re-key every state and merge those that turn out equal."""
        new = names - self.volatile
        if not new:
            return
        self.volatile = self.volatile | new
        for worker in self.workers:
            worker.browser.volatile = sorted(self.volatile)
        index: dict[str, str] = {}
        for state in sorted(self.states.values(), key=lambda s: (s.depth, s.found_at)):
            key = self.model.key(self._full(state), self.volatile)
            state.key = key
            keeper = index.setdefault(key, state.id)
            if keeper != state.id:
                self._merge(state.id, keeper)
        self.index = index

    def _full(self, state: State) -> Snapshot:
        """``state``'s snapshot with its DOM, read back from the crawl directory: states keep
        no DOM in memory, so memory does not grow with the DOMs of a crawl."""
        path = self.out.path / self.out.snapshot_path(state.id)
        try:
            html = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ArchiveError(f"the DOM of state {state.id} is gone: {exc}") from None
        snapshot = state.snapshot or Snapshot(url=state.url, title=state.title, html="")
        return replace(snapshot, html=html)

    def resolve(self, state_id: str) -> str:
        """The id a state has now: states merge when volatility is learned."""
        return self.merged.get(state_id, state_id)

    def _merge(self, old: str, keeper: str) -> None:
        state = self.states.pop(old)
        self.merged[old] = keeper
        for merged, into in self.merged.items():
            if into == old:
                self.merged[merged] = keeper
        self.strategy.discard(old)
        self.graph.merge(old, keeper)
        node = self.graph.graph.nodes[keeper]
        node["aliases"] = sorted({*node.get("aliases", ()), old})
        self.fired = {(keeper if s == old else s, k) for s, k in self.fired}
        self.edge_actions = {
            (keeper if s == old else s, k): a for (s, k), a in self.edge_actions.items()
        }
        for _, targets in self.effects.values():
            if old in targets:
                targets.discard(old)
                targets.add(keeper)
        for table in (self.loads, self.links):
            for url, sid in table.items():
                if sid == old:
                    table[url] = keeper
        for worker in self.workers:
            if worker.current == old:
                worker.current = keeper
        (self.out.path / self.out.snapshot_path(old)).unlink(missing_ok=True)
        self._improve(keeper, state.depth)
        self.stats.states = len(self.states)

    # ---- progress and output ----------------------------------------------------------------
    def _tick(self) -> None:
        self.stats.elapsed = time.monotonic() - self.started
        self.stats.frontier = len(self.strategy)
        if self.progress is not None:
            self.progress(self.stats)
        if self.stats.elapsed - self._last_save >= SAVE_EVERY:
            self._last_save = self.stats.elapsed
            self.store.save(capture(self))
        if self.stats.elapsed - self._last_checkpoint > 10:
            self._last_checkpoint = self.stats.elapsed
            self._write()

    def _write(self) -> None:
        g = self.graph.graph
        g.graph["start_url"] = self.config.start_urls[0]
        g.graph["start_urls"] = list(self.config.start_urls)
        g.graph["config"] = self.config.to_dict()
        g.graph["started"] = self.started_at.isoformat()
        g.graph["finished"] = datetime.now(UTC).isoformat() if self.stopping else None
        g.graph["software"] = f"statecrawl/{__version__}"
        g.graph["volatile"] = sorted(self.volatile)
        g.graph["stats"] = {**asdict(self.stats), "rate": round(self.stats.rate, 3),
                            "stop_reason": self.stop_reason}
        self.out.write_graph(self.graph)

    def _finish(self) -> None:
        """End the crawl whatever happened before: archive each browser's last exchanges,
        finish every plugin (the WARC is closed), write the graph and end every browser. Each
        step runs even when another failed; the first failure is raised at the end."""
        for timer in (self._stop_timer, self._time_limit):
            if timer is not None:
                timer.cancel()
        failures: list[Exception] = []

        def step(fn: Callable[..., object], *args: object) -> None:
            try:
                fn(*args)
            except Exception as exc:
                failures.append(exc)

        with self.lock:
            self.stopping = True
            self.stats.elapsed = time.monotonic() - self.started
            self.stats.frontier = len(self.strategy)
            self.stats.restarts = sum(w.browser.restarts for w in self.workers)
            for worker in self.workers:
                step(self._last_exchanges, worker)
            step(self._flush)
            step(self._broadcast, "on_finish")
            step(self._name_states)
            before = len(failures)
            step(self._write)
            written = len(failures) == before
            step(self._save_final)
        for worker in self.workers:
            step(worker.browser.close)
        if written:  # an earlier crawl in the directory is replaced by a complete one only
            step(self.out.commit)
        if failures:
            raise failures[0]

    def _save_final(self) -> None:
        """The last checkpoint and how the run ended; the store is closed."""
        try:
            self.store.save(capture(self))
            finished = datetime.now(UTC).isoformat()
            self.store.end_run(self.run_id, finished, self.stop_reason)
            log.info(
                "run %d ended (%s): %d states, %d transitions",
                self.run_id, self.stop_reason, self.stats.states, self.stats.transitions,
            )
        finally:
            self.store.close()

    # ---- plugins ------------------------------------------------------------------------------
    def _hook(self, name: str, *args: Any) -> None:
        """Tell the plugins, once this thread leaves the lock (see :meth:`_flush`)."""
        queue = getattr(self._deferred, "calls", None)
        if queue is None:
            queue = self._deferred.calls = []
        queue.append((name, args))

    def _flush(self) -> None:
        """Run the hooks this thread deferred, outside the lock, while its browser still shows
        what they are about."""
        calls, self._deferred.calls = getattr(self._deferred, "calls", None) or [], []
        for name, args in calls:
            self._broadcast(name, *args)

    def _broadcast(self, name: str, *args: Any) -> None:
        """Call hook ``name`` of every plugin; one that raises is recorded, not fatal."""
        for plugin in self.plugins:
            try:
                getattr(plugin, name)(self.view, *args)
            except Exception as exc:  # a plugin's bug must not end the crawl
                why = f"{type(plugin).__name__}.{name}: {type(exc).__name__}: {exc}"
                log.warning("plugin failed: %s", why)
                with self.lock:
                    self.stats.plugin_failures += 1
                    failures = self.graph.graph.graph.setdefault("plugin_failures", [])
                    if len(failures) < MAX_PLUGIN_FAILURES:
                        failures.append(why)

    def _last_exchanges(self, worker: Worker) -> None:
        """Hand the plugins what ``worker``'s browser fetched after its last transition."""
        leftover = worker.browser.take_exchanges(final=True)
        if leftover:
            self._broadcast("on_exchanges", worker.current, leftover)

    def _name_states(self) -> None:
        """Name each state by its final key. Its id was its key when it was found; volatility
        learned later changes keys, so without this the ids would depend on the order of
        discovery (browsers, timing). Old ids stay on the node as ``aliases``."""
        names = {s.id: s.key for s in self.states.values() if s.id != s.key}
        if not names:
            return
        self.graph.rename(names)
        self.out.rename_states(names)
        for new in names.values():
            node = self.graph.graph.nodes[new]
            node["snapshot"] = self.out.snapshot_path(new)
            if node.get("screenshot"):
                node["screenshot"] = self.out.screenshot_path(new)
        self.states = {names.get(i, i): s for i, s in self.states.items()}
        for state in self.states.values():
            state.id = state.key


def crawl(url: str | Iterable[str], **options: Any) -> Crawl:
    """Crawl the application at ``url`` (or several start URLs) and return the result.

    ``options`` are the settings of :class:`statecrawl.Config`: ``out``, ``model``,
    ``strategy``, … and the nested tables (``limits={"max_depth": 2}``); the common limits
    may also be given flat (``max_depth=2``, ``max_states=100``, ``max_time=60``).
    """
    urls = (url,) if isinstance(url, str) else tuple(url)
    flat = {k: options.pop(k) for k in ("max_depth", "max_states", "max_time") if k in options}
    if flat:
        limits = options.get("limits", {})
        if not isinstance(limits, Mapping):
            raise ConfigError(f"limits: expected a table, got {type(limits).__name__}")
        options["limits"] = {**limits, **flat}
    config = Config.from_mapping({"start_urls": urls, **options})
    return Explorer(config).run()
