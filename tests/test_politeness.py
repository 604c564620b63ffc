"""Per-host politeness with a fake clock: browsers per host, delay between starts, backoff."""

from __future__ import annotations

from email.utils import formatdate
from pathlib import Path

import pytest

from statecrawl.browser.network import Exchange
from statecrawl.config import PolitenessSettings
from statecrawl.engine.politeness import SHARED_POLL, Politeness, host_of, retry_after, throttled
from statecrawl.executor import Outcome
from statecrawl.state import Snapshot

NOW = 1_800_000_000.0  # a wall-clock time, for HTTP dates


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def polite(clock: Clock, **settings: int | None) -> Politeness:
    return Politeness(PolitenessSettings(**settings), clock)  # type: ignore[arg-type]


def test_host_is_the_host_name_whatever_the_port() -> None:
    assert host_of("http://127.0.0.2:8000/a?b") == "127.0.0.2"
    assert host_of("https://Example.ORG/") == "example.org"
    assert host_of("http://[::1]:81/") == "::1"


def test_by_default_every_host_is_always_ready() -> None:
    clock = Clock()
    p = polite(clock)
    for _ in range(10):
        assert p.ready("a")
        p.start("a")
    assert p.wait() is None


def test_browsers_per_host_are_bounded_and_freed_when_a_task_ends() -> None:
    p = polite(Clock(), max_browsers_per_host=2)
    p.start("a")
    p.start("a")
    assert not p.ready("a")
    assert p.ready("b")  # another host is not held back
    assert p.wait() is None  # nothing to wait for but a task's end
    p.end("a")
    assert p.ready("a")


def test_min_delay_between_the_starts_of_two_tasks_on_a_host() -> None:
    clock = Clock()
    p = polite(clock, min_delay_ms=500)
    p.start("a")
    p.end("a")  # a quick task: the delay counts from its start
    assert not p.ready("a") and p.ready("b")
    assert p.wait() == pytest.approx(0.5)
    clock.now += 0.2
    assert p.wait() == pytest.approx(0.3)
    clock.now += 0.3
    assert p.ready("a")
    assert p.wait() is None


def test_retry_after_in_seconds_and_as_an_http_date() -> None:
    assert retry_after("1", NOW) == 1.0
    assert retry_after(" 120 ", NOW) == 120.0
    assert retry_after(formatdate(NOW + 30, usegmt=True), NOW) == pytest.approx(30)
    assert retry_after(formatdate(NOW - 30, usegmt=True), NOW) == 0.0  # already past
    for bad in (None, "", "soon", "-5", "1.5", "Mon, 99 Foo 2026"):
        assert retry_after(bad, NOW) is None


def test_backoff_honours_retry_after_capped() -> None:
    clock = Clock()
    p = polite(clock, max_backoff_ms=10_000)
    assert p.answered("a", [3.0]) == 3.0
    assert not p.ready("a")
    assert p.wait() == pytest.approx(3.0)
    clock.now += 3.0
    assert p.ready("a")
    assert p.answered("a", [3600.0]) == 10.0  # an hour asked: the cap


def test_backoff_without_retry_after_doubles_while_the_host_keeps_refusing() -> None:
    clock = Clock()
    p = polite(clock, backoff_ms=1000, max_backoff_ms=5000)
    assert [p.answered("a", [None]) for _ in range(5)] == [1.0, 2.0, 4.0, 5.0, 5.0]
    assert p.answered("a", []) == 0.0  # a good answer: the next refusal starts over
    assert p.answered("a", [None]) == 1.0
    assert p.answered("a", [None, 7.0]) == 5.0  # the longest wait asked, capped
    assert p.answered("b", [None]) == 1.0  # hosts count apart


def test_a_long_refusal_streak_does_not_overflow() -> None:
    p = polite(Clock())
    for _ in range(2000):
        pause = p.answered("a", [None])
    assert pause == 60.0


def test_a_hold_never_shortens_a_longer_one() -> None:
    clock = Clock()
    p = polite(clock, min_delay_ms=100)
    p.answered("a", [5.0])
    p.start("a")  # (a task already handed out) its delay ends before the backoff
    assert p.wait() == pytest.approx(5.0)


def test_work_is_retried_at_most_retries_times() -> None:
    p = polite(Clock(), retries=2)
    assert [p.retry(("s", "k")) for _ in range(3)] == [True, True, False]
    assert p.retry("http://a/")
    assert not polite(Clock(), retries=0).retry("x")


def exchange(url: str, status: int, retry: str | None = None) -> Exchange:
    headers = [("Retry-After", retry)] if retry is not None else []
    return Exchange("1", url, status=status, response_headers=headers)


def test_throttled_reads_the_hosts_exchanges_first() -> None:
    outcome = Outcome(
        loads=[Snapshot(url="http://a:1/", title="", html="", status=429)],
        exchanges=[
            exchange("http://a:1/", 429, "2"),
            exchange("http://a:1/api", 503),
            exchange("http://a:1/ok", 200, "9"),
            exchange("http://cdn/x", 429, "9"),  # another host's answer
        ],
    )
    assert throttled(outcome, "a", NOW) == [2.0, None]
    assert throttled(outcome, "b", NOW) == []


def test_throttled_falls_back_to_the_status_of_documents() -> None:
    """Without captured exchanges (the archive off) a load's status still says it."""
    refused = Snapshot(url="http://a/", title="", html="", status=503)
    fine = Snapshot(url="http://a/", title="", html="", status=200)
    assert throttled(Outcome(loads=[fine, refused]), "a", NOW) == [None]
    assert throttled(Outcome(steps=[fine], fired=refused), "a", NOW) == [None]
    assert throttled(Outcome(loads=[fine], fired=fine), "a", NOW) == []


def test_crawls_sharing_a_folder_share_each_hosts_browsers(tmp_path: Path) -> None:
    clock = Clock()
    settings = PolitenessSettings(max_browsers_per_host=2, shared=tmp_path / "hosts")
    one, two = Politeness(settings, clock), Politeness(settings, clock)
    assert one.ready("a") and two.ready("a")  # each holds one of the host's two slots
    one.start("a")
    two.start("a")
    assert not one.ready("a") and not two.ready("a")  # between them, the two are taken
    assert one.ready("b")  # another host has its own
    assert one.wait() == SHARED_POLL  # held back by the other crawl: asked again soon
    assert two.wait() == SHARED_POLL
    two.end("a")
    assert one.ready("a")  # its slot, free again
    one.start("a")
    assert not two.ready("a")
    one.end("a")
    one.end("a")
    assert two.wait() == SHARED_POLL and two.wait() is None
    assert two.ready("a") and two.ready("a")  # a reservation is reused, not doubled
    assert one.ready("a")
    assert not Politeness(settings, clock).ready("a")
    two.wait()  # unused reservations are given back before the engine waits
    assert Politeness(settings, clock).ready("a")
