"""The command line: parses arguments, builds the config, calls the library."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from . import analysis
from . import coverage as js_coverage
from .config import Config, ServiceSettings, merge, read_seeds, read_settings
from .demo_app.data import REVISIONS
from .directory.crawl import Crawl, load
from .directory.figures import counts
from .directory.graph import StateGraph
from .directory.layout import ROLES, STORE
from .engine import roles
from .errors import ConfigError, StatecrawlError, StatecrawlWarning, one_line
from .harvest import queries as harvest
from .outage import Period
from .plugins.events import EventLog
from .report import build_report
from .stats import guard_summary
from .store import SqliteStore
from .version import __version__

if TYPE_CHECKING:  # the engine loads Selenium: only a crawl imports it
    from .engine import Explorer
    from .stats import Stats

# Signals that stop a crawl cleanly, as Ctrl-C does; the exit status is 128 + the number.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def _input_pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value


def _field_pair(text: str) -> tuple[str, str]:
    """``SELECTOR=VALUE``, split at the first ``=`` outside brackets and quotes (a selector
    such as ``input[name=q]`` holds some)."""
    depth, quote = 0, ""
    for at, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "=" and depth == 0 and text[:at].strip():
            return text[:at].strip(), text[at + 1:]
    raise argparse.ArgumentTypeError(f"expected SELECTOR=VALUE, got {text!r}")


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a fraction from 0 to 1, got {text!r}")
    return value


def _port(text: str) -> int:
    if not (text.isdigit() and 0 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
    return int(text)


HARVEST_QUERIES = 60  # queries of --harvest without a number


def _viewport(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` in pixels (the config checks the range)."""
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x900, got {text!r}")
    return int(width), int(height)


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    return {"max_depth": args.max_depth, "max_states": args.max_states, "max_time": args.max_time}


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given as flags (``None`` where a flag was not given)."""
    inputs: dict[str, list[str]] = {}
    for name, value in args.input or ():
        inputs.setdefault(name, []).append(value)
    fields: dict[str, list[str]] = {}
    for css, value in args.field or ():
        fields.setdefault(css, []).append(value)
    width, height = args.viewport or (None, None)
    return {
        "out": args.out,
        "overwrite": args.overwrite,
        "resume": args.resume,
        "limits": _limits(args),
        "scope": {"include": args.scope, "exclude": args.exclude},
        "rules": {
            "click": args.click, "dont_click": args.dont_click, "click_once": args.click_once,
        },
        "guard": {"enabled": False if args.no_guard else None, "allow": args.guard_allow},
        "inputs": {
            "values": inputs or None, "harvest": args.harvest, "max_pages": args.max_pages,
            "fields": [{"css": css, "values": vs} for css, vs in fields.items()] or None,
        },
        "browser": {
            "count": args.browsers, "window_width": width, "window_height": height,
            "coverage": args.coverage,
        },
        "timing": {"wait_ms": args.wait_ms},
        "explore": {"shortcuts": False if args.exhaustive else None},
        "politeness": {
            "max_browsers_per_host": args.max_browsers_per_host,
            "min_delay_ms": args.min_delay_ms,
        },
        "archive": {
            "enabled": False if args.no_archive else None,
            "screenshots": args.screenshots,
            "screenshot_format": args.screenshot_format,
            "screenshot_quality": args.screenshot_quality,
            "thumbnails": False if args.no_thumbnails else None,
            "max_download": args.max_download,
        },
        "model": args.model,
        "strategy": args.strategy,
        "executor": args.executor,
        "cluster": args.cluster,
        "incremental": {"since": args.since},
        "login": {
            "url": args.login_url,
            "fields": dict(args.login) if args.login else None,
            "open": args.login_open,
            "logged_in": args.logged_in,
            "logged_out": args.logged_out,
            "cookies": args.cookies,
            "storage_state": args.storage_state,
        },
    }


def build_config(args: argparse.Namespace, start_urls: Sequence[str]) -> Config:
    """The config from a TOML file (if given) with the flags on top; the start URLs are
    ``start_urls`` and those of the ``--seeds`` file."""
    start_urls = [*start_urls, *(read_seeds(args.seeds) if args.seeds else ())]
    options = {"start_urls": start_urls or None, **_options(args)}
    if args.resume:
        stored = _stored_settings(args.out)
        if args.config:  # the login's values, never stored, may come from the file again
            given = read_settings(args.config)
            stored.update({name: given[name] for name in ("login",) if name in given})
        return Config.from_mapping(merge(stored, options))
    if args.config:
        return Config.from_toml(args.config, **options)
    if not start_urls:
        raise ConfigError("give at least one start URL (or a config file with start_urls)")
    return Config.from_mapping(merge({}, options))


def _stored_settings(out: str | None) -> dict[str, Any]:
    """The settings the crawl in ``out`` last ran with, to resume it; for a crawl by role,
    those of its first role's crawl with every role's login."""
    if not out:
        raise ConfigError("--resume needs --out DIR, the crawl to continue")
    started = sorted(Path(out, ROLES).glob(f"*/{STORE}"))
    if started and not (Path(out) / STORE).is_file():
        each = [_stored_settings(str(store.parent)) for store in started]
        logins = [settings["login"] for settings in each]
        return {**each[0], "out": out, "login": logins, "roles": []}
    if not (Path(out) / STORE).is_file():
        raise ConfigError(f"{out} holds no crawl store to resume from")
    store = SqliteStore(Path(out) / STORE)
    try:
        runs = store.runs()
    finally:
        store.close()
    if not runs:
        raise ConfigError(f"{out} holds no run to resume")
    stored = Config.from_stored(runs[-1].config, str(store.path))  # maybe of another version
    return {**stored.to_dict(), "overwrite": False}


class Signals:
    """While a command runs, SIGINT (Ctrl-C, also to the whole process group), SIGTERM and
    SIGHUP stop the crawl under way cleanly (``Explorer.stop``; a second one abandons work in
    progress) or, before a crawl starts, interrupt at once; the first one is remembered."""

    def __init__(self) -> None:
        self.received: int | None = None
        self.explorer: Explorer | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> Signals:
        if threading.current_thread() is threading.main_thread():
            for number in STOP_SIGNALS:
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)

    def _handle(self, number: int, _frame: FrameType | None) -> None:
        if self.received is None:
            self.received = number
        if self.explorer is None:
            raise KeyboardInterrupt
        self.explorer.stop()


class Progress:
    """A live progress line on a terminal; silent otherwise."""

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled and stream.isatty()
        self.last = 0.0

    def __call__(self, stats: Stats) -> None:
        if not self.enabled or stats.elapsed - self.last < 0.2:
            return
        self.last = stats.elapsed
        self.stream.write(
            f"\r  states {stats.states}  transitions {stats.transitions}  "
            f"frontier {stats.frontier}  resets {stats.resets}  "
            f"{stats.rate:.1f} tr/s  {stats.elapsed:.0f}s   "
        )
        self.stream.flush()

    def done(self) -> None:
        if self.enabled:
            self.stream.write("\n")


def summary_line(result: Crawl) -> str:
    """What a crawl found (its :func:`.counts`, as every surface prints them) and how its last
    run went (actions fired, resets, failures, time, why it stopped)."""
    s = result.stats
    return (
        f"{counts(result).describe()}; {s.get('fired', 0)} actions fired, {s.get('resets', 0)} "
        f"resets, {s.get('failures', 0)} failures in {s.get('elapsed', 0.0):.1f}s "
        f"({s.get('rate', 0.0):.1f} actions/s), stopped: {s.get('stop_reason')}"
    )


def summary(result: Crawl, stream: TextIO) -> None:
    """Print what a crawl found and where it is."""
    s = result.stats
    js = js_coverage.read(result.path)
    stream.write(f"{summary_line(result)}{'; ' + js_coverage.share(js['total']) if js else ''}\n"
                 f"output: {result.path}\n")  # fmt: skip
    if s.get("ruled_out") or s.get("once_skipped"):
        stream.write(
            f"rules: {s['ruled_out']} actions left out by click and dont_click, "
            f"{s['once_skipped']} click_once actions not fired again\n"
        )
    guard = guard_summary(s)
    if guard:
        stream.write(f"guard: {guard}\n")
    harvested = harvest.read(result.path)
    if harvested:
        stream.write(
            f"harvest: {len(harvested['queries'])} queries, {harvested['records']} records; "
            f"records after each query: {' '.join(map(str, harvested['curve']))}\n"
        )
    documents = [d for _, d in result.graph.nodes(data=True) if d.get("kind") == "document"]
    if documents:
        skipped = sum(bool(d.get("skipped")) for d in documents)
        failed = sum(bool(d.get("failed")) for d in documents)
        stream.write(
            f"{len(documents)} documents: {len(documents) - skipped - failed} "
            f"archived, {skipped} skipped, {failed} failed\n"
        )
    for data in result.graph.graph.get("outages", []):
        stream.write(f"{Period.from_data(data).describe()}\n")
    unserved = sum(f.get("outage", False) for n in result.states() for f in n.get("failures", []))
    if unserved:
        stream.write(f"{unserved} actions a server failed are done again by --resume\n")
    changes = result.graph.graph.get("incremental")
    if changes:
        stream.write(
            f"since {changes['since']}: {changes['unchanged']} unchanged, {changes['changed']} "
            f"changed ({changes['minor']} minor), {changes['new']} new, {changes['deleted']} "
            f"deleted; {changes['carried']} carried over without a visit\n"
        )


def print_diff(changes: dict[str, Any], stream: TextIO) -> None:
    """Print what ``analysis.diff`` found: the counts, a table of the states changed, new and
    deleted (URL, title, action path), then the text diff of each change."""
    changed, new, deleted = changes["changed"], changes["new"], changes["deleted"]
    minor = sum(1 for c in changed if c["minor"])
    stream.write(
        f"{len(changes['unchanged'])} unchanged, {len(changed)} changed ({minor} minor), "
        f"{len(new)} new, {len(deleted)} deleted\n"
    )

    def path(entry: dict[str, Any]) -> str:
        steps = entry["path"]
        return "(no known path)" if steps is None else " > ".join(steps) or "(start page)"

    def short(text: str, width: int = 40) -> str:
        return text if len(text) <= width else text[: width - 1] + "\u2026"

    rows = [("", "STATE", "URL", "TITLE", "PATH")]
    for c in changed:
        what = f"{'minor' if c['minor'] else 'changed'} {c['similarity']:.2f}"
        rows.append((what, c["id"], c["url"], short(c["title"]), path(c)))
    rows += [("new", n["id"], n["url"], short(n["title"]), path(n)) for n in new]
    for d in deleted:
        why = d["reason"] + (f" ({d['now']})" if d["now"] else "")
        rows.append(("deleted", d["id"], d["url"], short(d["title"]), f"{path(d)}: {why}"))
    if len(rows) > 1:
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        for row in rows:
            cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
            stream.write("  ".join([*cells, row[4]]).rstrip() + "\n")
    for c in changed:
        stream.write(f"\n{c['diff']}\n")


def _add_crawl_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", "-o", help="crawl directory to write")  # checked by the config
    p.add_argument(
        "--overwrite",
        action="store_true",
        default=None,
        help="replace the crawl already in --out (once the new one is written)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        default=None,
        help="continue the crawl in --out from its last checkpoint (its settings, flags on top)",
    )
    p.add_argument(
        "--since",
        metavar="OLD",
        help="an incremental crawl: archive only what changed since the crawl in OLD",
    )
    p.add_argument("--max-depth", type=int, help="how many actions deep to explore (3)")
    p.add_argument("--max-states", type=int, help="stop after this many states")
    p.add_argument("--max-time", type=float, help="stop after this many seconds")
    p.add_argument("--scope", action="append", metavar="REGEX", help="URLs to include")
    p.add_argument("--exclude", action="append", metavar="REGEX", help="URLs to leave out")
    p.add_argument("--input", action="append", type=_input_pair, metavar="NAME=VALUE",
                   help="a value to type into the field NAME (repeatable)")
    kinds = "(CSS, or xpath:XPATH, text:TEXT, regex:REGEX, attr:NAME=VALUE; repeatable)"
    p.add_argument("--dont-click", action="append", metavar="SELECTOR",
                   help=f"never fire what SELECTOR selects {kinds}")
    p.add_argument("--click", action="append", metavar="SELECTOR",
                   help=f"fire only what the --click SELECTORs select {kinds}")
    p.add_argument("--click-once", action="append", metavar="SELECTOR",
                   help=f"fire what SELECTOR selects in the first state it is in only {kinds}")
    p.add_argument("--no-guard", "--allow-destructive", action="store_true", default=None,
                   help="fire what deletes, drops, empties, resets or changes a password too "
                        "(your own application only)")
    p.add_argument("--guard-allow", action="append", metavar="REGEX",
                   help="a URL or label the guard lets through (repeatable)")
    p.add_argument("--field", action="append", type=_field_pair, metavar="SELECTOR=VALUE",
                   help="a value to type into the fields a CSS selector finds, in a form or "
                        "not (repeatable)")
    p.add_argument("--harvest", type=int, nargs="?", const=HARVEST_QUERIES, metavar="N",
                   help="after the --input values, N queries of the crawl's own choosing for "
                        f"each search form ({HARVEST_QUERIES})")
    p.add_argument("--max-pages", type=int, metavar="N",
                   help="follow each query's result pages to the end, up to N pages")
    p.add_argument("--login-url", metavar="URL", help="the page of the login form")
    p.add_argument("--login", action="append", type=_input_pair, metavar="NAME=VALUE",
                   help="a value to type into the login form's field NAME (repeatable)")
    p.add_argument("--login-open", metavar="TEXT-OR-SELECTOR",
                   help="what to press on the login page to show its form (a dialog's button)")
    p.add_argument("--logged-in", metavar="TEXT-OR-SELECTOR",
                   help="what shows while logged in: a CSS selector or a text")
    p.add_argument("--logged-out", metavar="TEXT-OR-SELECTOR",
                   help="what shows once logged out: a CSS selector or a text")
    p.add_argument("--cookies", metavar="FILE", help="a session to start with: cookies.txt")
    p.add_argument("--storage-state", metavar="FILE",
                   help="a session to start with: Playwright's storage-state JSON")
    p.add_argument("--browsers", type=int, help="parallel browsers (1); Dask workers started")
    p.add_argument("--executor", help="what runs the browsers: threads (here) or dask")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="a Dask scheduler, tcp://HOST:8786 (with --executor dask; else a "
                        "LocalCluster of --browsers workers)")
    p.add_argument("--wait-ms", type=int, help="fixed wait after every event and load (0)")
    p.add_argument("--exhaustive", action="store_true", default=None,
                   help="take no shortcut: fire every action in every state (the reference "
                        "graph; slow)")
    p.add_argument("--max-browsers-per-host", type=int, metavar="N",
                   help="browsers working on one host at once (no bound)")
    p.add_argument("--min-delay-ms", type=int, metavar="MS",
                   help="least time between the starts of two tasks on one host (0)")
    p.add_argument("--model", help="state model: dom, exact, structure, text")
    p.add_argument("--strategy",
                   help="frontier order: breadth-first, coverage, depth-first, novelty, random, "
                   "templates")
    p.add_argument("--no-archive", action="store_true", default=None, help="write no WARC")
    p.add_argument("--screenshots", metavar="all|none|new-url",
                   help="screenshots of every state, none, or the first of each URL (new-url)")
    p.add_argument("--screenshot-format", metavar="png|jpeg|webp",
                   help="the screenshots' image format (webp)")
    p.add_argument("--screenshot-quality", type=int, metavar="1-100",
                   help="jpeg or webp quality (webp 40, jpeg 50)")
    p.add_argument("--no-thumbnails", action="store_true", default=None,
                   help="no small picture of every state (the report then shows its snapshot)")
    p.add_argument("--max-download", type=int, metavar="BYTES",
                   help="the largest download archived; a larger one is stopped and recorded "
                        "as skipped (20000000)")
    p.add_argument("--coverage", action=argparse.BooleanOptionalAction, default=None,
                   help="record which functions of the app's scripts ran, in coverage.json "
                        "(off: it costs 15-70 %% more crawl time)")
    p.add_argument("--viewport", type=_viewport, metavar="WIDTHxHEIGHT",
                   help="the page's viewport, and the screenshots' size, in pixels (1280x900)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    p.add_argument("--events", type=Path, metavar="FILE",
                   help="append the live figures and each state found to FILE as JSON lines")


class Parser(argparse.ArgumentParser):
    """argparse whose errors (an unknown flag, a malformed value) are ``ConfigError``s: one
    line and exit status 1, as for a bad config file, not a usage text and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise ConfigError(f"{message} (see {self.prog} --help)")


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``statecrawl``."""
    p = Parser(prog="statecrawl", description=__doc__)
    p.add_argument("--version", action="version", version=f"statecrawl {__version__}")
    p.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="warning",
        help="what the log on standard error shows (warning)",
    )
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("crawl", help="explore an application and write a crawl directory")
    c.add_argument("urls", nargs="*", metavar="URL", help="start URL(s)")
    c.add_argument("--seeds", type=Path, metavar="FILE",
                   help="start URLs, one a line (after any URL given), each site its own")
    c.add_argument("--config", "-c", type=Path, help="TOML file with settings")
    _add_crawl_flags(c)
    d = sub.add_parser("demo", help="crawl the bundled patent-search demo app")
    _add_crawl_flags(d)
    d.add_argument(
        "--revision", type=int, choices=REVISIONS, default=0, help="revision of its data (0)"
    )
    d.add_argument(
        "--port", type=_port, default=0,
        help="the demo app's port on 127.0.0.1 (a free one); the same port in crawls "
             "compared with --since keeps its URLs the same",
    )
    r = sub.add_parser("report", help="write a static HTML report of a crawl directory")
    r.add_argument("directory", type=Path, metavar="DIR", help="crawl directory")
    r.add_argument("--out", "-o", type=Path, metavar="REPORT", help="report directory (DIR/report)")
    r.add_argument("--against", type=Path, metavar="OLD",
                   help="an earlier crawl: mark the states new, changed or deleted since it "
                        "(an incremental crawl's report compares with its --since by default)")
    p_replay = sub.add_parser("replay", help="serve a crawl's archive on loopback, offline")
    p_replay.add_argument("directory", type=Path, metavar="DIR", help="crawl directory")
    p_replay.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (a free one)")
    p_export = sub.add_parser("export", help="write a crawl as a WACZ file or static HTML")
    p_export.add_argument("directory", type=Path, metavar="DIR", help="crawl directory")
    p_export.add_argument("--wacz", type=Path, metavar="FILE", help="WACZ file to write")
    p_export.add_argument("--static", type=Path, metavar="OUT", help="folder for static HTML")
    p_export.add_argument("--records", type=Path, metavar="FILE",
                          help="the records of the result lists, as JSON lines")
    p_export.add_argument("--graphml", type=Path, metavar="FILE",
                          help="the graph as GraphML (a recrawl writes none of its own)")
    p_compact = sub.add_parser(
        "compact", help="fold an incremental crawl and its baselines into one crawl"
    )
    p_compact.add_argument("directory", type=Path, metavar="NEW", help="crawl directory")
    p_compact.add_argument("--out", "-o", type=Path, metavar="FULL", required=True,
                           help="the self-contained crawl to write (a new folder)")
    p_compact.add_argument("--resolve-revisits", action="store_true",
                           help="write the chain's revisit records as whole records")
    p_diff = sub.add_parser("diff", help="list the states changed, new and deleted since a crawl")
    p_diff.add_argument("old", type=Path, metavar="OLD", help="the earlier crawl directory")
    p_diff.add_argument("new", type=Path, metavar="NEW", help="the later crawl directory")
    p_diff.add_argument("--json", action="store_true", help="one JSON object, for notebooks")
    p_verify = sub.add_parser("verify", help="replay every state from the archive alone")
    p_verify.add_argument("directory", type=Path, metavar="DIR", help="crawl directory")
    checks = p_verify.add_mutually_exclusive_group()
    checks.add_argument(
        "--integrity",
        action="store_true",
        help="check every WARC record's digests, every state file and the store against "
        "the graph instead (no browser); exit status 2 if anything is damaged",
    )
    checks.add_argument(
        "--rebuild-store",
        action="store_true",
        help="write a new crawl.sqlite from graph.json, for a damaged one",
    )
    p_verify.add_argument(
        "--min-fidelity",
        type=_fraction,
        default=0.95,
        metavar="F",
        help="exit status 2 when fewer states are reproduced (0.95)",
    )
    p_qa = sub.add_parser("qa", help="judge how every state looks replayed from the archive")
    p_qa.add_argument("directory", type=Path, metavar="DIR", help="crawl directory")
    p_qa.add_argument("--no-pywb", dest="pywb", action="store_false",
                      help="replay through statecrawl's own replay server only")
    p_qa.add_argument("--min-match", type=_fraction, default=0.95, metavar="F",
                      help="exit status 2 when fewer states match through our replay (0.95)")
    p_serve = sub.add_parser("serve", help="crawl as a service: an HTTP API and a web page")
    p_serve.add_argument("--host", default="127.0.0.1",
                         help="address to listen on (127.0.0.1; any other needs --token-file)")
    p_serve.add_argument("--port", type=_port, default=8080, help="port to listen on (8080)")
    p_serve.add_argument("--data", type=Path, required=True, metavar="DIR",
                         help="where the job queue and every crawl directory are kept")
    p_serve.add_argument("--max-running", type=int, default=2, metavar="N",
                         help="crawls running at once; the others wait in the queue (2)")
    p_serve.add_argument("--cluster", metavar="ADDRESS",
                         help="a Dask scheduler, tcp://HOST:8786, every crawl's browsers run on")
    p_serve.add_argument("--token-file", type=Path, metavar="FILE",
                         help="file whose first line is the token every API call must bring")
    p_serve.add_argument("--max-browsers", type=int, metavar="N",
                         help="the most browsers a crawl may ask for (no cap)")
    p_serve.add_argument("--max-time", type=float, metavar="SECONDS",
                         help="the longest a crawl may run, and its time when it sets none")
    p_serve.add_argument("--max-states", type=int, metavar="N",
                         help="the most states a crawl may ask for, and its bound when it "
                              "sets none")
    p_serve.add_argument("--max-browsers-per-host", type=int, metavar="N",
                         help="the most browsers all crawls together have on one host "
                              "(no bound)")
    for command in sub.choices.values():  # where users put it too: after the command's name
        command.add_argument("--log-level", choices=LOG_LEVELS, default=argparse.SUPPRESS,
                             help="what the log on standard error shows (as before the command)")
    return p


def run_serve(args: argparse.Namespace) -> None:
    """``statecrawl serve``, if the ``serve`` extra is installed."""
    settings = ServiceSettings(
        data=args.data, host=args.host, port=args.port, max_running=args.max_running,
        cluster=args.cluster, token_file=args.token_file, max_browsers=args.max_browsers,
        max_time=args.max_time, max_states=args.max_states,
        max_browsers_per_host=args.max_browsers_per_host,
    )
    try:
        import starlette  # noqa: F401 (the extra's packages, looked for before anything starts)
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise ConfigError(
            f"statecrawl serve needs {exc.name}: pip install 'statecrawl[serve]'"
        ) from None
    from .service import serve

    serve(settings)


DEMO_DEFAULTS = {
    "out": "statecrawl-demo",
    "overwrite": True,  # the demo's own directory: running it again replaces the last run
    "limits": {"max_depth": 4},
    "inputs": {"max_options": 1},
    "browser": {"count": 4},  # waits on the app's API as much as on the CPU: 2.6x one browser
}


def run_demo(args: argparse.Namespace, signals: Signals | None = None) -> Crawl:
    """Start the demo app, crawl it with its queries, report coverage, stop the app."""
    from .demo_app import DemoApp
    from .demo_app.coverage import coverage
    from .demo_app.data import DEMO_QUERIES

    with DemoApp(port=args.port, revision=args.revision) as app:
        defaults = merge(DEMO_DEFAULTS, {"inputs": {"values": {"q": list(DEMO_QUERIES)}}})
        options = merge(defaults, {"start_urls": [app.url], **_options(args)})
        config = Config.from_mapping(options)  # a bad flag is the only line printed
        print(
            f"demo app (revision {app.revision}) at {app.url}; queries: {', '.join(DEMO_QUERIES)}",
            file=sys.stderr,
        )
        result = run_crawl(config, args.quiet, signals=signals, events=args.events)
    states = list(result.states())
    html = {s["id"]: result.html(s["id"]) for s in states}
    found = coverage(states, html, DEMO_QUERIES, args.revision)
    for q in found["queries"]:
        tabs = sum(1 for n in q.details if len(found["tabs"].get(n, ())) == 3)
        print(
            f"  {q.query!r}: result pages {len(q.pages & q.expected_pages)}/"
            f"{len(q.expected_pages)}, details {len(q.details)}/{len(q.expected_details)}, "
            f"with all 3 tabs {tabs}/{len(q.expected_details)}"
        )
    print(f"report: {build_report(result.path)}")
    return result


def run_crawl(
    config: Config,
    quiet: bool,
    stream: TextIO = sys.stderr,
    signals: Signals | None = None,
    events: Path | None = None,
) -> Crawl:
    """Run a crawl with a progress line (and its events appended to the file ``events``, for
    a program watching it), and print the summary; ``signals`` stop it. A crawl by role runs
    a crawl per role and prints what each reaches that another does not (the last role's
    crawl is returned)."""
    if config.roles:
        crawls = roles.crawl(config, lambda role: run_crawl(role, quiet, stream, signals, events))
        compared = roles.read(config.out) if config.out is not None else None
        for pair in (compared or {}).get("pairs", []):
            first, second = pair["roles"]
            only = pair["only"]
            print(
                f"roles {first} and {second}: {len(only[first])} states only {first} reaches, "
                f"{len(only[second])} only {second}, {pair['changed']} seen differently, "
                f"{pair['same']} the same"
            )
        return list(crawls.values())[-1]
    progress = Progress(stream, enabled=not quiet)
    log = EventLog(events) if events is not None else None
    from .engine import Explorer

    def tick(stats: Stats) -> None:
        progress(stats)
        if log is not None:
            log(stats)

    explorer = Explorer(config, progress=tick, plugins=[log] if log is not None else [])
    if signals is not None:
        signals.explorer = explorer
    try:
        result = explorer.run()
        if log is not None:
            log.end(result.stats)
    finally:
        progress.done()
        if log is not None:
            log.close()
    summary(result, sys.stdout)
    return result


LOG_LEVELS = ("debug", "info", "warning", "error")


class StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is when a record comes (it may be replaced)."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: TextIO) -> None:
        pass


def configure_logging(level: str) -> None:
    """Send statecrawl's log (``logging.getLogger("statecrawl…")``) to standard error."""
    logger = logging.getLogger("statecrawl")
    logger.setLevel(level.upper())
    if not any(isinstance(h, StderrHandler) for h in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)


