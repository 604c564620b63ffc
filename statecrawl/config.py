"""Crawl configuration: one frozen, keyword-only dataclass tree, validated when built.

The tree is built from Python keywords, from CLI flags or from a TOML file; every
component reads it and none reads the environment (browser discovery aside).
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from .errors import ConfigError

DANGEROUS_DEFAULT = (r"(?i)\b(log ?out|sign ?out|log ?off|delete|remove|destroy|unsubscribe)\b",)


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ConfigError(message)


def _check_regexes(name: str, patterns: tuple[str, ...]) -> None:
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"{name}: invalid regular expression {pattern!r}: {exc}") from None


@dataclass(frozen=True, kw_only=True)
class Limits:
    """How far a crawl goes: depth, state count, wall time and per-path bounds.

    ``same_effect_after``: once a script action has led to one same state from states of this
    many different URLs, it is taken to do so everywhere and recorded without being fired
    again (a search box in a page header); ``None`` fires every script action in every state.
    """

    max_depth: int = 3
    max_states: int | None = None
    max_time: float | None = None
    max_actions_per_state: int = 200
    max_states_per_url: int | None = None
    same_effect_after: int | None = 3

    def __post_init__(self) -> None:
        _check(self.max_depth >= 0, "max_depth must be 0 or more")
        _check(self.max_states is None or self.max_states >= 1, "max_states must be 1 or more")
        _check(self.max_time is None or self.max_time > 0, "max_time must be positive seconds")
        _check(self.max_actions_per_state >= 1, "max_actions_per_state must be 1 or more")
        _check(
            self.max_states_per_url is None or self.max_states_per_url >= 1,
            "max_states_per_url must be 1 or more",
        )
        _check(
            self.same_effect_after is None or self.same_effect_after >= 1,
            "same_effect_after must be 1 or more (or unset to always fire)",
        )


@dataclass(frozen=True, kw_only=True)
class Timing:
    """When a page counts as settled, and how long anything may take."""

    quiet_ms: int = 15
    settle_timeout_ms: int = 5000
    timer_ms: int = 400
    load_timeout: float = 30.0
    wait_ms: int = 0

    def __post_init__(self) -> None:
        _check(self.quiet_ms >= 0, "quiet_ms must be 0 or more")
        _check(self.settle_timeout_ms >= self.quiet_ms, "settle_timeout_ms must be >= quiet_ms")
        _check(self.timer_ms >= 0, "timer_ms must be 0 or more")
        _check(self.load_timeout > 0, "load_timeout must be positive seconds")
        _check(self.wait_ms >= 0, "wait_ms must be 0 or more")


@dataclass(frozen=True, kw_only=True)
class Scope:
    """Which URLs belong to the crawl: the start origins unless ``include`` says otherwise.

    The browser itself refuses every request outside the start origins (fetches, images,
    frames, navigations), except to the hosts in ``allow`` (``"cdn.example.com"``,
    ``"*.example.org"``, ``"127.0.0.1:8080"``) for resources a page needs. With ``include``
    patterns the scope is no longer a set of origins, and only navigations are held to it.
    """

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_regexes("scope.include", self.include)
        _check_regexes("scope.exclude", self.exclude)


@dataclass(frozen=True, kw_only=True)
class Inputs:
    """Values typed into form fields, and how other fields are enumerated."""

    values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    default_text: str | None = None
    max_options: int = 5

    def __post_init__(self) -> None:
        values = {
            str(k): (vs,) if isinstance(vs, str) else tuple(str(v) for v in vs)
            for k, vs in dict(self.values).items()
        }
        for name, vs in values.items():
            _check(bool(name), "inputs: a field name must not be empty")
            _check(bool(vs), f"inputs: field {name!r} has no value")
        object.__setattr__(self, "values", types.MappingProxyType(values))
        _check(self.max_options >= 1, "inputs.max_options must be 1 or more")


@dataclass(frozen=True, kw_only=True)
class Browser:
    """Which Chromium to drive and how."""

    binary: str | None = None
    driver: str | None = None
    count: int = 1
    window_width: int = 1280
    window_height: int = 900
    extra_args: tuple[str, ...] = ()
    dialogs: Literal["accept", "dismiss"] = "accept"

    def __post_init__(self) -> None:
        _check(self.count >= 1, "browser.count must be 1 or more")
        _check(self.window_width >= 200 and self.window_height >= 200, "window too small")
        _check(self.dialogs in ("accept", "dismiss"), "browser.dialogs: 'accept' or 'dismiss'")


@dataclass(frozen=True, kw_only=True)
class Archive:
    """What is written to WARC files, and how."""

    enabled: bool = True
    prefix: str = "statecrawl"
    roll_size: int = 1_000_000_000
    dedup: Literal["revisit", "skip"] = "revisit"
    screenshots: bool = True
    include_types: tuple[str, ...] = ()
    exclude_types: tuple[str, ...] = ()
    exclude_extensions: tuple[str, ...] = ()
    max_record_size: int | None = None

    def __post_init__(self) -> None:
        _check(bool(re.fullmatch(r"[\w.-]+", self.prefix)), "archive.prefix: letters, digits, .-_")
        _check(self.roll_size >= 1_000_000, "archive.roll_size must be at least 1 MB")
        _check(self.dedup in ("revisit", "skip"), "archive.dedup: 'revisit' or 'skip'")
        _check(
            self.max_record_size is None or self.max_record_size > 0,
            "archive.max_record_size must be positive",
        )


@dataclass(frozen=True, kw_only=True)
class Config:
    """A whole crawl: where it starts, where it writes, and every setting."""

    start_urls: tuple[str, ...]
    out: Path | None = None
    limits: Limits = field(default_factory=Limits)
    timing: Timing = field(default_factory=Timing)
    scope: Scope = field(default_factory=Scope)
    inputs: Inputs = field(default_factory=Inputs)
    browser: Browser = field(default_factory=Browser)
    archive: Archive = field(default_factory=Archive)
    model: str = "dom"
    strategy: str = "breadth-first"
    seed: int = 0
    dangerous: tuple[str, ...] = DANGEROUS_DEFAULT
    dangerous_policy: Literal["last", "skip"] = "last"

    def __post_init__(self) -> None:
        if isinstance(self.start_urls, str):
            object.__setattr__(self, "start_urls", (self.start_urls,))
        _check(bool(self.start_urls), "give at least one start URL")
        for url in self.start_urls:
            check_url(url)
        if self.out is not None and not isinstance(self.out, Path):
            object.__setattr__(self, "out", Path(self.out))
        _check_regexes("dangerous", self.dangerous)
        _check(self.dangerous_policy in ("last", "skip"), "dangerous_policy: 'last' or 'skip'")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Config:
        """Build a config from nested plain data (a parsed TOML file, keyword options)."""
        return _build(cls, data, "")

    @classmethod
    def from_toml(cls, path: str | Path, **overrides: Any) -> Config:
        """Read a TOML file; ``overrides`` (non-None values) win over the file's values."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {path}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read config file {path}: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
        return cls.from_mapping(merge(data, overrides))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data that ``from_mapping`` turns back into this config."""
        return _plain(self)


def check_url(url: str) -> None:
    """Raise ``ConfigError`` unless ``url`` is an absolute http(s) URL with a host."""
    try:
        parts = urlsplit(url)
    except ValueError:
        raise ConfigError(f"not an absolute http(s) URL: {url!r}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"not an absolute http(s) URL: {url!r}")
    try:
        parts.port  # noqa: B018 - raises on a malformed port
    except ValueError:
        raise ConfigError(f"bad port in URL: {url!r}") from None


def merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge ``overrides`` into ``base``, skipping ``None`` values."""
    merged = dict(base)
    for key, value in overrides.items():
        if value is None:
            continue
        if isinstance(value, Mapping):
            value = merge(merged.get(key) if isinstance(merged.get(key), Mapping) else {}, value)
            if not value and key not in merged:
                continue
        merged[key] = value
    return merged


