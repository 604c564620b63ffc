"""What a store keeps: checkpoints of a crawl and its runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class StateRecord:
    """A state as the explorer holds it, without its DOM."""

    id: str
    key: str
    url: str
    title: str
    depth: int
    found_at: float
    unreachable: bool = False
    final: bool = False
    snapshot: dict[str, Any] = field(default_factory=dict)  # Snapshot fields but html


@dataclass(slots=True)
class Checkpoint:
    """A consistent picture of a crawl: what resuming it needs."""

    nodes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    edges: list[tuple[str, str, str, dict[str, Any]]] = field(default_factory=list)
    states: list[StateRecord] = field(default_factory=list)
    fired: list[tuple[str, str]] = field(default_factory=list)
    actions: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    effects: dict[str, dict[str, Any]] = field(default_factory=dict)  # action -> evidence
    volatile: list[str] = field(default_factory=list)
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)  # URL -> state, …
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Changes:
    """What a checkpoint changes in the last one: per table, rows to add or replace (values
    in column order) and the keys of rows that are gone. ``replace`` drops every row of the
    last checkpoint first."""

    rows: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    gone: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    replace: bool = False


@dataclass(frozen=True, slots=True)
class Run:
    """One run of a crawl: a first run, or a resumed one."""

    id: int
    started: str
    finished: str | None
    stop_reason: str | None
    config: dict[str, Any]
