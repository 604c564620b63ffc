"""The frontier: its unit of work, the protocol every order follows, and the built-in orders
(breadth-first, depth-first and seeded random)."""

from __future__ import annotations

import random
from collections import Counter, OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..state import Action


@dataclass(frozen=True, slots=True)
class Work:
    """One (state, action) pair waiting to be fired; ``depth`` is the state's depth;
    ``leaves``: the action is known to take the browser to another page (a link, or a
    script action seen to lead to another URL), so work that stays is done first;
    ``score``: what a scored strategy orders by (see :mod:`.novelty`); ``returns``: the
    action is likely to undo the one that led to its state (see :meth:`Action.undoes`), so
    breadth-first takes it first among its state's work: it brings the browser back where
    the level's work waits, where another would leave it at a state with none, to be reset
    (depth-first and the scored orders go on from the new state instead); ``mutates``: the
    action is known to change server-side state (a POST, a cookie set), so breadth-first
    fires it after the read-only work of its depth, which it could change."""

    state: str
    action: Action
    depth: int
    leaves: bool = field(default=False, compare=False)
    score: float = field(default=0.0, compare=False)
    returns: bool = field(default=False, compare=False)
    mutates: bool = field(default=False, compare=False)


class Strategy(Protocol):
    """Orders the frontier."""

    name: str

    def push(self, work: Work) -> None:
        """Add one (state, action) pair."""
        ...

    def pop(self, near: Sequence[str] = ()) -> Work | None:
        """The next pair to fire, given the states the browser reaches without a load,
        nearest first (none when its state is unknown); ``None`` when empty."""
        ...

    def discard(self, state_id: str) -> int:
        """Drop every pair of ``state_id``; return how many were dropped."""
        ...

    def __len__(self) -> int: ...


class _ByState:
    """Work grouped by state, in insertion order: the common storage of the strategies."""

    def __init__(self) -> None:
        self.groups: OrderedDict[str, deque[Work]] = OrderedDict()
        self.staying: Counter[str] = Counter()  # state -> its work that does not leave
        self.size = 0

    def push(self, work: Work, first: bool = False) -> None:
        """Add ``work`` after its state's others (``first``: before them)."""
        group = self.groups.setdefault(work.state, deque())
        if first:
            group.appendleft(work)
        else:
            group.append(work)
        if not work.leaves:
            self.staying[work.state] += 1
        self.size += 1

    def take(self, state: str, stay: bool = False) -> Work:
        """The first work of ``state``; ``stay``: the first that does not leave its page,
        if it has one."""
        group = self.groups[state]
        if stay and self.staying[state]:
            index = next(i for i, w in enumerate(group) if not w.leaves)
            work = group[index]
            del group[index]
        else:
            work = group.popleft()
        if not work.leaves:
            self.staying[state] -= 1
        if not group:
            del self.groups[state]
            self.staying.pop(state, None)
        self.size -= 1
        return work

    def discard(self, state: str) -> int:
        dropped = len(self.groups.pop(state, ()))
        self.staying.pop(state, None)
        self.size -= dropped
        return dropped


Level = tuple[int, bool]  # a state's depth, and whether the work mutates (it goes after)
# How many levels below the shallowest work a state the browser reaches without a load may be
# for its work to go first. On the demo (4 browsers, one run each, the same graph): 274-279
# resets at one level, 244 at two, 239 at any depth.
NEAR_LEVELS = 2


class BreadthFirst:
    """Shallowest states first; the states the browser reaches without a load (its own
    first, then the nearest) go first when they are no deeper than :data:`NEAR_LEVELS` below
    the shallowest work, which spares resets without changing what a finished crawl finds.
    Among those, work that stays on the page goes before work that leaves it: a detail's
    tabs before its "Back" button, while the browser is there. Work known to change
    server-side state comes after the read-only work of its depth."""

    name = "breadth-first"

    def __init__(self, seed: int = 0) -> None:
        self.levels: dict[Level, _ByState] = {}
        self.level_of: dict[str, set[Level]] = {}

    def push(self, work: Work) -> None:
        level = (work.depth, work.mutates)
        self.levels.setdefault(level, _ByState()).push(work, first=work.returns)
        self.level_of.setdefault(work.state, set()).add(level)

    def pop(self, near: Sequence[str] = ()) -> Work | None:
        if not self.levels:
            return None
        shallowest = min(self.levels)
        window = [
            (level, state)
            for state in near
            for level in sorted(self.level_of.get(state, ()))
            if level[0] <= shallowest[0] + NEAR_LEVELS
            and (not level[1] or level == shallowest)
            and state in self.levels[level].groups
        ]
        for level, state in window:
            if self.levels[level].staying[state]:
                return self._take(level, state, stay=True)
        if window:
            return self._take(*window[0])
        return self._take(shallowest, next(iter(self.levels[shallowest].groups)))

    def _take(self, level: Level, state: str, stay: bool = False) -> Work:
        group = self.levels[level]
        work = group.take(state, stay)
        if state not in group.groups:
            self._left(state, level)
        if not group.size:
            del self.levels[level]
        return work

    def _left(self, state: str, level: Level) -> None:
        """``state`` has no more work at ``level``."""
        levels = self.level_of.get(state, set())
        levels.discard(level)
        if not levels:
            self.level_of.pop(state, None)

    def discard(self, state_id: str) -> int:
        dropped = 0
        for level in self.level_of.pop(state_id, set()):
            dropped += self.levels[level].discard(state_id)
            if not self.levels[level].size:
                del self.levels[level]
        return dropped

    def __len__(self) -> int:
        return sum(level.size for level in self.levels.values())


class DepthFirst:
    """Newest states first, continuing from the browser's own state, or the nearest one it
    reaches without a load, whenever one has work."""

    name = "depth-first"

    def __init__(self, seed: int = 0) -> None:
        self.work = _ByState()

    def push(self, work: Work) -> None:
        self.work.push(work)
        self.work.groups.move_to_end(work.state)

    def pop(self, near: Sequence[str] = ()) -> Work | None:
        if not self.work.size:
            return None
        state = next((s for s in near if s in self.work.groups), None)
        if state is not None:
            return self.work.take(state)
        return self.work.take(next(reversed(self.work.groups)))

    def discard(self, state_id: str) -> int:
        return self.work.discard(state_id)

    def __len__(self) -> int:
        return self.work.size


class RandomOrder:
    """A uniformly random pair each time, reproducible from the seed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)
        self.items: list[Work] = []

    def push(self, work: Work) -> None:
        self.items.append(work)

    def pop(self, near: Sequence[str] = ()) -> Work | None:
        if not self.items:
            return None
        index = self.random.randrange(len(self.items))
        self.items[index], self.items[-1] = self.items[-1], self.items[index]
        return self.items.pop()

    def discard(self, state_id: str) -> int:
        before = len(self.items)
        self.items = [w for w in self.items if w.state != state_id]
        return before - len(self.items)

    def __len__(self) -> int:
        return len(self.items)
