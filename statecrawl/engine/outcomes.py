"""The outcome reader: what a browser's task did, recorded, and where the browser is now.
Every reading returns the browser's :class:`.tasks.Position` as a value; the engine keeps
it, so where a browser stands changes in one place."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from .. import coverage
from ..errors import BrowserCrashed
from ..models import volatile_between
from ..models.growth import Repetition, repetition
from ..redaction import strip_userinfo
from ..state import Action
from ..strategies import Work
from .hosts import HostAnswers
from .planning import shape
from .policy import requests_of
from .sessions import mutation
from .tasks import Position

if TYPE_CHECKING:
    from ..config import Config
    from ..executor import Outcome, Slot, Task
    from ..plugins.hooks import Hooks
    from ..scope import Scope
    from ..state import Snapshot, State
    from ..stats import Stats
    from ..store import Store
    from .memory import Memory
    from .planning import Plan
    from .policy import Danger
    from .recorder import Recorder
    from .scheduler import Scheduler
    from .sessions import Sessions
    from .tasks import Assignment
    from .volatility import Volatility

SEED_ATTEMPTS = 2  # loads of a start page that hangs the browser, each in a new browser
ERROR_STATUS = 400  # a start page answering this or above is a failed start, not a state

log = logging.getLogger(__name__)


class OutcomeReader:
    """Reads outcomes into the crawl's record (through the recorder) and its frontier."""

    def __init__(
        self,
        *,
        config: Config,
        scope: Scope,
        memory: Memory,
        scheduler: Scheduler,
        recorder: Recorder,
        volatility: Volatility,
        hooks: Hooks,
        store: Store,
        danger: Danger,
        sessions: Sessions,
        stats: Stats,
    ) -> None:
        self.config = config
        self.scope = scope
        self.memory = memory
        self.scheduler = scheduler
        self.recorder = recorder
        self.volatility = volatility
        self.hooks = hooks
        self.store = store
        self.danger = danger
        self.sessions = sessions
        self.stats = stats
        self.hosts = HostAnswers(
            config=config, scope=scope, memory=memory, scheduler=scheduler, recorder=recorder,
            stats=stats,
        )

    def read(
        self, slot: Slot, assignment: Assignment, outcome: Outcome, position: Position
    ) -> Position:
        """Record what ``assignment``'s task did in ``slot``'s browser, which stood at
        ``position``; where the browser is now."""
        task, work = assignment.task, assignment.work
        self.stats.relogins += outcome.relogins
        for snapshot in outcome.pages():
            for why in snapshot.unprompted:
                log.info("kept in, sent with no action: %s", why)
                self.stats.unprompted_writes += 1
        covered = coverage.merge(self.memory.coverage, outcome.coverage)
        self.recorder.covered = len(covered)
        if outcome.ended_session and work is not None:
            log.info("%s ended the session: fired last", work.action.label)
            self.danger.learn(work.action)
        if outcome.failure is not None and outcome.exchanges:  # (a failed navigation's)
            self.hooks.defer("on_exchanges", None, outcome.exchanges)
        if self.hosts.answered(assignment, outcome):
            position = Position()  # done again once the host has rested, or failed
        elif task.kind == "seed":
            position = self._seeded(slot, task, outcome, position)
        elif task.kind == "load":
            assert work is not None
            position = self._loaded_link(slot, task.keep, work, outcome, position)
        else:
            assert work is not None
            position = self._fired(slot, work, assignment.way, outcome, position)
        if covered and work is not None and not outcome.diverged:
            first_covered(self.memory, work, position, covered)
        return position

    # ---- start pages and links --------------------------------------------------------------
    def _seeded(self, slot: Slot, task: Task, outcome: Outcome, position: Position) -> Position:
        """Two loads of a start URL: the root state, and what changes with no user action. A
        start page that hangs the browser (a busy script, a load that never ends) is tried
        once more in a new browser (without it nothing can be crawled), then recorded as a
        failure of the crawl in the graph's ``failures``, as is one that cannot be loaded or
        answers 4xx/5xx: the crawl goes on from the other start URLs (with none, it failed)."""
        url = task.url
        assert url is not None
        failure = outcome.failure
        if failure is not None:
            if failure.kind == "crash":
                raise BrowserCrashed(failure.message)
            if failure.kind != "timeout":
                log.info("start page %s: %s", url, failure.message)
                self.recorder.start_failed(url, failure.message)
                return Position()  # the browser shows an error page
            log.warning("start page %s hung the browser: %s", url, failure.message)
            self.scheduler.seed_attempts[url] += 1
            if self.scheduler.seed_attempts[url] < SEED_ATTEMPTS:
                self.scheduler.seeds.appendleft(url)
            else:
                self.recorder.start_failed(url, failure.message)
            return position
        first, second = outcome.loads
        if second.status is not None and second.status >= ERROR_STATUS:
            log.info("start page %s answered HTTP %d", url, second.status)
            self.recorder.start_failed(url, f"HTTP {second.status}")
            return Position()
        self.volatility.learn(
            volatile_between(first.html, second.html) or (), "reload", url, second.html
        )
        self.volatility.watched(second)
        root = self.recorder.observe(second, slot.browser, 0, outcome.exchanges)
        if root is None:
            return position
        self.memory.loads[url] = root
        self.store.first_load(url, strip_userinfo(second.html))  # the store's: no userinfo
        return Position(root)

    def _loaded_link(
        self, slot: Slot, kept: bool, work: Work, outcome: Outcome, position: Position
    ) -> Position:
        """A link loaded: its page is a state, unless it failed or left the scope, or saved a
        document. ``kept``: it was loaded in the page and session the browser showed at
        ``position``, for a document: when it saved one and the page still shows that
        state, the browser is still there; a page instead is loaded again after a reset, as
        every link's page is (one loaded in a session could differ)."""
        action, url = work.action, work.action.action
        record = self.recorder
        failure = outcome.failure
        if failure is not None:
            if failure.kind == "crash":
                record.retry_or_fail(work, failure.message)
                return Position()
            self.memory.link_failures[url] = failure.message
            record.failure(work, failure.message)
            return Position()
        source = self.memory.states[self.memory.resolve(work.state)]
        snapshot, *stayed = outcome.loads
        kind = shape(url)
        if snapshot.downloaded:  # a document, not a page: the browser shows what it showed
            self.memory.saves.setdefault(kind, True)
            self.memory.documents[url] = snapshot.downloads
            self.hooks.defer("on_exchanges", source.id, outcome.exchanges)
            record.documents(source.id, action, snapshot.downloads)
            if stayed and position.state is not None:
                shown = self.volatility.reconcile(stayed, [position.state])[0]
                if shown == self.memory.resolve(position.state):
                    return Position(shown, position.came_from)
            return Position()
        self.memory.saves[kind] = False
        if kept:
            log.info("state %s: %s shows a page, not a document: loaded again", source.id, url)
            self.hooks.defer("on_exchanges", source.id, outcome.exchanges)
            self.scheduler.requeue(work)
            return Position()
        self._loaded(url, snapshot)
        if source.depth >= self.config.limits.max_depth:
            # A link that looked like a document showed a page, beyond the depth limit.
            log.info("state %s: %s shows a page, not a document: left out", source.id, url)
            return Position()
        if snapshot.blocked:  # the page left the scope by itself: never a state of it
            self.memory.departures[url] = list(dict.fromkeys(snapshot.blocked))
            for target_url in self.memory.departures[url]:
                record.external(source.id, action, target_url)
            return Position()
        depth = source.depth + self.scheduler.cost(source.id, action)
        target = record.observe(
            snapshot, slot.browser, depth, outcome.exchanges, source.id, action
        )
        if target is None:
            return Position()
        self.memory.links[url] = target
        self.memory.loads.setdefault(url, target)
        record.connect(source.id, action, target, snapshot)
        record.documents(source.id, action, snapshot.downloads)
        return Position(target)

    # ---- fired actions ----------------------------------------------------------------------
    def _fired(
        self, slot: Slot, work: Work, way: Plan | None, outcome: Outcome, position: Position
    ) -> Position:
        """An action fired in its state, after the way there, if it needed one."""
        record = self.recorder
        failure = outcome.failure
        if failure is not None and failure.kind in ("timeout", "crash"):
            # A hung page hangs again, but a slow one on a loaded machine may not: one more try.
            record.retry_or_fail(work, failure.message)
            return Position()
        if way is not None:
            if outcome.way:  # fetched again on the way to a known state: no state's own
                self.hooks.defer("on_exchanges", None, outcome.way)
            tried = trial(self.memory, way)
            why, position = self._went(slot, position, way, outcome, tried)
            if why is None and failure is not None and failure.stage == "reach":
                position = Position()
                why = f"replay failed: {failure.message}"
            if why is not None:
                if tried:
                    # A state's own URL, loaded to learn whether it shows the state, did not:
                    # that is learned, no way failed (several browsers may have tried at once).
                    log.info("state %s: its URL shows another state (%s)", work.state, why)
                    self.scheduler.requeue(work)
                else:
                    record.missed(work, why)
                return position
            if outcome.fired is None and failure is None:
                # The way was right after all (its keys changed with what was learned on it),
                # but the browser stopped on it: the work is done next time.
                self.scheduler.requeue(work)
                return position
        source = self.memory.states[self.memory.resolve(work.state)]
        self.memory.tries.pop(source.id, None)
        if failure is not None and failure.kind == "absent":
            log.debug("state %s: %s: %s", source.id, work.action.name, failure.message)
            self.memory.popups.absent(work.action, failure.shown or 0)
            # Escape closed the popup: the browser is in the state again, or somewhere unknown.
            shown = None if outcome.fired is None else self.volatility.reconcile(
                [outcome.fired], [source.id])[0]
            return Position(source.id) if shown == source.id else Position()
        if failure is not None:
            record.failure(work, failure.message)
            return Position() if failure.kind == "navigation" else position
        snapshot = outcome.fired
        assert snapshot is not None
        if snapshot.guarded:
            # No transition: what the page shows depends on requests that never left. The
            # browser is still in the state when the page shows it (the request failed
            # quietly), else somewhere unknown.
            record.guarded(source.id, work.action, snapshot.guarded)
            if outcome.exchanges:
                self.hooks.defer("on_exchanges", None, outcome.exchanges)
            shown = self.volatility.reconcile([snapshot], [source.id])[0]
            return Position(source.id) if shown == source.id else Position()
        return self._transition(slot, work, snapshot, outcome, position)

    def _transition(
        self, slot: Slot, work: Work, snapshot: Snapshot, outcome: Outcome, position: Position
    ) -> Position:
        """The state a fired action led to, recorded with its transition."""
        action = work.action
        for state_id, choice in self.memory.popups.chosen(action):
            state = self.memory.states.get(self.memory.resolve(state_id))
            if state is not None:
                self.scheduler.requeue(Work(state.id, choice, state.depth, False, state.score))
        self.volatility.watched(snapshot)
        source = self.memory.states[self.memory.resolve(work.state)]
        repeated = repeats(self.config, self.volatility, source, snapshot)
        if repeated is not None:
            if outcome.exchanges:  # fetched by no state of the crawl
                self.hooks.defer("on_exchanges", None, outcome.exchanges)
            self.recorder.repeated(source.id, action, repeated.fragment)
            target = None
        else:
            depth = source.depth + self.scheduler.cost(source.id, action)
            target = self.recorder.observe(
                snapshot, slot.browser, depth, outcome.exchanges, source.id, action
            )
        came_from = position.came_from
        came_from = self.memory.resolve(came_from) if came_from is not None else None
        if target is not None:
            why = mutation(outcome.exchanges, self.scope, outcome.writes)
            if why is not None:
                self.sessions.learn(action, why)
            self.recorder.connect(
                source.id, action, target, snapshot, came_from=came_from,
                requests=requests_of(outcome.exchanges), mutates=why,
            )
            self.sessions.fired(slot, action, (source.id, target, action.key))
        self.recorder.documents(source.id, action, snapshot.downloads)
        for url in snapshot.popups:
            self._popup(source, action, url)
        if self.danger(action) or repeated is not None:
            # A logout may have ended the session: only a reset can be trusted next (and a
            # repetition left the browser in a state the crawl does not keep).
            return Position()
        return Position(target, source.id)

    def _went(
        self, slot: Slot, position: Position, way: Plan, outcome: Outcome, trial: bool
    ) -> tuple[str | None, Position]:
        """Follow ``slot``'s browser at ``position`` along ``way`` as far as ``outcome``
        went: where it went wrong (``None``: every state on it was the expected one), and
        where the browser is. ``trial``: the way is a state's own URL, loaded once to learn
        whether it shows the state; a URL known to show it that shows another drifted."""
        if way.url is not None:
            if not outcome.loads:
                return None, position  # the load failed: the failure says why
            snapshot = outcome.loads[0]
            self._loaded(way.url, snapshot)
            shown = self.volatility.reconcile([snapshot], [way.start])[0]
            if not way.steps:  # a state's own URL: what a load of it shows
                self.memory.loads.setdefault(way.url, shown)
                kind = shape(way.url)
                hits, misses = self.memory.own_loads.get(kind, (0, 0))
                hit = shown == self.memory.resolve(way.start)
                self.memory.own_loads[kind] = (hits + hit, misses + (not hit))
            if shown != self.memory.resolve(way.start):
                if not trial:
                    shown = self._reanchor(slot, way, snapshot, shown)
                why = f"loading {way.url} shows another state than {way.start}"
                return why, Position(shown)
            position = Position(shown)
        if not outcome.steps:
            return None, position
        self.sessions.replayed(slot, [action for action, _ in way.steps[: len(outcome.steps)]])
        self.stats.replayed += len(outcome.steps)
        for (action, _), snapshot in zip(way.steps, outcome.steps, strict=False):
            if action.is_link:
                self._loaded(action.action, snapshot)
            else:
                self.volatility.watched(snapshot)
        expected = [target for _, target in way.steps[: len(outcome.steps)]]
        reached = self.volatility.reconcile(outcome.steps, expected)
        # the browser went as far as the steps did
        position = Position(reached[-1], [position.state, *reached][-2])
        for (action, target), got in zip(way.steps, reached, strict=False):
            if got != self.memory.resolve(target):
                why = f"{action.event} on {action.name} led to another state than {target}"
                return why, position
        return None, position

    def _reanchor(
        self, slot: Slot, way: Plan, snapshot: Snapshot, shown: str | None
    ) -> str | None:
        """A URL known to show ``way``'s start showed another state (server-side state, a
        page that differs from load to load): a state, recorded at the expected state's
        depth, where the browser stands; the drift is noted on its cause when known
        (:meth:`.Sessions.drifted`), and the next reset is in a fresh session. Met by a
        session that did nothing yet, it is kept for everyone: ways start from it there."""
        expected = self.memory.states[self.memory.resolve(way.start)]
        if shown is None:
            shown = self.recorder.observe(snapshot, slot.browser, expected.depth, [])
        if shown is not None and way.url is not None and self.sessions.clean(slot):
            self.memory.loads[way.url] = shown
        cause = self.sessions.drifted(slot, shown)
        if cause is not None:
            action = self.memory.edge_actions[(cause[0], cause[2])]
            self.sessions.learn(action, "its effect persisted across a reload", lasting=True)
        self.recorder.drifted(expected.id, way.url or "", shown, cause)
        return shown

    def _loaded(self, url: str, snapshot: Snapshot) -> None:
        """A fresh load of ``url`` (see :meth:`.Volatility.loaded`)."""
        self.stats.resets += 1
        self.volatility.loaded(url, snapshot)

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
            self.scheduler.queue(source.id, link, source.depth)
        else:
            self.memory.fired.add((source.id, link.key))
            self.recorder.external(source.id, link, url)


