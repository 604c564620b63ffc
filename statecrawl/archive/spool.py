"""Writes done in order by one thread of their own, so that no browser waits for a disk.

The archive's writes (WARC records, screenshots, thumbnails) come from every browser's thread;
a :class:`Spool` takes them in and one thread does them, one after the other, in the order
they came: that thread is the single writer of the archive. A browser's thread hands its
writes over and goes on with its browser; it waits only when ``size`` writes are waiting
already (a disk far behind), and then with no call to its browser in flight. An error a write
raises is raised to the thread that hands over the next one (or closes the spool), where the
caller's error handling sees it.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

SPOOL_SIZE = 256  # writes that may wait before a browser's thread waits for the disk

log = logging.getLogger(__name__)


class Spool:
    """One thread, named ``name``, doing the writes handed to :meth:`put` in order."""

    def __init__(self, name: str, size: int = SPOOL_SIZE) -> None:
        self._writes: queue.Queue[Callable[[], None] | None] = queue.Queue(size)
        self._errors: list[Exception] = []
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, write: Callable[[], None]) -> None:
        """Have ``write`` done after those handed over before it; then raise the first
        error a write raised that was not raised yet."""
        self._writes.put(write)
        self.check()

    def check(self) -> None:
        """Raise the first error a write raised that was not raised yet."""
        with self._lock:
            error = self._errors.pop(0) if self._errors else None
        if error is not None:
            raise error

    def close(self) -> None:
        """Wait until every write handed over is done and end the thread; raise the first
        error not raised yet (the others are logged). Safe to call twice."""
        if not self._closed:
            self._closed = True
            self._writes.put(None)
            self._thread.join()
        with self._lock:
            errors, self._errors = self._errors, []
        for error in errors[1:]:
            log.warning("a write failed: %s: %s", type(error).__name__, error)
        if errors:
            raise errors[0]

    def _run(self) -> None:
        while (write := self._writes.get()) is not None:
            try:
                write()
            except Exception as exc:  # raised to a caller's thread (see ``put``)
                with self._lock:
                    self._errors.append(exc)
