"""The lock of a crawl directory: one run writes a directory at a time.

A run holds an exclusive ``flock`` on ``OUT/lock`` from before it touches the directory
until it ends. The kernel drops the lock with its holder, however it ends (SIGKILL
included), so a killed run's lock is taken over by the next run as is. The file holds the
holder's PID, only for the message a refused run prints: its text never decides anything.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import BinaryIO

from ..errors import ArchiveError, CrawlLocked
from .layout import LOCK


class DirectoryLock:
    """The exclusive lock of the crawl directory ``directory``, taken by :meth:`acquire`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.file: BinaryIO | None = None  # open (and locked) while held; closing it unlocks

    def acquire(self) -> DirectoryLock:
        """Take the lock, or raise ``CrawlLocked`` naming the PID of the run that holds it."""
        path = self.directory / LOCK
        while True:
            try:
                file = open(path, "a+b", buffering=0)  # noqa: SIM115 (held until release)
            except OSError as exc:
                raise ArchiveError(f"cannot lock {self.directory}: {exc.strerror or exc}") from None
            try:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _holder(file)
                file.close()
                raise CrawlLocked(
                    f"{self.directory} is being written by another run ({holder}): wait for "
                    "it to end, or choose another --out"
                ) from None
            if _same_file(file, path):
                break
            file.close()  # the holder removed or replaced the file as it ended: lock anew
        file.truncate(0)
        file.write(f"{os.getpid()}\n".encode())
        self.file = file
        return self

    def release(self, directory: Path | None = None) -> None:
        """Let the lock go; its file is removed from ``directory`` (where the locked directory
        is now; by default where it was) unless another file took its place. Safe twice."""
        file, self.file = self.file, None
        if file is None:
            return
        path = (directory or self.directory) / LOCK
        with contextlib.suppress(OSError):
            if _same_file(file, path):
                path.unlink()  # while held: a run that opened it sees it gone and locks anew
        file.close()


def _same_file(file: BinaryIO, path: Path) -> bool:
    """Whether the open ``file`` is the one at ``path``."""
    try:
        here, there = os.fstat(file.fileno()), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _holder(file: BinaryIO) -> str:
    """Who holds the lock, as the file says (it may not say yet, for a moment)."""
    file.seek(0)
    text = file.read(32).decode("ascii", "replace").strip()
    return f"PID {text}" if text.isdigit() else "PID unknown"
