"""Real applications kit: four open-source web applications of different kinds crawled with
the defaults (and their login) and with the brute-force reference, server-side code coverage
measured by the harness.

    bash scripts/realapps.sh [DIR]          # once: installs the apps outside the repository
    python benchmarks/realapps.py [--seconds S] [--apps NAME ...] [--dir DIR] [--keep OUT]

The apps (from PyPI and npm, nothing of theirs in this repository):
- trac: Trac 1.6, an issue tracker and wiki (Python); logs in by HTTP basic auth at /login;
  keeps preferences (date format, time zone…) in the server-side session, anonymous too.
- tiddlywiki: TiddlyWiki 5 on Node.js, a single-page application over a JSON API; logs in
  by HTTP basic auth at /login-basic (anonymous users read, the user writes).
- hgweb: Mercurial's ``hg serve``, server-rendered pages of a repository's history (log,
  revisions, diffs, annotate, file views: infinite families); no login.
- datasette: Datasette, a database browser with a JSON API, facets and sort orders; no login.

Each crawl gets fresh data in a temporary folder and its server of its own on 127.0.0.1 (a
free port), run under coverage.py (``--source`` the app's package; stopped with SIGINT so
the data is written) or with ``NODE_V8_COVERAGE`` (lines of TiddlyWiki's own modules run).
Per app: (a) statecrawl's defaults plus the app's login, (b) the reference: statecrawl with
``--exhaustive --wait-ms 500`` and no login, each for ``--seconds`` (300); and the lines a
server runs to answer one plain GET of its start page, the floor both start from. Printed per
app: server lines reached, states, transitions fired (and inferred), resets, unreachable,
whether the app's data is intact (a checksum of its database tables and files before and
after, sessions, caches and logs aside; the changed names when not), the crawl's most
frequent warnings, and the ratio of lines default/reference, of all lines and of those
beyond the floor.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import logging
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = Path(os.environ.get("STATECRAWL_REALAPPS", "~/.cache/statecrawl/realapps"))
USER, PASSWORD = "alice", "kit-Pa55word"
# the JavaScript a TiddlyWiki module is wrapped in before V8 compiles it (boot.js, evalGlobal):
# the module's code starts right after the inner function's ``function(){``
WRAPPED = len("function(){")
WRAP_END = len("\n;}")
TITLE = re.compile(r"^title: (\S+)$", re.M)


# ---------------------------------------------------------------- pure parts (unit-tested)

def python_lines(report: Mapping[str, Any]) -> tuple[int, int]:
    """Lines executed and statements in all, from ``coverage json``'s report."""
    totals = report["totals"]
    return int(totals["covered_lines"]), int(totals["num_statements"])


def executed(length: int, functions: Iterable[Mapping[str, Any]]) -> bytearray:
    """For each character of a script of ``length``, 1 if V8's block coverage counted it
    run: the innermost range holding it has a count above 0 (outer ranges painted first)."""
    ranges = sorted(
        (r["startOffset"], -r["endOffset"], r["count"])
        for f in functions for r in f["ranges"]
    )
    flags = bytearray(length)
    for start, end, count in ranges:
        stop = min(-end, length)
        if start < stop:
            flags[start:stop] = (b"\1" if count > 0 else b"\0") * (stop - start)
    return flags


def code_offset(source: str, functions: Sequence[Mapping[str, Any]]) -> int | None:
    """Where ``source`` (a module's file) starts in the script V8 compiled: 0 when the script
    is the file itself, after TiddlyWiki's wrapper when it is wrapped, ``None`` when neither
    fits (the script is then not counted in lines)."""
    whole = functions[0]["ranges"][0]["endOffset"] if functions else -1
    if whole == len(source):
        return 0
    if len(functions) >= 3:
        inner = functions[2]["ranges"][0]
        start = inner["startOffset"] + WRAPPED
        if inner["endOffset"] == start + len(source) + WRAP_END:
            return int(start)
    return None


