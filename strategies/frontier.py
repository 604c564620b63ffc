"""The built-in frontier orders: breadth-first, depth-first and seeded random."""

from __future__ import annotations

import random
from collections import OrderedDict, deque
from dataclasses import dataclass

from ..state import Action


@dataclass(frozen=True, slots=True)
class Work:
    """One (state, action) pair waiting to be fired; ``depth`` is the state's depth."""

    state: str
    action: Action
    depth: int


class _ByState:
    """Work grouped by state, in insertion order: the common storage of the strategies."""

    def __init__(self) -> None:
        self.groups: OrderedDict[str, deque[Work]] = OrderedDict()
        self.size = 0

    def push(self, work: Work) -> None:
        self.groups.setdefault(work.state, deque()).append(work)
        self.size += 1

    def take(self, state: str, last: bool = False) -> Work:
        group = self.groups[state]
        work = group.pop() if last else group.popleft()
        if not group:
            del self.groups[state]
        self.size -= 1
        return work

    def discard(self, state: str) -> int:
        dropped = len(self.groups.pop(state, ()))
        self.size -= dropped
        return dropped


class BreadthFirst:
    """Shallowest states first; the browser's own state goes first when it is no deeper
    than one level below the shallowest work, which spares resets without changing what a
    finished crawl finds."""

    name = "breadth-first"

    def __init__(self, seed: int = 0) -> None:
        self.levels: dict[int, _ByState] = {}
        self.depth_of: dict[str, int] = {}

    def push(self, work: Work) -> None:
        self.levels.setdefault(work.depth, _ByState()).push(work)
        self.depth_of[work.state] = work.depth

    def pop(self, current: str | None) -> Work | None:
        if not self.levels:
            return None
        shallowest = min(self.levels)
        depth = self.depth_of.get(current) if current is not None else None
        if depth is not None and depth <= shallowest + 1 and current in self.levels[depth].groups:
            return self._take(depth, current)
        return self._take(shallowest, next(iter(self.levels[shallowest].groups)))

    def _take(self, depth: int, state: str) -> Work:
        level = self.levels[depth]
        work = level.take(state)
        if state not in level.groups:
            self.depth_of.pop(state, None)
        if not level.size:
            del self.levels[depth]
        return work

    def discard(self, state_id: str) -> int:
        depth = self.depth_of.pop(state_id, None)
        if depth is None:
            return 0
        dropped = self.levels[depth].discard(state_id)
        if not self.levels[depth].size:
            del self.levels[depth]
        return dropped

    def __len__(self) -> int:
        return sum(level.size for level in self.levels.values())


class DepthFirst:
    """Newest states first, continuing from the browser's own state whenever it has work."""

    name = "depth-first"

    def __init__(self, seed: int = 0) -> None:
        self.work = _ByState()

    def push(self, work: Work) -> None:
        self.work.push(work)
        self.work.groups.move_to_end(work.state)

    def pop(self, current: str | None) -> Work | None:
        if not self.work.size:
            return None
        if current in self.work.groups:
            return self.work.take(current)
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

    def pop(self, current: str | None) -> Work | None:
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
