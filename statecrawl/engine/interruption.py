"""Ctrl-C during a crawl: it stops the crawl cleanly instead of raising wherever the crawl
happens to be."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def ctrl_c_stops(stop: Callable[[], None]) -> Iterator[list[int]]:
    """Within a crawl run in the main thread, Ctrl-C calls ``stop()`` instead of raising
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
        stop()

    previous = signal.signal(signal.SIGINT, handle)
    try:
        yield received
    finally:
        signal.signal(signal.SIGINT, previous)