def v8_lines(source: str, functions: Sequence[Mapping[str, Any]]) -> tuple[int, int] | None:
    """Lines of ``source`` run and its non-blank lines in all, from V8's block coverage of
    the script it was compiled into (``None``: the script is not this source)."""
    offset = code_offset(source, functions)
    if offset is None:
        return None
    flags = executed(offset + len(source), functions)
    run = total = 0
    position = offset
    for line in source.splitlines(keepends=True):
        text = line.lstrip()
        if text.strip():
            total += 1
            run += flags[position + len(line) - len(text)]
        position += len(line)
    return run, total


def changed(before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    """The names (tables, files) whose checksum differs, or that came or went."""
    return sorted(name for name in before.keys() | after.keys()
                  if before.get(name) != after.get(name))


def warning_kind(message: str) -> str:
    """A log message with its numbers, ids and quoted parts masked, to count its kind."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|\b[0-9a-f]{6,}\b|\d+", "…", message)[:90]


# ---------------------------------------------------------------- data and its checksum

def table_sums(database: Path, skip: Iterable[str] = ()) -> dict[str, str]:
    """A checksum of each table of an SQLite database (its rows in order), ``skip`` aside."""
    sums = {}
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for name in sorted(set(names) - set(skip)):
            rows = sorted(map(repr, db.execute(f'SELECT * FROM "{name}"')))
            sums[f"table {name}"] = hashlib.sha256("\n".join(rows).encode()).hexdigest()
    return sums


def file_sums(root: Path, skip: re.Pattern[str]) -> dict[str, str]:
    """A checksum of each file under ``root`` whose relative path ``skip`` does not match."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not skip.search(str(path.relative_to(root)))
    }


def run(command: list[str], **options: Any) -> None:
    """Run a set-up command; its output only when it fails."""
    done = subprocess.run(command, capture_output=True, text=True, **options)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


TRAC_CONTENT = """
import sys
from trac.env import Environment
from trac.ticket.model import Milestone, Ticket
from trac.wiki.model import WikiPage
env = Environment(sys.argv[1], create=True, options=[
    ("project", "name", "Kit tracker"), ("trac", "database", "sqlite:db/trac.db")])
for n in (1, 2, 3):
    m = Milestone(env)
    m.name = f"release {n}"
    m.description = f"What goes into release {n}: the [wiki:Roadmap roadmap]."
    m.insert()
words = "parser crash slow export login search unicode layout timezone report".split()
for n in range(1, 25):
    t = Ticket(env)
    t["summary"] = f"The {words[n % 10]} {words[(n * 3) % 10]} fails in case {n}"
    t["description"] = f"Steps:\\n 1. open the {words[n % 10]} page\\n 2. see #{max(1, n - 1)}"
    t["reporter"] = ("alice", "bob", "carol")[n % 3]
    t["owner"] = ("alice", "bob", "")[n % 3]
    t["type"] = ("defect", "enhancement", "task")[n % 3]
    t["priority"] = ("major", "minor", "critical", "trivial")[n % 4]
    t["component"] = ("component1", "component2")[n % 2]
    t["milestone"] = f"release {n % 3 + 1}"
    t.insert()
    if n % 4 == 0:
        t["status"] = "closed"
        t["resolution"] = "fixed"
        t.save_changes("bob", f"Fixed in release {n % 3 + 1}.")
    elif n % 3 == 0:
        t.save_changes("carol", f"Also seen with the {words[(n + 1) % 10]}.")
for name, text in (("Roadmap", "= Roadmap =\\nSee [milestone:\\"release 1\\"] and TeamPage."),
                   ("TeamPage", "= Team =\\n * alice\\n * bob\\n * carol\\nBack to WikiStart."),
                   ("HowToReport", "= Reporting =\\nOpen a [/newticket ticket]; see #3.")):
    page = WikiPage(env, name)
    page.text = text
    page.save("alice", "written by the kit")
    page.text = text + "\\n\\nLast checked by bob."
    page.save("bob", "checked")
"""


def make_trac(tools: Path, data: Path) -> None:
    run([str(tools / "venv/bin/python"), "-c", TRAC_CONTENT, str(data / "env")])
    sha = base64.b64encode(hashlib.sha1(PASSWORD.encode()).digest()).decode()
    (data / "htpasswd").write_text(f"{USER}:{{SHA}}{sha}\n")


