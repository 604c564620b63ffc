"""Crawl configuration: one frozen, keyword-only dataclass tree, validated when built.

The tree is built from Python keywords, from CLI flags or from a TOML file; every
component reads it and none reads the environment (browser discovery aside). Every value
is checked for its type and range when a dataclass is built, whichever way it is built, so
bad input ends in one ``ConfigError`` naming the setting, never deep inside a crawl.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import ipaddress
import json
import math
import re
import tomllib
import types
import typing
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar
from urllib.parse import urlsplit

from . import rules
from .errors import ConfigError, StatecrawlWarning
from .ports import unsafe
from .redaction import REDACTED, has_userinfo, masked

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

F = TypeVar("F", bound=Callable[..., Any])
Section = TypeVar("Section", bound="DataclassInstance")  # a config dataclass
DANGEROUS_DEFAULT = (r"(?i)\b(log ?out|sign ?out|log ?off|delete|remove|destroy|unsubscribe)\b",)
# What the guard calls destructive (the README's "The guard"): imperative verbs and nouns
# (not "deleted", a state's description), found case-insensitively in text whose identifiers
# are split into words ("deleteItem", "op_drop"). One syntax for Python and the page agent.
GUARD_WORDS = (
    r"\b(?:delete|deletion|del|drop|truncate|purge|wipe|erase|destroy|trash|remove"
    r"|uninstall|deactivate|disable|reset|revoke|unsubscribe"
    r"|empty ?(?:the )?(?:trash|bin|table|tables|cache|logs?|folder|cart|basket|database|queue)"
    r"|(?:change|update|new|set) ?(?:password|passwd|pwd|e-?mail)"
    r"|(?:password|passwd|pwd|e-?mail) ?(?:change|update|reset))\b"
)

# Upper bounds: far beyond any sensible crawl, low enough that a typo (or ``inf``) fails here
# rather than overflowing a browser timer or hanging a crawl for ever.
DAY = 86_400  # seconds: the longest timeout (``timing.load_timeout``)
DAY_MS = DAY * 1000  # the longest ``timing.*_ms`` value
YEAR = 365 * DAY  # seconds: the longest ``limits.max_time``
MAX_COUNT = 1_000_000_000  # the largest count (depth, states, actions, options)
MAX_BROWSERS = 64  # the most parallel browsers (each is a Chromium)
MAX_WINDOW = 16_384  # the widest or tallest browser window, in pixels
MAX_BYTES = 1_000_000_000_000  # the largest WARC file or record size (1 TB)
ROLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # a role's name, its crawl's folder
MAX_URL_LENGTH = 65_536  # the longest start URL, in characters
# The downloads archived by default (``archive.download_types``): documents, data and archives.
DOWNLOAD_TYPES = (
    "application/pdf", "text/csv", "text/plain", "text/tab-separated-values", "application/zip",
    "application/gzip", "application/x-tar", "application/octet-stream", "application/json",
    "application/xml", "text/xml", "application/x-bibtex", "application/x-research-info-systems",
    "application/msword", "application/vnd.", "application/rtf", "image/", "text/html",
)
# Each screenshot format's quality by default (``archive.screenshot_quality`` unset): webp at
# 40 is closer to the page than jpeg at 50 (PSNR against a PNG) in about half the bytes.
QUALITY = {"png": 100, "jpeg": 50, "webp": 40}
SEED_BITS = 63  # seeds are signed 64-bit integers, as SQLite stores them
_HOST_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_COMMENT = re.compile(r"(?:^|\s)#.*")  # in a seeds file (a URL holds no space)
_ALLOW_HOST = re.compile(
    r"(?:\*\.)?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?(?::\d{1,5})?"  # *.example.org:8080
    r"|\[[0-9a-fA-F:.]+\](?::\d{1,5})?"  # [::1]:8080
)


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ConfigError(message)


def _check_range(
    name: str, value: float | None, low: float, high: float, unit: str = "", *, above: bool = False
) -> None:
    """Raise unless ``value`` (when set) is at least ``low`` (more than ``low`` if ``above``)
    and at most ``high``; the message names the setting and the allowed range."""
    if value is None or ((value > low if above else value >= low) and value <= high):
        return
    lower = f"more than {low:,}" if above else f"at least {low:,}"
    raise ConfigError(f"{name} must be {lower} and at most {high:,}{unit}, got {value!r}")


_CSS_PAIRS = {"[": "]", "(": ")"}


def _check_selector(name: str, selector: str) -> None:
    """Refuse a CSS selector the browser would refuse for its shape: empty, brackets or
    quotes left open, a combinator or comma with nothing on one side. (The browser has the
    last word; an invalid selector it finds matches nothing.)"""
    problem = _selector_problem(selector)
    _check(problem is None, f"{name}: invalid CSS selector {selector!r}: {problem}")


def _selector_problem(selector: str) -> str | None:
    """What is wrong with the shape of ``selector``, or ``None``."""
    opened: list[str] = []  # the brackets open, innermost last
    quote = ""
    escaped = False
    parts = [""]  # the selectors of the top-level list
    for char in selector:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in _CSS_PAIRS:
            opened.append(char)
        elif char in "])":
            if not opened or _CSS_PAIRS[opened.pop()] != char:
                return f"unmatched {char!r}"
        elif char == "," and not opened:
            parts.append("")
            continue
        parts[-1] += char
    if quote or opened:
        return f"unclosed {quote or opened[-1]!r}"
    for part in (p.strip() for p in parts):
        if not part:
            return "an empty selector"
        if part[0] in ">+~" or part[-1] in ">+~":
            return "a combinator with nothing on one side"
    return None


def _check_regexes(name: str, patterns: tuple[str, ...]) -> None:
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"{name}: invalid regular expression {pattern!r}: {exc}") from None


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _normalise(obj: DataclassInstance, section: str) -> None:
    """Check every field of a config dataclass against its type hint and normalise it
    (lists to tuples, ints to floats, tables to sub-configs), so Python callers get the same
    checks as TOML files and flags."""
    hints = _hints(type(obj))
    for f in dataclasses.fields(obj):
        value = _convert(hints[f.name], getattr(obj, f.name), section + f.name)
        object.__setattr__(obj, f.name, value)


@dataclass(frozen=True, kw_only=True)
class Limits:
    """How far a crawl goes: depth, state count, wall time and per-path bounds.

    ``same_effect_after``: once a script action has led to one same state from this many
    states, it may be recorded without being fired in others, on the evidence that
    :class:`statecrawl.engine.policy.Inference` asks for (a search box in a page header); ``None``
    fires every script action in every state.
    ``repetitions``: an action that adds one more copy of a fragment its state holds this many
    times already (see :mod:`statecrawl.models.growth`) is recorded as a self-loop noting the
    fragment, and the state it led to is not created; ``None`` follows growth to the limits.
    Counts go up to ``MAX_COUNT``; ``max_time`` (seconds) up to a year.
    """

    max_depth: int = 3
    max_states: int | None = None
    max_time: float | None = None
    max_actions_per_state: int = 200
    max_states_per_url: int | None = None
    same_effect_after: int | None = 3
    repetitions: int | None = 3

    def __post_init__(self) -> None:
        _normalise(self, "limits.")
        _check_range("limits.max_depth", self.max_depth, 0, MAX_COUNT)
        _check_range("limits.max_states", self.max_states, 1, MAX_COUNT)
        _check_range("limits.max_time", self.max_time, 0, YEAR, " seconds", above=True)
        _check_range("limits.max_actions_per_state", self.max_actions_per_state, 1, MAX_COUNT)
        _check_range("limits.max_states_per_url", self.max_states_per_url, 1, MAX_COUNT)
        _check_range("limits.same_effect_after", self.same_effect_after, 1, MAX_COUNT)
        _check_range("limits.repetitions", self.repetitions, 1, MAX_COUNT)


@dataclass(frozen=True, kw_only=True)
class Explore:
    """Which shortcuts the engine takes. Each one (inference, planning from where a browser
    is, a state's own URL as its way, one load per link URL) is an optimisation that must
    give the graph of the exhaustive crawl, ``shortcuts = false``: every action fired in
    every state it appears in, each state reached by a fresh load of a start URL and the
    replay of its shortest path, nothing inferred, carried over or sampled.

    ``verify``: the share of inferred transitions fired anyway to check the inference,
    sampled with the crawl's ``seed``; one that leads elsewhere retracts the action.
    """

    shortcuts: bool = True
    verify: float = 0.2

    def __post_init__(self) -> None:
        _normalise(self, "explore.")
        _check_range("explore.verify", self.verify, 0, 1)


@dataclass(frozen=True, kw_only=True)
class Wait:
    """A wait condition: on a page whose URL ``url`` matches (a regular expression, searched
    as ``scope.exclude`` is), a state is taken only once an element matching ``css`` is
    there (``visible``: and seen), or ``timeout_ms`` after the settle began; a wait that
    times out is counted (``waits_timed_out``) and logged, and the state taken as it is."""

    url: str
    css: str
    visible: bool = False
    timeout_ms: int = 3000

    def __post_init__(self) -> None:
        _normalise(self, "timing.waits.")
        _check_regexes("timing.waits.url", (self.url,))
        _check_selector("timing.waits.css", self.css)
        _check_range("timing.waits.timeout_ms", self.timeout_ms, 0, DAY_MS, " ms")


@dataclass(frozen=True, kw_only=True)
class Timing:
    """When a page counts as settled, and how long anything may take: ``*_ms`` values up to
    a day in milliseconds, ``load_timeout`` up to a day in seconds.

    A timer (``setTimeout``) of at most ``timer_ms`` is pending work a few generations deep
    (a timer a timer set); one of at most ``long_timer_ms`` only when set by the page or the
    action itself (not by a timer or an interval), until one such has run since the action:
    a widget shown a second after an action is seen, and a polling loop holds a settle for
    one turn at most. A page still adding elements at ``settle_timeout_ms`` (results shown
    one by one) is waited for until it stops or ``growth_timeout_ms`` has passed.
    ``waits``: the :class:`Wait` conditions.
    """

    quiet_ms: int = 15
    settle_timeout_ms: int = 5000
    growth_timeout_ms: int = 15000
    timer_ms: int = 400
    long_timer_ms: int = 1500
    load_timeout: float = 30.0
    wait_ms: int = 0
    waits: tuple[Wait, ...] = ()

    def __post_init__(self) -> None:
        _normalise(self, "timing.")
        _check_range("timing.quiet_ms", self.quiet_ms, 0, DAY_MS, " ms")
        _check_range("timing.settle_timeout_ms", self.settle_timeout_ms, 0, DAY_MS, " ms")
        _check(
            self.settle_timeout_ms >= self.quiet_ms,
            "timing.settle_timeout_ms must be >= timing.quiet_ms",
        )
        _check_range("timing.growth_timeout_ms", self.growth_timeout_ms, 0, DAY_MS, " ms")
        _check_range("timing.timer_ms", self.timer_ms, 0, DAY_MS, " ms")
        _check_range("timing.long_timer_ms", self.long_timer_ms, 0, DAY_MS, " ms")
        _check_range("timing.load_timeout", self.load_timeout, 0, DAY, " seconds", above=True)
        _check_range("timing.wait_ms", self.wait_ms, 0, DAY_MS, " ms")


@dataclass(frozen=True, kw_only=True)
class ScopeSettings:
    """Which URLs belong to the crawl: the start origins, narrowed by ``include`` and
    ``exclude`` patterns.

    The browser itself refuses every request outside the start origins (fetches, images,
    frames, navigations), except to the hosts in ``allow`` (``"cdn.example.com"``,
    ``"*.example.org"``, ``"127.0.0.1:8080"``) for resources a page needs. Patterns narrow
    what is crawled within those hosts; they never widen what the browser may fetch.
    """

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _normalise(self, "scope.")
        _check_regexes("scope.include", self.include)
        _check_regexes("scope.exclude", self.exclude)
        for host in self.allow:
            # These become Chromium flags and URL patterns: nothing else may slip in.
            _check_no_userinfo("scope.allow", host if "://" in host else f"http://{host}")
            _check(
                bool(_ALLOW_HOST.fullmatch(host)),
                f"scope.allow: expected a host such as 'cdn.example.com', '*.example.org' or "
                f"'127.0.0.1:8080', got {host!r}",
            )


FIELD_KINDS = ("auto", "text", "email", "number", "date", "url", "tel")


@dataclass(frozen=True, kw_only=True)
class FieldValues:
    """The values of the fields found by ``css`` (a CSS selector) or by ``name`` (as
    ``inputs.values`` finds them), inside a form or loose in the page: ``values``, or else
    ``count`` random values of ``kind`` (``"auto"``: the kind the field's type, pattern and
    name suggest), drawn from the crawl's ``seed``, so two crawls type the same ones."""

    css: str | None = None
    name: str | None = None
    values: tuple[str, ...] = ()
    kind: Literal["auto", "text", "email", "number", "date", "url", "tel"] | None = None
    count: int = 1

    def __post_init__(self) -> None:
        _normalise(self, "inputs.fields.")
        _check(
            (self.css is None) != (self.name is None),
            "inputs.fields: give each entry a css selector or a field name (not both)",
        )
        if self.css is not None:
            _check_selector("inputs.fields.css", self.css)
        _check(self.name is None or bool(self.name.strip()),
               "inputs.fields.name must not be empty")
        _check(not (self.values and self.kind is not None),
               f"inputs.fields: give {self.css or self.name!r} values or a kind, not both")
        _check_range("inputs.fields.count", self.count, 1, MAX_COUNT, " values")

    def for_agent(self) -> dict[str, Any]:
        """This entry as the page agent reads it (no values: random ones of its kind)."""
        return {
            "css": self.css, "name": self.name,
            "values": list(self.values), "kind": None if self.values else self.kind or "auto",
            "count": self.count,
        }


@dataclass(frozen=True, kw_only=True)
class Inputs:
    """Values typed into form fields, and how other fields are enumerated.

    ``values``: by field name (label, aria-label, placeholder, name or id); ``fields``:
    :class:`FieldValues` entries, by CSS selector or name, with values or random ones of a
    kind, which come first. Fields outside any form get theirs too, typed before a control
    of their section is fired (see the README's "Field values and waiting").

    ``harvest``: the number of queries the crawl chooses by itself for each search form, after
    the ``values`` given (see :mod:`statecrawl.harvest.queries`; ``None``: none). ``max_pages``: the
    result pages of each query followed at no cost in depth through "Next", page numbers,
    "Load more" and infinite scroll (see :mod:`statecrawl.harvest.pagination`; ``None``: pagination
    is an action like any other, but 100 pages when harvesting: ``harvest.HARVEST_PAGES``).
    """

    values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fields: tuple[FieldValues, ...] = ()
    default_text: str | None = None
    max_options: int = 5
    harvest: int | None = None
    max_pages: int | None = None

    def __post_init__(self) -> None:
        _normalise(self, "inputs.")
        for name, vs in self.values.items():
            _check(bool(name), "inputs.values: a field name must not be empty")
            _check(bool(vs), f"inputs.values: field {name!r} has no value")
        object.__setattr__(self, "values", types.MappingProxyType(dict(self.values)))
        _check_range("inputs.max_options", self.max_options, 1, MAX_COUNT)
        _check_range("inputs.harvest", self.harvest, 1, MAX_COUNT, " queries")
        _check_range("inputs.max_pages", self.max_pages, 1, MAX_COUNT, " pages")


@dataclass(frozen=True, kw_only=True)
class Rule:
    """The elements a crawl rule selects: those for which every criterion it gives holds (it
    gives one at least). ``css``: a selector the element matches; ``xpath``: an expression
    that selects it, evaluated in the element's own tree (its document, a frame's, or the
    shadow root it lies in); ``text``: its visible text or its label, exactly (whitespace
    collapsed); ``text_regex``: a pattern found in either (as ``re.search``); ``attribute``:
    ``name=value``, or ``name`` for any value. ``url``: a pattern of the page's URL (the top
    page's, for an element in a frame): the rule holds on those pages only (``None``: all)."""

    css: str | None = None
    xpath: str | None = None
    text: str | None = None
    text_regex: str | None = None
    attribute: str | None = None
    url: str | None = None

    def __post_init__(self) -> None:
        _normalise(self, "rule.")
        _check(
            any(getattr(self, name) is not None for name in rules.KINDS.values()),
            "a rule needs css, xpath, text, text_regex or attribute",
        )
        if self.css is not None:
            rules.check_css(self.css)
        if self.xpath is not None:
            rules.check_xpath(self.xpath)
        _check(self.text is None or bool(self.text.strip()), "rule text must not be empty")
        if self.attribute is not None:
            rules.check_attribute(self.attribute)
        for name in ("text_regex", "url"):
            pattern = getattr(self, name)
            _check_regexes(f"rule {name}", () if pattern is None else (pattern,))


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Which elements the crawl fires (the README's "Crawl rules"). ``dont_click``: never;
    ``click``: on a page where one of them holds, only the elements they select (an
    allow-list; ``dont_click`` still wins); ``click_once``: once in the whole crawl, in the
    first state that gets them as work, never in a later one (an element that does the same
    whenever it is fired: a banner's "Accept", a "Help" dialog). A rule applies to every
    action of the element it selects. Each rule is a :class:`Rule`, its table, or a string
    of the command line's form (:func:`statecrawl.rules.parse`: ``"#logout"``,
    ``"xpath://nav//a"``, ``"text:Sign out"``, ``"regex:(?i)delete"``,
    ``"attr:data-action=delete"``)."""

    click: tuple[Rule, ...] = ()
    dont_click: tuple[Rule, ...] = ()
    click_once: tuple[Rule, ...] = ()

    def __post_init__(self) -> None:
        hints = _hints(Rules)
        for f in dataclasses.fields(self):
            given = getattr(self, f.name)
            items = [given] if isinstance(given, str) else given
            if isinstance(items, list | tuple):
                items = [rules.parse(item) if isinstance(item, str) else item for item in items]
            where = f"rules.{f.name}"
            try:
                object.__setattr__(self, f.name, _convert(hints[f.name], items, where))
            except ConfigError as exc:  # (a rule's own message names no list)
                named = str(exc).startswith(where)
                raise ConfigError(str(exc) if named else f"{where}: {exc}") from None


@dataclass(frozen=True, kw_only=True)
class Guard:
    """What the guard keeps a crawl from doing on a site it does not own (the README's "The
    guard"): requests and links that delete, drop, empty, trash, uninstall, deactivate, reset
    or change a password or an e-mail, and every PUT, PATCH or DELETE (an autosave's too),
    never leave the browser. ``enabled = false`` turns it
    off (a test engineer's own application); ``allow``: patterns (case-insensitive, in the
    syntax Python and JavaScript share) of URLs and labels the guard lets through."""

    enabled: bool = True
    allow: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _normalise(self, "guard.")
        _check_regexes("guard.allow", self.allow)
        for pattern in self.allow:
            _check(
                re.search(r"\(\?[aiLmsux-]|\(\?P", pattern) is None,
                f"guard.allow: {pattern!r} uses Python-only syntax (an inline flag or a "
                "(?P...) group); the page agent reads it too, and case is ignored anyway",
            )

    def for_agent(self) -> dict[str, Any] | None:
        """What the page agent guards by (``None``: nothing)."""
        return {"words": GUARD_WORDS, "allow": list(self.allow)} if self.enabled else None


@dataclass(frozen=True, kw_only=True)
class BrowserSettings:
    """Which Chromium to drive and how: up to ``MAX_BROWSERS`` in parallel.

    ``window_width`` and ``window_height`` are the viewport, the part of the window a page
    lays itself out in (``innerWidth`` and ``innerHeight``), and so the size of every
    screenshot; the names stay those of the window for the crawls that recorded them.
    ``recycle_after``: a browser that loaded this many pages is replaced by a fresh one at
    its next reset (``None``: never); Chromium grows and slows with every page it shows.
    ``coverage``: record which functions of the in-scope scripts ran (V8's precise coverage,
    ``coverage.json``; see :mod:`statecrawl.coverage`); off by default, since it costs more
    than a tenth of the crawl time (``benchmarks/coverage.py``).
    ``animations``: ``"brief"`` makes CSS animations and those scripts start last a
    millisecond and runs no CSS transition, so that an action's end state is there as soon
    as the page settles; ``"page"`` lets the page animate at its own pace (a state is then
    taken once the page is quiet, maybe half-way through a long animation).
    """

    binary: str | None = None
    driver: str | None = None
    count: int = 1
    window_width: int = 1280
    window_height: int = 900
    extra_args: tuple[str, ...] = ()
    dialogs: Literal["accept", "dismiss"] = "accept"
    recycle_after: int | None = 1000
    coverage: bool = False
    animations: Literal["brief", "page"] = "brief"

    def __post_init__(self) -> None:
        _normalise(self, "browser.")
        _check_range("browser.count", self.count, 1, MAX_BROWSERS)
        _check_range("browser.recycle_after", self.recycle_after, 1, MAX_COUNT, " pages")
        _check_range("browser.window_width", self.window_width, 200, MAX_WINDOW, " pixels")
        _check_range("browser.window_height", self.window_height, 200, MAX_WINDOW, " pixels")
        for arg in self.extra_args:
            # Chromium opens any other argument as a URL.
            _check(arg.startswith("--"), f"browser.extra_args: expected --flags, got {arg!r}")


@dataclass(frozen=True, kw_only=True)
class Archive:
    """What is written to WARC files, and how.

    ``screenshots``: ``"all"`` states, ``"none"``, or ``"new-url"``, the first state found at
    each URL only (``true`` and ``false``, as crawls before the modes recorded it, mean
    ``"all"`` and ``"none"``). ``screenshot_format`` is ``"png"`` (lossless, the largest),
    ``"jpeg"`` or ``"webp"`` (the smallest, the slowest to encode), with
    ``screenshot_quality`` from 1 to 100 (jpeg and webp only; ``None``: the format's own,
    :data:`QUALITY`). The default takes one per URL, as webp at 40: about half the bytes of
    a jpeg at 50, and closer to the page, for about 70 ms more a capture (see the README's
    benchmarks).
    ``thumbnails``: a 320-pixel WebP of every state besides (``states/<id>.thumb.webp``, and a
    WARC record), so that the report pictures each one; it costs about a tenth of a
    screenshot (see the README's benchmarks). ``capture_timeout``: the seconds a screenshot
    or thumbnail may take (it waits for the page's next frame, which a page may take seconds
    to draw); one that takes longer is given up, and the state recorded without it (see
    :mod:`statecrawl.browser.screenshot`).

    ``dedup``: what a capture of a payload already archived (same URL, same digest) becomes.
    ``"revisit"``: a revisit record, always. ``"state"``: a revisit record when a state
    fetched it, nothing when it was fetched again on the way back to a known state (the
    resets and replays that fetch a page's documents and scripts over and over; counted in
    the stats' ``skipped``). ``"skip"``: nothing, ever.

    ``max_download``: the largest file a download may save, in bytes (a larger one is stopped
    and recorded as skipped, with its size); ``download_types``: the MIME types (prefixes) of
    the downloads archived (empty: every type; any other is recorded as skipped).
    """

    enabled: bool = True
    prefix: str = "statecrawl"
    roll_size: int = 1_000_000_000
    dedup: Literal["revisit", "state", "skip"] = "state"
    screenshots: Literal["all", "none", "new-url"] = "new-url"
    screenshot_format: Literal["png", "jpeg", "webp"] = "webp"
    screenshot_quality: int | None = None
    thumbnails: bool = True
    capture_timeout: float = 5.0
    include_types: tuple[str, ...] = ()
    exclude_types: tuple[str, ...] = ()
    exclude_extensions: tuple[str, ...] = ()
    max_record_size: int | None = None
    max_download: int = 20_000_000
    download_types: tuple[str, ...] = DOWNLOAD_TYPES

    def __post_init__(self) -> None:
        if isinstance(self.screenshots, bool):  # a switch before it had modes
            object.__setattr__(self, "screenshots", "all" if self.screenshots else "none")
        _normalise(self, "archive.")
        _check(bool(re.fullmatch(r"[\w.-]+", self.prefix)), "archive.prefix: letters, digits, .-_")
        _check_range("archive.roll_size", self.roll_size, 1_000_000, MAX_BYTES, " bytes")
        _check_range("archive.max_record_size", self.max_record_size, 1, MAX_BYTES, " bytes")
        _check_range("archive.max_download", self.max_download, 1, MAX_BYTES, " bytes")
        _check_range("archive.screenshot_quality", self.screenshot_quality, 1, 100)

    @property
    def quality(self) -> int:
        """The screenshots' quality: ``screenshot_quality``, else the format's own."""
        return self.screenshot_quality or QUALITY[self.screenshot_format]
        timeout = self.capture_timeout
        _check_range("archive.capture_timeout", timeout, 0, DAY, " seconds", above=True)


@dataclass(frozen=True, kw_only=True)
class PolitenessSettings:
    """How hard a crawl may press on one host, after a search engine's fetcher.

    ``max_browsers_per_host``: browsers working on one host at once (``None``: no bound);
    ``min_delay_ms``: the least time between the starts of two tasks on one host. A host
    that answers 429 or 503 gets no new task for as long as its ``Retry-After`` header asks
    (seconds or an HTTP date), or else for ``backoff_ms`` doubled at each such answer in a
    row; never longer than ``max_backoff_ms``. The work it answered so is done again, up to
    ``retries`` times. A host that could not be reached (or broke down: a 5xx to a request
    it answered before) is held back the same way, and the work it failed is done again up to
    ``outage_retries`` times, then recorded as a failure (a later ``--resume`` tries it
    again). A host is a host name, whatever the port. ``shared``: a folder through which
    the crawls that name it share each host's ``max_browsers_per_host`` (``statecrawl serve``
    gives its jobs one), so that together they never have more browsers on it.
    """

    max_browsers_per_host: int | None = None
    min_delay_ms: int = 0
    backoff_ms: int = 1000
    max_backoff_ms: int = 60_000
    retries: int = 3
    outage_retries: int = 6
    shared: Path | None = None

    def __post_init__(self) -> None:
        _normalise(self, "politeness.")
        _check_range(
            "politeness.max_browsers_per_host", self.max_browsers_per_host, 1, MAX_BROWSERS
        )
        _check_range("politeness.min_delay_ms", self.min_delay_ms, 0, DAY_MS, " ms")
        _check_range("politeness.backoff_ms", self.backoff_ms, 0, DAY_MS, " ms")
        _check_range("politeness.max_backoff_ms", self.max_backoff_ms, 0, DAY_MS, " ms")
        _check(
            self.max_backoff_ms >= self.backoff_ms,
            "politeness.max_backoff_ms must be >= politeness.backoff_ms",
        )
        _check_range("politeness.retries", self.retries, 0, MAX_COUNT)
        _check_range("politeness.outage_retries", self.outage_retries, 0, MAX_COUNT)


@dataclass(frozen=True, kw_only=True)
class Incremental:
    """How a crawl is compared with an earlier one (``statecrawl diff``, incremental recrawls).

    ``similarity``: a changed state at least this similar to its earlier version
    (:func:`statecrawl.models.similarity.similarity`, 0 to 1) is a minor change. ``verify``:
    the fraction of an unchanged subtree's actions fired again to check it, sampled with
    ``seed``, and more often for states that changed more often before.
    """

    since: Path | None = None  # the earlier crawl directory an incremental crawl builds on
    similarity: float = 0.9
    verify: float = 0.1
    seed: int = 0

    def __post_init__(self) -> None:
        _normalise(self, "incremental.")
        _check_range("incremental.similarity", self.similarity, 0, 1)
        _check_range("incremental.verify", self.verify, 0, 1)
        _check_range("incremental.seed", self.seed, -(2**SEED_BITS), 2**SEED_BITS - 1)


@dataclass(frozen=True, kw_only=True)
class Login:
    """How a crawl logs in, and how it knows it still is (see :mod:`statecrawl.browser.login`).

    ``url``: the page of the login form; ``fields``: the values typed into it, each field
    found as ``inputs`` are (by label, aria-label, placeholder, name or id, in any case);
    ``submit``: the button to press (a CSS selector or its text; by default the fields' form
    is submitted); ``open``: what to press first on that page to show the form (a "Log in"
    button that opens a dialog). The session is alive while ``logged_in`` shows and
    ``logged_out`` does not (each a CSS selector that matches or a text the page shows).
    ``cookies`` (a Netscape ``cookies.txt``) and ``storage_state`` (Playwright's JSON) give a
    session to start with; ``http_user`` and ``http_password``, HTTP basic or digest auth,
    answered for the start origins only. ``archive``: the login's own requests are archived
    with their secrets redacted, or ``"none"``: not at all.
    Field values and the HTTP password are never stored: a resumed crawl is given them again.
    """

    url: str | None = None
    fields: Mapping[str, str] = field(default_factory=dict, repr=False)
    submit: str | None = None
    open: str | None = None
    logged_in: str | None = None
    logged_out: str | None = None
    archive: Literal["redacted", "none"] = "redacted"
    cookies: Path | None = None
    storage_state: Path | None = None
    http_user: str | None = None
    http_password: str | None = field(default=None, repr=False)
    role: str | None = None  # the name of a ``[[login]]`` entry, one crawl per role

    def __post_init__(self) -> None:
        _normalise(self, "login.")
        _check(
            self.role is None or ROLE.fullmatch(self.role) is not None,
            f"login.role: expected letters, digits, '-', '_' or '.', got {self.role!r}",
        )
        object.__setattr__(self, "fields", types.MappingProxyType(dict(self.fields)))
        if self.url is not None:
            _check_no_userinfo("login.url", self.url)
            check_url(self.url)
        for name in self.fields:
            _check(bool(name.strip()), "login.fields: a field name must not be empty")
        for name in ("fields", "submit", "open"):
            _check(
                not getattr(self, name) or self.url is not None,
                f"login.{name} needs login.url, the form's page",
            )
        for name in ("submit", "open", "logged_in", "logged_out"):
            _check(getattr(self, name) != "", f"login.{name} must not be empty")
        _check(
            self.url is None or self.logged_in is not None or self.logged_out is not None,
            "login.url needs a check that the session is alive: --logged-in TEXT-OR-SELECTOR "
            "(or --logged-out)",
        )
        _check(
            (self.http_user is None) == (self.http_password is None),
            "login.http_user and login.http_password go together",
        )
        for name in ("cookies", "storage_state"):
            path = getattr(self, name)
            _check(path is None or path.is_file(), f"login.{name}: no file at {path}")

    @property
    def enabled(self) -> bool:
        """Whether the crawl runs behind a login at all."""
        return any((
            self.url, self.cookies, self.storage_state, self.http_user, self.logged_in,
            self.logged_out,
        ))

    def stored(self) -> dict[str, Any]:
        """These settings as a crawl records them: every field value and the HTTP password
        replaced by ``[redacted]``."""
        data: dict[str, Any] = _plain(self)
        data["fields"] = {name: REDACTED for name in self.fields}
        if self.http_password is not None:
            data["http_password"] = REDACTED
        return data


@dataclass(frozen=True, kw_only=True)
class Config:
    """A whole crawl: where it starts, where it writes, and every setting."""

    start_urls: tuple[str, ...]
    out: Path | None = None
    overwrite: bool = False  # ``out`` may hold an earlier crawl, which the new one replaces
    resume: bool = False  # continue the crawl in ``out`` from its last checkpoint
    limits: Limits = field(default_factory=Limits)
    explore: Explore = field(default_factory=Explore)
    timing: Timing = field(default_factory=Timing)
    scope: ScopeSettings = field(default_factory=ScopeSettings)
    inputs: Inputs = field(default_factory=Inputs)
    rules: Rules = field(default_factory=Rules)
    guard: Guard = field(default_factory=Guard)
    browser: BrowserSettings = field(default_factory=BrowserSettings)
    archive: Archive = field(default_factory=Archive)
    incremental: Incremental = field(default_factory=Incremental)
    politeness: PolitenessSettings = field(default_factory=PolitenessSettings)
    login: Login = field(default_factory=Login)
    roles: tuple[Login, ...] = ()  # ``[[login]]``: the application crawled once per role
    model: str = "dom"
    strategy: str = "breadth-first"
    seed: int = 0
    dangerous: tuple[str, ...] = DANGEROUS_DEFAULT
    dangerous_policy: Literal["last", "skip"] = "last"
    executor: Literal["threads", "dask"] = "threads"  # what runs the browsers
    cluster: str | None = None  # a Dask scheduler's address; none: a LocalCluster

    def __post_init__(self) -> None:
        if isinstance(self.login, list | tuple):  # TOML's [[login]]: an entry per role
            object.__setattr__(self, "roles", tuple(self.login))
            object.__setattr__(self, "login", Login())
        _normalise(self, "")
        _check(bool(self.start_urls), "give at least one start URL")
        names = [role.role for role in self.roles]
        _check(None not in names, 'each [[login]] entry needs its role name (role = "admin")')
        _check(len(set(names)) == len(names), f"[[login]]: role names repeat: {names}")
        _check(
            not self.roles or not self.login.enabled,
            "give [login] or [[login]] entries (one per role), not both",
        )
        _check(not self.roles or self.out is not None,
               "[[login]] roles need --out, the directory that holds a crawl per role")
        for url in self.start_urls:
            check_url(url)
        _check_range("seed", self.seed, -(2**SEED_BITS), 2**SEED_BITS - 1)
        _check_regexes("dangerous", self.dangerous)
        _check(not (self.resume and self.overwrite), "give --resume or --overwrite, not both")
        _check(not self.resume or self.out is not None, "--resume needs the crawl's --out")
        _check(self.cluster is None or self.executor == "dask", "--cluster needs --executor dask")
        _check(self.strategy != "coverage" or self.browser.coverage,
               "--strategy coverage needs --coverage")
        _check(
            self.explore.shortcuts or self.incremental.since is None,
            "--exhaustive fires everything: it cannot build on an earlier crawl (--since)",
        )
        if self.cluster is not None:
            _check_no_userinfo("cluster", self.cluster)
            _check(
                "://" in self.cluster,
                "cluster: expected a scheduler address such as tcp://HOST:8786: "
                f"{masked(self.cluster)!r}",
            )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Config:
        """Build a config from nested plain data (a parsed TOML file, keyword options)."""
        return _build(cls, data, "")

    @classmethod
    def from_toml(cls, path: str | Path, **overrides: Any) -> Config:
        """Read a TOML file (or a JSON file of the same tables, by its ``.json`` suffix: what
        ``statecrawl serve`` writes); ``overrides`` (non-None values) win over the file's."""
        return cls.from_mapping(merge(read_settings(path), overrides))

    @classmethod
    def from_stored(cls, data: Any, source: str, start_urls: Any = None) -> Config:
        """The config a crawl recorded (``source`` names where: its ``graph.json``, its
        store), maybe with another version: a setting this one does not know is left out,
        and one it no longer accepts is given its default, each with a
        ``StatecrawlWarning``. Start URLs it lacks are ``start_urls`` (the graph's own);
        only start URLs that cannot be read are a ``ConfigError``."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"{source}: holds no crawl configuration")
        if "start_urls" not in data and start_urls:
            data = {**data, "start_urls": start_urls}
        try:
            return cls.from_mapping(data)
        except ConfigError:
            return _salvage(cls, data, "", source)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data that ``from_mapping`` turns back into this config, less the
        login's secrets (``Login.stored``)."""
        return {
            **_plain(self), "login": self.login.stored(),
            "roles": [role.stored() for role in self.roles],
        }


@dataclass(frozen=True, kw_only=True)
class ServiceSettings:
    """``statecrawl serve``: where it listens and keeps its jobs, how many crawls run at once,
    and the operator's caps on every crawl's browsers, time (seconds) and states (a crawl that
    sets none gets the cap), and on the browsers all crawls have on one host. A bind other
    than loopback needs ``token_file``, the file of the token every API call must bring."""

    data: Path
    host: str = "127.0.0.1"
    port: int = 8080
    max_running: int = 2
    cluster: str | None = None  # a Dask scheduler every job's browsers run on
    token_file: Path | None = None
    max_browsers: int | None = None
    max_time: float | None = None
    max_states: int | None = None
    max_browsers_per_host: int | None = None  # across all the crawls, each host

    def __post_init__(self) -> None:
        _normalise(self, "serve.")
        _check_range("serve.port", self.port, 1, 65_535)
        _check_range("serve.max_running", self.max_running, 1, MAX_COUNT)
        _check_range("serve.max_browsers", self.max_browsers, 1, MAX_BROWSERS)
        _check_range("serve.max_time", self.max_time, 0, YEAR, " seconds", above=True)
        _check_range("serve.max_states", self.max_states, 1, MAX_COUNT)
        _check_range("serve.max_browsers_per_host", self.max_browsers_per_host, 1, MAX_BROWSERS)
        _check(
            self.loopback or self.token_file is not None,
            f"--host {self.host} is reachable from other machines: give --token-file, the "
            "token every API call must bring",
        )
        if self.cluster is not None:
            Config(start_urls=("http://127.0.0.1/",), executor="dask", cluster=self.cluster)

    @property
    def loopback(self) -> bool:
        """Whether the service listens on this machine only."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host.strip("[]")).is_loopback
        except ValueError:
            return False

    def token(self) -> str | None:
        """The token API calls must bring (the first line of ``token_file``), if any."""
        if self.token_file is None:
            return None
        try:
            lines = self.token_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read --token-file {self.token_file}: {exc}") from None
        token = lines[0].strip() if lines else ""
        _check(len(token) >= 16, f"--token-file {self.token_file}: the token must be at least "
               "16 characters on its first line")
        return token


def check_url(url: str) -> None:
    """Raise ``ConfigError`` unless ``url`` is an absolute http(s) URL a browser loads as
    written: a valid host name or IP address, a port from 1 to 65535, no whitespace or
    control characters, at most ``MAX_URL_LENGTH`` characters."""
    if not isinstance(url, str):
        raise ConfigError(f"expected a URL, got {_kind(url)}")
    _check_no_userinfo("URL", url)
    shown = repr(masked(url))  # an "@" elsewhere may still end a password: never shown
    if len(url) > MAX_URL_LENGTH:
        raise ConfigError(f"URL longer than {MAX_URL_LENGTH:,} characters: {shown[:60]}...")
    bad = next((c for c in url if c.isspace() or unicodedata.category(c)[0] == "C"), None)
    if bad is not None:
        raise ConfigError(f"URL with whitespace or a control character ({bad!r}): {shown}")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise ConfigError(f"not an absolute http(s) URL: {shown}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"not an absolute http(s) URL: {shown}")
    try:
        port = parts.port
    except ValueError:
        raise ConfigError(f"bad port in URL: {shown}") from None
    if port == 0:
        raise ConfigError(f"bad port in URL: {shown}")
    why = unsafe(port)
    if why is not None:
        raise ConfigError(f"{shown}: {why}")
    if not _valid_host(parts.hostname, bracketed="[" in parts.netloc):
        raise ConfigError(f"bad host in URL: {shown}")


def _check_no_userinfo(name: str, url: str) -> None:
    """Refuse a URL with a user name or password: the crawl would write it into every
    record (the graph, the store, the WARC headers), and the message never shows it."""
    _check(
        not has_userinfo(url),
        f"{name} {masked(url)[:80]!r} holds a user name or password, which would be written "
        "into the archive: remove it (HTTP auth from the URL is not supported)",
    )


def read_seeds(path: str | Path) -> list[str]:
    """The start URLs of a seeds file, one a line, in order and each once; blank lines and
    comments (``#`` at the start of a line or after a space) are left out. A line that is
    not a start URL is a ``ConfigError`` naming the file and the line."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read seeds file {path}: {exc}") from None
    urls: list[str] = []
    for number, line in enumerate(lines, 1):
        url = _COMMENT.sub("", line).strip()
        if not url:
            continue
        try:
            check_url(url)
        except ConfigError as exc:
            raise ConfigError(f"{path}, line {number}: {exc}") from None
        urls.append(url)
    if not urls:
        raise ConfigError(f"seeds file {path} holds no URL")
    return list(dict.fromkeys(urls))


def _valid_host(host: str, bracketed: bool) -> bool:
    """Whether ``host`` (lower case, without brackets) is an IP address or a DNS name."""
    if bracketed:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return False
        return True
    try:
        name = host.encode("idna").decode("ascii").rstrip(".")
    except UnicodeError:
        return False
    labels = name.split(".")
    if len(name) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in labels):
        return False
    if labels[-1].isdigit():  # a browser reads a name ending in a number as an IPv4 address
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            return False
    return True


def read_settings(path: str | Path) -> dict[str, Any]:
    """The tables of a TOML config file (or a JSON file of the same tables, by its
    ``.json`` suffix), not yet checked."""
    source: Path = argument("path", path, Path)
    try:
        text = source.read_text(encoding="utf-8")
        data = json.loads(text) if source.suffix == ".json" else tomllib.loads(text)
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {source}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {source}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {source} is not valid TOML: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"config file {source} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config file {source}: expected tables, got {type(data).__name__}")
    return data


def merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge ``overrides`` into ``base``, skipping ``None`` values.

    A table of overrides never replaces a base value that is not a table: that value is
    wrong, and kept so that validation reports it (``limits = 3`` in a file with flags).
    """
    merged = dict(base)
    for key, value in overrides.items():
        if value is None:
            continue
        if isinstance(value, Mapping):
            if key in merged and not isinstance(merged[key], Mapping):
                continue
            value = merge(merged.get(key, {}), value)
            if not value and key not in merged:
                continue
        merged[key] = value
    return merged


def _build(cls: type[Section], data: Any, where: str) -> Section:
    """A config dataclass from a table; its ``__post_init__`` checks the values."""
    label = where.rstrip(".") or "config"
    if not isinstance(data, Mapping):
        raise ConfigError(f"{label}: expected a table, got {type(data).__name__}")
    _check_keywords(cls, label, (), data)
    return cls(**data)


def _check_keywords(
    cls: type, label: str, args: tuple[Any, ...], kwargs: Mapping[Any, Any]
) -> None:
    """Refuse what the constructor of config dataclass ``cls`` cannot take, naming the
    section ``label``: positional values, unknown settings, missing required ones."""
    _check(
        not args,
        f"{label}: give settings by name ({cls.__name__}(name=value)), got "
        f"{len(args)} positional value(s)",
    )
    fields = dataclasses.fields(cls)
    known = {f.name for f in fields}
    unknown = sorted(repr(k) for k in kwargs if k not in known)
    _check(not unknown, f"{label}: unknown setting(s) {', '.join(unknown)}")
    missing = [
        repr(f.name)
        for f in fields
        if f.name not in kwargs
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
    _check(not missing, f"{label}: missing setting(s) {', '.join(missing)}")


def _guard_constructor(cls: type[DataclassInstance], label: str) -> None:
    """Make ``cls(...)`` itself (a Python caller's way to build a section) refuse bad
    arguments with a ``ConfigError``, as a table of a TOML file is, not a ``TypeError``."""
    init = cls.__init__

    @functools.wraps(init)
    def checked(self: Any, *args: Any, **kwargs: Any) -> None:
        _check_keywords(cls, label, args, kwargs)
        init(self, **kwargs)

    # the dataclass's generated __init__ is replaced by its checked wrapper on purpose
    cls.__init__ = checked  # type: ignore[method-assign]


def checked(function: F) -> F:
    """Make a call of public ``function`` with arguments it does not take (too many, an
    unknown keyword, a missing one) a one-line ``ConfigError`` naming them, not a
    ``TypeError``; at no cost to a good call."""
    signature = inspect.signature(function)
    name = function.__qualname__.removesuffix(".__init__")

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except TypeError:
            try:
                signature.bind(*args, **kwargs)
            except TypeError as wrong:
                raise ConfigError(f"{name}: {wrong}") from None
            raise

    return typing.cast(F, call)


def argument(name: str, value: Any, hint: Any) -> Any:
    """The argument ``name`` of a public function checked as a setting is and normalised:
    ``hint`` is a setting's type (``Path``, ``str | None``, ``tuple[str, ...]``, ...), a
    ``Callable``, an ``Iterable[X]`` (made a tuple), or any other class, checked with
    ``isinstance``. A one-line ``ConfigError`` naming the argument otherwise."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        classes = [a for a in args if a is not type(None)]
        if len(classes) == 1:
            return argument(name, value, classes[0])
        names = ", ".join(c.__name__ for c in classes[:-1]) + f" or {classes[-1].__name__}"
        _check(isinstance(value, tuple(classes)), f"{name}: expected {names}, got {_kind(value)}")
        return value
    if hint is Callable or origin is Callable:
        _check(callable(value), f"{name}: expected a function, got {_kind(value)}")
        return value
    if origin is Iterable:
        _check(
            isinstance(value, Iterable) and not isinstance(value, str | bytes | Mapping),
            f"{name}: expected a list, got {_kind(value)}",
        )
        return tuple(argument(name, item, args[0]) for item in value)
    if isinstance(hint, type) and hint not in (str, int, float, bool, Path):
        _check(isinstance(value, hint), f"{name}: expected {hint.__name__}, got {_kind(value)}")
        return value
    return _convert(hint, value, name)


def folder(name: str, value: Any) -> Path:
    """The path argument ``name`` of a directory: a ``ConfigError`` when it is not a path
    or names a file."""
    path: Path = argument(name, value, Path)
    _check(not path.exists() or path.is_dir(), f"{name}: {path} is a file, not a directory")
    return path


def _salvage(cls: type[Section], data: Any, where: str, source: str) -> Section:
    """A config dataclass from a stored table, as much of it as this version accepts: the
    required settings first, then each other one in field order, kept if the dataclass
    still builds with it (so checks between settings apply), else warned of and dropped."""
    label = where.rstrip(".") or "config"
    if not isinstance(data, Mapping):
        _warn(source, f"{label}: expected a table, got {_kind(data)}; the defaults are used")
        data = {}
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for name in data:
        if name not in fields:
            _warn(source, f"unknown setting {where}{name} left out")
    required = [
        n for n, f in fields.items()
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    missing = [f"{where}{n}" for n in required if n not in data]
    if missing:
        raise ConfigError(f"{source}: the crawl's config holds no {', '.join(missing)}")
    kept = {n: data[n] for n in required}
    try:
        cls(**kept)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    hints = _hints(cls)
    for name in fields:
        if name in kept or name not in data:
            continue
        value = data[name]
        shown = f"{where}{name}"
        if dataclasses.is_dataclass(hints[name]):
            value = _salvage(hints[name], value, f"{shown}.", source)
        else:
            shown += f" = {_kind(value)}"
        try:
            cls(**kept, **{name: value})
        except ConfigError as exc:
            _warn(source, f"setting {shown} not accepted ({exc}): its default is used")
        else:
            kept[name] = value
    return cls(**kept)


def _warn(source: str, message: str) -> None:
    warnings.warn(f"{source}: {message}", StatecrawlWarning, stacklevel=2)


def _convert(hint: Any, value: Any, where: str) -> Any:
    """``value`` checked against ``hint`` and normalised; ``where`` names the setting."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return value if isinstance(value, hint) else _build(hint, value, where + ".")
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _convert(inner, value, where)
    if origin is tuple:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list | tuple):
            raise ConfigError(f"{where}: expected a list, got {_kind(value)}")
        return tuple(_convert(args[0], item, where) for item in items)
    if origin is Mapping:
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: expected a table, got {_kind(value)}")
        return {
            _convert(args[0], k, where): _convert(args[1], v, where)
            for k, v in value.items()
        }
    if origin is Literal:
        if value not in args or not isinstance(value, str):
            raise ConfigError(
                f"{where}: expected one of {', '.join(map(repr, args))}, got {value!r}"
            )
        return value
    if hint is Path:
        if not isinstance(value, str | PathLike):
            raise ConfigError(f"{where}: expected a path, got {value!r}")
        _no_nul(str(value), where)
        _check(str(value) != "", f"{where}: must not be empty")  # Path("") is the cwd
        return Path(value)
    if hint is float:
        return _number(value, where)
    if hint in (int, str, bool) and (
        not isinstance(value, hint) or (hint is int and isinstance(value, bool))
    ):
        raise ConfigError(f"{where}: expected {hint.__name__}, got {_kind(value)}")
    if hint is str:
        _no_nul(value, where)
    return value


def _number(value: Any, where: str) -> float:
    """A finite float from an int or float setting (never a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{where}: expected a number, got {_kind(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ConfigError(f"{where}: expected a finite number, got {value!r}")
    return number


def _no_nul(text: str, where: str) -> None:
    _check("\x00" not in text, f"{where}: must not contain a NUL character")


def _kind(value: Any) -> str:
    """How a wrong value is shown in a message: short, and on one line."""
    shown = repr(value)
    return shown if len(shown) <= 60 else f"{type(value).__name__} {shown[:50]}..."


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


_guard_constructor(Config, "config")
_guard_constructor(Rule, "rule")
_guard_constructor(ServiceSettings, "serve")
for _section in dataclasses.fields(Config):
    if dataclasses.is_dataclass(_hints(Config)[_section.name]):
        _guard_constructor(_hints(Config)[_section.name], _section.name)
