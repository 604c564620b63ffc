"""Replay fidelity: how many of a crawl's states come back when the archive alone answers.

With the application's server gone, a Chromium whose proxy is the replay server loads each
state's start page and fires the shortest recorded action path to it, finding each action
among those the page offers by its key, as the crawler does and as
:func:`statecrawl.analysis.replay_script` does; the state key of what it reaches, computed by
the crawl's own state model with the volatile parts the crawl learned, must be the state's id.
A state that differs from its recorded DOM only in values generated per action (ids, uuids,
timestamps) counts as reproduced, as it does for the crawler.

Paths share their beginnings: states are verified in path order, and one whose path extends
the path just replayed continues from where the browser is instead of loading again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Protocol, TextIO
from urllib.parse import urlsplit

from ..analysis import REPLAY_SETTINGS, shortest_path
from ..browser import Browser
from ..config import Config, argument, checked, folder, merge
from ..directory.crawl import Crawl, load
from ..errors import ConfigError, NavigationError, StatecrawlError
from ..models import generated_between, get_model
from ..state import Snapshot
from .server import Miss, ReplayServer


@dataclass(slots=True)
class StateCheck:
    """The replay of one state: reproduced or not, and why not."""

    state: str
    reproduced: bool
    reason: str = ""
    steps: int = 0
    reached: str | None = None
    misses: list[str] = field(default_factory=list)  # requests with no recorded exchange
    refused: list[str] = field(default_factory=list)  # out of scope, or an HTTPS tunnel


@dataclass(slots=True)
class Fidelity:
    """The checks of every state of a crawl."""

    checks: list[StateCheck]

    @property
    def reproduced(self) -> int:
        return sum(1 for c in self.checks if c.reproduced)

    @property
    def fidelity(self) -> float:
        """The fraction of states reproduced (1.0 for a crawl with no state)."""
        return self.reproduced / len(self.checks) if self.checks else 1.0

    @property
    def failed(self) -> list[StateCheck]:
        return [c for c in self.checks if not c.reproduced]

    def report(self) -> str:
        """What ``statecrawl verify`` prints: the figure, then each state not reproduced."""
        lines = [
            f"replay fidelity {self.fidelity:.1%}: {self.reproduced} of {len(self.checks)} "
            "states reproduced from the archive alone"
        ]
        for check in self.failed:
            lines.append(f"  {check.state}: {check.reason}")
            lines.extend(f"    missing: {miss}" for miss in check.misses)
        return "\n".join(lines)


class Replayer(Protocol):
    """What plays an archive back as Chromium's proxy: :class:`ReplayServer`, or pywb."""

    @property
    def url(self) -> str: ...

    def proxy_flags(self) -> list[str]: ...

    def preferring(self, states: tuple[str, ...]) -> AbstractContextManager[list[Miss]]: ...


def replay_config(crawl: Crawl, server: Replayer) -> Config:
    """The crawl's browser settings, with one browser whose proxy is ``server``. (Chromium
    takes the last of repeated flags, so these proxy flags win over the scope's own.)"""
    settings = {k: v for k, v in crawl.config.to_dict().items() if k in REPLAY_SETTINGS}
    extra = [*settings.get("browser", {}).get("extra_args", ()), *server.proxy_flags()]
    # The replay server's own pages (landing page, recorded views) may be loaded too.
    allow = [*settings.get("scope", {}).get("allow", ()), urlsplit(server.url).netloc]
    overrides = {"browser": {"count": 1, "extra_args": extra}, "scope": {"allow": allow}}
    return Config.from_mapping(merge(settings, overrides))


@checked
def verify(
    directory: Path | str, *, on_check: Callable[[StateCheck], None] | None = None
) -> Fidelity:
    """Replay every state of the crawl in ``directory`` against its archive alone."""
    crawl = load(folder("directory", directory))
    argument("on_check", on_check, Callable | None)
    with ReplayServer(directory) as server:
        config = replay_config(crawl, server)
        with Browser(config) as browser:
            return Verifier(crawl, server, config, browser).run(on_check)