def make_tiddlywiki(tools: Path, data: Path) -> None:
    run(["node", str(tools / TIDDLYWIKI), str(data / "wiki"), "--init", "server"])
    tiddlers = data / "wiki" / "tiddlers"
    tiddlers.mkdir()
    topics = ("Garden", "Recipes", "Travel", "Reading", "Projects")
    for n in range(15):
        tag = topics[n % 5]
        (tiddlers / f"Note {n}.tid").write_text(
            f"title: Note {n}\ntags: {tag} [[Kit notes]]\ntype: text/vnd.tiddlywiki\n\n"
            f"!! Note {n} about {tag}\n\nSee [[Note {(n + 1) % 15}]] and [[{tag}]].\n\n"
            f"* one point\n* another point\n\n<<list-links \"[tag[{tag}]]\">>\n"
        )
    for tag in topics:
        (tiddlers / f"{tag}.tid").write_text(
            f"title: {tag}\ntags: Topics\n\nThe notes about {tag}: <<list-links "
            f"\"[tag[{tag}]]\">>\n"
        )
    (data / "users.csv").write_text(f"username,password\n{USER},{PASSWORD}\n")


def make_hg(tools: Path, data: Path) -> None:
    repo = data / "repo"
    hg = [str(tools / "venv/bin/hg"), "--cwd", str(repo), "--config", "ui.username=kit"]
    run([str(tools / "venv/bin/hg"), "init", str(repo)], env=HG_ENV)
    rng = random.Random(38)
    files = ["README", "src/main.py", "src/util.py", "docs/guide.txt", "tests/test_main.py"]
    for n in range(30):
        for name in rng.sample(files, 2):
            path = repo / name
            path.parent.mkdir(parents=True, exist_ok=True)
            lines = path.read_text().splitlines() if path.exists() else []
            lines.insert(rng.randrange(len(lines) + 1), f"line {n} of {name}: {rng.random():.6f}")
            path.write_text("\n".join(lines) + "\n")
        user = ("Ada <ada@example.org>", "Bob <bob@example.org>")[n % 2]
        run([*hg, "commit", "-A", "-u", user, "-d", f"{1700000000 + n * 86400} 0",
             "-m", f"change {n}: edit {rng.choice(files)}"], env=HG_ENV)
        if n in (9, 19):
            run([*hg, "tag", "-u", user, "-d", f"{1700000000 + n * 86400 + 60} 0",
                 f"v{n // 10 + 1}.0"], env=HG_ENV)
        if n == 24:
            run([*hg, "branch", "stable"], env=HG_ENV)


def make_datasette(tools: Path, data: Path) -> None:
    rng = random.Random(38)
    with sqlite3.connect(data / "kit.db") as db:
        db.execute("CREATE TABLE countries (code TEXT PRIMARY KEY, name TEXT, continent TEXT)")
        db.execute("CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT, population INTEGER,"
                   " founded INTEGER, country TEXT REFERENCES countries(code))")
        db.execute("CREATE TABLE visits (id INTEGER PRIMARY KEY, city INTEGER REFERENCES"
                   " cities(id), day TEXT, visitors INTEGER, weather TEXT)")
        countries = [("fr", "France", "Europe"), ("de", "Germany", "Europe"),
                     ("jp", "Japan", "Asia"), ("br", "Brazil", "South America"),
                     ("ke", "Kenya", "Africa"), ("ca", "Canada", "North America")]
        db.executemany("INSERT INTO countries VALUES (?, ?, ?)", countries)
        for n in range(1, 121):
            db.execute("INSERT INTO cities VALUES (?, ?, ?, ?, ?)",
                       (n, f"City {n}", rng.randrange(10_000, 5_000_000),
                        rng.randrange(800, 1990), rng.choice(countries)[0]))
        for n in range(1, 401):
            db.execute("INSERT INTO visits VALUES (?, ?, ?, ?, ?)",
                       (n, rng.randrange(1, 121), f"2024-{rng.randrange(1, 13):02}-"
                        f"{rng.randrange(1, 29):02}", rng.randrange(1, 900),
                        rng.choice(("sun", "rain", "snow", "wind"))))
    (data / "metadata.json").write_text(json.dumps({
        "title": "Kit cities",
        "databases": {"kit": {"tables": {"cities": {"facets": ["country"]},
                                         "visits": {"facets": ["weather"]}}}},
    }))


