"""The reaper: no browser outlives the statecrawl process that started it, however that
process ends (SIGKILL included), whether it runs the CLI, a library caller or a Dask worker.

Each ChromeDriver starts in a session of its own, and every Chromium process it starts
(browser, zygotes, renderers) stays in its process group. A small process, the reaper, is
started once per statecrawl process and reads the ids of those groups, and the browsers'
profile directories, from a pipe; when the pipe ends, which the kernel does when
statecrawl's process ends in any way, it kills the groups it still knows and removes their
profiles. It runs this file as a script, so it imports nothing of statecrawl.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from typing import Any

EXIT_WAIT = 5.0  # seconds a normal exit waits for the reaper to end what is left


class Reaper:
    """This process's end of the reaper's pipe."""

    def __init__(self) -> None:
        self.pid = 0  # the process the reaper watches; another one after a fork
        self.pipe = -1
        self.process: subprocess.Popen[bytes] | None = None
        self.lock = threading.Lock()

    def start(self) -> int:
        """Start the reaper unless this process has one; return the pipe's end to write to."""
        with self.lock:
            if self.pid == os.getpid():
                return self.pipe
            if self.pipe >= 0:  # a forked child's copy of its parent's pipe
                with contextlib.suppress(OSError):
                    os.close(self.pipe)
            read, write = os.pipe()  # not inherited: only this process holds the write end
            try:
                self.process = subprocess.Popen(
                    [sys.executable, "-I", "-S", __file__], stdin=read,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/",
                    start_new_session=True,  # signals to statecrawl's group pass it by
                )
            finally:
                os.close(read)
            self.pid, self.pipe = os.getpid(), write
            return write

    def forget(self, group: int) -> None:
        """The process group ``group`` has been ended: its id may be reused."""
        if self.pid == os.getpid():
            _send(self.pipe, f"-{group}\n")

    def stop(self) -> None:
        """At a normal exit: end the reaper (it kills what is still known) and wait for it,
        so nothing of this process outlives it."""
        with self.lock:
            if self.pid != os.getpid() or self.process is None:
                return
            with contextlib.suppress(OSError):
                os.close(self.pipe)
            self.pid, self.pipe = 0, -1
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(EXIT_WAIT)


def _send(pipe: int, line: str) -> None:
    with contextlib.suppress(OSError):  # a reaper that is gone ends nothing anyway
        os.write(pipe, line.encode())


REAPER = Reaper()
atexit.register(REAPER.stop)


def popen_options(profile: str) -> dict[str, Any]:
    """``popen_kw`` for the ChromeDriver of the browser with the profile directory
    ``profile``: a session of its own, whose group the reaper is told about by the child
    itself before it runs ChromeDriver (so a statecrawl killed at that very moment still has
    it ended). Starts the reaper if need be."""
    pipe = REAPER.start()

    def enlist() -> None:  # in the child, between fork and exec
        _send(pipe, f"+{os.getpid()} {profile}\n")

    return {"start_new_session": True, "preexec_fn": enlist}


def main() -> None:
    """The reaper: remember the groups statecrawl names, and when it ends kill them and
    remove their profiles. A line ``+GROUP PROFILE`` names one, ``-GROUP`` forgets it."""
    for number in (signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    groups: dict[int, str] = {}  # process group -> its browser's profile directory
    for line in sys.stdin.buffer:
        group, _, profile = line[1:].decode(errors="replace").strip().partition(" ")
        with contextlib.suppress(ValueError):
            if line.startswith(b"+"):
                groups[int(group)] = profile
            else:
                groups.pop(int(group), None)
    for group, profile in groups.items():
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
        if profile:
            shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
