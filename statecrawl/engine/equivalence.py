"""Equivalent controls: two script actions that do one thing (an operation's summary and its
path link, ten lock icons that open one dialog), so that one of them is fired and the other
recorded with the same effect.

Two actions of a state are taken for one control only on evidence, as inference
(:class:`.policy.Inference`) takes a state-independent action:

- in every state both were fired in, they led to the same state, and not back to the state
  they were fired in (a no-op pairs with nothing), in ``after`` states at least;
- each always made the same requests as the other (a "Try it out" of one operation asks for
  another URL than that of the next).

In a state where one was fired, the other is then recorded as leading where that one led,
without being fired. The engine fires a sample of those anyway (``explore.verify``); the
first that leads elsewhere, or a state where both were fired and differed, breaks the pair
for good, and what was recorded through it is fired.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .policy import Requests

# (state, action key) -> the state that action led to when it was fired there (None: it was
# not fired there, or only inferred)
Outcome = Callable[[str, str], str | None]
VARIED = None  # an action's requests differed between firings


class Equivalence:
    """Pairs of script actions seen to do one thing (``after``: in how many states; ``None``
    turns equivalence off, as the exhaustive crawl does)."""

    def __init__(self, after: int | None) -> None:
        self.after = after
        self.made: dict[str, Requests | None] = {}  # action key -> its requests, if always one
        self.agreed: dict[frozenset[str], int] = {}  # pair -> states where both led one way
        self.partners: dict[str, set[str]] = {}  # action key -> keys it agreed with
        self.broken: set[frozenset[str]] = set()
        self.inferred: dict[str, set[str]] = {}  # action key -> states recorded through a pair

    def record(
        self,
        state: str,
        key: str,
        target: str,
        requests: Requests,
        fired: Mapping[str, str],
        together: Callable[[str, str], set[str]],
        outcome: Outcome,
    ) -> dict[str, set[str]]:
        """Action ``key`` was fired in ``state``, made ``requests`` and led to ``target``;
        ``fired``: the other script actions fired there and where each led; ``together(a, b)``:
        the states both actions were fired in. Returns the actions whose recorded effects lost
        their evidence (a pair broke), each with the states to fire it in."""
        lost: dict[str, set[str]] = {}
        if self.after is None:
            return lost
        made = self.made.get(key, requests)
        self.made[key] = made if made == requests else VARIED
        for other, led in fired.items():
            if other == key:
                continue
            pair = frozenset((key, other))
            if pair in self.broken:
                continue
            same = led == target != state and self.made[key] is not VARIED
            same = same and self.made.get(other) == self.made[key]
            if pair in self.agreed:
                if same:
                    self.agreed[pair] += 1
                else:
                    lost.update(self._break(pair))
            elif same:
                # A first agreement: any earlier state with both fired showed them differ.
                earlier = together(key, other) - {state}
                if any(outcome(s, key) != outcome(s, other) or outcome(s, key) == s
                       for s in earlier):  # fmt: skip
                    self.broken.add(pair)
                    continue
                self.agreed[pair] = 1
                self.partners.setdefault(key, set()).add(other)
                self.partners.setdefault(other, set()).add(key)
        return lost

    def known(self, key: str, state: str, outcome: Outcome) -> str | None:
        """Where action ``key`` leads in ``state``, as an equivalent action fired there led;
        ``None`` when no such evidence holds."""
        if self.after is None or self.made.get(key) is VARIED:
            return None
        for other in sorted(self.partners.get(key, ())):
            if self.agreed.get(frozenset((key, other)), 0) < self.after:
                continue
            target = outcome(state, other)
            if target is not None and target != state:
                return target
        return None

    def infer(self, key: str, state: str) -> None:
        """Action ``key`` was recorded in ``state`` through a pair, not fired."""
        self.inferred.setdefault(key, set()).add(state)

    def retract(self, key: str) -> dict[str, set[str]]:
        """A fired check of ``key`` led elsewhere than its pair said: every pair of it is
        broken; the actions recorded through them, each with the states to fire it in."""
        lost: dict[str, set[str]] = {}
        for other in list(self.partners.get(key, ())):
            for k, states in self._break(frozenset((key, other))).items():
                lost.setdefault(k, set()).update(states)
        if self.inferred.get(key):
            lost.setdefault(key, set()).update(self.inferred.pop(key))
        return lost

    def dump(self) -> dict[str, Any]:
        """What a checkpoint keeps, as rows: each action's requests (``None``: they varied),
        each pair's agreements or breakage, the states recorded through each action."""
        rows: dict[str, Any] = {}
        for key, made in self.made.items():
            rows[f"made {key}"] = None if made is VARIED else [list(r) for r in made]
        for pair, count in self.agreed.items():
            rows["agreed " + " ".join(sorted(pair))] = count
        for pair in self.broken:
            rows["broken " + " ".join(sorted(pair))] = True
        for key, states in self.inferred.items():
            rows[f"inferred {key}"] = sorted(states)
        return rows

    def load(self, rows: Mapping[str, Any]) -> None:
        """Take back what :meth:`dump` kept."""
        for row, value in rows.items():
            kind, _, rest = row.partition(" ")
            if kind == "made":
                self.made[rest] = VARIED if value is None else tuple(tuple(r) for r in value)
            elif kind == "agreed":
                a, b = rest.split(" ")
                self.agreed[frozenset((a, b))] = int(value)
                self.partners.setdefault(a, set()).add(b)
                self.partners.setdefault(b, set()).add(a)
            elif kind == "broken":
                self.broken.add(frozenset(rest.split(" ")))
            elif kind == "inferred":
                self.inferred[rest] = set(value)

    def _break(self, pair: frozenset[str]) -> dict[str, set[str]]:
        """Break ``pair`` for good; the states each of its actions was inferred in (the pair
        may have backed them)."""
        self.agreed.pop(pair, None)
        self.broken.add(pair)
        for key in pair:
            self.partners.get(key, set()).difference_update(pair)
        return {k: self.inferred.pop(k) for k in pair if self.inferred.get(k)}