def _show_warning(
    message: Warning | str, category: type[Warning], filename: str, lineno: int,
    file: TextIO | None = None, line: str | None = None,
) -> None:
    """Print statecrawl's own warnings as its errors are, on one line; others as Python does."""
    if issubclass(category, StatecrawlWarning):
        text = f"statecrawl: warning: {one_line(str(message))}\n"
    else:
        text = warnings.formatwarning(message, category, filename, lineno, line)
    (file or sys.stderr).write(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``statecrawl`` command.

    Exit status: 0 for a finished crawl; 1, with a one-line message, for bad input (a
    malformed URL, flag value or config file) or a failure (no start URL gave a state: it
    answered 4xx/5xx or could not be loaded, its crawl directory left as it was); 128 + the
    signal's number (130 SIGINT, 143 SIGTERM, 129 SIGHUP) for a crawl stopped by a signal,
    whose crawl directory is complete for what was found.
    """
    with Signals() as signals, warnings.catch_warnings():
        warnings.showwarning = _show_warning
        try:
            args = parser().parse_args(argv)
            configure_logging(args.log_level)
            if args.command == "crawl":
                config = build_config(args, args.urls)
                if config.out is None:  # a crawl nobody can find afterwards is of no use
                    raise ConfigError(
                        "--out DIR is needed: the crawl directory to write (or out = \"DIR\" "
                        "in the --config file)"
                    )
                run_crawl(config, args.quiet, signals=signals, events=args.events)
            elif args.command == "demo":
                run_demo(args, signals)
            elif args.command == "report":
                print(f"report: {build_report(args.directory, args.out, against=args.against)}")
            elif args.command == "replay":
                from .replay import serve

                serve(args.directory, args.port)
            elif args.command == "export":
                from .export import export
                from .harvest.records import write

                if args.records is not None:
                    count = write(load(args.directory), args.records)
                    print(f"{count} records: {args.records}")
                if args.graphml is not None:
                    StateGraph(load(args.directory).graph).write_graphml(args.graphml)
                    print(f"graphml: {args.graphml}")
                if args.wacz or args.static or (args.records is None and args.graphml is None):
                    export(args.directory, wacz=args.wacz, static=args.static)
            elif args.command == "compact":
                from .incremental.compaction import compact

                full = compact(args.directory, args.out, resolve_revisits=args.resolve_revisits)
                print(f"compact: {full}")
            elif args.command == "diff":
                changes = analysis.diff(load(args.old), load(args.new))
                for warning in changes["warnings"]:
                    print(f"statecrawl: warning: {warning}", file=sys.stderr)
                if args.json:
                    print(json.dumps(changes, ensure_ascii=False, indent=1))
                else:
                    print_diff(changes, sys.stdout)
            elif args.command == "serve":
                run_serve(args)
            elif args.command == "verify":
                from .archive.integrity import check_integrity, rebuild_store
                from .replay import check_fidelity

                if args.integrity:
                    return check_integrity(args.directory)
                if args.rebuild_store:
                    return rebuild_store(args.directory)
                return check_fidelity(args.directory, args.min_fidelity)
            elif args.command == "qa":
                from .replay import check_qa

                return check_qa(args.directory, args.min_match, pywb=args.pywb)
        except StatecrawlError as exc:
            print(f"statecrawl: error: {one_line(str(exc))}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            signals.received = signals.received or signal.SIGINT
    if signals.received is not None:
        name = signal.Signals(signals.received).name
        print(f"statecrawl: stopped by {name}; what was found so far is kept", file=sys.stderr)
        return 128 + signals.received
    return 0


if __name__ == "__main__":
    sys.exit(main())
