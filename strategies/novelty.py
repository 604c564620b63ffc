"""Novelty first: the work of states whose arrival showed text no earlier state showed.

A search site offers many permutations of what it has already shown: sort orders, format
variants and filters that list the same records again. Breadth-first spends its time on those
before it reaches the details a few levels down. :class:`Novelty` fires first the actions of
the states that brought the most new words of visible text, so those permutations (which
bring none) wait. It only orders the frontier: a crawl that runs to its end finds the same
graph as with any other order.
"""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Sequence

from ..models.dom import visible_text
from .frontier import Work, _ByState

WORD = re.compile(r"\w{2,}")


def new_words(html: str, seen: set[str]) -> int:
    """How many words of ``html``'s visible text (lower case) are not in ``seen``, which
    takes them in: the score of a state found with that DOM.

    >>> seen = set()
    >>> new_words("<p>Lithium battery</p>", seen), new_words("<p>battery lithium</p>", seen)
    (2, 0)
    """
    words = set(WORD.findall(visible_text(html).lower()))
    new = words - seen
    seen |= new
    return len(new)


class Novelty:
    """The highest :attr:`Work.score` first (the :func:`new_words` of its state), then the
    shallowest, then the oldest; the browser's own state or a near one goes first among
    those of the best score, which spares resets."""

    name = "novelty"
    scored = "novelty"  # the engine gives each work the new words of its state

    def __init__(self, seed: int = 0) -> None:
        self.work = _ByState()
        self.score: dict[str, float] = {}
        self.heap: list[tuple[float, int, int, str]] = []  # (-score, depth, order, state)
        self.order = itertools.count()

    def push(self, work: Work) -> None:
        if work.state not in self.work.groups:
            self.score[work.state] = work.score
            heapq.heappush(self.heap, (-work.score, work.depth, next(self.order), work.state))
        self.work.push(work)

    def pop(self, near: Sequence[str] = ()) -> Work | None:
        while self.heap and self.heap[0][3] not in self.work.groups:
            heapq.heappop(self.heap)  # (a state whose work was all taken or discarded)
        if not self.heap:
            return None
        best = -self.heap[0][0]
        state = next(
            (s for s in near if s in self.work.groups and self.score[s] >= best), self.heap[0][3]
        )
        work = self.work.take(state, stay=True)
        if state not in self.work.groups:
            del self.score[state]
        return work

    def discard(self, state_id: str) -> int:
        self.score.pop(state_id, None)
        return self.work.discard(state_id)

    def __len__(self) -> int:
        return self.work.size


class CoverageFirst(Novelty):
    """As :class:`Novelty`, scored by the JavaScript functions the transition into a state
    ran for the first time in the crawl (``--coverage``): the states whose arrival ran new
    code are explored first."""

    name = "coverage"
    scored = "coverage"
