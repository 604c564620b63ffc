"""The crawl's lifecycle: a run from start to finish, and the lock.

An executor (:mod:`statecrawl.executor`) runs the browser work: it asks
:meth:`Explorer.next_task` for a task, performs it in a browser and hands the outcome to
:meth:`Explorer.apply`. The explorer holds the lock and hands each call to a role: the
:class:`.scheduler.Scheduler` says what comes next, :class:`.shortcuts.Shortcuts` does what
needs no browser, the :class:`.tasks.TaskMaker` says how a browser does the rest, the
:class:`.outcomes.OutcomeReader` reads what it did, and the :class:`.recorder.Recorder`
writes it down. The explorer itself checkpoints, exports and ends the crawl.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict
from pathlib import Path

from .. import coverage
from ..archive import Archiver
from ..browser import Browser, BrowserLike
from ..config import Config, argument, checked, folder
from ..directory import chain
from ..directory.crawl import Crawl, CrawlDirectory, load
from ..directory.label import label_graph
from ..errors import ConfigError, CrawlFailed, StatecrawlWarning, one_line
from ..executor import Outcome, Slot, Task, get_executor
from ..harvest import queries as harvest
from ..harvest.queries import Harvest
from ..incremental.baseline import Baseline
from ..ledger import holding, idle
from ..models import get_model
from ..plugins.hooks import MAX_PLUGIN_FAILURES, CrawlView, Hooks, Plugin, login_hook
from ..scope import Scope
from ..state import Snapshot
from ..stats import Stats
from ..store import Checkpoint, open_store
from ..strategies import TemplateBook, get_strategy, new_words
from .interruption import ctrl_c_stops
from .memory import Memory
from .outcomes import OutcomeReader
from .output import Output
from .policy import Danger, Inference
from .recorder import Recorder
from .recrawl import Recrawl
from .resume import restore, restore_stats
from .scheduler import Scheduler, exploring_time
from .sessions import Sessions
from .shortcuts import Shortcuts
from .tasks import Position, TaskMaker
from .volatility import Volatility

STOP_GRACE = 3.0  # seconds a stopped crawl waits for work in progress before killing browsers

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
        browser_factory: Callable[[Config, bool], BrowserLike] | None = None,
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
        self.progress = progress
        self.stats = Stats()
        self.lock = threading.RLock()
        self.wakeup = threading.Condition(self.lock)
        self.started = 0.0
        self.stopping = False
        self.stop_requested = False  # stop() was called: abandon work, restart no browser
        self.stop_reason = "finished"
        self._stop_timer: threading.Timer | None = None
        self._time_limit: threading.Timer | None = None
        self.positions: dict[Slot, Position] = {}  # where each browser stands
        self.out = CrawlDirectory(
            config.out or Path(tempfile.mkdtemp(prefix="statecrawl-")),
            overwrite=config.overwrite,
            resume=config.resume,
        )
        try:  # the directory is locked from here: a run that cannot start lets it go
            self._build(config, [*([Archiver()] if config.archive.enabled else []), *plugins],
                        browser_factory)
        except BaseException:
            self.out.close()
            raise

    def _build(
        self,
        config: Config,
        plugins: list[Plugin],
        browser_factory: Callable[[Config, bool], BrowserLike] | None,
    ) -> None:
        """Make the crawl's parts and take up its checkpoint when it resumes."""
        self.scope = scope = Scope(config)
        shortcuts = config.explore.shortcuts  # False: the exhaustive crawl
        memory = self.memory = Memory(
            Inference(config.limits.same_effect_after if shortcuts else None)
        )
        memory.followers.append(self._retargeted)
        inputs = config.inputs
        self.harvest: Harvest | None = None  # queries of its own, pages to the end
        if inputs.harvest is not None or inputs.max_pages is not None:
            self.harvest = Harvest(
                budget=inputs.harvest, max_options=inputs.max_options,
                max_pages=inputs.max_pages, seed=config.seed, given=inputs.values,
            )
            memory.followers.append(self.harvest.retarget)
        baseline = None
        if config.incremental.since is not None:
            baseline = Baseline(config.incremental.since, config.start_urls)
            memory.volatile = baseline.volatile
        # (config, capture network) -> a browser: Chromium, or a FakeBrowser in tests
        factory = browser_factory or (lambda c, net: Browser(c, capture_network=net))
        # (picklable, for Dask workers)
        factory = functools.partial(_browser, factory, login_hook(plugins), self.out.path)
        network = any(p.needs_network for p in plugins)  # the archive reads the network log
        self.executor = get_executor(config, factory, network)
        view = CrawlView(
            config, self.out, memory, lambda: asdict(self.stats), self.lock, baseline
        )
        self.hooks = Hooks(plugins, view, self._plugin_failed)
        self.store = open_store(self.out.path)
        danger = Danger(config.dangerous, config.dangerous_policy)
        self.scheduler = Scheduler(config, scope, memory, self.harvest, self.stats)
        self.recorder = Recorder(
            config=config, memory=memory, scheduler=self.scheduler,
            model=get_model(config.model), stats=self.stats, out=self.out, store=self.store,
            hooks=self.hooks, danger=danger, harvest=self.harvest,
            score=_scorer(config, lambda: self.recorder.covered),
        )
        self.volatility = Volatility(
            memory, self.recorder.model, self.out, self.store, self.recorder.merge
        )
        self.shortcuts = Shortcuts(
            config=config, memory=memory, scheduler=self.scheduler, recorder=self.recorder,
            volatility=self.volatility, stats=self.stats,
        )
        archive = config.archive
        pictured = archive.enabled and (archive.screenshots != "none" or archive.thumbnails)
        self.sessions = sessions = Sessions(memory, self.stats)
        self.tasks = TaskMaker(
            config=config, scope=scope, memory=memory, scheduler=self.scheduler,
            recorder=self.recorder, danger=danger, sessions=sessions,
            pictures=self.executor.remote and pictured, words=self.shortcuts.words,
        )
        self.reader = OutcomeReader(
            config=config, scope=scope, memory=memory, scheduler=self.scheduler,
            recorder=self.recorder, volatility=self.volatility, hooks=self.hooks,
            store=self.store, danger=danger, sessions=sessions, stats=self.stats,
        )
        self.recrawl: Recrawl | None = None  # an incremental crawl's side (--since)
        if baseline is not None:
            self.recrawl = Recrawl(self.scheduler, self.recorder, memory, config, self.out,
                                   baseline)
            memory.followers.append(self.recrawl.retarget)
            self.scheduler.recrawl = self.recorder.recrawl = self.recrawl
        self.output = Output(
            config=config, memory=memory, stats=self.stats, out=self.out, store=self.store,
            outages=self.reader.hosts.outages, in_flight=self.tasks.in_flight,
            extra=lambda: self.recrawl.dump() if self.recrawl is not None else {},
        )
        if config.resume:
            chain.thicken(self.store, self.out.path)  # a recrawl's store holds its changes
            checkpoint = self.store.load()
            if checkpoint is None:  # killed before its first checkpoint: nothing to keep
                log.warning("%s holds no checkpoint: the crawl starts again", self.out.path)
            else:
                self._resume(checkpoint)
        for site, count in memory.per_site.items():
            if config.limits.max_states is not None and count >= config.limits.max_states:
                self.scheduler.close(site)

    def _resume(self, checkpoint: Checkpoint) -> None:
        """Take up the crawl ``checkpoint`` saved: its memory, and its work not done."""
        restore(self.memory, checkpoint, self.out, self.recorder.actions_of)
        restore_stats(self.stats, checkpoint.stats)
        if self.recrawl is not None:
            self.recrawl.load(checkpoint.tables)
        log.info("resuming %s: %d states known", self.out.path, len(self.memory.states))
        self.recorder.forget_outages()
        for state in sorted(self.memory.states.values(), key=lambda s: (s.depth, s.found_at)):
            if not (state.unreachable or state.final):
                self.scheduler.give_work(state)

    # ---- the run -------------------------------------------------------------------------------
    def run(self) -> Crawl:
        """Crawl until the frontier is empty, a limit is reached or ``stop()`` is called;
        return the result.

        However the crawl ends (an error, a dead browser, ``stop()``), what was found is
        written, every plugin finishes (the WARC is closed) and every browser is ended. Run
        from the main thread with Python's default SIGINT handler, Ctrl-C works as ``stop()``
        and raises ``KeyboardInterrupt`` once all that is done.
        """
        self.started = self.recorder.started = time.monotonic()
        self.out.reserve()  # so that a full disk still lets the graph be written
        self.output.start()
        if self.config.limits.max_time is not None:
            # At the time limit (less the end of the run's share) the crawl stops as stop()
            # stops it: an action still in flight STOP_GRACE seconds later is abandoned.
            limit = exploring_time(self.config.limits.max_time)
            self._time_limit = threading.Timer(limit, self.stop, ("max-time",))
            self._time_limit.daemon = True
            self._time_limit.start()
        with ctrl_c_stops(self.stop) as interrupted:
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
        failed = self.recorder.failed_starts()
        if not self.memory.states:
            raise CrawlFailed(
                "; ".join(failed.values()) or f"no start URL gave a state ({self.stop_reason})"
            )
        for line in failed.values():
            warnings.warn(f"{line}; the crawl went on from the other start URLs",
                          StatecrawlWarning, stacklevel=2)
        return load(self.out.path)

    def stop(self, reason: str = "interrupted") -> None:
        """End the crawl soon and cleanly: no new work starts, and ``run()`` returns once what
        was found is written. Safe to call from a signal handler or another thread. Work
        still running ``STOP_GRACE`` seconds later (a hung page; sooner at the time limit),
        or at a second call, is abandoned: its browser is killed."""
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
        grace = self.scheduler.grace(reason, STOP_GRACE)
        self._stop_timer = threading.Timer(grace, self.executor.abandon)
        self._stop_timer.daemon = True
        self._stop_timer.start()

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
            self.positions[slot] = Position()
            self.sessions.restarted(slot)

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
        scheduler = self.scheduler
        with holding(self.lock):
            while True:
                reason = None if self.stopping else scheduler.limit_reached(self.started)
                if self.stopping or reason is not None:
                    if reason is not None:
                        self.stop_reason = reason
                    self.stopping = True
                    self.wakeup.notify_all()
                    return None
                url = scheduler.next_seed()
                if url is not None:
                    return self.tasks.seed(slot, url)
                position = self.positions.get(slot, Position())
                work = scheduler.pop(position.state)
                if work is not None:
                    state = self.memory.states.get(work.state)
                    if state is None or state.unreachable:
                        continue
                    self.memory.fired.add((work.state, work.action.key))
                    if self.config.explore.shortcuts and self.shortcuts.infer(work):
                        continue
                    task = self.tasks.make(slot, work, state, position)
                    if task is not None:
                        return task
                    continue
                if not scheduler.held and not any(s.busy for s in self.executor.slots):
                    if self.recrawl is not None and self.recrawl.carried:
                        self.recrawl.carry()
                        continue
                    if scheduler.next_query():
                        assert self.harvest is not None
                        self.stats.queries = len(self.harvest.order)
                        self.wakeup.notify_all()
                        continue
                    self.wakeup.notify_all()
                    return None
                idle(self.wakeup, scheduler.politeness.wait() or 1.0)

    def apply(self, slot: Slot, outcome: Outcome | None) -> None:
        """Record what ``slot``'s task did (``None``: the executor failed to perform it, and
        raises). After ``stop()``, failed work is abandoned (the stop may have killed the
        browser under it)."""
        try:
            if outcome is not None and not (outcome.failure and self.stop_requested):
                with holding(self.lock):
                    assignment = self.tasks.assignments[slot]
                    position = self.positions.get(slot, Position())
                    position = self.reader.read(slot, assignment, outcome, position)
                    resolve = self.memory.resolve
                    self.positions[slot] = Position(
                        None if position.state is None else resolve(position.state),
                        None if position.came_from is None else resolve(position.came_from),
                    )
        finally:
            self.hooks.flush()
            with holding(self.lock):
                self.tasks.release(slot)
                self.wakeup.notify_all()
                self._tick()

    def _retargeted(self, names: Mapping[str, str]) -> None:
        """States got other ids (see :meth:`.Memory.retarget`): where browsers stand follows."""
        for slot, position in self.positions.items():
            self.positions[slot] = Position(
                names.get(position.state, position.state) if position.state else None,
                names.get(position.came_from, position.came_from) if position.came_from else None,
            )

    # ---- progress and output ----------------------------------------------------------------
    def _tick(self) -> None:
        self.stats.elapsed = time.monotonic() - self.started
        self.stats.frontier = len(self.scheduler)
        if self.progress is not None:
            self.progress(self.stats)
        self.output.tick(self.stop_reason)

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
            self.stats.frontier = len(self.scheduler)
            step(self._last_figures)
            step(self._last_exchanges)
            step(self.hooks.flush)
            step(self.hooks.broadcast, "on_finish")
            step(self.output.name_states)
            if self.recrawl is not None:
                step(self.recrawl.compare)
            step(label_graph, self.memory.graph.graph, self.out.path)
            if self.config.browser.coverage:
                step(coverage.write, self.out.path, self.memory.coverage, self.memory.resolve)
            if self.harvest is not None and self.harvest.budget is not None:
                step(harvest.write, self.out.path, self.harvest)
            # the records first: graph.json counts them
            step(self.output.write_records, self.started)
            before = len(failures)
            step(self.output.write_graph, True, self.stop_reason)
            written = len(failures) == before
            step(self.out.release_reserve)  # for the last checkpoint, on a full disk
            step(self.output.save_final, self.stop_reason)
        step(self.executor.close)
        if not self.memory.states:  # failed before its first state: nothing blocks a retry
            step(self.out.discard)
        elif written:  # an earlier crawl in the directory is replaced by a complete one only
            step(self.out.commit)
        self.out.close()  # the next run may write the directory
        if failures:
            raise failures[0]

    def _last_figures(self) -> None:
        self.stats.restarts = self.executor.restarts()
        self.stats.ledger = self.executor.ledger.close(self.stats.elapsed)

    def checkpoint(self) -> None:
        """A checkpoint now: work in flight is not counted as fired."""
        self.output.checkpoint()

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
                self.hooks.broadcast(
                    "on_exchanges", self.positions.get(slot, Position()).state, leftover
                )


def _scorer(config: Config, covered: Callable[[], int]) -> Callable[[Snapshot], int] | None:
    """What a scored strategy orders a new state by: new words of visible text
    (``novelty``), functions the transition into it ran first (``coverage``: ``covered()``),
    how new its template is (``templates``); ``None`` for the other strategies."""
    scored = getattr(get_strategy(config.strategy), "scored", None)
    if scored == "novelty":
        seen: set[str] = set()
        return lambda snapshot: new_words(snapshot.html, seen)
    if scored == "coverage":
        return lambda _snapshot: covered()
    return TemplateBook().score if scored == "templates" else None


@checked
def _browser(
    factory: Callable[[Config, bool], BrowserLike],
    hook: Callable[..., None] | None,
    session_dir: Path,
    config: Config,
    network: bool,
) -> BrowserLike:
    """A browser of ``factory`` that logs in with a plugin's ``hook`` (if any) and keeps its
    session in ``session_dir``, the folder the crawl writes (``--overwrite`` writes a new
    one)."""
    browser = factory(config, network)
    if hook is not None:
        browser.login_hook = hook
    browser.session_dir = session_dir
    return browser
