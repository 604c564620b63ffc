"""Outages: the requests of a crawl's own sites that failed because a server could not be
reached or broke down, told apart from what an application answers.

A state seen while one of its own requests failed so is not the state: it is the page's view
of the failure ("Something went wrong"). The engine asks :meth:`Outages.failed` what failed
in a task; such work is done again once the host has rested, or recorded as a failure, and
never kept as a state. :meth:`Outages.answered` tells when an origin answers again, and
how long it could not be reached. No browser is involved: the rules are tested on their own.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag

import xxhash

from .scope import origin

if TYPE_CHECKING:
    from .browser.network import Exchange

# Chromium's network errors that say the server could not be reached, or dropped the
# exchange: not those of a request the page or the crawl cancelled (ERR_ABORTED,
# ERR_BLOCKED_BY_CLIENT), nor those of a bad response the server meant (ERR_INVALID_*).
UNREACHED = frozenset({
    "ERR_CONNECTION_REFUSED",
    "ERR_CONNECTION_RESET",
    "ERR_CONNECTION_CLOSED",
    "ERR_CONNECTION_ABORTED",
    "ERR_CONNECTION_FAILED",
    "ERR_CONNECTION_TIMED_OUT",
    "ERR_TIMED_OUT",
    "ERR_EMPTY_RESPONSE",
    "ERR_ADDRESS_UNREACHABLE",
    "ERR_NAME_NOT_RESOLVED",
    "ERR_NETWORK_CHANGED",
    "ERR_INTERNET_DISCONNECTED",
    "ERR_SOCKET_NOT_CONNECTED",
    "ERR_INCOMPLETE_CHUNKED_ENCODING",
    "ERR_HTTP2_PROTOCOL_ERROR",
})
ERROR_CODE = re.compile(r"\bERR_[A-Z0-9_]+\b")
log = logging.getLogger(__name__)
AROUND = 3.0  # seconds between a request the server drops and one it answers, at most
BODY_KEPT = 4096  # bytes of a request body its identity is made of (as inference's requests)


def unreached(message: str | None) -> bool:
    """Whether an error text (a network log's, or a failed load's) says the server could not
    be reached."""
    return message is not None and any(
        code in UNREACHED for code in ERROR_CODE.findall(message)
    )


def served(exchange: Exchange) -> bool:
    """Whether the server answered ``exchange``, below 500: it was up and not breaking down."""
    return exchange.failed is None and 0 < exchange.status < 500


def request_id(exchange: Exchange) -> int:
    """The identity of a request (method, URL without fragment, the body's start), to tell
    one asked before."""
    body = (exchange.request_body or b"")[:BODY_KEPT]
    text = f"{exchange.method} {urldefrag(exchange.url).url} ".encode() + body
    return xxhash.xxh64_intdigest(text)


def asked(exchange: Exchange) -> str:
    """What a request asked, whatever its body: its method and URL without fragment (a form's
    token makes each body new)."""
    return f"{exchange.method} {urldefrag(exchange.url).url}"


@dataclass(slots=True)
class Period:
    """A time an origin could not be reached: from the first failed request to the last one
    (so at least that long), and how many failed."""

    origin: str
    start: float
    end: float
    failed: int = 1

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def to_data(self) -> dict[str, Any]:
        return {"origin": self.origin, "start": round(self.start, 3), "end": round(self.end, 3),
                "seconds": round(self.seconds, 1), "failed": self.failed}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Period:
        """A period as ``graph.json`` keeps it (what it lacks is 0: a hand-edited file)."""
        def number(name: str) -> float:
            value = data.get(name, 0)
            return value if isinstance(value, int | float) else 0

        return cls(str(data.get("origin", "?")), number("start"), number("end"),
                   int(number("failed")))

    def describe(self) -> str:
        return (f"the server {self.origin} could not be reached for {self.seconds:.0f} s or more "
                f"({self.failed} requests failed)")


class Outages:
    """What a crawl learns of its servers' health from its exchanges: which origins answered,
    which requests succeeded (a 5xx to one of them later is the server breaking down, not
    the application's answer), which requests a server drops while it answers others, and
    the periods an origin could not be reached."""

    def __init__(self) -> None:
        self.answering: set[str] = set()  # origins that answered at least once
        self.succeeded: set[int] = set()  # request ids answered below 500
        self.down: dict[str, Period] = {}  # origin -> the period it is in
        self.periods: list[Period] = []  # the periods over, in the order they ended
        self.last_served: dict[str, float] = {}  # origin -> when its latest answered request began
        self.unanswered: dict[Hashable, float] = {}  # a request or action -> when it last was
        self.dropped: set[Hashable] = set()  # requests and actions the server drops always

    def failed(
        self, exchanges: Iterable[Exchange], own: Callable[[str], bool], now: float
    ) -> list[str]:
        """What failed among ``exchanges`` of the crawl's ``own`` URLs, one line each: a
        network error of an origin that answered before, or a 5xx to a request answered
        below 500 before, but not a request the server drops (:meth:`dropped_by_server`). What
        succeeded is learned; an origin is down from its first failure until it answers
        again (:meth:`answered`)."""
        exchanges = [e for e in exchanges if own(e.url) and not e.from_cache]
        for e in exchanges:
            if served(e):
                where = origin(e.url)
                self.answering.add(where)
                self.last_served[where] = max(self.last_served.get(where, e.started), e.started)
        failures: list[tuple[Exchange, str]] = []
        for e in exchanges:
            if e.failed is not None:
                if unreached(e.failed) and origin(e.url) in self.answering:
                    why = f"{e.method} {e.url}: {e.failed}"
                    if not self.dropped_by_server(asked(e), origin(e.url), why, e.started,
                                                  exchanges):
                        failures.append((e, why))
            elif e.status >= 500 and request_id(e) in self.succeeded:
                failures.append((e, f"{e.method} {e.url}: HTTP {e.status}"))
        self.succeeded.update(
            request_id(e) for e in exchanges if served(e)
        )
        for e, _ in failures:  # when the request was made, not when the crawl saw it fail
            self.fail(origin(e.url), min(e.started, now))
        return [why for _, why in failures]

    def dropped_by_server(
        self, identity: Hashable, where: str, what: str, at: float, exchanges: Iterable[Exchange]
    ) -> bool:
        """Whether what went unanswered at ``at`` (a request, by its method and URL whatever
        its body, or an action whose navigation failed, by its key) is dropped by the server
        ``where`` whatever its health: it went unanswered before, the server answered since, and
        answered a request (of ``exchanges``, the same task's, or the latest before) within
        ``AROUND`` seconds of it. A logout that breaks the connection is no outage; from then
        on what it leads to is recorded as the application's answer. ``what`` names it in
        the log."""
        if identity in self.dropped:
            return True
        last = self.unanswered.get(identity)
        self.unanswered[identity] = at
        answers = [x.started for x in exchanges if served(x) and origin(x.url) == where]
        latest = max([self.last_served.get(where, last or 0.0), *answers])
        answered_since = last is not None and latest > last
        around = abs(latest - at) <= AROUND
        if answered_since and around:
            self.dropped.add(identity)
            log.warning("the server %s drops %s while it answers other requests: not an "
                        "outage", where, what)
            return True
        return False

    def fail(self, where: str, now: float) -> None:
        """A request to the origin ``where`` failed at ``now``."""
        period = self.down.get(where)
        if period is None:
            self.down[where] = Period(where, now, now)
        else:
            period.start, period.end = min(period.start, now), max(period.end, now)
            period.failed += 1

    def answered(self, urls: Iterable[str]) -> list[Period]:
        """The origins of ``urls`` answered: the periods they were down in are over."""
        back = {origin(url) for url in urls}
        self.answering |= back
        over = [self.down.pop(where) for where in sorted(back & self.down.keys())]
        self.periods += over
        return over

    def seen(self) -> list[Period]:
        """Every period so far, those still open last."""
        return [*self.periods, *self.down.values()]
