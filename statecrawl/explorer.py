"""The crawl engine: what the crawl knows, and what to do next.

The engine owns the frontier, the graph, the index of state keys and the store, under one
lock held only for bookkeeping. An executor (:mod:`statecrawl.executor`) runs the browser
work: it asks :meth:`Explorer.next_task` for a task, performs it in a browser and hands the
outcome to :meth:`Explorer.apply`. Browsers are slow and everything else is fast, so the
engine's job is to keep each browser on useful transitions: it continues from the state a
browser is in when the strategy allows, resets through a state's own URL when that URL
reproduces the state, and replays the shortest known way otherwise (:mod:`.planning`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import random
import signal
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import chain, coverage, harvest, records, roles
from .archive import Archiver
from .baseline import Baseline
from .browser import Browser
from .config import Config, argument, checked, folder
from .directory import Crawl, CrawlDirectory, load
from .download import document_id, names_document
from .errors import BrowserCrashed, ConfigError, NavigationError, one_line
from .executor import Outcome, Slot, Task, get_executor
from .harvest import Harvest
from .label import label_graph
from .layout import RECORDS
from .memory import Memory
from .models import get_model, volatile_between
from .network import Exchange
from .outage import Outages, unreached
from .planning import Plan, near, plan, shape
from .plugin import MAX_PLUGIN_FAILURES, CrawlView, Hooks, Plugin, StateEvent, login_hook
from .policy import Danger, Inference, Requests, requests_of, words
from .politeness import Politeness, host_of, throttled
from .recrawl import Recrawl
from .redaction import strip_userinfo
from .resume import Saver, restore, restore_stats
from .scope import Scope, origin
from .state import Action, Snapshot, State, digest
from .store import Checkpoint, open_store
from .strategies import FairSites, Work, get_strategy, new_words
from .version import __version__
from .volatility import Volatility


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
    verified: int = 0
    retracted: int = 0
    capped: int = 0
    restarts: int = 0
    relogins: int = 0
    plugin_failures: int = 0
    outages: int = 0
    queries: int = 0  # harvesting queries issued (inputs.harvest)
    records: int = 0  # records seen, when harvesting or following pages to the end
    documents: int = 0  # downloads saved as documents (archived, skipped or failed)
    frontier: int = 0
    max_depth: int = 0
    elapsed: float = 0.0

    @property
    def rate(self) -> float:
        """Transitions per second so far."""
        return self.transitions / self.elapsed if self.elapsed > 0 else 0.0


STOP_GRACE = 3.0  # seconds a stopped crawl waits for work in progress before killing browsers
OWN_LOAD_FAILURES = 2  # loads of own URLs that must fail before URLs of that kind are not tried
SAVE_EVERY = 1.0  # seconds between checkpoints: at most this much work is lost to a kill
EXPORT_EVERY = 10.0  # seconds between exports of graph.json and graph.graphml during a crawl
EXPORT_SHARE = 20  # ... at least this many times the last export's duration (<= 5 % of time)
SEED_ATTEMPTS = 2  # loads of a start page that hangs the browser, each in a new browser
# Ways to a state that fail before it counts as unreachable: from where the browser is and
# from a start URL, twice each (a replay may fail once for reasons that pass, such as a page
# slowed down by a loaded machine).
REACH_ATTEMPTS = 4
WORDS_KEPT = 256  # states whose words inference keeps at hand (each read from its DOM file)

log = logging.getLogger(__name__)


class Explorer:
    """Explores the applications at ``config.start_urls`` into a state graph."""

    @checked
    def __init__(
        self,
        config: Config,
        *,
        plugins: Iterable[Plugin] = (),
        progress: Callable[[Stats], None] | None = None,
        browser_factory: Callable[[Config, bool], Browser] | None = None,
    ) -> None:
        argument("config", config, Config)
        plugins = argument("plugins", plugins, Iterable[Plugin])
        argument("progress", progress, Callable | None)
        argument("browser_factory", browser_factory, Callable | None)
        if config.roles:
            raise ConfigError(
                "[[login]] roles are crawls of their own: crawl them with "
                "statecrawl.crawl_by_role (or the command line)"
            )
        for name, path in (("out", config.out), ("incremental.since", config.incremental.since)):
            if path is not None:
                folder(name, path)
        self.config = config
        self.scope = Scope(config)
        self.model = get_model(config.model)
        self.strategy = FairSites(
            lambda: get_strategy(config.strategy, seed=config.seed), self._site, self._home
        )
        # what a scored strategy orders by: "novelty" (the words of visible text seen so far
        # are kept) or "coverage" (the functions the transition into a state ran first)
        self.scored = getattr(get_strategy(config.strategy), "scored", None)
        self.seen_words: set[str] = set()
        self.arrivals: dict[str, Action] = {}  # state id -> the action that first led to it
        self.arrival_covered = 0  # functions the outcome being applied ran first
        self.politeness = Politeness(config.politeness)
        self.outages = Outages()
        self.danger = Danger(config.dangerous, config.dangerous_policy)
        self.shortcuts = config.explore.shortcuts  # False: the exhaustive crawl
        self.sampler = random.Random(config.seed)  # which inferred transitions are checked
        self._words: dict[str, Counter[str]] = {}  # state -> its words (WORDS_KEPT at most)
        self.documents: dict[str, list[dict[str, Any]]] = {}  # a link's URL -> what it saved
        plugins = [*([Archiver()] if config.archive.enabled else []), *plugins]
        self.progress = progress
        # (config, capture network) -> a browser: Chromium, or a FakeBrowser in tests
        factory = browser_factory or (lambda c, net: Browser(c, capture_network=net))
        self.memory = Memory(
            Inference(config.limits.same_effect_after if self.shortcuts else None)
        )
        self.memory.followers.append(self._retargeted)
        inputs = config.inputs
        self.harvest: Harvest | None = None  # queries of its own, pages to the end
        if inputs.harvest is not None or inputs.max_pages is not None:
            self.harvest = Harvest(
                budget=inputs.harvest, max_options=inputs.max_options,
                max_pages=inputs.max_pages, seed=config.seed, given=inputs.values,
            )
            self.memory.followers.append(self.harvest.retarget)
        self.seeds: deque[str] = deque(config.start_urls)  # start URLs to load
        baseline = None
        if config.incremental.since is not None:
            baseline = Baseline(config.incremental.since, config.start_urls)
            self.memory.volatile = baseline.volatile
        self.seed_attempts: Counter[str] = Counter()
        self.stats = Stats()
        self.lock = threading.RLock()
        self.wakeup = threading.Condition(self.lock)
        self.started = 0.0
        self.stopping = False
        self.stop_requested = False  # stop() was called: abandon work, restart no browser
        self._stop_timer: threading.Timer | None = None
        self._time_limit: threading.Timer | None = None
        self.stop_reason = "finished"
        self.started_at = datetime.now(UTC)
        self._last_export = 0.0
        self._export_every = EXPORT_EVERY
        self._last_save = 0.0
        self.out = CrawlDirectory(
            config.out or Path(tempfile.mkdtemp(prefix="statecrawl-")),
            overwrite=config.overwrite,
            resume=config.resume,
        )
        try:  # the directory is locked from here: a run that cannot start lets it go
            # (picklable, for Dask workers)
            factory = functools.partial(_browser, factory, login_hook(plugins), self.out.path)
            network = any(p.needs_network for p in plugins)  # the archive reads the network log
            self.executor = get_executor(config, factory, network)
            self.recrawl: Recrawl | None = None  # an incremental crawl's side (--since)
            if baseline is not None:
                self.recrawl = Recrawl(self, self.memory, config, self.out, baseline)
                self.memory.followers.append(self.recrawl.retarget)
            view = CrawlView(
                config, self.out, self.memory, lambda: asdict(self.stats), self.lock, baseline
            )
            self.hooks = Hooks(plugins, view, self._plugin_failed)
            self.store = open_store(self.out.path)
            self.saver = Saver(self.store)
            self.volatility = Volatility(
                self.memory, self.model, self.out, self.store, self._merge
            )
            self.run_id = 0
            if config.resume:
                chain.thicken(self.store, self.out.path)  # a recrawl's store holds its changes
                checkpoint = self.store.load()
                if checkpoint is None:  # killed before its first checkpoint: nothing to keep
                    log.warning("%s holds no checkpoint: the crawl starts again", self.out.path)
                else:
                    self._resume(checkpoint)
        except BaseException:
            self.out.close()
            raise
        for site, count in self.memory.per_site.items():
            if config.limits.max_states is not None and count >= config.limits.max_states:
                self.strategy.close(site)

    def _resume(self, checkpoint: Checkpoint) -> None:
        """Take up the crawl ``checkpoint`` saved: its memory, and its work not done."""
        restore(self.memory, checkpoint, self.out, self.actions_of)
        restore_stats(self.stats, checkpoint.stats)
        if self.recrawl is not None:
            self.recrawl.load(checkpoint.tables)
        log.info("resuming %s: %d states known", self.out.path, len(self.memory.states))
        self._forget_outages()
        for state in sorted(self.memory.states.values(), key=lambda s: (s.depth, s.found_at)):
            if not (state.unreachable or state.final):
                self.give_work(state, self.push)

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
        self.out.reserve()  # so that a full disk still lets the graph be written
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
                if self.recrawl is not None:
                    self.recrawl.baseline.check(self.scope)
                self.hooks.broadcast("on_start")
                self.executor.run(self)
            except Exception as exc:
                if not self.stop_requested:  # after a stop, errors are its echoes
                    self.stop_reason = f"error: {one_line(str(exc))[:200]}"
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
            self.executor.abandon()
            return
        self.stop_requested = True
        self.stop_reason = reason
        self.stopping = True
        if self.lock.acquire(blocking=False):  # never wait for the lock in a signal handler
            try:
                self.wakeup.notify_all()
            finally:
                self.lock.release()
        self._stop_timer = threading.Timer(STOP_GRACE, self.executor.abandon)
        self._stop_timer.daemon = True
        self._stop_timer.start()

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

    # ---- the executor's side -----------------------------------------------------------------
    def halt(self, reason: str | None = None) -> None:
        """Let no slot take new work (an executor's thread failed; ``reason``: why the crawl
        stops, if that ends it)."""
        with self.lock:
            self.stopping = True
            if reason is not None:
                self.stop_reason = reason
            self.wakeup.notify_all()

    def restarted(self, slot: Slot) -> None:
        """``slot``'s browser was restarted: it shows no known state."""
        with self.lock:
            slot.current = None

    def next_task(self, slot: Slot) -> Task | None:
        """The next task for ``slot``, waiting while other slots may make more work; ``None``
        when the crawl is over for it. Work the engine can do without a browser (an action
        whose effect is known, a link known or out of scope) is done on the way, and the
        plugins are told of it before the task starts."""
        try:
            return self._next_task(slot)
        finally:
            self.hooks.flush()

    def _next_task(self, slot: Slot) -> Task | None:
        with self.lock:
            while True:
                if self.stopping or self._limit_reached():
                    self.stopping = True
                    self.wakeup.notify_all()
                    return None
                url = next((u for u in self.seeds if self.politeness.ready(host_of(u))), None)
                if url is not None:
                    self.seeds.remove(url)
                    return self._assign(slot, None, Task("seed", url=url), None)
                nearby = (
                    near(self.memory.graph.graph, self.memory.edge_actions, slot.current)
                    if self.shortcuts
                    else []
                )
                work = self.strategy.pop(nearby, self._ready)
                if work is not None:
                    state = self.memory.states.get(work.state)
                    if state is None or state.unreachable:
                        continue
                    self.memory.fired.add((work.state, work.action.key))
                    if self._infer(work):
                        continue
                    task = self._task(slot, work, state)
                    if task is not None:
                        return task
                    continue
                held = bool(self.seeds or len(self.strategy))  # work whose host must wait
                if not held and not any(s.busy for s in self.executor.slots):
                    if self.recrawl is not None and self.recrawl.carried:
                        self.recrawl.carry()
                        continue
                    if self._next_query():
                        continue
                    self.wakeup.notify_all()
                    return None
                self.wakeup.wait(timeout=self.politeness.wait() or 1.0)

    def _next_query(self) -> bool:
        """Put the next harvesting query in the frontier, if there is one (asked once the
        crawl has nothing else to do, so that each query is chosen from all that the ones
        before brought, whatever the number of browsers)."""
        found = self.harvest.next() if self.harvest is not None else None
        if found is None:
            return False
        state_id, action = found
        state = self.memory.states.get(self.memory.resolve(state_id))
        if state is None:
            return True  # (merged away: the next query is asked for)
        log.info("harvest query %d: %s", len(self.harvest.order), action.action)
        self.stats.queries = len(self.harvest.order)
        self.queue(state.id, action, state.depth)
        self.wakeup.notify_all()
        return True

    def _cost(self, source: str, action: Action) -> int:
        """The depth an action adds: one, or none for a step through a query's result pages."""
        return 1 if self.harvest is None else self.harvest.cost(source, action)

    def apply(self, slot: Slot, outcome: Outcome | None) -> None:
        """Record what ``slot``'s task did (``None``: the executor failed to perform it, and
        raises). After ``stop()``, failed work is abandoned (the stop may have killed the
        browser under it)."""
        try:
            if outcome is not None and not (outcome.failure and self.stop_requested):
                task = slot.task
                assert task is not None
                with self.lock:
                    self.stats.relogins += outcome.relogins
                    covered = self._covered(outcome)
                    self.arrival_covered = len(covered)
                    if outcome.ended_session and slot.work is not None:
                        log.info("%s ended the session: fired last", slot.work.action.label)
                        self.danger.learn(slot.work.action)
                    if self._answered(slot, task, outcome):
                        pass  # done again once the host has rested, or failed
                    elif task.kind == "seed":
                        self._seeded(slot, task, outcome)
                    elif task.kind == "load":
                        assert slot.work is not None
                        self._loaded_link(slot, slot.work, outcome)
                    else:
                        assert slot.work is not None
                        self._fired(slot, slot.work, slot.plan, outcome)
                    if covered and task.kind != "seed" and not outcome.diverged:
                        self._first_covered(slot, covered)
        finally:
            self.hooks.flush()
            with self.lock:
                if slot.host is not None:
                    self.politeness.end(slot.host)
                slot.busy = False
                slot.work, slot.plan, slot.task, slot.host = None, None, None, None
                self.wakeup.notify_all()
                self._tick()

    def _covered(self, outcome: Outcome) -> list[str]:
        """Merge an outcome's JavaScript coverage; the functions it ran first."""
        return coverage.merge(self.memory.coverage, outcome.coverage)

    def _first_covered(self, slot: Slot, functions: list[str]) -> None:
        """The transition ``slot`` just made ran ``functions`` first: counted on its edge
        (``new_functions``), and each function remembers it (``coverage.json``)."""
        work = slot.work
        if work is None or slot.current is None:
            return
        edge = (self.memory.resolve(work.state), slot.current, work.action.key)
        if not self.memory.graph.graph.has_edge(*edge):
            return
        attrs = self.memory.graph.edge(*edge)
        attrs["new_functions"] = attrs.get("new_functions", 0) + len(functions)
        for fid in functions:
            self.memory.coverage[fid] = {**self.memory.coverage[fid], "by": list(edge)}

    # ---- making tasks --------------------------------------------------------------------------
    def _assign(self, slot: Slot, work: Work | None, task: Task, way: Plan | None) -> Task:
        archive = self.config.archive
        pictured = archive.screenshots != "none" or archive.thumbnails
        if self.executor.remote and archive.enabled and pictured:
            task = replace(task, screenshot=True)  # hooks get no browser to take them
        if work is not None and work.action.key in self.danger.learned:
            task = replace(task, ends_session=True)
        slot.busy = True
        slot.work, slot.plan, slot.task = work, way, task
        slot.host = host_of(task.url if work is None else self._site(work))
        self.politeness.start(slot.host)
        return task

    def _site(self, work: Work) -> str:
        """The site (an origin) whose frontier holds ``work`` and whose host it loads: its
        state's, or for an in-scope link the target's (a link to another start site is that
        site's work, not its source's)."""
        if work.action.is_link and work.action.action in self.scope:
            return origin(work.action.action)
        state = self.memory.states.get(self.memory.resolve(work.state))
        return origin(state.url) if state is not None else ""

    def _home(self, state_id: str) -> str | None:
        """The site of a state (``None``: not a known state)."""
        state = self.memory.states.get(self.memory.resolve(state_id))
        return origin(state.url) if state is not None else None

    def _ready(self, site: str) -> bool:
        """Whether politeness lets a task start on ``site``'s host now."""
        return self.politeness.ready(host_of(site))

    def _answered(self, slot: Slot, task: Task, outcome: Outcome) -> bool:
        """Tell politeness how ``slot``'s host answered; whether the outcome is dropped. When
        the host asked to slow down (a 429 or 503), the work is done again once the host has
        rested, ``politeness.retries`` times at most (then what it got is kept). When one of
        the crawl's own requests failed (:mod:`.outage`), the browser shows the page's view
        of the failure, never a state: the work is done again once the host has rested,
        ``politeness.outage_retries`` times at most, then recorded as a failure. The
        browser's page is unknown after either."""
        assert slot.host is not None
        waits = throttled(outcome, slot.host, time.time())
        failed = self._failed(task, slot.work, outcome)
        pause = self.politeness.answered(slot.host, [*waits, None] if failed else waits)
        work = slot.work
        attempt = task.url if work is None else (work.state, work.action.key)
        if failed:
            if self.politeness.retry(attempt, self.config.politeness.outage_retries):
                log.info("%s: its work is done again in %.1f s", failed[0], pause)
                self._again(slot, task)
            else:
                self._unserved(slot, task, failed[0])
            return True
        if not waits or not self.politeness.retry(attempt):
            return False
        log.info("%s asked to slow down: its work is done again in %.1f s", slot.host, pause)
        self._again(slot, task)
        return True

    def _failed(self, task: Task, work: Work | None, outcome: Outcome) -> list[str]:
        """The crawl's own requests that failed in ``outcome`` (:meth:`Outages.failed`), and
        a load that could not reach a server that answered before; when none did, the
        servers that answered are up again."""
        now = time.time()
        exchanges = [*outcome.way, *outcome.exchanges]
        failed = self.outages.failed(exchanges, self.scope.__contains__, now)
        failure = outcome.failure
        if failure is not None and unreached(failure.message):
            where = origin(task.url if work is None else self._site(work))
            if where in self.outages.answering:
                self.outages.fail(where, now)
                failed.append(failure.message)
        if failed:
            self.stats.outages = len(self.outages.seen())
        else:
            snapshots = [*outcome.loads, *outcome.steps, *filter(None, [outcome.fired])]
            served = [e.url for e in exchanges if e.failed is None and 0 < e.status < 500]
            served += [s.url for s in snapshots if 0 < s.status < 500]
            for period in self.outages.answered(served):
                log.warning("%s; the work it failed is done again", period.describe())
        return failed

    def _again(self, slot: Slot, task: Task) -> None:
        """Do ``slot``'s task again later."""
        slot.current = None
        if slot.work is None:
            assert task.url is not None
            self.seeds.append(task.url)
        else:
            self._requeue(slot.work)

    def _unserved(self, slot: Slot, task: Task, why: str) -> None:
        """Work a server failed as often as it may: a failure, not fired, so that a
        ``--resume`` does it again."""
        slot.current = None
        reason = f"the server failed: {why}"
        work = slot.work
        if work is None:
            assert task.url is not None
            log.warning("start page %s: %s", task.url, reason)
            self._start_failed(task.url, reason, outage=True)
            return
        self._record_failure(work, reason, outage=True)
        self.memory.fired.discard((self.memory.resolve(work.state), work.action.key))

    def _task(self, slot: Slot, work: Work, state: State) -> Task | None:
        """The task that does ``work``, or ``None`` when it was done without a browser."""
        volatile = tuple(sorted(self.memory.volatile))
        if work.action.is_link:
            return self._link_task(slot, work, state, volatile)
        if slot.current == state.id and self.shortcuts:
            task = Task("fire", action=work.action, volatile=volatile)
            return self._assign(slot, work, task, None)
        way = self._way(slot, state)
        if way is None:
            self._missed(work, "no known path to it")
            return None
        task = Task(
            "fire",
            url=way.url,
            start=self.memory.states[way.start].key,
            steps=tuple((action, self.memory.states[target].key) for action, target in way.steps),
            action=work.action,
            volatile=volatile,
        )
        return self._assign(slot, work, task, way)

    def _way(self, slot: Slot, state: State) -> Plan | None:
        """How ``slot``'s browser gets to ``state``: by loading its own URL once, to learn
        whether that shows it; then by the cheapest known way from where the browser is or,
        every other time, from a start URL (in case the browser's state is not what the
        engine believes). The exhaustive crawl always loads a start URL and replays the
        cheapest way from it."""
        if (
            self.shortcuts
            and state.url not in self.memory.loads
            and state.url in self.scope
            and self._worth_loading(state)
        ):
            return Plan(state.url, state.id, ())
        # A state that several URLs load is started from its own URL: another one may load
        # a page that looks the same but is not (an empty list under a filter in its hash).
        starts: dict[str, str] = {}
        for url, sid in self.memory.loads.items():
            if sid is not None and (sid not in starts or url == self.memory.states[sid].url):
                starts[sid] = url
        roots_only = not self.shortcuts or self.memory.tries[state.id] % 2 == 1
        if roots_only:
            roots = {self.memory.loads.get(u) for u in self.config.start_urls}
            starts = {sid: url for sid, url in starts.items() if sid in roots}
        current = None if roots_only else slot.current
        graph, actions = self.memory.graph.graph, self.memory.edge_actions
        return plan(graph, actions, state.id, current=current, starts=starts)

    def _worth_loading(self, state: State) -> bool:
        """Whether loading a state's own URL may show it: not once the URLs of its kind
        (:func:`.planning.shape`) failed twice and never showed their state (a detail page
        that, loaded directly, lacks what the way there put in it)."""
        hits, misses = self.memory.own_loads.get(shape(state.url), (0, 0))
        return hits > 0 or misses < OWN_LOAD_FAILURES

    def _link_task(
        self, slot: Slot, work: Work, source: State, volatile: tuple[str, ...]
    ) -> Task | None:
        """A link: its target depends on its URL only, so each URL is loaded once (in every
        state by the exhaustive crawl), and a URL that failed to load, or whose page left the
        scope by itself as it loaded (a form submitted or a refresh to another host), is not
        loaded again."""
        action = work.action
        url = action.action
        if url not in self.scope:
            self._external(source.id, action, url)
            return None
        if url in self.memory.departures:
            for target_url in self.memory.departures[url]:
                self._external(source.id, action, target_url)
            return None
        if url in self.memory.link_failures:
            self._record_failure(work, self.memory.link_failures[url])
            return None
        if self.shortcuts and url in self.documents:
            self._documents(source.id, action, self.documents[url], inferred=True)
            return None
        known = self.memory.links.get(url) or self.memory.loads.get(url)
        if source.depth >= self.config.limits.max_depth and known is not None:
            return None  # a link at the limit, for a document, to a page: no state
        if self.shortcuts and known is not None and known in self.memory.states:
            self.connect(source.id, action, known, None, inferred=True)
            self.improve(known, source.depth + 1)
            return None
        return self._assign(slot, work, Task("load", url=url, volatile=volatile), None)

    def _infer(self, work: Work) -> bool:
        """Record without firing a script action whose effect is known (see
        :class:`.policy.Inference` and :class:`.equivalence.Equivalence`), unless it is drawn
        to be fired as a check."""
        action = work.action
        popups = self.memory.popups
        if popups.beyond(action) and self.sampler.random() >= self.config.explore.verify:
            popups.leave_out(work.state, action)
            return True  # its popup lacks that option: nothing to record, as when fired
        target = self.memory.inference.known(action, work.state, self.words)
        paired = target is None and not action.is_link
        if paired:
            target = self.memory.equivalence.known(action.key, work.state, self._fired_to)
        if target is None or target not in self.memory.states:
            return False
        if self.sampler.random() < self.config.explore.verify:
            self.memory.checking[(work.state, action.key)] = target
            return False  # fired: its outcome checks the inference
        if paired:
            self.memory.equivalence.infer(action.key, work.state)
        else:
            self.memory.inference.infer(action, work.state)
        self.connect(work.state, action, target, None, inferred=True)
        self.improve(target, work.depth + 1)
        self.stats.inferred += 1
        return True

    def _check(self, source: str, action: Action, target: str) -> None:
        """A fired action that inference had an answer for: it confirms it, or retracts the
        action (never inferred again; what was inferred for it is fired)."""
        expected = self.memory.checking.pop((source, action.key), None)
        if expected is None:
            return
        if self.memory.resolve(expected) == target:
            self.stats.verified += 1
            return
        states = self.memory.inference.retract(action)
        log.info(
            "%s on %s led to %s, not %s as inferred: its inferred transitions are fired",
            action.event, action.name, target, expected,
        )
        self._refire(action.key, states, action)
        for key, paired in self.memory.equivalence.retract(action.key).items():
            self._refire(key, paired)

    def _refire(self, key: str, states: Iterable[str], known: Action | None = None) -> None:
        """The inferred transitions of action ``key`` (``known``, if given) in ``states``
        lost their evidence: they are removed, and the action is fired there."""
        for state_id in map(self.memory.resolve, states):
            state = self.memory.states.get(state_id)
            action = self.memory.edge_actions.pop((state_id, key), None) or known
            if state is None or action is None:
                continue
            self.stats.retracted += len(
                self.memory.graph.remove_transitions(state_id, key, inferred=True)
            )
            self._requeue(
                Work(state_id, action, state.depth, self.memory.leaving(action), state.score)
            )

    def _fired_to(self, state: str, key: str) -> str | None:
        """Where action ``key`` led when it was fired (not inferred) in ``state``."""
        for _, target, k, inferred in self.memory.graph.graph.out_edges(
            state, keys=True, data="inferred"
        ):
            if k == key and not inferred:
                return target
        return None

    def _pair(self, source: str, action: Action, target: str, requests: Requests) -> None:
        """A script action fired: what it tells of equivalent actions (see
        :mod:`.equivalence`); those whose evidence broke are fired where they were inferred."""
        if self.memory.equivalence.after is None:
            return
        fired = {
            k: t
            for _, t, k, d in self.memory.graph.graph.out_edges(source, keys=True, data=True)
            if not d.get("inferred") and d.get("kind") != "link"
        }
        table = self.memory.inference.table

        def together(a: str, b: str) -> set[str]:
            if a not in table or b not in table:
                return set()
            return set(map(self.memory.resolve, table[a].sources & table[b].sources))

        lost = self.memory.equivalence.record(
            source, action.key, target, requests, fired, together, self._fired_to
        )
        for key, states in lost.items():
            self._refire(key, states)

    def words(self, state_id: str) -> Counter[str]:
        """The words of a state's DOM (:func:`.policy.words`), for inference."""
        found = self._words.get(state_id)
        if found is None:
            state = self.memory.states.get(self.memory.resolve(state_id))
            if state is None:  # (merged away: no inference leads there)
                return Counter()
            if len(self._words) >= WORDS_KEPT:
                self._words.pop(next(iter(self._words)))
            found = self._words[state_id] = words(self.volatility.full(state).html)
        return found

    def _limit_reached(self) -> bool:
        limits = self.config.limits
        if limits.max_states is not None and all(
            self.memory.per_site[site] >= limits.max_states for site in self.scope.origins
        ):
            self.stop_reason = "max-states"
            return True
        if limits.max_time is not None and time.monotonic() - self.started >= limits.max_time:
            self.stop_reason = "max-time"
            return True
        return False

    # ---- applying outcomes ---------------------------------------------------------------------
    def _seeded(self, slot: Slot, task: Task, outcome: Outcome) -> None:
        """Two loads of a start URL: the root state, and what changes with no user action. A
        start page that hangs the browser (a busy script, a load that never ends) is tried
        once more in a new browser (without it nothing can be crawled), then recorded as a
        failure of the crawl in the graph's ``failures``; an unreachable one is an error."""
        url = task.url
        assert url is not None
        failure = outcome.failure
        if failure is not None:
            if failure.kind == "crash":
                raise BrowserCrashed(failure.message)
            if failure.kind != "timeout":
                raise NavigationError(failure.message)
            log.warning("start page %s hung the browser: %s", url, failure.message)
            self.seed_attempts[url] += 1
            if self.seed_attempts[url] < SEED_ATTEMPTS:
                self.seeds.appendleft(url)
            else:
                self._start_failed(url, failure.message)
            return
        first, second = outcome.loads
        self.volatility.learn(volatile_between(first.html, second.html) or set())
        self.volatility.learn(set(second.volatile))
        root = self._observe(second, slot, 0, outcome.exchanges)
        if root is not None:
            self.memory.loads[url] = root
            self.store.first_load(url, strip_userinfo(second.html))  # the store's: no userinfo
            slot.current, slot.came_from = root, None

    def _start_failed(self, url: str, error: str, **flags: bool) -> None:
        """A start URL that gave no state: a failure of the crawl, in the graph's own."""
        self.stats.failures += 1
        self.memory.graph.graph.graph.setdefault("failures", []).append(
            {"url": url, "error": error, **flags}
        )

    def _loaded_link(self, slot: Slot, work: Work, outcome: Outcome) -> None:
        """A link loaded: its page is a state, unless it failed or left the scope."""
        action, url = work.action, work.action.action
        failure = outcome.failure
        if failure is not None:
            slot.current = None
            if failure.kind == "crash":
                self._retry_or_fail(work, failure.message)
                return
            self.memory.link_failures[url] = failure.message
            self._record_failure(work, failure.message)
            return
        source = self.memory.states[self.memory.resolve(work.state)]
        (snapshot,) = outcome.loads
        if snapshot.downloaded:  # a document, not a page: the browser shows what it showed
            self.documents[url] = snapshot.downloads
            self.hooks.defer("on_exchanges", source.id, outcome.exchanges)
            self._documents(source.id, action, snapshot.downloads)
            slot.current = None
            return
        self._loaded(url, snapshot)
        if source.depth >= self.config.limits.max_depth:
            # A link that looked like a document showed a page, beyond the depth limit.
            log.info("state %s: %s shows a page, not a document: left out", source.id, url)
            slot.current = None
            return
        if snapshot.blocked:  # the page left the scope by itself: never a state of it
            self.memory.departures[url] = list(dict.fromkeys(snapshot.blocked))
            for target_url in self.memory.departures[url]:
                self._external(source.id, action, target_url)
            slot.current = None
            return
        depth = source.depth + self._cost(source.id, action)
        target = self._observe(snapshot, slot, depth, outcome.exchanges, source.id, action)
        slot.current, slot.came_from = target, None
        if target is None:
            return
        self.memory.links[url] = target
        self.memory.loads.setdefault(url, target)
        self.connect(source.id, action, target, snapshot)
        self._documents(source.id, action, snapshot.downloads)

    def _fired(self, slot: Slot, work: Work, way: Plan | None, outcome: Outcome) -> None:
        """An action fired in its state, after the way there, if it needed one."""
        failure = outcome.failure
        if failure is not None and failure.kind in ("timeout", "crash"):
            # A hung page hangs again, but a slow one on a loaded machine may not: one more try.
            slot.current = None
            self._retry_or_fail(work, failure.message)
            return
        if way is not None:
            if outcome.way:  # fetched again on the way to a known state: no state's own
                self.hooks.defer("on_exchanges", None, outcome.way)
            why = self._went(slot, way, outcome)
            if why is None and failure is not None and failure.stage == "reach":
                slot.current = None
                why = f"replay failed: {failure.message}"
            if why is not None:
                if way.url is not None and not way.steps:
                    # A state's own URL, loaded to learn whether it shows the state, did not:
                    # that is learned, no way failed (several browsers may have tried at once).
                    log.info("state %s: its URL shows another state (%s)", work.state, why)
                    self._requeue(work)
                else:
                    self._missed(work, why)
                return
            if outcome.fired is None and failure is None:
                # The way was right after all (its keys changed with what was learned on it),
                # but the browser stopped on it: the work is done next time.
                self._requeue(work)
                return
        source = self.memory.states[self.memory.resolve(work.state)]
        self.memory.tries.pop(source.id, None)
        if failure is not None and failure.kind == "absent":
            log.debug("state %s: %s: %s", source.id, work.action.name, failure.message)
            self.memory.popups.absent(work.action, failure.shown or 0)
            # Escape closed the popup: the browser is in the state again, or somewhere unknown.
            shown = None if outcome.fired is None else self.volatility.reconcile(
                [outcome.fired], [source.id])[0]
            slot.current, slot.came_from = (source.id, None) if shown == source.id else (None, None)
            return
        if failure is not None:
            self._record_failure(work, failure.message)
            if failure.kind == "navigation":
                slot.current = None
            return
        snapshot = outcome.fired
        assert snapshot is not None
        action = work.action
        for state_id, choice in self.memory.popups.chosen(action):
            state = self.memory.states.get(self.memory.resolve(state_id))
            if state is not None:
                self._requeue(Work(state.id, choice, state.depth, False, state.score))
        self.volatility.learn(set(snapshot.volatile))
        source = self.memory.states[self.memory.resolve(source.id)]
        depth = source.depth + self._cost(source.id, action)
        target = self._observe(snapshot, slot, depth, outcome.exchanges, source.id, action)
        came_from = self.memory.resolve(slot.came_from) if slot.came_from is not None else None
        slot.current, slot.came_from = target, source.id
        if target is not None:
            self.connect(
                source.id, action, target, snapshot, came_from=came_from,
                requests=requests_of(outcome.exchanges),
            )
        self._documents(source.id, action, snapshot.downloads)
        for url in snapshot.popups:
            self._popup(source, action, url)
        if self.danger(action):
            # A logout may have ended the session: only a reset can be trusted next.
            slot.current = None

    def _went(self, slot: Slot, way: Plan, outcome: Outcome) -> str | None:
        """Follow ``slot``'s browser along ``way`` as far as ``outcome`` went: ``None`` when
        every state on it was the expected one, else where it went wrong."""
        if way.url is not None:
            if not outcome.loads:
                return None  # the load failed: the failure says why
            snapshot = outcome.loads[0]
            self._loaded(way.url, snapshot)
            shown = self.volatility.reconcile([snapshot], [way.start])[0]
            if not way.steps:  # a state's own URL, tried once: what a load of it shows
                self.memory.loads.setdefault(way.url, shown)
                kind = shape(way.url)
                hits, misses = self.memory.own_loads.get(kind, (0, 0))
                hit = shown == self.memory.resolve(way.start)
                self.memory.own_loads[kind] = (hits + hit, misses + (not hit))
            slot.current, slot.came_from = shown, None
            if shown != self.memory.resolve(way.start):
                return f"loading {way.url} shows another state than {way.start}"
        if not outcome.steps:
            return None
        self.stats.replayed += len(outcome.steps)
        for (action, _), snapshot in zip(way.steps, outcome.steps, strict=False):
            if action.is_link:
                self._loaded(action.action, snapshot)
            else:
                self.volatility.learn(set(snapshot.volatile))
        expected = [target for _, target in way.steps[: len(outcome.steps)]]
        reached = self.volatility.reconcile(outcome.steps, expected)
        # the browser went as far as the steps did
        slot.current, slot.came_from = reached[-1], [slot.current, *reached][-2]
        for (action, target), got in zip(way.steps, reached, strict=False):
            if got != self.memory.resolve(target):
                return f"{action.event} on {action.name} led to another state than {target}"
        return None

    def _loaded(self, url: str, snapshot: Snapshot) -> None:
        """A fresh load of ``url`` (see :meth:`.Volatility.loaded`)."""
        self.stats.resets += 1
        self.volatility.loaded(url, snapshot)

    def _missed(self, work: Work, why: str) -> None:
        """No way to ``work``'s state worked this time: try again later, or at the
        ``REACH_ATTEMPTS``-th failure, mark the state unreachable."""
        state = self.memory.states[self.memory.resolve(work.state)]
        self.memory.tries[state.id] += 1
        if self.memory.tries[state.id] < REACH_ATTEMPTS:
            log.info("state %s not reached (%s): trying again later", state.id, why)
            self._requeue(work)
            return
        log.warning("state %s is unreachable: %s", state.id, why)
        state.unreachable = True
        self.stats.unreachable += 1
        self.strategy.discard(state.id)
        node = self.memory.graph.node(state.id)
        node["unreachable"] = True
        node["unreachable_reason"] = why

    def _requeue(self, work: Work) -> None:
        """Put ``work`` back in the frontier, not fired."""
        state = self.memory.states[self.memory.resolve(work.state)]
        self.memory.fired.discard((state.id, work.action.key))
        self.queue(state.id, work.action, state.depth)

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
        if (source.id, link.key) in self.memory.fired:
            return
        if url in self.scope:
            self.queue(source.id, link, source.depth)
        else:
            self.memory.fired.add((source.id, link.key))
            self._external(source.id, link, url)

    # ---- recording ------------------------------------------------------------------------
    def _observe(
        self,
        snapshot: Snapshot,
        slot: Slot,
        depth: int,
        exchanges: list[Exchange],
        parent: str | None = None,
        action: Action | None = None,
    ) -> str | None:
        """The state ``snapshot`` shows: a known one, or a new one if limits allow."""
        key = self.model.key(snapshot, self.memory.volatile)
        state_id = self.memory.index.get(key)
        if state_id is not None:
            self.improve(state_id, depth)
        else:
            state_id = self._add_state(key, snapshot, slot.browser, depth, parent, action)
        if exchanges:
            self.hooks.defer("on_exchanges", state_id, exchanges)
        return state_id

    def _add_state(
        self,
        key: str,
        snapshot: Snapshot,
        browser: Browser | None,
        depth: int,
        parent: str | None,
        action: Action | None,
        carried: bool = False,
    ) -> str | None:
        """A new state; ``carried``: taken over from the baseline without being visited."""
        limits = self.config.limits
        site = origin(snapshot.url)
        if limits.max_states is not None and self.memory.per_site[site] >= limits.max_states:
            return None
        earlier = self.recrawl.earlier_dom(key) if self.recrawl is not None else None
        per_url = limits.max_states_per_url
        if per_url is not None and self.memory.per_url[snapshot.url] >= per_url:
            self.stats.capped += 1
            return None
        self.memory.per_url[snapshot.url] += 1
        state_id = key
        state = State(
            id=state_id,
            key=key,
            url=snapshot.url,
            title=snapshot.title,
            depth=depth,
            found_at=round(time.monotonic() - self.started, 3),
            # the DOM is on disk and the candidates in the store: memory stays flat
            snapshot=replace(
                snapshot, html="", frames=None, screenshot=None, thumbnail=None, candidates=[]
            ),
            actions=self.actions_of(snapshot),
        )
        if self.scored == "novelty":
            state.score = new_words(snapshot.html, self.seen_words)
        elif self.scored == "coverage":
            state.score = self.arrival_covered
        self.memory.add(state)
        if self.memory.per_site[site] == limits.max_states:  # the site is done
            self.strategy.close(site)
        self.store.add_snapshot(state_id, snapshot.meta())
        self.stats.states = len(self.memory.states)
        self.stats.max_depth = max(self.stats.max_depth, depth)
        log.debug("state %s at depth %d: %s", state_id, depth, snapshot.url)
        self.memory.graph.add_state(
            state_id,
            url=state.url,
            title=state.title,
            depth=depth,
            snapshot=self.out.write_state(state_id, snapshot.html, earlier),
            screenshot=None,
            found_at=state.found_at,
            status=snapshot.status,
            settle_timed_out=snapshot.timed_out,
        )
        node = self.memory.graph.node(state_id)
        if snapshot.truncated:
            node["truncated"] = True
        if earlier is not None:
            node["unchanged"] = True
        if carried:
            node["carried"] = True
        self.hooks.defer("on_state", StateEvent(state, snapshot, browser, parent, action))
        if carried:
            return state_id
        explore = self.harvest is None or self.harvest.saw(
            state_id, snapshot.url, snapshot.html, state.actions, parent, action
        )
        if self.harvest is not None:
            self.stats.records = len(self.harvest.corpus.records)
        if action is not None and self.danger(action):
            # What follows a logout or a delete runs without the session or the data the rest
            # of the crawl has: the state is kept, but not explored further.
            state.final = True
            self.memory.graph.node(state_id)["after_dangerous"] = True
        elif explore:
            if self.recrawl is not None and depth < limits.max_depth:
                self.recrawl.place(state, parent, action)
            if action is not None:
                self.arrivals[state_id] = action
            self.give_work(state, (self.recrawl or self).push)
        return state_id

    def carry_state(
        self, key: str, snapshot: Snapshot, source: State, action: Action
    ) -> str | None:
        """A state of the baseline taken over without a visit (see :mod:`.recrawl`)."""
        depth = source.depth + 1
        return self._add_state(key, snapshot, None, depth, source.id, action, carried=True)

    def actions_of(self, snapshot: Snapshot) -> list[Action]:
        """The actions worth firing in a state, dangerous ones last or left out."""
        return self.danger.order(snapshot.actions())

    def push(self, state: State) -> None:
        """Put the state's actions not fired yet in the frontier."""
        for action in state.actions:
            if (state.id, action.key) in self.memory.fired:
                continue
            if self.harvest is None or not self.harvest.walks.beyond(state.id, action):
                self.queue(state.id, action, state.depth)

    def give_work(self, state: State, push: Callable[[State], None]) -> None:
        """The work due to a state at its depth: its actions (through ``push``) below the
        depth limit, its links to documents at it, nothing beyond."""
        if state.depth < self.config.limits.max_depth:
            push(state)
        elif state.depth == self.config.limits.max_depth:
            self.push_documents(state)

    def push_documents(self, state: State) -> None:
        """A state at the depth limit: put its links to documents in the frontier (a PDF, a
        CSV, a URL known to download), as a document is no state beyond the limit."""
        for action in state.actions:
            if not action.is_link or (state.id, action.key) in self.memory.fired:
                continue
            url = action.action
            if url in self.documents or names_document(url, self.config.archive):
                self.queue(state.id, action, state.depth)

    def queue(self, state_id: str, action: Action, depth: int) -> None:
        """Put one pair in the frontier, telling the strategy whether its action is known to
        take the browser to another page (a link, or an action that led to another URL), and
        whether it is likely to undo the action that led to its state."""
        score = self.memory.states[state_id].score
        arrival = self.arrivals.get(state_id)
        returns = arrival is not None and action.undoes(arrival)
        self.strategy.push(
            Work(state_id, action, depth, self.memory.leaving(action), score, returns)
        )

    def improve(self, state_id: str, depth: int) -> None:
        """A shorter way to a known state: give it the smaller depth and its due work, and
        the states its known transitions lead to theirs (one found at the depth limit
        through a long way gets the work it was denied)."""
        todo = [(state_id, depth)]
        while todo:
            state_id, depth = todo.pop()
            state = self.memory.states[state_id]
            if depth >= state.depth:
                continue
            state.depth = depth
            self.memory.graph.node(state_id)["depth"] = depth
            self.strategy.discard(state_id)
            if not (state.unreachable or state.final):
                self.give_work(state, (self.recrawl or self).push)
            todo += [(t, depth + 1) for _, t in self.memory.graph.graph.out_edges(state_id)
                     if t in self.memory.states]

    def connect(
        self,
        source: str,
        action: Action,
        target: str,
        snapshot: Snapshot | None,
        inferred: bool = False,
        came_from: str | None = None,
        requests: Requests = (),
    ) -> None:
        """Record the transition ``source -> target`` by ``action`` (``inferred``: not fired;
        ``came_from``: the state before ``source``; ``requests``: what it asked for)."""
        self.memory.edge_actions[(source, action.key)] = action
        if not inferred:
            states = self.memory.states
            self.memory.leaving.record(action, states[source].url, states[target].url)
            if snapshot is not None and not action.is_link:
                html = snapshot.html
                self.memory.inference.record(
                    action, source, target, requests, came_from,
                    lambda: (self.words(source), words(html)),
                )
                self._pair(source, action, target, requests)
                self._check(source, action, target)
            if self.recrawl is not None:
                self.recrawl.verified(source, action, target)
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
        self.memory.graph.add_transition(source, target, action.key, **attrs)
        if not inferred:
            self.stats.transitions += 1
        self.hooks.defer("on_transition", source, action, target, snapshot)

    def _documents(
        self, source: str, action: Action, documents: list[dict[str, Any]], inferred: bool = False
    ) -> None:
        """The files ``action`` saved in state ``source``: a document node each, reached by a
        ``download`` edge (``inferred``: the link was not loaded again); never states."""
        for document in documents:
            node = document_id(document["url"], document["digest"])
            self.memory.graph.add_document(
                node, **{name: value for name, value in document.items() if value is not None}
            )
            self.memory.graph.add_transition(
                source, node, action.key, name=action.name, status=action.status,
                event=action.event, action=action.action, kind=action.kind, download=True,
                **({"inferred": True} if inferred else {}),
            )
            self.stats.documents += not inferred

    def _external(self, source: str, action: Action, url: str) -> None:
        node = "x" + digest("external", url)[1:]
        self.memory.graph.add_external(url, node)
        self.memory.graph.add_transition(
            source, node, action.key, name=action.name, status=action.status,
            event=action.event, action=action.action, kind=action.kind, out_of_scope=True,
        )
        self.stats.out_of_scope += 1

    def _retry_or_fail(self, work: Work, reason: str) -> None:
        """The browser died or hung during ``work``: try it once more in a new browser (the
        cause may lie elsewhere), and record it as a failure the second time."""
        attempt = (work.state, work.action.key)
        if attempt not in self.memory.retried:
            self.memory.retried.add(attempt)
            self.memory.fired.discard(attempt)
            self.strategy.push(work)
            return
        self._record_failure(work, reason)

    def _record_failure(self, work: Work, reason: str, outage: bool = False) -> None:
        """Record that ``work`` failed (``outage``: a server failed it, and a ``--resume``
        does it again)."""
        state = self.memory.resolve(work.state)  # the state may have merged into another meanwhile
        log.info("failed in state %s: %s: %s", state, work.action.name, reason)
        self.stats.failures += 1
        if state not in self.memory.states:
            return
        node = self.memory.graph.node(state)
        failure = {"key": work.action.key, "name": work.action.name, "event": work.action.event,
                   "action": work.action.action, "error": reason}
        if outage:
            failure["outage"] = True
        node.setdefault("failures", []).append(failure)

    def _forget_outages(self) -> None:
        """A resumed crawl does again the work servers failed: those failures are forgotten
        (the work was left unfired)."""
        for state_id in self.memory.states:
            failures = self.memory.graph.graph.nodes[state_id].get("failures", [])
            kept = [f for f in failures if not f.get("outage")]
            if len(kept) < len(failures):
                self.stats.failures -= len(failures) - len(kept)
                self.memory.graph.node(state_id)["failures"] = kept

    # ---- merges ---------------------------------------------------------------------------------
    def _merge(self, old: str, keeper: str) -> None:
        depth = self.memory.states[old].depth
        self.strategy.discard(old)
        self.memory.retarget({old: keeper})
        (self.out.path / self.out.snapshot_path(old)).unlink(missing_ok=True)
        self.improve(keeper, depth)
        self.stats.states = len(self.memory.states)

    def _retargeted(self, names: Mapping[str, str]) -> None:
        """States got other ids (see :meth:`.Memory.retarget`): what the engine holds of them
        outside its memory follows."""
        for state_id in names.keys() & self._words.keys():
            del self._words[state_id]
        for slot in self.executor.slots:
            slot.current = None if slot.current is None else names.get(slot.current, slot.current)
            if slot.came_from is not None:
                slot.came_from = names.get(slot.came_from, slot.came_from)

    # ---- progress and output ----------------------------------------------------------------
    def _tick(self) -> None:
        self.stats.elapsed = time.monotonic() - self.started
        self.stats.frontier = len(self.strategy)
        if self.progress is not None:
            self.progress(self.stats)
        if self.stats.elapsed - self._last_save >= SAVE_EVERY:
            self._last_save = self.stats.elapsed
            self.checkpoint()
        if self.stats.elapsed - self._last_export >= self._export_every:
            began = time.monotonic()
            self._write()
            self._last_export = self.stats.elapsed
            # graph.json is an export for the curious; the store is what resume reads
            self._export_every = max(EXPORT_EVERY, EXPORT_SHARE * (time.monotonic() - began))

    def _write(self) -> None:
        g = self.memory.graph.graph
        g.graph["start_url"] = self.config.start_urls[0]
        g.graph["start_urls"] = list(self.config.start_urls)
        g.graph["config"] = self.config.to_dict()
        g.graph["started"] = self.started_at.isoformat()
        g.graph["finished"] = datetime.now(UTC).isoformat() if self.stopping else None
        g.graph["software"] = f"statecrawl/{__version__}"
        g.graph["volatile"] = sorted(self.memory.volatile)
        g.graph["outages"] = [period.to_data() for period in self.outages.seen()]
        g.graph["stats"] = {**asdict(self.stats), "rate": round(self.stats.rate, 3),
                            "stop_reason": self.stop_reason}
        self.out.write_graph(self.memory.graph)

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
            step(self._count_restarts)
            step(self._last_exchanges)
            step(self.hooks.flush)
            step(self.hooks.broadcast, "on_finish")
            step(self._name_states)
            if self.recrawl is not None:
                step(self.recrawl.compare)
            step(label_graph, self.memory.graph.graph, self.out.path)
            if self.config.browser.coverage:
                step(coverage.write, self.out.path, self.memory.coverage, self.memory.resolve)
            if self.harvest is not None and self.harvest.budget is not None:
                step(harvest.write, self.out.path, self.harvest)
            before = len(failures)
            step(self._write)
            written = len(failures) == before
            step(records.write, Crawl(path=self.out.path, graph=self.memory.graph.graph),
                 self.out.path / RECORDS)  # fmt: skip
            step(self.out.release_reserve)  # for the last checkpoint, on a full disk
            step(self._save_final)
        step(self.executor.close)
        if written:  # an earlier crawl in the directory is replaced by a complete one only
            step(self.out.commit)
        self.out.close()  # the next run may write the directory
        if failures:
            raise failures[0]

    def _count_restarts(self) -> None:
        self.stats.restarts = self.executor.restarts()

    def checkpoint(self) -> None:
        """A checkpoint now: work in flight is not counted as fired."""
        in_flight = [(s.work.state, s.work.action.key) for s in self.executor.slots if s.work]
        extra = self.recrawl.dump() if self.recrawl is not None else {}
        self.saver.save(self.memory, asdict(self.stats), in_flight, extra)

    def _save_final(self) -> None:
        """The last checkpoint and how the run ended; the store is closed."""
        try:
            self.checkpoint()
            finished = datetime.now(UTC).isoformat()
            self.store.end_run(self.run_id, finished, self.stop_reason)
            chain.thin(self.store, self.out.path)  # a recrawl keeps what changed
            log.info(
                "run %d ended (%s): %d states, %d transitions",
                self.run_id, self.stop_reason, self.stats.states, self.stats.transitions,
            )
        finally:
            self.store.close()

    # ---- plugins ------------------------------------------------------------------------------
    def _plugin_failed(self, why: str) -> None:
        """A plugin's hook failed: counted, and the first ones listed in the graph."""
        with self.lock:
            self.stats.plugin_failures += 1
            failures = self.memory.graph.graph.graph.setdefault("plugin_failures", [])
            if len(failures) < MAX_PLUGIN_FAILURES:
                failures.append(why)

    def _last_exchanges(self) -> None:
        """Hand the plugins what each browser fetched after its last task."""
        for slot, leftover in self.executor.leftovers():
            if leftover:
                self.hooks.broadcast("on_exchanges", slot.current, leftover)

    def _name_states(self) -> None:
        """Name each state by its final key. Its id was its key when it was found; volatility
        learned later changes keys, so without this the ids would depend on the order of
        discovery (browsers, timing). Old ids stay on the node as ``aliases``."""
        names = {s.id: s.key for s in self.memory.states.values() if s.id != s.key}
        if not names:
            return
        self.out.rename_states(names)
        self.store.rename_snapshots(names)
        self.memory.retarget(names)
        for new in names.values():
            node = self.memory.graph.node(new)
            node["snapshot"] = self.out.snapshot_path(new)
            if node.get("screenshot"):
                node["screenshot"] = self.out.screenshot_path(new)