HG_ENV = {**os.environ, "HGRCPATH": "", "HGPLAIN": "1"}
TIDDLYWIKI = "node/node_modules/tiddlywiki/tiddlywiki.js"
# a Node.js preload: exit (writing V8's coverage) on SIGINT or SIGTERM instead of dying
EXIT_ON_SIGNAL = "for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(0));\n"


@dataclass(frozen=True, kw_only=True)
class App:
    """One application of the kit: how its data is made, served, checked and logged into."""

    name: str
    kind: str
    make: Callable[[Path, Path], None]  # (tools, data): fresh data
    command: Callable[[Path, Path, int], list[str]]  # (tools, data, port): the server
    data: Callable[[Path], dict[str, str]]  # checksums of what it holds
    package: str | None = None  # its Python package (coverage.py), else Node (V8)
    start: str = "/"
    login_start: str | None = None  # the start page that asks for HTTP auth
    env: Mapping[str, str] = field(default_factory=dict)


def venv(tools: Path, script: str) -> str:
    return str(tools / "venv" / "bin" / script)


APPS = {
    app.name: app for app in (
        App(
            name="trac", kind="issue tracker and wiki, preferences in the session (Python)",
            make=make_trac, package="trac", login_start="/login",
            command=lambda tools, data, port: [
                venv(tools, "tracd"), "-s", "--host", "127.0.0.1", "-p", str(port),
                f"--basic-auth=*,{data / 'htpasswd'},kit", str(data / "env")],
            data=lambda data: {
                # (``cache``: the generations of Trac's caches; a login adds its known users')
                **table_sums(data / "env/db/trac.db", ("session", "session_attribute",
                                                       "auth_cookie", "cache")),
                **file_sums(data / "env", re.compile(r"^(db|log)/|\.pyc$")),
            },
        ),
        App(
            name="tiddlywiki", kind="single-page app over a JSON API (Node.js)",
            make=make_tiddlywiki, login_start="/login-basic",
            command=lambda tools, data, port: [
                "node", "-r", str(data / "exit.js"), str(tools / TIDDLYWIKI),
                str(data / "wiki"), "--listen", "host=127.0.0.1", f"port={port}",
                f"credentials={data / 'users.csv'}", "readers=(anon)",
                f"writers={USER}"],
            data=lambda data: file_sums(data / "wiki", re.compile(r"\$__(StoryList|HistoryList)")),
        ),
        App(
            name="hgweb", kind="repository history, server-rendered (Python)",
            make=make_hg, package="mercurial", env=HG_ENV,
            command=lambda tools, data, port: [
                venv(tools, "hg"), "serve", "-R", str(data / "repo"), "-a", "127.0.0.1",
                "-p", str(port)],
            data=lambda data: file_sums(data / "repo", re.compile(r"^\.hg/(w?cache|.*\.lock)")),
        ),
        App(
            name="datasette", kind="database browser with a JSON API (Python)",
            make=make_datasette, package="datasette",
            command=lambda tools, data, port: [
                venv(tools, "datasette"), "serve", str(data / "kit.db"), "-h", "127.0.0.1",
                "-p", str(port), "--metadata", str(data / "metadata.json")],
            data=lambda data: table_sums(data / "kit.db"),
        ),
    )
}


