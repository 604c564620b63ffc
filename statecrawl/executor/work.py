"""Browser work as plain data (a :class:`Task` in, an :class:`Outcome` out), the protocols
by which an executor and the engine know each other, and :func:`perform`, which does a task in
a browser."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

import urllib3

from .. import ledger
from ..coverage import Delta, merge
from ..errors import (
    ActionFailed,
    BrowserCrashed,
    NavigationError,
    PageTimeout,
)
from ..state import Action, OptionAbsent, Snapshot

if TYPE_CHECKING:
    from ..browser import BrowserLike
    from ..browser.network import Exchange
    from ..ledger import Ledger
    from ..models import StateModel

Kind = Literal["seed", "load", "fire"]
FailureKind = Literal["action", "absent", "navigation", "timeout", "crash"]


@dataclass(frozen=True, slots=True)
class Task:
    """Browser work. ``seed``: load ``url`` twice (a start page, and what changes with no
    user action); ``load``: load ``url`` (a link); ``fire``: load ``url`` if given (else go
    on from the state the browser shows), check it shows the state of key ``start``, replay
    ``steps`` checking each state's key, then fire ``action``. Keys are computed with the
    crawl's state model and the ``volatile`` names known when the task was made."""

    kind: Kind
    url: str | None = None
    start: str | None = None
    steps: tuple[tuple[Action, str], ...] = ()
    action: Action | None = None
    volatile: tuple[str, ...] = ()
    screenshot: bool = False  # take one of the state reached (a remote browser's hooks can't)
    ends_session: bool = False  # the action is known to log out: not done again when it does
    fresh_session: bool = False  # start in a new server-side session (see ``new_session``)
    keep: bool = False  # ``load``: in the page and session shown, for a likely document


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a task stopped: ``action`` (the action could not be fired), ``absent`` (a
    ``choose:<k>`` action's popup has no k-th option), ``navigation`` (a
    load failed), ``timeout`` (the page hung the browser) or ``crash`` (the browser or its
    driver died); ``stage``: while reaching the state (``"reach"``) or in the work itself."""

    kind: FailureKind
    message: str
    stage: Literal["reach", "work"]
    shown: int | None = None  # ``absent``: the options the popup showed


@dataclass(slots=True)
class Outcome:
    """What a task did: snapshots of its loads (the first ``url`` load, or a seed's two; a
    kept load that saved a document, then the page it left, light),
    of its replayed steps, and of the fired action; whether a state on the way had another
    key than expected (the task then stopped there); the exchanges made on the way to the
    state (``way``) and by the work itself; the JavaScript coverage records of the task
    (``coverage``, see :mod:`statecrawl.coverage`: one take at its end, what the way ran
    already ran when its transitions were first made); a failure."""

    loads: list[Snapshot] = field(default_factory=list)
    steps: list[Snapshot] = field(default_factory=list)
    fired: Snapshot | None = None
    diverged: bool = False
    way: list[Exchange] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)
    writes: list[tuple[str, str]] = field(default_factory=list)  # the work's unsafe requests
    failure: Failure | None = None
    ended_session: bool = False  # the work itself logged the browser out (see ``perform``)
    relogins: int = 0  # logins after the session ended, during the task
    coverage: Delta = field(default_factory=dict)
    started: float = field(default_factory=time.time)  # when the task began (as an exchange's)

    def pages(self) -> list[Snapshot]:
        """The pages the task showed, in order: its loads, its steps, the fired action's."""
        return [*self.loads, *self.steps, *([self.fired] if self.fired else [])]


@dataclass(eq=False)
class Slot:
    """One browser as executor and engine share it: its name, the browser itself when it
    lives in this process, and whether it is doing a task. What the engine knows of it
    (where it stands, what it is doing) the engine keeps by the slot."""

    name: str
    browser: BrowserLike | None = None
    busy: bool = False


class TaskSource(Protocol):
    """The engine as an executor sees it: where tasks come from and outcomes go."""

    @property
    def stop_requested(self) -> bool:
        """Whether the crawl was asked to stop: no browser is to be started or restarted."""

    @property
    def stopping(self) -> bool:
        """Whether the crawl is ending: a failed browser is not worth a restart."""

    def next_task(self, slot: Slot) -> Task | None:
        """The next task for ``slot``, waiting while other slots may make more work; ``None``
        when the crawl is over for it."""

    def apply(self, slot: Slot, outcome: Outcome | None) -> None:
        """Record what ``slot``'s task did (``None``: the executor failed to perform it, and
        is about to raise); ``slot`` is free again afterwards."""

    def halt(self, reason: str | None = None) -> None:
        """Let no slot take new work (an executor's thread failed; ``reason``: why the crawl
        stops, if that ends it)."""

    def restarted(self, slot: Slot) -> None:
        """``slot``'s browser was restarted: it shows no known state."""


class Executor(Protocol):
    """Runs an engine's tasks in browsers until the engine has no more."""

    slots: list[Slot]
    ledger: Ledger  # where its threads charge their time (see :mod:`statecrawl.ledger`)
    remote: bool  # browsers in other processes: hooks get no browser, tasks bring screenshots

    def run(self, engine: TaskSource) -> None:
        """Start the browsers, then perform the engine's tasks until it gives none; the
        first error that is not a task's failure is raised."""

    def abandon(self) -> None:
        """Kill the browsers of the slots still busy (after a stop, their calls fail)."""

    def leftovers(self) -> list[tuple[Slot, list[Exchange]]]:
        """Each slot's exchanges not handed over yet (at the end of a crawl)."""

    def close(self) -> None:
        """End every browser."""

    def restarts(self) -> int:
        """How many times browsers were restarted."""