@checked
def _browser(
    factory: Callable[[Config, bool], Browser],
    hook: Callable[..., None] | None,
    session_dir: Path,
    config: Config,
    network: bool,
) -> Browser:
    """A browser of ``factory`` that logs in with a plugin's ``hook`` (if any) and keeps its
    session in ``session_dir``, the folder the crawl writes (``--overwrite`` writes a new
    one)."""
    browser = factory(config, network)
    if hook is not None:
        browser.login_hook = hook
    browser.session_dir = session_dir
    return browser


def crawl(url: str | Iterable[str], **options: Any) -> Crawl:
    """Crawl the application at ``url`` (or several start URLs) and return the result.

    ``options`` are the settings of :class:`statecrawl.Config`: ``out``, ``model``,
    ``strategy``, … and the nested tables (``limits={"max_depth": 2}``); the common limits
    may also be given flat (``max_depth=2``, ``max_states=100``, ``max_time=60``).
    """
    return Explorer(_config(url, options)).run()


def crawl_by_role(url: str | Iterable[str], **options: Any) -> dict[str, Crawl]:
    """Crawl the application at ``url`` once per role, ``login`` a list of ``[login]``
    tables each with its ``role`` name, into ``out/roles/<role>/``: each role's crawl by
    name. ``out/roles.json`` says what each role reaches that another does not (see
    :mod:`statecrawl.roles`); ``options`` as :func:`crawl`'s."""
    return roles.crawl(_config(url, options), lambda config: Explorer(config).run())


def _config(url: str | Iterable[str], options: dict[str, Any]) -> Config:
    """The config of :func:`crawl`'s arguments."""
    urls = (url,) if isinstance(url, str) else argument("url", url, Iterable[str])
    flat = {k: options.pop(k) for k in ("max_depth", "max_states", "max_time") if k in options}
    if flat:
        limits = options.get("limits", {})
        if not isinstance(limits, Mapping):
            raise ConfigError(f"limits: expected a table, got {type(limits).__name__}")
        options["limits"] = {**limits, **flat}
    return Config.from_mapping({"start_urls": urls, **options})
