"""The command line: parses arguments, builds the config, calls the library."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from . import __version__
from .config import Config, merge
from .directory import Crawl
from .errors import ConfigError, StatecrawlError
from .explorer import Explorer, Stats


def _input_pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    return {"max_depth": args.max_depth, "max_states": args.max_states, "max_time": args.max_time}


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given as flags (``None`` where a flag was not given)."""
    inputs: dict[str, list[str]] = {}
    for name, value in args.input or ():
        inputs.setdefault(name, []).append(value)
    return {
        "out": args.out,
        "limits": _limits(args),
        "scope": {"include": args.scope, "exclude": args.exclude},
        "inputs": {"values": inputs or None},
        "browser": {"count": args.browsers},
        "timing": {"wait_ms": args.wait_ms},
        "archive": {"enabled": False if args.no_archive else None},
        "model": args.model,
        "strategy": args.strategy,
    }


def build_config(args: argparse.Namespace, start_urls: Sequence[str]) -> Config:
    """The config from a TOML file (if given) with the flags on top."""
    options = {"start_urls": list(start_urls) or None, **_options(args)}
    if args.config:
        return Config.from_toml(args.config, **options)
    if not start_urls:
        raise ConfigError("give at least one start URL (or a config file with start_urls)")
    return Config.from_mapping(merge({}, options))


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


def summary(result: Crawl, stream: TextIO) -> None:
    """Print what a crawl found and where it is."""
    s = result.stats
    stream.write(
        f"{s['states']} states, {s['transitions']} transitions, depth {s['max_depth']}, "
        f"{s['resets']} resets, {s['failures']} failures, {s['out_of_scope']} out of scope; "
        f"{s['elapsed']:.1f}s ({s['rate']:.1f} transitions/s), stopped: {s['stop_reason']}\n"
        f"output: {result.path}\n"
    )


def _add_crawl_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", "-o", type=Path, help="crawl directory to write")
    p.add_argument("--max-depth", type=int, help="how many actions deep to explore (3)")
    p.add_argument("--max-states", type=int, help="stop after this many states")
    p.add_argument("--max-time", type=float, help="stop after this many seconds")
    p.add_argument("--scope", action="append", metavar="REGEX", help="URLs to include")
    p.add_argument("--exclude", action="append", metavar="REGEX", help="URLs to leave out")
    p.add_argument("--input", action="append", type=_input_pair, metavar="NAME=VALUE",
                   help="a value to type into the field NAME (repeatable)")
    p.add_argument("--browsers", type=int, help="parallel browsers (1)")
    p.add_argument("--wait-ms", type=int, help="fixed wait after every event and load (0)")
    p.add_argument("--model", help="state model: dom, exact, structure, text")
    p.add_argument("--strategy", help="frontier order: breadth-first, depth-first, random")
    p.add_argument("--no-archive", action="store_true", default=None, help="write no WARC")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line")


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``statecrawl``."""
    p = argparse.ArgumentParser(prog="statecrawl", description=__doc__)
    p.add_argument("--version", action="version", version=f"statecrawl {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("crawl", help="explore an application and write a crawl directory")
    c.add_argument("urls", nargs="*", metavar="URL", help="start URL(s)")
    c.add_argument("--config", "-c", type=Path, help="TOML file with settings")
    _add_crawl_flags(c)
    d = sub.add_parser("demo", help="crawl the bundled patent-search demo app")
    _add_crawl_flags(d)
    return p


DEMO_DEFAULTS = {
    "out": "statecrawl-demo",
    "limits": {"max_depth": 4},
    "inputs": {"max_options": 1},
    "browser": {"count": 2},
}


def run_demo(args: argparse.Namespace) -> Crawl:
    """Start the demo app, crawl it with its queries, report coverage, stop the app."""
    from .demo_app import DemoApp
    from .demo_app.coverage import coverage
    from .demo_app.data import DEMO_QUERIES

    with DemoApp() as app:
        print(f"demo app at {app.url}; queries: {', '.join(DEMO_QUERIES)}", file=sys.stderr)
        defaults = merge(DEMO_DEFAULTS, {"inputs": {"values": {"q": list(DEMO_QUERIES)}}})
        options = merge(defaults, {"start_urls": [app.url], **_options(args)})
        result = run_crawl(Config.from_mapping(options), args.quiet)
    states = list(result.states())
    found = coverage(states, {s["id"]: result.html(s["id"]) for s in states}, DEMO_QUERIES)
    for q in found["queries"]:
        tabs = sum(1 for n in q.details if len(found["tabs"].get(n, ())) == 3)
        print(
            f"  {q.query!r}: result pages {len(q.pages & q.expected_pages)}/"
            f"{len(q.expected_pages)}, details {len(q.details)}/{len(q.expected_details)}, "
            f"with all 3 tabs {tabs}/{len(q.expected_details)}"
        )
    return result


def run_crawl(config: Config, quiet: bool, stream: TextIO = sys.stderr) -> Crawl:
    """Run a crawl with a progress line, and print the summary."""
    progress = Progress(stream, enabled=not quiet)
    try:
        result = Explorer(config, progress=progress).run()
    finally:
        progress.done()
    summary(result, sys.stdout)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``statecrawl`` command."""
    args = parser().parse_args(argv)
    try:
        if args.command == "crawl":
            run_crawl(build_config(args, args.urls), args.quiet)
        elif args.command == "demo":
            run_demo(args)
    except StatecrawlError as exc:
        print(f"statecrawl: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("statecrawl: interrupted; what was found so far is kept", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
