"""Where a crawl's CPU goes: the CPU seconds of every process of a command, by kind.

    python benchmarks/cpu.py [-- COMMAND ...]        # default: statecrawl demo, into a temp dir

Runs the command (``statecrawl demo --out TMP`` unless one is given after ``--``) and reads
``/proc`` every half second: each process's user and system time as last seen, summed by
kind: Chromium's browser process, its renderers, GPU process and utility processes (the
network service...), ChromeDriver, Python (the crawler, and the demo app's server in its
process), the rest by program name. Prints the wall time, the CPU seconds in all and as a
share of what the machine's cores give over that wall time, then each kind. A process that
ends between two reads loses its last half second at most.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
SUB_TYPE = re.compile(r"--utility-sub-type=(\S+)")
TYPE = re.compile(r"--type=(\S+)")


def kind(cmdline: str) -> str:
    """What a process is, from its command line (arguments split by spaces).

    >>> kind("/usr/lib/chromium/chromium --type=renderer --lang=en")
    'chromium renderer'
    >>> kind("chromium --type=utility --utility-sub-type=network.mojom.NetworkService")
    'chromium utility NetworkService'
    >>> kind("/usr/lib/chromium/chromium --headless=new --no-sandbox")
    'chromium browser'
    >>> kind("/usr/bin/chromedriver --port=4444")
    'chromedriver'
    >>> kind("/work/.venv/bin/python -m statecrawl demo")
    'python'
    """
    program = Path(cmdline.split(" ", 1)[0]).name
    if program == "chromedriver":
        return program
    if program in ("chromium", "chrome", "chrome_crashpad_handler") or "chromium" in program:
        found = TYPE.search(cmdline)
        if found is None:
            return "chromium browser"
        sub = SUB_TYPE.search(cmdline) if found.group(1) == "utility" else None
        return f"chromium {found.group(1)}" + (f" {sub.group(1).rsplit('.', 1)[-1]}" if sub else "")
    if program.startswith("python") or program == "statecrawl":
        return "python"
    return program


def descendants(root: int) -> set[int]:
    """``root`` and every process below it now."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(parent, []).append(int(entry))
    found, stack = set(), [root]
    while stack:
        pid = stack.pop()
        found.add(pid)
        stack += parents.get(pid, [])
    return found


def sample(pids: set[int], seen: dict[int, tuple[str, float]]) -> None:
    """Note each process's kind and CPU seconds so far."""
    for pid in pids:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ").strip()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # (gone since it was listed)
        seconds = (int(fields[11]) + int(fields[12])) / TICKS
        seen[pid] = (kind(cmdline) if cmdline else seen.get(pid, ("?", 0.0))[0], seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs=argparse.REMAINDER, help="after --: what to run")
    args = parser.parse_args()
    command = [c for c in args.command if c != "--"]
    with tempfile.TemporaryDirectory() as tmp:
        if not command:
            statecrawl = Path(sys.executable).with_name("statecrawl")  # (the script beside it)
            command = [str(statecrawl), "demo", "--out", str(Path(tmp) / "demo")]
        seen: dict[int, tuple[str, float]] = {}
        began = time.monotonic()
        child = subprocess.Popen(command)
        while child.poll() is None:
            sample(descendants(child.pid), seen)
            time.sleep(0.5)
        wall = time.monotonic() - began
    totals: Counter[str] = Counter()
    for name, seconds in seen.values():
        totals[name] += seconds
    cores = os.cpu_count() or 1
    cpu = sum(totals.values())
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s = {cpu / (wall * cores):.0%} of {cores} cores")
    for name, seconds in totals.most_common():
        print(f"  {name:<34} {seconds:7.1f} s {seconds / cpu:6.1%}")
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
