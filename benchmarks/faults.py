"""Faults: what a crawl loses, and leaves running, when its server goes down, its browser's
renderer dies, it is SIGKILLed, its disk fills, a second run starts in its directory, or its
archive or store is damaged (issue 22); each fault once, in one run, one row each.

    python benchmarks/faults.py [--demo] [--rows 1,2,...]

Every crawl is a ``statecrawl crawl`` subprocess with 2 browsers, against 127.0.0.1 only. By
default the server-down row crawls the demo app two actions deep with one query, behind a
relay that is cut for 10 s in the middle of the crawl, and the other rows the tree app two
deep (21 states); ``--demo`` crawls the whole demo (``statecrawl demo``'s settings but 2
browsers, behind the relay) in every row. Each row is compared with an undisturbed crawl of
its app, and ends with whether nothing was lost (the reference's state ids, or what was
collected kept) and nothing left running: the processes a crawl started (below it, or naming
one of its browser profiles) still alive 5 s after it ended or was killed; they are killed
then, by id. The machine may be shared: wall-clock seconds are printed, never judged. The
rows of the lock (5) and the reaper (3) run last.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from crawl_speed import serve_tree

import statecrawl
from statecrawl.archive import archived_headers
from statecrawl.browser import find_executables
from statecrawl.demo_app import DemoApp
from statecrawl.demo_app.data import DEMO_QUERIES
from statecrawl.testing import (
    PROFILE,
    Relay,
    alive,
    command_line,
    difference,
    process_table,
    processes_below,
)

CLI = [sys.executable, "-m", "statecrawl.cli"]
BROWSERS = 2
OUTAGE = 10.0  # seconds the server is down
GRACE = 5.0  # seconds after a crawl's end by which everything it started must be gone
POLL = 0.02  # seconds between two looks at the crawls' processes
TIMEOUT = 900.0  # seconds a crawl may take before the benchmark kills it
DISK = 400_000  # bytes: the file-size limit of the disk-full row (the tree stops at ~12 states)
FLIPPED = 200  # bytes flipped in the damaged store, seeded
ERROR_VIEW = "Something went wrong"  # the demo app's view of a request that failed


# ---- processes ------------------------------------------------------------------------------
@dataclass
class Run:
    """One ``statecrawl`` subprocess, in a session of its own, and every process seen below
    it while it ran (pid -> (start time, name)), with the browser profiles they named."""

    args: list[str]
    logs: Path
    env: dict[str, str] | None = None
    limit_disk: bool = False
    process: subprocess.Popen[bytes] = field(init=False)
    began: float = field(init=False)
    seconds: float = 0.0
    started: dict[int, tuple[str, str]] = field(default_factory=dict)
    profiles: set[bytes] = field(default_factory=set)
    left: list[str] = field(default_factory=list)
    killed: bool = False

    def __post_init__(self) -> None:
        self.logs.parent.mkdir(parents=True, exist_ok=True)
        with (self.logs.with_suffix(".out").open("wb") as out,
              self.logs.with_suffix(".err").open("wb") as err):
            self.process = subprocess.Popen(
                [*CLI, *self.args], stdout=out, stderr=err, env=self.env,
                start_new_session=True, preexec_fn=_small_disk if self.limit_disk else None,
            )
        self.began = time.monotonic()

    @property
    def code(self) -> int | None:
        return self.process.poll()

    @property
    def stderr(self) -> str:
        return self.logs.with_suffix(".err").read_text(errors="replace")

    def sample(self, table: dict[int, tuple[int, str, str]]) -> None:
        for pid, process in processes_below(self.process.pid, table).items():
            if pid not in self.started:
                self.started[pid] = process
                self.profiles.update(PROFILE.findall(command_line(pid)))

    def kill(self, number: int = signal.SIGKILL) -> None:
        """Signal the statecrawl process itself (not its group): SIGKILL by default, what the
        reaper is for."""
        self.killed = True
        self.process.send_signal(number)

    def running(self) -> list[tuple[int, str]]:
        """The processes of this run alive now: those seen below it, and any naming one of
        its profiles (a helper of Chromium that left its tree)."""
        found = {pid: name for pid, (started, name) in self.started.items()
                 if alive(pid, started)}
        if self.profiles:
            for pid, (_, _, name) in process_table().items():
                if pid not in found and any(p in command_line(pid) for p in self.profiles):
                    found[pid] = name
        return sorted(found.items())

    def end(self) -> None:
        """After the process ended: its time, and what it left running ``GRACE`` seconds
        later, which is then killed."""
        self.process.wait()
        self.seconds = time.monotonic() - self.began
        deadline = time.monotonic() + GRACE
        while (running := self.running()) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.left = [f"{pid} {name}" for pid, name in running]
        for pid, _ in running:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _small_disk() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (DISK, resource.RLIM_INFINITY))


def watch(runs: list[Run], trigger: Callable[[], bool] | None = None) -> bool:
    """Follow ``runs`` to their ends, calling ``trigger`` at every look until it says it
    acted; whether it did."""
    fired = trigger is None
    deadline = time.monotonic() + TIMEOUT
    while any(r.code is None for r in runs):
        table = process_table()
        for r in runs:
            if r.code is None:
                r.sample(table)
        if not fired:
            fired = trigger()  # type: ignore[misc]
        if time.monotonic() > deadline:
            for r in runs:
                if r.code is None:
                    os.killpg(r.process.pid, signal.SIGKILL)
        time.sleep(POLL)
    for r in runs:
        r.end()
    return fired


# ---- the apps -------------------------------------------------------------------------------
@dataclass
class App:
    """A loopback application and the settings it is crawled with (a TOML file)."""

    name: str
    url: str
    config: Path
    relay: Relay | None = None
    reference: statecrawl.Crawl | None = None

    def crawl(self, out: Path, *flags: str) -> list[str]:
        return ["crawl", self.url, "--out", str(out), "--config", str(self.config),
                "--browsers", str(BROWSERS), "-q", *flags]


def resume(out: Path) -> list[str]:
    return ["crawl", "--out", str(out), "--resume", "-q"]


def toml(path: Path, depth: int, queries: Iterable[str] | None = None) -> Path:
    text = f"[limits]\nmax_depth = {depth}\n"
    if queries is not None:
        values = ", ".join(f'"{q}"' for q in queries)
        text += f"[inputs]\nmax_options = 1\n[inputs.values]\nq = [{values}]\n"
    path.write_text(text, encoding="utf-8")
    return path


def ids(crawl: statecrawl.Crawl) -> list[str]:
    return sorted(crawl.graph.nodes)


def records(out: Path) -> list[tuple[str, str, str, str]]:
    """Every WARC record of the crawl in ``out``: (id, type, content type, state)."""
    return [(h.get_header("WARC-Record-ID"), h.get_header("WARC-Type"),
             h.get_header("Content-Type") or "", h.get_header("WARC-Statecrawl-State") or "")
            for path in sorted((out / "archive").glob("*.warc.gz"))
            for h in archived_headers(path)]


def state_records(out: Path) -> list[tuple[str, str, str]]:
    """The records of states (snapshots, frames, screenshots; not the exchanges of their
    loads), by the state's id now."""
    crawl = statecrawl.load(out)
    now = {a: s["id"] for s in crawl.states() for a in [s["id"], *s.get("aliases", ())]}
    return sorted((kind, content, now.get(state, state))
                  for _, kind, content, state in records(out)
                  if state and kind in ("resource", "metadata"))