# ---------------------------------------------------------------- servers under coverage

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def interruptible() -> None:
    """SIGINT back to its default in the server, which a shell's background job ignores (a
    Python server would then not stop on it, and coverage.py write nothing)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Server:
    """An app's server on 127.0.0.1 with fresh data, under coverage.py or V8's coverage."""

    def __init__(self, app: App, tools: Path, folder: Path) -> None:
        self.app, self.tools, self.folder = app, tools, folder
        self.data = folder / "data"
        self.coverage = folder / "coverage"
        self.data.mkdir(parents=True)
        self.coverage.mkdir()
        app.make(tools, self.data)
        (self.data / "exit.js").write_text(EXIT_ON_SIGNAL)
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def checksums(self) -> dict[str, str]:
        return self.app.data(self.data)

    def __enter__(self) -> Server:
        command = self.app.command(self.tools, self.data, self.port)
        env = {**os.environ, **self.app.env}
        if self.app.package is None:
            env["NODE_V8_COVERAGE"] = str(self.coverage)
        else:
            command = [venv(self.tools, "python"), "-m", "coverage", "run", "--parallel-mode",
                       f"--data-file={self.coverage / '.coverage'}",
                       f"--source={self.app.package}", *command]
        log = (self.folder / "server.log").open("wb")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                        cwd=self.data, env=env, preexec_fn=interruptible)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"{self.app.name} exited: see {self.folder / 'server.log'}")
            try:
                urllib.request.urlopen(self.origin + self.app.start, timeout=5).close()
                return self
            except urllib.error.HTTPError:
                return self
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"{self.app.name} did not answer in 60 s")

    def __exit__(self, *exc: object) -> None:
        """Stop the server with SIGINT (coverage written), harder if it does not stop."""
        assert self.process is not None
        for sig, wait in ((signal.SIGINT, 30), (signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            self.process.send_signal(sig)
            try:
                self.process.wait(wait)
                return
            except subprocess.TimeoutExpired:
                print(f"  {self.app.name} did not stop on {sig.name}", flush=True)

    def lines(self) -> tuple[int, int]:
        """Server lines run (and lines in all), once the server has stopped."""
        if self.app.package is not None:
            python = venv(self.tools, "python")
            data = f"--data-file={self.coverage / '.coverage'}"
            run([python, "-m", "coverage", "combine", "-q", data], cwd=self.data)
            report = self.coverage / "report.json"
            run([python, "-m", "coverage", "json", "-q", data, "-o", str(report)],
                cwd=self.data)
            return python_lines(json.loads(report.read_text()))
        return node_lines(self.coverage, self.tools / Path(TIDDLYWIKI).parent)


def node_lines(folder: Path, package: Path) -> tuple[int, int]:
    """Lines of ``package``'s own modules run, from the V8 coverage files in ``folder``;
    a module is found by its file or by the ``title:`` its header gives it."""
    sources: dict[str, Path] = {}
    for path in package.rglob("*.js"):
        if path.is_dir() or {"node_modules", "editions"} & set(path.relative_to(package).parts):
            continue
        found = TITLE.search(path.read_text(errors="replace")[:400])
        if found:
            sources[found.group(1)] = path
        sources[path.as_uri()] = path
    run_lines = total = 0
    for dump in folder.glob("coverage-*.json"):
        for script in json.loads(dump.read_text())["result"]:
            source = sources.get(script["url"])
            counted = source and v8_lines(source.read_text(), script["functions"])
            if counted:
                run_lines += counted[0]
                total += counted[1]
    return run_lines, total


# ---------------------------------------------------------------- crawls

class Warnings(logging.Handler):
    """Counts the crawl's warnings by kind."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.kinds: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        self.kinds[warning_kind(record.getMessage())] += 1


def crawl(app: App, tools: Path, folder: Path, seconds: float, reference: bool,
          strategy: str | None = None) -> dict[str, Any]:
    """One crawl of ``app`` on fresh data: its figures, the server's lines and the data's fate
    (``strategy``: the default crawl's frontier order, when not the default's)."""
    import statecrawl

    with Server(app, tools, folder) as server:
        before = server.checksums()
        options: dict[str, Any] = {"limits": {"max_time": seconds}}
        url = server.origin + app.start
        if reference:
            options |= {"timing": {"wait_ms": 500}, "explore": {"shortcuts": False}}
        else:
            if strategy:
                options["strategy"] = strategy
            if app.login_start:
                url = server.origin + app.login_start
                options["login"] = {"http_user": USER, "http_password": PASSWORD}
        warnings = Warnings()
        logging.getLogger("statecrawl").addHandler(warnings)
        try:
            result = statecrawl.crawl(url, out=folder / "crawl", **options)
        finally:
            logging.getLogger("statecrawl").removeHandler(warnings)
    after = server.checksums()
    lines, total = server.lines()
    return {**{k: result.stats[k] for k in ("states", "transitions", "inferred", "resets",
                                             "unreachable", "guarded", "elapsed")},
            "lines": lines, "total": total, "changed": changed(before, after),
            "warnings": warnings.kinds.most_common(3)}


