"""The pure and /proc parts of ``benchmarks/cpu.py``: process kinds, a process tree, its
CPU seconds (the benchmark itself runs a crawl)."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
import time

import benchmarks.cpu as cpu


def test_process_kinds() -> None:
    results = doctest.testmod(cpu)
    assert results.attempted >= 5 and results.failed == 0


def test_a_child_is_found_and_its_cpu_read() -> None:
    burn = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
    child = subprocess.Popen([sys.executable, "-c", burn + "time.sleep(30)"])
    try:
        seen: dict[int, tuple[str, float]] = {}
        deadline = time.monotonic() + 20
        while (child.pid not in seen or seen[child.pid][1] < 0.2) and time.monotonic() < deadline:
            assert child.pid in cpu.descendants(os.getpid())
            cpu.sample({child.pid}, seen)
            time.sleep(0.05)
        assert seen[child.pid][0] == "python" and seen[child.pid][1] >= 0.2
    finally:
        child.kill()
        child.wait()