@checked
def check_fidelity(directory: Path | str, min_fidelity: float, stream: TextIO | None = None) -> int:
    """``statecrawl verify``: print the replay fidelity and each state not reproduced; the
    exit status, 2 when the fidelity is below ``min_fidelity``."""
    min_fidelity = argument("min_fidelity", min_fidelity, float)
    if not 0 <= min_fidelity <= 1:
        raise ConfigError(f"min_fidelity: expected a fraction from 0 to 1, got {min_fidelity!r}")
    result = verify(directory)
    print(result.report(), file=stream or sys.stdout)
    return 0 if result.fidelity >= min_fidelity else 2


class Verifier:
    """Reaches each state of a crawl in replay, as ``verify`` does (see the module's text)."""

    def __init__(self, crawl: Crawl, server: Replayer, config: Config, browser: Browser) -> None:
        self.crawl = crawl
        self.server = server
        self.model = get_model(config.model)
        self.volatile = frozenset(crawl.graph.graph.get("volatile", []))
        self.browser = browser
        browser.volatile = sorted(self.volatile)
        self.here: tuple[str, list[str]] | None = None  # start URL, keys fired since its load
        self.snapshot: Snapshot | None = None

    def run(self, on_check: Callable[[StateCheck], None] | None) -> Fidelity:
        plans: list[tuple[tuple[str, list[str]], str, list[dict[str, Any]]]] = []
        checks: list[StateCheck] = []
        for state in self.crawl.states():
            try:
                steps = shortest_path(self.crawl, state["id"])
            except StatecrawlError as exc:
                checks.append(StateCheck(state["id"], False, str(exc)))
                continue
            start = steps[0]["source"] if steps else state["id"]
            url = self.crawl.graph.nodes[start].get("url") or ""
            plans.append(((url, [s["key"] for s in steps]), state["id"], steps))
        for (url, _), state_id, steps in sorted(plans, key=lambda p: p[0]):
            check = self._check(state_id, url, steps)
            checks.append(check)
            if on_check is not None:
                on_check(check)
        return Fidelity(checks)

    def _check(self, state_id: str, url: str, steps: list[dict[str, Any]]) -> StateCheck:
        keys = [s["key"] for s in steps]
        on_the_way = tuple(s["target"] for s in steps) or (state_id,)
        check = StateCheck(state_id, False, steps=len(steps))
        with self.server.preferring(on_the_way) as misses:
            try:
                check.reason, check.reached = self._walk(state_id, url, steps, keys)
            except (NavigationError, StatecrawlError) as exc:
                self.here = None
                check.reason = f"replay failed: {exc}"
        check.misses = sorted({str(m) for m in misses if m.status == HTTPStatus.NOT_FOUND})
        check.refused = sorted({str(m) for m in misses if m.status != HTTPStatus.NOT_FOUND})
        check.reproduced = not check.reason
        if check.reproduced:
            self.here = (url, keys)
        else:
            self.here = None
        return check

    def _walk(
        self, state_id: str, url: str, steps: list[dict[str, Any]], keys: list[str]
    ) -> tuple[str, str | None]:
        """Why the state was not reproduced ("" when it was), and the key reached."""
        done = 0
        if (
            self.here is not None
            and self.snapshot is not None
            and self.here[0] == url
            and keys[: len(self.here[1])] == self.here[1]
        ):
            done = len(self.here[1])
        else:
            self.here = None
            self.snapshot = self.browser.reset(url)
        snapshot = self.snapshot
        assert snapshot is not None
        for number, step in enumerate(steps[done:], done + 1):
            action = next((a for a in snapshot.actions() if a.key == step["key"]), None)
            if action is None:
                self.here = None
                return f"step {number}: the page does not offer {step['step']}", None
            snapshot = self.snapshot = self.browser.fire(action)
        reached = self.model.key(snapshot, self.volatile)
        if reached == state_id or reached in self.crawl.graph.nodes[state_id].get("aliases", ()):
            return "", reached
        if generated_between(self.crawl.html(state_id), snapshot.html):
            return "", reached  # only values generated per action differ
        return f"reached state {reached} instead (after {len(steps)} steps)", reached
