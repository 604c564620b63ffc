"""The time ledger: where each browser thread of a crawl spends its wall time, by phase.

A thread joins a :class:`Ledger` for its life (:meth:`Ledger.joined`) and charges its time
to phases with :func:`phase` blocks, which the browser, the executor and the engine open
where the work is; a block within another is charged to the inner phase only, so the phases
of a thread add up to its time but for what no block covers (``unaccounted``). A thread that
joined no ledger (the archive's writer, a crawl's main thread before it runs) charges
nothing. Each thread writes its own account, so a charge takes no lock; the accounts are
read once the threads are done (:meth:`Ledger.summary`).
"""

from __future__ import annotations

import contextlib
import logging
import statistics
import threading
import time
from array import array
from collections.abc import Iterator
from typing import Any

#: the phases, in the order a table lists them
PHASES = (
    "start",  # starting or restarting a browser
    "reset",  # reaching the state: loading its URL (or the start URL) afresh
    "replay",  # reaching the state: replaying the actions from there
    "fire",  # the transition: firing the action (or loading a link or a start page)
    "settle",  # waiting for the page to settle after it (the page agent's own figure)
    "snapshot",  # the page agent serialising the DOM and finding the candidates
    "network",  # reading the network log and the bodies of the exchanges
    "pictures",  # screenshots and thumbnails
    "archive",  # the plugins' hooks (the archive's records handed to its writer)
    "engine",  # the engine's work under its lock: planning, recording, checkpoints
    "engine-free",  # the engine's work outside the lock: keying the states a task showed
    "lock",  # waiting for the engine's lock
    "idle",  # waiting for work: no task for this browser yet
)

log = logging.getLogger(__name__)
_current = threading.local()  # .account: the Account of the ledger this thread joined


class Account:
    """One thread's charges: seconds per phase, in all and in the task under way."""

    def __init__(self) -> None:
        self.began = time.perf_counter()
        self.ended: float | None = None
        self.seconds = dict.fromkeys(PHASES, 0.0)
        self.task = dict.fromkeys(PHASES, 0.0)  # since the last task ended
        self.samples = {name: array("d") for name in PHASES}  # per task that spent any
        self.tasks = 0
        self.stack: list[str] = []
        self.mark = self.began  # when the phase on top of the stack was last charged

    def charge(self, now: float) -> None:
        """Charge the time since the last mark to the phase under way (if any)."""
        if self.stack:
            spent = now - self.mark
            top = self.stack[-1]
            self.seconds[top] += spent
            self.task[top] += spent
        self.mark = now

    def move(self, seconds: float, to: str) -> None:
        """Move ``seconds`` of the phase under way in this task to phase ``to``."""
        self.charge(time.perf_counter())
        top = self.stack[-1]
        seconds = min(max(seconds, 0.0), self.task[top])
        for name, sign in ((top, -1.0), (to, 1.0)):
            self.seconds[name] += sign * seconds
            self.task[name] += sign * seconds

    def close_task(self) -> None:
        """End a task: what it spent in each phase it spent any in is a sample."""
        self.charge(time.perf_counter())
        self.tasks += 1
        for name, spent in self.task.items():
            if spent > 0:
                self.samples[name].append(spent)
                self.task[name] = 0.0

    @property
    def lifetime(self) -> float:
        return (self.ended if self.ended is not None else time.perf_counter()) - self.began


