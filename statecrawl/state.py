"""Actions and states: what a user can do, what the user sees, and their keys."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from sys import intern
from typing import Any

import xxhash

from . import answers
from .errors import ActionFailed


def digest(*parts: Any) -> str:
    """The xxhash64 of JSON-encoded ``parts`` as 16 hex digits: every key in statecrawl."""
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return xxhash.xxh64_hexdigest(text.encode("utf-8"))


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a user can do in a state: the tuple ``(name, status, event, action)``.

    ``name`` is the element's locator and label, ``status`` its visibility and state,
    ``event`` what is fired and ``action`` what it does (a URL for a link, the values of a
    submit, the handler identity of a script listener). The other fields say how to fire
    it and take no part in its identity.
    """

    name: str
    status: str
    event: str
    action: str
    kind: str = field(default="script", compare=False)
    locator: str = field(default="", compare=False)
    label: str = field(default="", compare=False)
    hover: str | None = field(default=None, compare=False)
    values: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    submitter: str | None = field(default=None, compare=False)
    once: bool = field(default=False, compare=False)  # a ``click_once`` rule selects it
    guarded: str | None = field(default=None, compare=False)  # why the guard keeps it unfired

    @property
    def key(self) -> str:
        """The action's identity: xxhash64 of its tuple."""
        return digest(self.name, self.status, self.event, self.action)

    @property
    def is_link(self) -> bool:
        """A navigation link: its target depends on its URL only, not on the state."""
        return self.kind == "link"

    def undoes(self, other: Action) -> bool:
        """Whether this is likely to undo ``other``: the same control, event and handler,
        whose status ``other`` changed (a section it expanded, a box it checked)."""
        return (
            self.locator == other.locator
            and (self.event, self.action) == (other.event, other.action)
            and self.status != other.status
        )

    def as_tuple(self) -> tuple[str, str, str, str]:
        """The ``(name, status, event, action)`` tuple."""
        return (self.name, self.status, self.event, self.action)

    def spec(self) -> dict[str, Any]:
        """What the page agent needs to find and fire this action."""
        return {
            "locator": self.locator,
            "label": self.label,
            "event": self.event,
            "action": self.action,
            "values": [list(pair) for pair in self.values],
            "submitter": self.submitter,
        }

    def to_data(self) -> dict[str, Any]:
        """Every field as JSON-ready data, for :meth:`from_data` (the crawl store keeps it)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**data, "values": [list(pair) for pair in self.values]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Action:
        """The action :meth:`to_data` gave."""
        return cls(**{**data, "values": tuple(tuple(pair) for pair in data.get("values", ()))})

    @classmethod
    def from_candidate(cls, c: dict[str, Any]) -> Action:
        """Build an action from a candidate the page agent reported."""
        # A page's locators and labels recur in many states: one copy of each in memory.
        return cls(
            name=intern(f"{c['locator']} {json.dumps(c['label'], ensure_ascii=False)}"),
            status=intern(c["status"]),
            event=intern(c["event"]),
            action=c["action"],
            kind=intern(c["kind"]),
            locator=intern(c["locator"]),
            label=intern(c["label"]),
            hover=c.get("hover"),
            values=tuple(tuple(v) for v in c.get("values", ())),
            submitter=c.get("submitter"),
            once=c.get("once", False),
            guarded=c.get("guarded"),
        )


@dataclass(slots=True)
class Snapshot:
    """What the page agent returned after a load or an action settled."""

    url: str
    title: str
    html: str
    form: list[list[str]] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    # candidates left out while something lies over them: locator, label, event, action, covered_by
    covered: list[dict[str, str]] = field(default_factory=list)
    ruled_out: int = 0  # candidates left out by the crawl rules (click, dont_click)
    volatile: list[str] = field(default_factory=list)
    frames: list[dict[str, Any]] | None = None
    dialogs: list[dict[str, str]] = field(default_factory=list)
    popups: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    guarded: list[str] = field(default_factory=list)  # requests the guard kept in: why each
    unprompted: list[str] = field(default_factory=list)  # writes sent with no action, kept in
    # the downloads the page asked for: [URL, the file name it gave or ""]
    saving: list[list[str]] = field(default_factory=list)
    timed_out: bool = False
    settle_ms: int = 0
    snapshot_ms: int = 0  # the agent's time serialising the DOM and finding candidates
    waits_missed: list[str] = field(default_factory=list)  # timing.waits out of time: their css
    navigated: str | None = None
    status: int | None = None
    truncated: bool = False  # the DOM was longer than answers.MAX_HTML and was cut
    session: bool | None = None  # the login's check passed (None: the crawl has no login)
    screenshot: bytes | None = None  # taken with the snapshot by a worker of another process
    thumbnail: bytes | None = None  # likewise (archive.thumbnails)
    missing_images: dict[str, str] = field(default_factory=dict)  # those it could not, and why
    # documents the load or action saved (``download``); ``downloaded``: the load saved a file
    # instead of showing a page, so the page shown is the one before
    downloads: list[dict[str, Any]] = field(default_factory=list)
    downloaded: bool = False

    @classmethod
    def from_agent(cls, data: Any) -> Snapshot:
        """Build a snapshot from the page agent's answer, checked (an ``AgentError`` when
        it is malformed)."""
        return cls(**answers.snapshot(data))

    def meta(self) -> dict[str, Any]:
        """Every field but the DOM, its frames and its images: what the crawl store keeps
        (the DOM is in ``states/``); ``Snapshot(html=..., **meta)`` builds the snapshot back."""
        images = ("screenshot", "thumbnail", "missing_images")
        kept = (f.name for f in fields(self) if f.name not in ("html", "frames", *images))
        return {name: getattr(self, name) for name in kept}

    def actions(self) -> list[Action]:
        """The candidate actions, in page order."""
        return [Action.from_candidate(c) for c in self.candidates]


@dataclass(slots=True)
class State:
    """A distinct DOM state: a node of the state graph."""

    id: str
    key: str
    url: str
    title: str
    depth: int
    found_at: float
    snapshot: Snapshot | None = None
    actions: list[Action] = field(default_factory=list)
    unreachable: bool = False  # cannot be brought back in a browser
    final: bool = False  # kept, but not explored further (it follows a dangerous action)
    score: int = 0  # what a scored strategy orders its work by (see strategies.novelty)


class OptionAbsent(ActionFailed):
    """A popup opened by a ``choose:<k>`` action shows fewer than k + 1 options: there is no
    such action in this state, which is no failure. ``shown``: how many it shows;
    ``snapshot``: the page once Escape closed the popup."""

    def __init__(self, shown: int, snapshot: Snapshot) -> None:
        super().__init__(f"the popup shows only {shown} options")
        self.shown = shown
        self.snapshot = snapshot