def one_line(text: str) -> bool:
    lines = text.splitlines()
    return len(lines) == 1 and lines[0].startswith("statecrawl: error: ")


# ---- the rows -------------------------------------------------------------------------------
@dataclass
class Row:
    fault: str
    expected: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    lost: str | None = "not checked"
    runs: list[Run] = field(default_factory=list)
    states: int = 0

    def check(self, ok: bool, problem: str) -> bool:
        if not ok:
            self.problems.append(problem)
        return ok

    def compare(self, app: App, out: Path, graph: bool = False) -> statecrawl.Crawl | None:
        """``lost``: whether the crawl in ``out`` has the reference's state ids (or graph)."""
        try:
            crawl = statecrawl.load(out)
        except statecrawl.StatecrawlError as exc:
            self.lost = f"unreadable: {exc}"
            return None
        assert app.reference is not None
        self.states = len(crawl)
        missing = sorted(set(ids(app.reference)) - set(ids(crawl)))
        extra = sorted(set(ids(crawl)) - set(ids(app.reference)))
        why = difference(app.reference, crawl) if graph else None
        if missing or extra:
            self.lost = f"{len(missing)} states missing, {len(extra)} extra"
        elif why:
            self.lost = f"graph differs: {why}"
        else:
            self.lost = None
        return crawl

    def result(self) -> str:
        return "; ".join(self.problems) if self.problems else "ok" + "".join(
            f"; {n}" for n in self.notes)


