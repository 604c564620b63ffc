"""Archive QA: every state replayed from the archive alone and judged by how it looks.

Each state is reached in replay as ``verify`` reaches it (its start page loaded through a
replayer acting as Chromium's proxy, then its shortest action path fired); then the replay's
thumbnail and visible text are compared with the crawl's own (:mod:`.likeness`). Two
replayers are judged in turn: ``ours`` (:class:`.ReplayServer`) and ``pywb``
(:class:`.Pywb`), so that the archive is known to replay in the web-archive world's tools
too. Offline means offline: both answer from the archive alone and forward nothing, and
every request a replay asked for that the archive lacks is listed with its state. A request
refused that no page made in the crawl (its resource index, which the pages' own network log
fed, lacks it) is Chromium's own call to its services: listed apart, as ``background``, and
never among a state's findings.

Written to the crawl directory: ``qa.json`` (the figures of each replayer, and per state its
scores, whether it matches, its misses and, for a state that does not match, the likely
cause), the replays' pictures in ``qa/`` and the QA view ``qa.html`` (see
:mod:`.review`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from ..browser import Browser
from ..browser.screenshot import CaptureFailed
from ..config import argument, checked, folder
from ..directory import chain
from ..directory.crawl import Crawl, load
from ..directory.layout import QA, QA_PICTURES, QA_VIEW, write_json
from ..directory.paths import searched_text
from ..errors import ConfigError, StatecrawlError
from . import likeness
from .fidelity import StateCheck, Verifier, replay_config
from .pywb import Pywb, PywbUnavailable
from .review import write_view
from .server import ReplayServer

OURS, PYWB = "ours", "pywb"
ANIMATION_WAIT = 0.5  # seconds between two pictures of a replay that does not match


@dataclass(slots=True)
class StateQA:
    """One state's replay judged against its recording."""

    state: str
    pixels: float | None  # None: the crawl took no picture of the state
    text: float
    match: bool
    reproduced: bool  # the replay reached the state's key, as ``verify`` requires
    reason: str = ""  # why it was not reproduced
    misses: list[str] = field(default_factory=list)  # requests in scope the archive lacks
    refused: list[str] = field(default_factory=list)  # the page's, out of scope: never fetched
    cause: str = ""  # of a state that does not match (see likeness.cause)
    picture: str | None = None  # the replay's picture, relative to the crawl directory

    @property
    def score(self) -> float:
        """The lower of the two similarities."""
        return self.text if self.pixels is None else min(self.pixels, self.text)


@dataclass(slots=True)
class ReplayQA:
    """Every state's QA through one replayer, and its cost; ``error``: why it could not run."""

    replayer: str
    states: list[StateQA] = field(default_factory=list)
    background: set[str] = field(default_factory=set)  # Chromium's own calls, refused
    seconds: float = 0.0
    error: str = ""

    @property
    def matched(self) -> int:
        return sum(1 for s in self.states if s.match)

    @property
    def share(self) -> float:
        """The fraction of states that match (0.0 when the replayer could not run)."""
        return self.matched / len(self.states) if self.states else float(not self.error)

    def summary(self) -> dict[str, Any]:
        per_state = self.seconds / len(self.states) if self.states else 0.0
        return {
            "states": len(self.states),
            "matched": self.matched,
            "share": round(self.share, 4),
            "misses": sum(len(s.misses) for s in self.states),
            "refused": sum(len(s.refused) for s in self.states),
            "background": sorted(self.background),
            "seconds": round(self.seconds, 2),
            "seconds_per_state": round(per_state, 3),
            "error": self.error,
        }


@dataclass(slots=True)
class QAResult:
    """The QA of a crawl through each replayer (``ours`` first)."""

    directory: Path
    runs: dict[str, ReplayQA]

    def to_dict(self, crawl: Crawl) -> dict[str, Any]:
        """What ``qa.json`` holds."""
        states: dict[str, dict[str, Any]] = {}
        for state in crawl.states():
            view = crawl.state(state["id"])
            recorded = view.thumbnail or view.screenshot
            states[state["id"]] = {
                "id": state["id"],
                "title": state.get("title") or "",
                "url": state.get("url") or "",
                "recorded": recorded.relative_to(crawl.path).as_posix() if recorded else None,
            }
        for name, run in self.runs.items():
            for check in run.states:
                entry = asdict(check)
                del entry["state"]
                entry["score"] = round(check.score, 4)
                states[check.state][name] = entry
        return {
            "thresholds": {
                "min_pixels": likeness.MIN_PIXELS,
                "min_text": likeness.MIN_TEXT,
                "pixel_tolerance": likeness.PIXEL_TOLERANCE,
                "picture_width": likeness.PICTURE_WIDTH,
            },
            "replayers": {name: run.summary() for name, run in self.runs.items()},
            "states": list(states.values()),
        }

    def report(self) -> str:
        """What ``statecrawl qa`` prints: each replayer's figures, then each state that does
        not match and why."""
        lines = []
        for name, run in self.runs.items():
            if run.error:
                lines.append(f"{name}: not run: {run.error}")
                continue
            figures = run.summary()
            lines.append(
                f"{name}: {run.share:.1%} of {len(run.states)} states match "
                f"({figures['seconds_per_state']:.2f} s a state, {figures['misses']} misses)"
            )
            for check in run.states:
                if not check.match:
                    lines.append(f"  {check.state}: score {check.score:.3f}, {check.cause}")
                    lines.extend(f"    missing: {miss}" for miss in check.misses)
            if run.background:
                lines.append(f"  {len(run.background)} calls of Chromium's own refused (no page's)")
        return "\n".join(lines)


