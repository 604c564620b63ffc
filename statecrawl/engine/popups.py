"""Popup sizes: how many options the popup of a ``choose:<k>`` control shows, learned from the
choices it lacked, so that a choice past them is not tried again in every state.

A ``choose:<k>`` action is offered for the first ``inputs.max_options`` options, as the
options exist only while the popup is open. One that found no k-th option tells how many the
popup showed; in the states after, a choice past that count is left out, as the exhaustive
crawl would find it absent and record nothing. The engine fires a sample of them anyway
(``explore.verify``): a choice past the count that finds its option proves the count wrong
for that control, which is then never used again, and the choices it left out are fired.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..state import Action

CHOOSE = re.compile(r"choose:(\d+)$")


class Popups:
    """The fewest options each control's popup was seen to show (``enabled``: off for the
    exhaustive crawl)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.shown: dict[str, int] = {}  # control (action name) -> fewest options seen
        self.varied: set[str] = set()  # controls whose popup showed more than that later
        self.left_out: dict[str, list[tuple[str, Action]]] = {}  # control -> (state, choice)

    def absent(self, action: Action, shown: int) -> None:
        """``action``'s popup showed only ``shown`` options."""
        if self.enabled and action.name not in self.varied:
            self.shown[action.name] = min(shown, self.shown.get(action.name, shown))

    def beyond(self, action: Action) -> bool:
        """Whether ``action`` chooses past the options its popup is known to show."""
        match = CHOOSE.match(action.action)
        count = self.shown.get(action.name)
        return match is not None and count is not None and int(match.group(1)) >= count

    def leave_out(self, state: str, action: Action) -> None:
        """``action`` was not fired in ``state``: it chooses past the known options."""
        self.left_out.setdefault(action.name, []).append((state, action))

    def chosen(self, action: Action) -> list[tuple[str, Action]]:
        """``action`` found its option: if that was past the known count, the count is
        wrong for good; return the choices left out on its word (to be fired now)."""
        if not self.beyond(action):
            return []
        del self.shown[action.name]
        self.varied.add(action.name)
        return self.left_out.pop(action.name, [])

    def dump(self) -> dict[str, Any]:
        """What a checkpoint keeps, as rows by control: its count, that it varied, the
        choices left out on its word."""
        rows: dict[str, Any] = {f"shown {name}": count for name, count in self.shown.items()}
        rows.update({f"varied {name}": True for name in self.varied})
        for name, left in self.left_out.items():
            rows[f"left {name}"] = [[state, action.to_data()] for state, action in left]
        return rows

    def load(self, rows: Mapping[str, Any]) -> None:
        """Take back what :meth:`dump` kept."""
        for row, value in rows.items():
            kind, _, name = row.partition(" ")
            if kind == "shown":
                self.shown[name] = int(value)
            elif kind == "varied":
                self.varied.add(name)
            elif kind == "left":
                self.left_out[name] = [(state, Action.from_data(data)) for state, data in value]
