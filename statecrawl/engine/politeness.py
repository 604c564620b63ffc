"""Per-host politeness, after a search engine's fetcher: how many browsers work on a host at
once, how soon a host gets its next task, and how long it rests after asking to slow down.

The engine asks :meth:`Politeness.ready` before it hands out a task on a host, tells
:meth:`Politeness.start` and :meth:`Politeness.end` when the task starts and ends, and
:meth:`Politeness.answered` what the host answered (:func:`throttled`). No browser is
involved, and the clock is a parameter, so the rules are tested in microseconds.

Crawls that share a folder (``politeness.shared``) share each host's browsers through it:
:class:`SharedHosts` holds one lock file of the host's for each task it runs there, so that
all of them together never hold more than ``max_browsers_per_host``; the kernel lets the
locks go with the process, however it ends.
"""

from __future__ import annotations

import contextlib
import fcntl
import math
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable
from datetime import UTC
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

if TYPE_CHECKING:
    from ..config import PolitenessSettings
    from ..executor import Outcome

THROTTLING = frozenset({429, 503})  # Too Many Requests, Service Unavailable
MAX_DOUBLINGS = 32  # the exponential backoff stops growing here (max_backoff_ms caps it anyway)
SHARED_POLL = 0.05  # seconds before a host held back by other crawls' browsers is asked again


def host_of(url: str) -> str:
    """The host name of a URL (lower case, without the port): what politeness counts by."""
    return urlsplit(url).hostname or ""


def retry_after(value: str | None, now: float) -> float | None:
    """The seconds a ``Retry-After`` header value asks to wait: delay-seconds, or an HTTP date
    less ``now`` (seconds since the epoch); ``None`` when there is none or it is malformed."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # an HTTP date is in GMT
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)


def throttled(outcome: Outcome, host: str, now: float) -> list[float | None]:
    """The 429 and 503 answers ``host`` gave during a task: for each, the wait its
    ``Retry-After`` header asks (``None``: it asks none). The exchanges say it when the network
    was captured (the archive is on); else the HTTP status of the documents loaded does,
    without headers."""
    waits = [
        retry_after(e.response_header("Retry-After"), now)
        for e in outcome.exchanges
        if e.status in THROTTLING and host_of(e.url) == host
    ]
    if waits:
        return waits
    snapshots = [*outcome.loads, *outcome.steps, *filter(None, [outcome.fired])]
    return [None for s in snapshots if s.status in THROTTLING and host_of(s.url) == host]


class SharedHosts:
    """The browsers of the crawls sharing ``folder`` on each host: ``folder/<host>/<n>`` are
    the host's ``limit`` slots, each held by an exclusive ``flock`` of one task's."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.reserved: dict[str, list[int]] = defaultdict(list)  # host -> slots not yet used
        self.held: dict[str, list[int]] = defaultdict(list)  # host -> slots of tasks running

    def reserve(self, host: str, limit: int) -> bool:
        """Hold a slot of ``host`` for a task about to start; whether one was free."""
        if self.reserved[host]:
            return True
        place = self.folder / quote(host, safe="")
        with contextlib.suppress(OSError):
            place.mkdir(parents=True, exist_ok=True)
        for n in range(limit):
            try:
                slot = os.open(place / str(n), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                return True  # a folder that cannot be written shares nothing: no bound
            try:
                fcntl.flock(slot, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(slot)
                continue
            self.reserved[host].append(slot)
            return True
        return False

    def start(self, host: str) -> None:
        """A task starts on ``host``, in the slot reserved for it (if one was)."""
        if self.reserved[host]:
            self.held[host].append(self.reserved[host].pop())

    def end(self, host: str) -> None:
        """A task on ``host`` ended: its slot is free for any crawl."""
        if self.held[host]:
            os.close(self.held[host].pop())

    def unreserve(self) -> None:
        """Free the slots reserved for tasks that did not start."""
        for slots in self.reserved.values():
            while slots:
                os.close(slots.pop())


class Politeness:
    """Which hosts may get a task now, by ``settings`` (``politeness`` in the config).

    Not thread-safe: the engine calls it under its lock. ``clock`` gives seconds (monotonic).
    """

    def __init__(
        self, settings: PolitenessSettings, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.busy: Counter[str] = Counter()  # host -> tasks running on it
        self.not_before: dict[str, float] = {}  # host -> the earliest start of its next task
        self.strikes: Counter[str] = Counter()  # host -> 429/503 answers in a row
        self.retries: Counter[Hashable] = Counter()  # work -> times done again after one
        self.shared = SharedHosts(settings.shared) if settings.shared is not None else None
        self.crowded = False  # a host was held back by other crawls' browsers

    def ready(self, host: str) -> bool:
        """Whether a task on ``host`` may start now."""
        limit = self.settings.max_browsers_per_host
        if limit is not None and self.busy[host] >= limit:
            return False
        if self.clock() < self.not_before.get(host, -math.inf):
            return False
        if self.shared is not None and limit is not None and not self.shared.reserve(host, limit):
            self.crowded = True
            return False
        return True

    def wait(self) -> float | None:
        """Seconds until the first host held back by time may take a task again; ``None``
        when no host is (a host held back by its browsers is free when a task ends; one held
        back by other crawls' is asked again soon). Slots reserved and not used are freed."""
        now = self.clock()
        waits = [t - now for t in self.not_before.values() if t > now]
        if self.shared is not None:
            self.shared.unreserve()
            if self.crowded:
                self.crowded = False
                waits.append(SHARED_POLL)
        return min(waits, default=None)

    def start(self, host: str) -> None:
        """A task starts on ``host``."""
        self.busy[host] += 1
        if self.shared is not None:
            self.shared.start(host)
        self._hold(host, self.settings.min_delay_ms / 1000)

    def end(self, host: str) -> None:
        """A task on ``host`` ended (whatever its outcome)."""
        self.busy[host] -= 1
        if self.busy[host] <= 0:
            del self.busy[host]
        if self.shared is not None:
            self.shared.end(host)

    def answered(self, host: str, waits: list[float | None]) -> float:
        """A task on ``host`` got the 429/503 answers ``waits`` (:func:`throttled`; none: the
        host answered well). Hold the host back as long as it asked, or else for the backoff,
        doubled at each such task in a row, never longer than the maximum; return for how
        many seconds (0 when it answered well)."""
        if not waits:
            self.strikes.pop(host, None)
            return 0.0
        self.strikes[host] += 1
        doublings = min(self.strikes[host] - 1, MAX_DOUBLINGS)
        backoff = self.settings.backoff_ms / 1000 * 2**doublings
        asked = max(backoff if w is None else w for w in waits)
        pause = min(asked, self.settings.max_backoff_ms / 1000)
        self._hold(host, pause)
        return pause

    def retry(self, work: Hashable, limit: int | None = None) -> bool:
        """Whether ``work``, which a host answered with a 429 or 503, is done again (at most
        ``retries`` times, or ``limit``; after that what it got is kept as it is)."""
        if self.retries[work] >= (self.settings.retries if limit is None else limit):
            return False
        self.retries[work] += 1
        return True

    def _hold(self, host: str, seconds: float) -> None:
        """No task starts on ``host`` for ``seconds`` from now (an earlier hold that lasts
        longer stays)."""
        until = self.clock() + seconds
        if until > self.not_before.get(host, -math.inf):
            self.not_before[host] = until