@checked
def qa(
    directory: Path | str,
    *,
    pywb: bool = True,
    on_state: Callable[[str, StateQA], None] | None = None,
) -> QAResult:
    """Replay every state of the crawl in ``directory`` from its archive alone, through our
    replay server and (``pywb``) through pywb, and judge each replay against the crawl's
    picture and text; write ``qa.json``, ``qa/`` and ``qa.html`` there. ``on_state`` is
    called with the replayer's name and each state's QA as it is judged."""
    path = folder("directory", directory)
    crawl = load(path)
    pywb = argument("pywb", pywb, bool)
    argument("on_state", on_state, Callable | None)
    (path / QA_PICTURES).mkdir(exist_ok=True)
    runs = {OURS: _judge(crawl, OURS, ReplayServer(path), on_state)}
    if pywb:
        try:
            runs[PYWB] = _judge(crawl, PYWB, Pywb(path), on_state)  # started and stopped there
        except PywbUnavailable as exc:
            runs[PYWB] = ReplayQA(PYWB, error=str(exc))
    result = QAResult(path, runs)
    write_json(path / QA, result.to_dict(crawl))
    write_view(path)
    return result


@checked
def check_qa(
    directory: Path | str, min_match: float, pywb: bool = True, stream: TextIO | None = None
) -> int:
    """``statecrawl qa``: print the QA; the exit status, 2 when fewer than ``min_match`` of
    the states match through our replay."""
    min_match = argument("min_match", min_match, float)
    if not 0 <= min_match <= 1:
        raise ConfigError(f"min_match: expected a fraction from 0 to 1, got {min_match!r}")
    result = qa(directory, pywb=pywb)
    out = stream or sys.stdout
    print(result.report(), file=out)
    print(f"view: {result.directory / QA_VIEW}", file=out)
    return 0 if result.runs[OURS].share >= min_match else 2


def _judge(
    crawl: Crawl,
    name: str,
    replayer: ReplayServer | Pywb,
    on_state: Callable[[str, StateQA], None] | None,
) -> ReplayQA:
    run = ReplayQA(name)
    begun = time.monotonic()
    asked = page_requests(crawl)
    with replayer as server:
        config = replay_config(crawl, server)
        with Browser(config) as browser:
            verifier = Verifier(crawl, server, config, browser)

            def look(check: StateCheck) -> None:
                page = [r for r in check.refused if likeness.miss_url(r) in asked]
                run.background.update(r for r in check.refused if r not in page)
                check.refused = page
                judged = _look(crawl, name, verifier, check)
                run.states.append(judged)
                if on_state is not None:
                    on_state(name, judged)

            verifier.run(look)
    run.seconds = time.monotonic() - begun
    return run


def page_requests(crawl: Crawl) -> frozenset[str]:
    """What the crawl's pages asked for, as a replayer's miss names it: every URL of the
    resource index, and each HTTPS one's ``host:port`` (a proxy sees its tunnel only)."""
    urls = {entry["url"] for entry in chain.resources(crawl.path)}
    secure = [split for url in urls if (split := urlsplit(url)).scheme == "https"]
    tunnels = {f"{split.hostname}:{split.port or 443}" for split in secure}
    return frozenset(urls | tunnels)


def _look(crawl: Crawl, name: str, verifier: Verifier, check: StateCheck) -> StateQA:
    """The state the browser shows after ``check`` judged against its recording."""
    browser = verifier.browser
    picture = _thumbnail(browser)
    html = ""
    try:
        if check.reached is not None and verifier.snapshot is not None:
            html = verifier.snapshot.html
        else:
            html = browser.settled(light=True).html
    except StatecrawlError:
        pass  # nothing to read: the text is empty
    view = crawl.state(check.state)
    recorded = view.thumbnail or view.screenshot
    pixels: float | None = None
    if recorded is not None:
        pixels = likeness.pixel_similarity(recorded.read_bytes(), picture) if picture else 0.0
    text = likeness.text_similarity(
        searched_text(crawl.graph, crawl.html(check.state)), searched_text(crawl.graph, html)
    )
    judged = StateQA(
        check.state, pixels, text, likeness.matches(pixels, text), check.reproduced,
        check.reason, list(check.misses), list(check.refused),
    )  # fmt: skip
    if not judged.match:
        judged.cause = likeness.cause(check.misses, check.reproduced, _animated(browser, picture))
    if picture:
        relative = f"{QA_PICTURES}/{check.state}.{name}.jpg"
        (crawl.path / relative).write_bytes(picture)
        judged.picture = relative
    return judged


def _thumbnail(browser: Browser) -> bytes | None:
    try:
        return browser.thumbnail()
    except CaptureFailed:
        return None


def _animated(browser: Browser, picture: bytes | None) -> bool:
    """Whether the page moves by itself: a second picture a moment later differs."""
    if picture is None:
        return False
    time.sleep(ANIMATION_WAIT)
    again = _thumbnail(browser)
    return again is not None and likeness.pixel_similarity(picture, again) < likeness.MIN_PIXELS