def states_written(out: Path) -> int:
    return len(list((out / "states").glob("*.html")))


def at(out: Path, states: int, act: Callable[[], object]) -> Callable[[], bool]:
    """A trigger: ``act`` once ``states`` state files are written in ``out``."""
    def trigger() -> bool:
        if states_written(out) < states:
            return False
        act()
        return True
    return trigger


def browsers_starting(run: Run) -> bool:
    names = {name for _, name in run.started.values()}
    return "chromedriver" in names and any("chrom" in n for n in names - {"chromedriver"})


def reference(app: App, work: Path) -> statecrawl.Crawl:
    """The undisturbed crawl of ``app`` (once)."""
    if app.reference is None:
        out = work / f"{app.name}-reference"
        run = Run(app.crawl(out), work / "logs" / out.name)
        watch([run])
        if run.code != 0:
            raise SystemExit(f"the reference crawl of {app.name} failed: {run.stderr}")
        app.reference = statecrawl.load(out)
        print(f"reference: {app.name}, {len(app.reference)} states, "
              f"{app.reference.graph.number_of_edges()} transitions in {run.seconds:.1f} s; "
              f"left running: {len(run.left)}", flush=True)
    return app.reference


def server_down(app: App, work: Path) -> Row:
    row = Row("server down", f"cut {OUTAGE:.0f} s mid-crawl: reference's state ids, no error "
              "view, outage in graph.json, no failures")
    assert app.relay is not None
    half = len(reference(app, work)) // 2
    out = work / "server-down"
    run = Run(app.crawl(out), work / "logs" / out.name)
    row.runs.append(run)
    row.check(watch([run], at(out, half, lambda: app.relay.down(OUTAGE))),  # type: ignore[union-attr]
              "the crawl ended before the cut")
    if not row.check(run.code == 0, f"exit {run.code}: {run.stderr.strip()[-200:]}"):
        return row
    crawl = row.compare(app, out)
    if crawl is None:
        return row
    shown = [s["id"] for s in crawl.states() if ERROR_VIEW in crawl.html(s["id"])]
    row.check(not shown, f"{len(shown)} states show the error view ({', '.join(shown[:3])})")
    outages = crawl.graph.graph.get("outages") or []
    if row.check(bool(outages), "no outage in graph.json"):
        row.notes += [f"graph.json: an outage of {o['seconds']} s (cut {OUTAGE:.0f} s), "
                      f"{o['failed']} requests failed" for o in outages]
    row.check(crawl.stats.get("failures", 0) == 0, f"{crawl.stats.get('failures')} failures")
    return row


