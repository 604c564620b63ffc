"""The spool: writes done in order by one thread of their own, their errors raised to the
threads that hand writes over (``statecrawl.archive.spool``)."""

from __future__ import annotations

import threading

import pytest

from statecrawl.archive.spool import Spool
from statecrawl.errors import ArchiveError


def test_writes_are_done_in_order_by_one_thread_of_their_own() -> None:
    done: list[tuple[int, str]] = []
    spool = Spool("test-spool")
    for n in range(50):
        spool.put(lambda n=n: done.append((n, threading.current_thread().name)))
    spool.close()
    assert [n for n, _ in done] == list(range(50))
    assert {name for _, name in done} == {"test-spool"}


def test_a_write_waits_for_none_and_close_waits_for_every_write() -> None:
    release = threading.Event()
    done: list[int] = []
    spool = Spool("test-spool", size=4)
    spool.put(release.wait)  # a disk that hangs
    spool.put(lambda: done.append(1))
    assert done == []  # the caller went on
    release.set()
    spool.close()
    assert done == [1]


def test_an_error_is_raised_by_the_next_put_which_still_hands_its_write_over() -> None:
    done: list[str] = []
    release, written = threading.Event(), threading.Event()
    spool = Spool("test-spool")

    def fail() -> None:
        raise ArchiveError("disk full")

    spool.put(release.wait)
    spool.put(fail)
    spool.put(written.set)
    release.set()
    assert written.wait(5)
    with pytest.raises(ArchiveError, match="disk full"):
        spool.put(lambda: done.append("after"))
    spool.close()
    assert done == ["after"]


def test_close_raises_the_first_error_not_raised_yet_and_logs_the_others(
    caplog: pytest.LogCaptureFixture,
) -> None:
    release = threading.Event()
    spool = Spool("test-spool")
    spool.put(release.wait)

    def fail(n: int) -> None:
        raise OSError(f"write {n} failed")

    for n in range(3):
        spool.put(lambda n=n: fail(n))
    release.set()
    with pytest.raises(OSError, match="write 0 failed"):
        spool.close()
    assert "write 1 failed" in caplog.text and "write 2 failed" in caplog.text
    spool.close()  # safe twice