def perform(browser: BrowserLike, task: Task, model: StateModel) -> Outcome:
    """Do ``task`` in ``browser``, keying states with ``model``. Failures of the page or the
    browser are returned in the outcome, never raised. A task after which the login's check
    fails is done once more after logging in again: when the check fails again, the work
    itself ended the session (a logout, a deleted account), else the session had expired."""
    before = browser.relogins
    if task.fresh_session:
        browser.new_session()
    outcome = _attempt(browser, task, model)
    if _logged_out(outcome) and (task.ends_session or not browser.can_log_in()):
        outcome.ended_session = _ended(outcome)
    elif _logged_out(outcome):
        first = outcome
        outcome = _attempt(browser, task, model, log_in=True)
        outcome.way = [*first.way, *first.exchanges, *outcome.way]
        merge(outcome.coverage, first.coverage)
        outcome.ended_session = _ended(outcome)
    outcome.relogins = browser.relogins - before
    return outcome


def _logged_out(outcome: Outcome) -> bool:
    """Whether a page of ``outcome`` failed the login's session check."""
    return outcome.failure is None and any(s.session is False for s in outcome.pages())


def _ended(outcome: Outcome) -> bool:
    """Whether the work itself ended the session: the page it led to (a fired action's, a
    link's load) fails the check, every page on the way there passed it."""
    shown = outcome.pages()
    if outcome.failure is not None or not shown:
        return False
    *way, done = shown
    return done.session is False and all(s.session is not False for s in way)


def _attempt(browser: BrowserLike, task: Task, model: StateModel, log_in: bool = False) -> Outcome:
    """Do ``task`` once (after logging in again, if ``log_in``)."""
    outcome = Outcome()
    volatile = frozenset(task.volatile)

    def key(snapshot: Snapshot) -> str:
        with ledger.phase("engine-free"):
            return model.key(snapshot, volatile)

    stage: Literal["reach", "work"] = "reach" if task.kind == "fire" else "work"
    try:
        if log_in:
            browser.log_in()
        if task.kind != "fire":
            assert task.url is not None
            with ledger.phase("fire"):
                outcome.loads.append(_timed(browser.reset(task.url, keep=task.keep)))
                if task.keep and outcome.loads[-1].downloaded:  # the page it left, still shown
                    outcome.loads.append(browser.settled(light=True))
                if task.kind == "seed":
                    outcome.loads.append(_timed(browser.reset(task.url)))
            outcome.exchanges = browser.take_exchanges()
            browser.take_writes()  # (a load is no action: its writes make nothing mutate)
            outcome.coverage = browser.take_coverage()
            return outcome
        # the states on the way are known: their snapshots need no candidates
        if task.url is not None:
            with ledger.phase("reset"):
                outcome.loads.append(browser.reset(task.url, light=True))
            if key(outcome.loads[-1]) != task.start:
                # another state than the one expected, which the crawl keeps (re-anchoring
                # there): with its candidates, so that it is explored like any other
                outcome.loads[-1] = browser.settled()
                outcome.diverged = True
                outcome.way = browser.take_exchanges()
                outcome.coverage = browser.take_coverage()
                return outcome
        steps = list(task.steps)
        while steps:
            with ledger.phase("replay"):
                if steps[0][0].is_link:
                    snapshots = [browser.reset(steps[0][0].action, light=True)]
                else:
                    batch = next((i for i, (a, _) in enumerate(steps) if a.is_link), len(steps))
                    snapshots = browser.replay([a for a, _ in steps[:batch]])
            outcome.steps.extend(snapshots)
            if any(key(s) != k for s, (_, k) in zip(snapshots, steps, strict=False)):
                outcome.diverged = True
                outcome.way = browser.take_exchanges()
                outcome.coverage = browser.take_coverage()
                return outcome
            steps = steps[len(snapshots) :]
        if task.url is not None or task.steps:
            outcome.way = browser.take_exchanges()
        stage = "work"
        assert task.action is not None
        browser.take_writes()  # (those of the way)
        with ledger.phase("fire"):
            outcome.fired = _timed(browser.fire(task.action))
        outcome.exchanges = browser.take_exchanges()
        outcome.writes = browser.take_writes()
        outcome.coverage = browser.take_coverage()
    except PageTimeout as exc:
        outcome.failure = Failure("timeout", str(exc), stage)
    except OptionAbsent as exc:
        outcome.fired = exc.snapshot
        outcome.failure = Failure("absent", str(exc), stage, exc.shown)
    except ActionFailed as exc:
        outcome.failure = Failure("action", str(exc), stage)
    except NavigationError as exc:
        outcome.failure = Failure("navigation", str(exc), stage)
        outcome.exchanges = browser.take_exchanges()  # (the failed request is this task's)
    except BrowserCrashed as exc:
        outcome.failure = Failure("crash", str(exc), stage)
    except Exception as exc:  # Selenium's and the driver connection's errors, by name
        crash = crash_reason(exc)
        if crash is None:
            raise
        outcome.failure = Failure("crash", crash, stage)
    return outcome


def _timed(snapshot: Snapshot) -> Snapshot:
    """``snapshot``, its settle and its making (as the page agent timed them) moved out of
    the phase under way into phases of their own."""
    ledger.move(snapshot.settle_ms / 1000, "settle")
    ledger.move(snapshot.snapshot_ms / 1000, "snapshot")
    return snapshot


def crash_reason(exc: Exception) -> str | None:
    """Why the browser is lost, when ``exc`` says it is (``None`` for any other error)."""
    from selenium.common.exceptions import WebDriverException  # (Selenium loads lazily)

    from ..browser import reason

    if isinstance(exc, WebDriverException):
        return reason(exc)
    if isinstance(exc, OSError | urllib3.exceptions.HTTPError):  # ChromeDriver itself is gone
        return f"lost the browser driver: {exc.__class__.__name__}"
    return None