def renderer_killed(app: App, work: Path) -> Row:
    row = Row("renderer killed", "SIGKILL the renderers of one browser mid-crawl: the "
              "reference's graph")
    half = len(reference(app, work)) // 2
    out = work / "renderer-killed"
    run = Run(app.crawl(out), work / "logs" / out.name)
    row.runs.append(run)
    killed: list[int] = []

    def kill_renderers() -> bool:
        if states_written(out) < half:
            return False
        renderers = {pid: command_line(pid) for pid in run.started
                     if b"--type=renderer" in command_line(pid)}
        profile = next((PROFILE.findall(line) for line in renderers.values()), None)
        for pid, line in renderers.items():
            if PROFILE.findall(line) == profile:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
        return bool(killed)

    row.check(watch([run], kill_renderers), "no renderer was killed")
    if not row.check(run.code == 0, f"exit {run.code}: {run.stderr.strip()[-200:]}"):
        return row
    crawl = row.compare(app, out, graph=True)
    if crawl is not None:
        row.notes.append(f"{len(killed)} renderers killed, {crawl.stats.get('restarts', 0)} "
                         "browser restarts")
    return row


def sigkill(app: App, work: Path) -> Row:
    row = Row(f"SIGKILL x 3 (--browsers {BROWSERS})", "killed as browsers start, mid-crawl, "
              "near the end, each then --resume: reference's state ids; nothing running 5 s "
              "after each kill")
    total = len(reference(app, work))
    out = work / "sigkill"
    points: list[tuple[str, Callable[[Run], bool]]] = [
        ("browsers starting", browsers_starting),
        ("mid-crawl", lambda run: states_written(out) >= total // 2),
        ("near the end", lambda run: states_written(out) >= total - max(2, total // 10)),
    ]
    def go(args: list[str], name: str, reached: Callable[[Run], bool] | None) -> Run:
        run = Run(args, work / "logs" / name)
        row.runs.append(run)

        def trigger() -> bool:
            if reached is not None and reached(run):
                run.kill()
                return True
            return False

        watch([run], trigger if reached else None)
        return run

    for number, (point, reached) in enumerate([*points, ("the end", None)]):
        run = go(app.crawl(out) if number == 0 else resume(out), f"sigkill-{number}", reached)
        if number and run.code == 1 and "no checkpoint" in run.stderr:
            row.problems.append(f"--resume after the kill {points[number - 1][0]}: "
                                f"{run.stderr.strip()}")
            run = go(app.crawl(out, "--overwrite"), f"sigkill-{number}-overwrite", reached)
        if reached is None:
            if row.check(run.code == 0, f"the last --resume: exit {run.code}: "
                         f"{run.stderr.strip()[-200:]}"):
                row.compare(app, out)
            break
        row.check(run.killed and run.code == -signal.SIGKILL,
                  f"{point}: the run ended (exit {run.code}) before the kill")
        if run.left:
            row.problems.append(f"{point}: {len(run.left)} processes alive 5 s after the kill "
                                f"({', '.join(run.left[:3])})")
        row.notes.append(f"{point}: {states_written(out)} states written")
    captures = state_records(out)
    row.notes.append(f"{len(captures) - len(set(captures))} state records archived twice "
                     "(work done again after a kill)")
    return row


def disk_full(app: App, work: Path) -> Row:
    row = Row("disk full", f"a {DISK // 1000} kB file-size limit: one line on stderr, exit 1, "
              "graph.json loads, not marked finished; a --resume on a free disk: the reference's "
              "state ids")
    reference(app, work)
    bin_dir = work / "bin"
    bin_dir.mkdir(exist_ok=True)
    env = dict(os.environ)
    found = find_executables(statecrawl.Config(start_urls=("http://127.0.0.1/",)))
    for name, program in zip(("STATECRAWL_CHROME", "STATECRAWL_CHROMEDRIVER"), found,
                             strict=True):
        wrapper = bin_dir / Path(program).name  # the browser's own files are not the crawl's
        wrapper.write_text(f'#!/bin/sh\nulimit -f unlimited\nexec {program} "$@"\n')
        wrapper.chmod(0o755)
        env[name] = str(wrapper)
    out = work / "disk-full"
    run = Run(app.crawl(out, "--screenshots", "all"), work / "logs" / out.name, env=env,
              limit_disk=True)
    row.runs.append(run)
    watch([run])
    row.check(run.code == 1, f"exit {run.code}")
    row.check(one_line(run.stderr), f"stderr: {run.stderr.strip()[:200]!r}")
    try:
        kept = statecrawl.load(out)
    except statecrawl.StatecrawlError as exc:
        row.problems.append(f"graph.json: {exc}")
        return row
    missing = [s["id"] for s in kept.states() if not (out / s["snapshot"]).is_file()]
    row.check(not missing, f"{len(missing)} states listed without their file")
    reason = kept.stats.get("stop_reason")
    row.check(reason != "finished", f"graph.json says stop_reason {reason!r} "
              f"({len(kept)} states, frontier {kept.stats.get('frontier')})")
    row.notes.append(f"{len(kept)} states kept")
    again = Run(resume(out), work / "logs" / "disk-full-resume")
    row.runs.append(again)
    watch([again])
    if row.check(again.code == 0, f"--resume: exit {again.code}: {again.stderr.strip()[-200:]}"):
        row.compare(app, out)
    return row


def two_runs(app: App, work: Path) -> Row:
    row = Row("two runs at once", "two --resume at once: the second refused with one line "
              "naming the holder's PID, the first finishes; no WARC record twice")
    total = len(reference(app, work))
    out = work / "two-runs"
    first = Run(app.crawl(out), work / "logs" / "two-runs-0")
    row.runs.append(first)
    # a crawl to resume, stopped cleanly: what the resumes archive again is theirs
    watch([first], at(out, total // 2, lambda: first.kill(signal.SIGTERM)))
    both = [Run(resume(out), work / "logs" / f"two-runs-{n}") for n in (1, 2)]
    row.runs += both
    watch(both)
    codes = sorted(r.code for r in both)  # type: ignore[type-var]
    if not row.check(codes == [0, 1], f"exit codes {codes}"):
        return row
    winner, refused = sorted(both, key=lambda r: r.code or 0)
    row.check(one_line(refused.stderr) and f"(PID {winner.process.pid})" in refused.stderr,
              f"refused with {refused.stderr.strip()[:200]!r}")
    found = records(out)
    twice = len(found) - len({record_id for record_id, *_ in found})
    row.check(twice == 0, f"{twice} WARC record ids twice")
    captures = state_records(out)
    doubled = len(captures) - len(set(captures))
    row.check(doubled == 0, f"{doubled} state records archived twice")
    row.notes.append(f"{len(found)} WARC records, each once")
    row.compare(app, out)
    return row


def damaged_warc(app: App, work: Path) -> Row:
    row = Row("damaged WARC", "last WARC cut to 2/3: verify --integrity reports it (non-zero), "
              "--resume repairs, verify --integrity then clean")
    ref = reference(app, work)
    out = work / "damaged-warc"
    shutil.copytree(ref.path, out)
    whole = state_records(out)
    warc = sorted((out / "archive").glob("*.warc.gz"))[-1]
    with warc.open("r+b") as stream:
        stream.truncate(warc.stat().st_size * 2 // 3)
    for step, args in (("verify", ["verify", str(out), "--integrity"]), ("resume", resume(out)),
                       ("verify again", ["verify", str(out), "--integrity"])):
        run = Run(args, work / "logs" / f"damaged-warc-{step.replace(' ', '-')}")
        row.runs.append(run)
        watch([run])
        said = run.logs.with_suffix(".out").read_text(errors="replace")
        if step == "verify":
            row.check(run.code not in (0, None) and warc.name in said,
                      f"verify: exit {run.code}, {warc.name} not named: {said.strip()[:200]!r}")
        elif step == "resume":
            row.check(run.code == 0, f"--resume: exit {run.code}: {run.stderr.strip()[-200:]}")
        else:
            row.check(run.code == 0, f"verify after the resume: exit {run.code}: "
                      f"{said.strip()[:200]!r}")
    lost = sorted(set(whole) - set(state_records(out)))
    row.check(not lost, f"{len(lost)} state records not archived again")
    row.compare(app, out, graph=True)
    return row


def damaged_store(app: App, work: Path) -> Row:
    row = Row("damaged store", f"{FLIPPED} bytes of crawl.sqlite flipped: --resume says so in "
              "one line with the way out (verify --rebuild-store), which works")
    ref = reference(app, work)
    out = work / "damaged-store"
    shutil.copytree(ref.path, out)
    store = out / "crawl.sqlite"
    data = bytearray(store.read_bytes())
    for i in random.Random(22).sample(range(len(data)), FLIPPED):
        data[i] ^= 0xFF
    store.write_bytes(bytes(data))
    steps = (("resume", resume(out)), ("rebuild", ["verify", str(out), "--rebuild-store"]),
             ("resume again", resume(out)))
    for step, args in steps:
        run = Run(args, work / "logs" / f"damaged-store-{step.replace(' ', '-')}")
        row.runs.append(run)
        watch([run])
        if step == "resume":
            way_out = f"statecrawl verify {out} --rebuild-store"
            row.check(run.code == 1 and one_line(run.stderr) and str(store) in run.stderr
                      and way_out in run.stderr,
                      f"--resume: exit {run.code}, {run.stderr.strip()[:200]!r}")
        else:
            row.check(run.code == 0, f"{step}: exit {run.code}: {run.stderr.strip()[-200:]}")
    row.compare(app, out, graph=True)
    return row


ROWS: dict[int, Callable[[App, Path], Row]] = {
    1: server_down, 2: renderer_killed, 3: sigkill, 4: disk_full, 5: two_runs,
    6: damaged_warc, 7: damaged_store,
}
ORDER = (1, 2, 4, 6, 7, 3, 5)  # the lock's and the reaper's rows last


def print_table(rows: dict[int, Row]) -> None:
    head = ("fault", "expected", "result", "nothing lost", "nothing left running", "states",
            "seconds")
    lines = [head]
    for number in sorted(rows):
        row = rows[number]
        left = sum(len(r.left) for r in row.runs)
        lines.append((
            f"{number}. {row.fault}", row.expected, row.result(),
            "yes" if row.lost is None else f"NO: {row.lost}",
            "yes (0 processes)" if left == 0 else f"NO ({left} processes)",
            str(row.states), f"{sum(r.seconds for r in row.runs):.1f}",
        ))
    print()
    for line in lines:
        print("| " + " | ".join(line) + " |")
        if line is head:
            print("|" + "|".join(" --- " for _ in head) + "|")
    failed = [n for n, r in rows.items()
              if r.problems or r.lost is not None or any(x.left for x in r.runs)]
    print(f"\n{len(rows) - len(failed)} of {len(rows)} rows hold"
          + (f"; rows {', '.join(map(str, sorted(failed)))} do not" if failed else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo", action="store_true",
                        help="crawl the whole demo app in every row (slow)")
    parser.add_argument("--rows", default=",".join(map(str, ROWS)),
                        help="the rows to run, of 1-7 (all)")
    args = parser.parse_args()
    chosen = {int(n) for n in args.rows.split(",")}
    work = Path(tempfile.mkdtemp(prefix="statecrawl-faults-"))
    with DemoApp() as demo:
        relay = Relay(("127.0.0.1", demo.port))
        if args.demo:
            config = toml(work / "demo.toml", 4, DEMO_QUERIES)
            outage = other = App("demo", relay.origin + "/", config, relay)
        else:
            config = toml(work / "demo.toml", 2, DEMO_QUERIES[:1])
            outage = App("demo-depth-2", relay.origin + "/", config, relay)
            tree = serve_tree()
            other = App("tree", f"http://127.0.0.1:{tree.server_port}/",
                        toml(work / "tree.toml", 2))
        rows: dict[int, Row] = {}
        for number in (n for n in ORDER if n in chosen):
            row = ROWS[number](outage if number == 1 else other, work)
            rows[number] = row
            print(f"{number}. {row.fault}: {row.result()}; lost: {row.lost or 'nothing'}; "
                  f"left running: {sum(len(r.left) for r in row.runs)}", flush=True)
        relay.down()
    print_table(rows)
    print(f"crawl directories and logs: {work}")


if __name__ == "__main__":
    main()
