"""The crawl's policies on actions: which ones are dangerous, and which ones need not be
fired again because their effect is known. Small classes with no browser, so the engine's
decisions are tested on their own."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from .state import Action


class Danger:
    """Actions that may end the session or destroy data (a logout, a delete): matched by
    label, and by URL for links, against the configured patterns."""

    def __init__(self, patterns: Iterable[str], policy: str = "last") -> None:
        self.patterns = [re.compile(p) for p in patterns]
        self.policy = policy  # "last": fired after the others; "skip": never fired

    def __call__(self, action: Action) -> bool:
        return any(
            p.search(action.label) or (action.is_link and p.search(action.action))
            for p in self.patterns
        )

    def order(self, actions: list[Action]) -> list[Action]:
        """The actions worth firing, dangerous ones last or left out."""
        dangerous = [a for a in actions if self(a)]
        if not dangerous:
            return actions
        safe = [a for a in actions if not self(a)]
        return safe if self.policy == "skip" else safe + dangerous


POSITION = re.compile(r":nth-of-type\(\d+\)")


class Leaving:
    """Actions seen to take the browser to another page (a state at another URL), learned
    per family: the event and the element's locator without its positions among siblings,
    so that one item of a list that opens a page tells about all of them. Links leave by
    nature. The frontier does work that stays on a page first, while the browser is there."""

    def __init__(self) -> None:
        self.families: set[tuple[str, str]] = set()

    @staticmethod
    def family(action: Action) -> tuple[str, str]:
        return action.event, POSITION.sub("", action.locator)

    def record(self, action: Action, url: str, target_url: str) -> None:
        """``action``, fired in a state at ``url``, led to a state at ``target_url``."""
        if url != target_url:
            self.families.add(self.family(action))

    def __call__(self, action: Action) -> bool:
        return action.is_link or self.family(action) in self.families


class Effects:
    """What each script action did: the URLs of the states it was fired in and the states
    it led to. An action that led to one same state from states of ``after`` different URLs
    (a search box in a page header) is taken to do so everywhere, once it was seen to lead
    somewhere else than where the browser came from: a "Back" button (``history.back()``)
    fired in pages reached from one list leads to that list every time, but from pages
    reached from another list to that other one."""

    def __init__(self, after: int | None) -> None:
        self.after = after
        self.table: dict[str, tuple[set[str], set[str]]] = {}  # action key -> (URLs, targets)
        self.changed: set[str] = set()  # action keys changed since the crawl store saved them
        # action keys seen to lead elsewhere than to the state the browser came from
        self.independent: set[str] = set()

    def record(self, action: Action, url: str, target: str, came_from: str | None) -> None:
        """``action``, fired in a state at ``url`` that the browser reached from
        ``came_from`` (``None``: by a load), led to ``target``."""
        if action.is_link:  # a link's target is known by its URL, never inferred from this
            return
        urls, targets = self.table.setdefault(action.key, (set(), set()))
        if url not in urls or target not in targets:
            urls.add(url)
            targets.add(target)
            self.changed.add(action.key)
        if target != came_from:
            self.independent.add(action.key)

    def known(self, action: Action) -> str | None:
        """The state ``action`` is known to lead to from anywhere, if any."""
        effect = self.table.get(action.key)
        if self.after is None or action.is_link or effect is None:
            return None
        urls, targets = effect
        if len(urls) < self.after or len(targets) != 1 or action.key not in self.independent:
            return None
        return next(iter(targets))

    def merge(self, old: str, keeper: str) -> None:
        """State ``old`` turned out to be ``keeper``."""
        for key, (_, targets) in self.table.items():
            if old in targets:
                targets.discard(old)
                targets.add(keeper)
                self.changed.add(key)

    def dump(self, keys: Iterable[str]) -> list[tuple[str, list[str], list[str]]]:
        """The rows of ``keys`` as JSON-ready data (for checkpoints)."""
        return [(k, sorted(self.table[k][0]), sorted(self.table[k][1])) for k in keys]

    def load(self, data: Mapping[str, tuple[Iterable[str], Iterable[str]]]) -> None:
        """Replace the table with ``data`` from :meth:`dump`."""
        self.table = {k: (set(urls), set(targets)) for k, (urls, targets) in data.items()}
        self.changed = set(self.table)