def floor(app: App, tools: Path, folder: Path) -> int:
    """The server lines run to answer one plain GET of the start page."""
    with Server(app, tools, folder) as server, contextlib.suppress(urllib.error.HTTPError):
        urllib.request.urlopen(server.origin + app.start, timeout=30).close()
    return server.lines()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300, help="seconds a crawl (300)")
    parser.add_argument("--apps", nargs="+", choices=list(APPS), default=list(APPS),
                        help="the apps to crawl (all)")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR,
                        help="where scripts/realapps.sh installed them")
    parser.add_argument("--keep", type=Path,
                        help="keep the crawl directories, data and server logs here")
    parser.add_argument("--strategy", help="the default crawl's frontier order (its default)")
    args = parser.parse_args()
    tools = args.dir.expanduser()
    if not (tools / "venv/bin/tracd").exists() or not (tools / TIDDLYWIKI).exists():
        raise SystemExit(f"the apps are not installed in {tools}: bash scripts/realapps.sh")
    logging.basicConfig(level=logging.WARNING)  # (counted by Warnings, printed from errors on)
    logging.getLogger().handlers[0].setLevel(logging.ERROR)
    print(f"{args.seconds:g} s a crawl; load average {os.getloadavg()[0]:.1f} at the start")
    rows = []
    with (contextlib.nullcontext(str(args.keep)) if args.keep else
          tempfile.TemporaryDirectory(prefix="statecrawl-realapps-")) as tmp:
        for app in (APPS[name] for name in args.apps):
            print(f"\n{app.name}: {app.kind}", flush=True)
            base = floor(app, tools, Path(tmp) / app.name / "floor")
            print(f"  one GET of the start page runs {base} server lines", flush=True)
            figures = {}
            for label, reference in (("default", False), ("reference", True)):
                f = crawl(app, tools, Path(tmp) / app.name / label, args.seconds, reference,
                          args.strategy)
                figures[label] = f
                intact = "yes" if not f["changed"] else "NO: " + ", ".join(f["changed"][:6])
                print(f"  {label:9} {f['lines']:6} of {f['total']} lines, {f['states']:4} "
                      f"states, {f['transitions']:4} transitions (+{f['inferred']} inferred), "
                      f"{f['resets']:4} resets, {f['unreachable']} unreachable, "
                      f"{f['guarded']} guarded, {f['elapsed']:.0f} s; data intact: {intact}",
                      flush=True)
                for kind, count in f["warnings"]:
                    print(f"            {count:4} x {kind}", flush=True)
            d, r = figures["default"], figures["reference"]
            ratio = d["lines"] / r["lines"] if r["lines"] else 0.0
            beyond = (d["lines"] - base) / (r["lines"] - base) if r["lines"] > base else 0.0
            print(f"  lines default/reference {ratio:.2f}; beyond the floor {beyond:.2f}",
                  flush=True)
            rows.append((app.name, base, d, r, ratio, beyond))
    print("\n| app | floor | lines (default / reference) | ratio | beyond the floor | states | "
          "transitions | resets | unreachable | data intact |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, base, d, r, ratio, beyond in rows:
        pair = " / ".join
        print(f"| {name} | {base} | {d['lines']} / {r['lines']} | {ratio:.2f} | {beyond:.2f} | "
              f"{pair([str(d['states']), str(r['states'])])} | "
              f"{pair([str(d['transitions']), str(r['transitions'])])} | "
              f"{pair([str(d['resets']), str(r['resets'])])} | "
              f"{pair([str(d['unreachable']), str(r['unreachable'])])} | "
              f"{pair(['yes' if not x['changed'] else 'no' for x in (d, r)])} |")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