def _build(cls: type, data: Mapping[str, Any], where: str) -> Any:
    label = where.rstrip(".") or "config"
    if not isinstance(data, Mapping):
        raise ConfigError(f"{label}: expected a table, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{label}: unknown setting(s) {', '.join(unknown)}")
    kwargs = {}
    for name, value in data.items():
        kwargs[name] = _convert(hints[name], value, f"{where}{name}")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"{label}: {exc}") from None


def _convert(hint: Any, value: Any, where: str) -> Any:
    if dataclasses.is_dataclass(hint):
        return _build(hint, value, where + ".")
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
            raise ConfigError(f"{where}: expected a list")
        return tuple(_convert(args[0], item, where) for item in items)
    if origin is Mapping:
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: expected a table")
        return {str(k): _convert(args[1], v, where) for k, v in value.items()}
    if origin is Literal:
        if value not in args:
            raise ConfigError(f"{where}: expected one of {', '.join(map(repr, args))}")
        return value
    if hint is Path:
        if not isinstance(value, str | PathLike):
            raise ConfigError(f"{where}: expected a path, got {value!r}")
        return Path(value)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint in (int, float, str, bool) and (
        not isinstance(value, hint) or (hint is int and isinstance(value, bool))
    ):
        raise ConfigError(f"{where}: expected {hint.__name__}, got {value!r}")
    return value


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
