"""Heavy pages: a Swagger UI (``tests/pages/apps/dist/swagger``: the real swagger-ui-dist
bundle, 1.6 MB of minified JavaScript, rendering 96 operations in 12 tags, about 420 candidate
actions at load) crawled with the default settings (the archive on, a screenshot of each new
URL, a thumbnail of every state) for a fixed time, against the archive off and against the app's
files served as a static server serves them (``Cache-Control: max-age``; the app zoo's server
sends no cache header, so the bundle is fetched, archived and compiled at every reset). The
settings take turns, run after run, so a change in the machine's load falls on each alike.

    python benchmarks/heavy.py [--runs N] [--seconds S] [--setting NAME ...]

Prints one line per crawl (transitions a second, states, transitions, resets, browser
restarts, plugin failures, pictures missing, the load average), then per setting the medians
and the time of a transition by phase, each phase's time less that of the phases within it:
``reach`` (resets and replays on the way to a state), ``fire`` (one round trip: the agent
fires, waits for the page to settle, answers the snapshot and the candidates), ``network``
(the browser's log read and response bodies fetched, for the archive), ``capture``
(screenshots and thumbnails), ``hooks`` (the plugins on the browser's thread: the archive's
hand-over of its writes), ``engine`` (the engine's work between tasks: keying states,
recording transitions, checkpoints) and ``other`` (browser start, waits). Last, on the start
page, a snapshot without candidates, one with them and one action fired without and with
them split a fire into round trip, fire and settle, snapshot and candidates.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from werkzeug import Request, Response
from werkzeug.serving import BaseWSGIServer, make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import statecrawl  # noqa: E402
from statecrawl.browser import Browser  # noqa: E402
from statecrawl.engine import Explorer  # noqa: E402
from tests.pages.apps.server import Quiet, handle  # noqa: E402

APP = "/swagger/"
# name: (settings of the crawl, whether the app's files are served with Cache-Control)
SETTINGS: dict[str, tuple[dict[str, Any], bool]] = {
    "default": ({}, False),
    "archive off": ({"archive": {"enabled": False}}, False),
    "cached": ({}, True),
}
# Calls timed (on the browser or one of its parts), each by the phase it counts in (a call
# within another is the inner one's).
BROWSER_PHASES = {
    "reset": "reach",
    "replay": "reach",
    "page.fire": "fire",
    "traffic.drain": "network",
    "screenshot": "capture",
    "thumbnail": "capture",
}
ORDER = ("reach", "fire", "network", "capture", "hooks", "engine", "other")


class Clock:
    """Time by phase, each phase's less that of the phases timed within it (per thread)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._within = threading.local()

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        inner = self._within.__dict__.setdefault("stack", [])
        inner.append(0.0)
        start = time.perf_counter()
        try:
            yield
        finally:
            took = time.perf_counter() - start
            self.spent[name] += took - inner.pop()
            if inner:
                inner[-1] += took

    def timed(self, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        """``call``, timed as phase ``name``."""

        def run(*args: Any, **kwargs: Any) -> Any:
            with self.phase(name):
                return call(*args, **kwargs)

        return run


def timed_browser(clock: Clock) -> Callable[[statecrawl.Config, bool], Browser]:
    """A browser factory whose browsers' calls are timed by ``clock``."""

    def factory(config: statecrawl.Config, network: bool) -> Browser:
        browser = Browser(config, capture_network=network)
        for path, phase in BROWSER_PHASES.items():
            *parts, method = path.split(".")
            owner = functools.reduce(getattr, parts, browser)
            setattr(owner, method, clock.timed(phase, getattr(owner, method)))
        return browser

    return factory


def serve(cached: bool) -> BaseWSGIServer:
    """The app zoo on a free loopback port; ``cached``: its files with ``Cache-Control``."""

    @Request.application
    def application(request: Request) -> Response:
        response = handle(request)
        if cached and request.path.startswith(APP):
            response.headers["Cache-Control"] = "max-age=3600"
        return response

    server = make_server("127.0.0.1", 0, application, threaded=True, request_handler=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def crawl(url: str, out: Path, seconds: float, setting: dict[str, Any]) -> dict[str, Any]:
    """One crawl of ``url`` for ``seconds``: its figures and the time of its phases."""
    config = statecrawl.Config.from_mapping(
        {"start_urls": [url], "out": str(out), "limits": {"max_time": seconds}, **setting}
    )
    clock = Clock()
    explorer = Explorer(config, browser_factory=timed_browser(clock))
    explorer.hooks.flush = clock.timed("hooks", explorer.hooks.flush)
    explorer.apply = clock.timed("engine", explorer.apply)
    explorer.next_task = clock.timed("engine", explorer.next_task)
    result = explorer.run()
    stats = result.stats
    spent = dict(clock.spent)
    spent["other"] = max(0.0, stats["elapsed"] - sum(spent.values()))
    return {
        "rate": stats["transitions"] / stats["elapsed"] if stats["elapsed"] else 0.0,
        "states": stats["states"],
        "transitions": stats["transitions"],
        "resets": stats["resets"],
        "restarts": stats["restarts"],
        "plugin_failures": stats["plugin_failures"],
        "missing": result.graph.graph.get("archive", {}).get("missing_images", 0),
        "spent": spent,
        "load": os.getloadavg()[0],
    }


def split_fire(url: str, runs: int) -> dict[str, float]:
    """Medians (ms) on the start page: a round trip, a snapshot without candidates and one
    with them, and one action (a toggle: fired twice a run) fired without and with them."""
    config = statecrawl.Config.from_mapping({"start_urls": [url]})
    times: dict[str, list[float]] = defaultdict(list)
    with Browser(config) as browser:
        toggle = next(a for a in browser.load(url).actions() if "expanded=false" in a.status)

        def take(name: str, call: Callable[[], Any]) -> None:
            start = time.perf_counter()
            call()
            times[name].append((time.perf_counter() - start) * 1000)

        for _ in range(runs):
            take("round trip", lambda: browser.web.execute_cdp_cmd(
                "Runtime.evaluate", {"expression": "1"}))  # fmt: skip
            take("light snapshot", lambda: browser.settled(light=True))
            take("snapshot", browser.settled)
            take("light fire", lambda: browser.fire(toggle, light=True))
            take("fire", lambda: browser.fire(toggle))
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="crawls of each setting (3)")
    parser.add_argument("--seconds", type=float, default=60, help="seconds a crawl (60)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS),
                        help="only this setting (default: all of them)")  # fmt: skip
    args = parser.parse_args()
    names = args.setting or list(SETTINGS)
    servers = {cached: serve(cached) for cached in (False, True)}
    results: dict[str, list[dict[str, Any]]] = defaultdict(list)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for run in range(args.runs):
                for name in names:
                    setting, cached = SETTINGS[name]
                    url = f"http://127.0.0.1:{servers[cached].server_port}{APP}"
                    out = Path(tmp) / f"{run}-{name.replace(' ', '-')}"
                    r = crawl(url, out, args.seconds, setting)
                    results[name].append(r)
                    print(f"run {run + 1} {name:12} {r['rate']:5.2f} transitions/s  "
                          f"{r['states']:4} states  {r['transitions']:4} transitions  "
                          f"{r['resets']:3} resets  {r['restarts']} restarts  "
                          f"{r['plugin_failures']} plugin failures  {r['missing']} missing  "
                          f"load {r['load']:.2f}", flush=True)  # fmt: skip
        fire = split_fire(f"http://127.0.0.1:{servers[False].server_port}{APP}", 10)
    finally:
        for server in servers.values():
            server.shutdown()
    print()
    for name in names:
        runs = results[name]
        print(f"{name:12} median {statistics.median(r['rate'] for r in runs):.2f} transitions/s, "
              f"{statistics.median(r['states'] for r in runs):.0f} states, "
              f"{sum(r['restarts'] for r in runs)} restarts in {len(runs)} runs, "
              f"load {statistics.median(r['load'] for r in runs):.2f}")  # fmt: skip
        shares = []
        for phase in ORDER:
            per = statistics.median(
                r["spent"].get(phase, 0.0) / max(1, r["transitions"]) * 1000 for r in runs
            )
            share = statistics.median(
                r["spent"].get(phase, 0.0) / sum(r["spent"].values()) for r in runs
            )
            shares.append(f"{phase} {per:.0f} ({share:.0%})")
        print(f"{'':12} ms a transition by phase: {', '.join(shares)}")
    rt, light, full = fire["round trip"], fire["light snapshot"], fire["snapshot"]
    print(f"\nstart page, medians of 10 (load {os.getloadavg()[0]:.2f}): round trip {rt:.0f} ms, "
          f"fire and settle {fire['light fire'] - light:.0f} ms, snapshot {light - rt:.0f} ms, "
          f"candidates {full - light:.0f} ms (a fire with them: {fire['fire']:.0f} ms)")


if __name__ == "__main__":
    main()