def first_covered(memory: Memory, work: Work, position: Position, functions: list[str]) -> None:
    """The transition just made ran ``functions`` first: counted on its edge
    (``new_functions``), and each function remembers it (``coverage.json``)."""
    if position.state is None:
        return
    edge = (memory.resolve(work.state), position.state, work.action.key)
    if not memory.graph.graph.has_edge(*edge):
        return
    attrs = memory.graph.edge(*edge)
    attrs["new_functions"] = attrs.get("new_functions", 0) + len(functions)
    for fid in functions:
        memory.coverage[fid] = {**memory.coverage[fid], "by": list(edge)}


def trial(memory: Memory, way: Plan) -> bool:
    """Whether ``way`` is a state's own URL loaded to learn whether it shows the state
    (not yet known to: a load that shows another is no drift)."""
    if way.url is None or way.steps:
        return False
    known = memory.loads.get(way.url)
    resolve = memory.resolve
    return known is None or resolve(known) != resolve(way.start)


def repeats(
    config: Config, volatility: Volatility, source: State, snapshot: Snapshot
) -> Repetition | None:
    """The repetition (:mod:`statecrawl.models.growth`) that took ``source`` to
    ``snapshot``, when the fragment it adds was there ``limits.repetitions`` times
    already; a DOM with no more elements than the source's is never one."""
    after = config.limits.repetitions
    if after is None:
        return None
    html = volatility.full(source).html
    if snapshot.html.count("<") <= html.count("<"):
        return None
    found = repetition(html, snapshot.html, volatility.memory.volatile)
    return found if found is not None and found.copies >= after else None