class Ledger:
    """The accounts of a crawl's browser threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.accounts: list[Account] = []

    @contextlib.contextmanager
    def joined(self) -> Iterator[Account]:
        """The calling thread charges its phases to a new account of this ledger, until the
        block ends."""
        account = Account()
        with self._lock:
            self.accounts.append(account)
        before = getattr(_current, "account", None)
        _current.account = account
        try:
            yield account
        finally:
            account.charge(time.perf_counter())
            account.ended = account.mark
            _current.account = before

    def summary(self, wall: float) -> dict[str, Any]:
        """The threads' time merged: per phase its seconds, its share of the threads' time
        and its median in the tasks that spent any (ms); the threads' time in all, their
        tasks, the share of their time no phase holds, and the share of ``wall`` seconds
        (the crawl's) times the threads that their time is."""
        with self._lock:
            accounts = list(self.accounts)
        total = sum(a.lifetime for a in accounts)
        phases: dict[str, dict[str, float]] = {}
        for name in PHASES:
            seconds = sum(a.seconds[name] for a in accounts)
            samples = [s for a in accounts for s in a.samples[name]]
            phases[name] = {
                "seconds": round(seconds, 3),
                "share": round(seconds / total, 4) if total else 0.0,
                "median_ms": round(statistics.median(samples) * 1000, 2) if samples else 0.0,
            }
        accounted = sum(p["seconds"] for p in phases.values())
        return {
            "threads": len(accounts),
            "seconds": round(total, 3),
            "wall": round(wall, 3),
            "of_wall": round(total / (wall * len(accounts)), 4) if wall and accounts else 0.0,
            "tasks": sum(a.tasks for a in accounts),
            "phases": phases,
            "unaccounted": round(1 - accounted / total, 4) if total else 0.0,
        }


    def close(self, wall: float) -> dict[str, Any]:
        """The :meth:`summary` at the end of a crawl, logged as a table (at info level)."""
        summary = self.summary(wall)
        if summary["threads"]:
            log.info("%s", table(summary))
        return summary


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    """Charge the block's time to phase ``name`` in the calling thread's ledger (none: no
    charge), less the time of the phases opened within it."""
    account: Account | None = getattr(_current, "account", None)
    if account is None:
        yield
        return
    account.charge(time.perf_counter())
    account.stack.append(name)
    try:
        yield
    finally:
        account.charge(time.perf_counter())
        account.stack.pop()


@contextlib.contextmanager
def holding(lock: threading.RLock) -> Iterator[None]:
    """``lock`` held for the block: the wait for it charged to ``lock``, the block to
    ``engine`` (the engine's work under its lock)."""
    with phase("lock"):
        lock.acquire()
    try:
        with phase("engine"):
            yield
    finally:
        lock.release()


def idle(wakeup: threading.Condition, timeout: float) -> None:
    """Wait on ``wakeup`` at most ``timeout`` seconds, charged to ``idle`` (no work yet)."""
    with phase("idle"):
        wakeup.wait(timeout=timeout)


def move(seconds: float, to: str) -> None:
    """Move ``seconds`` of the calling thread's phase under way to phase ``to`` (a part of
    it the page agent timed itself, such as settling); nothing outside a phase."""
    account: Account | None = getattr(_current, "account", None)
    if account is not None and account.stack:
        account.move(seconds, to)


def task_done() -> None:
    """The calling thread ended a task: its time per phase since the last is a sample."""
    account: Account | None = getattr(_current, "account", None)
    if account is not None:
        account.close_task()


def table(summary: dict[str, Any]) -> str:
    """A compact table of a ledger's ``summary``: one line per phase that took any time."""
    lines = [f"time ledger: {summary['threads']} browser threads, {summary['seconds']:.1f} s "
             f"({summary['of_wall']:.0%} of {summary['wall']:.1f} s wall each), "
             f"{summary['tasks']} tasks"]
    lines.append(f"  {'phase':<12} {'seconds':>9} {'share':>7} {'median ms':>10}")
    for name, figures in summary["phases"].items():
        if figures["seconds"] > 0:
            lines.append(f"  {name:<12} {figures['seconds']:>9.2f} {figures['share']:>7.1%} "
                         f"{figures['median_ms']:>10.2f}")
    lines.append(f"  {'unaccounted':<12} {'':>9} {summary['unaccounted']:>7.1%}")
    return "\n".join(lines)
