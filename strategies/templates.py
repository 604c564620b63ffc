"""Templates first: spend the crawl where new code runs.

On a server-rendered application most links lead to pages of a few templates (``/ticket/*``,
``/rev/*``), and some families never end (revisions, diffs, calendars, sort orders).
Breadth-first loads every page of a level before it looks one level down. :class:`Templates`
learns each state's template, the pair of its URL family (:class:`Families`: the report's
URL patterns, learned as URLs come) and its structure skeleton (:func:`skeleton`), and fires
first the links into URL families it has not entered yet, then the work of the first
``SAMPLE`` states of each template and links into families entered fewer than ``SAMPLE``
times, then everything else. Nothing is dropped: it only orders the frontier, so a crawl
that runs to its end finds the same graph as with any other order.
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from ..models.dom import parse
from ..report.groups import PLACEHOLDER, SLUG_VARIANTS, _numeric, _split
from ..state import Snapshot, digest
from .frontier import Work

SAMPLE = 3  # states of one template, and links into one URL family, at full priority


class Families:
    """URL families as URLs come: a URL with every query value, every path segment that
    holds a digit, and a last path segment that took ``SLUG_VARIANTS`` values under the
    same parent, as ``*`` (query keys sorted, no fragment).

    >>> f = Families()
    >>> f.family("http://h/rev/12?sort=name&b=2"), f.family("http://h/about")
    ('h/rev/*?b=*&sort=*', 'h/about')
    """

    def __init__(self) -> None:
        self.slugs: defaultdict[tuple[str, ...], set[str]] = defaultdict(set)

    def see(self, url: str) -> None:
        """Take in a URL: its last path segment is one more value of its parent's."""
        parts = _split(url)
        if parts.path and not _numeric(parts.path[-1]):
            slugs = self.slugs[(parts.host, *parts.path[:-1])]
            if len(slugs) < SLUG_VARIANTS:
                slugs.add(parts.path[-1])

    def family(self, url: str) -> str:
        """The family of ``url`` as far as the URLs seen tell."""
        parts = _split(url)
        path = [PLACEHOLDER if _numeric(s) else s for s in parts.path]
        if path and len(self.slugs.get((parts.host, *parts.path[:-1]), ())) >= SLUG_VARIANTS:
            path[-1] = PLACEHOLDER
        query = "&".join(sorted(f"{k}={PLACEHOLDER}" for k, _ in parts.query))
        return f"{parts.host}/{'/'.join(path)}" + (f"?{query}" if query else "")


def skeleton(html: str) -> str:
    """The digest of a DOM's tag-and-class tree without text, ids or other attributes, each
    run of alike siblings taken once: the pages of one template share it whatever the number
    of rows, comments or revisions they list.

    >>> skeleton("<ul><li>a</li><li>b</li></ul>") == skeleton("<ul><li>c</li></ul>")
    True
    """
    root = parse(html)
    if root is None:
        return digest("")
    # (no recursion: a DOM may be nested deeper than Python's stack) each element is met
    # twice, its children listed the first time and their shapes read the second
    shapes: dict[Any, str] = {}  # element -> its shape, children before parents
    stack: list[tuple[Any, list[Any] | None]] = [(root, None)]
    while stack:
        el, children = stack.pop()
        if children is None:
            children = [c for c in el if isinstance(c.tag, str)]
            stack.append((el, children))
            stack.extend((c, None) for c in children)
            continue
        classes = ".".join(sorted((el.get("class") or "").split()))
        kids = list(dict.fromkeys(shapes.pop(c) for c in children))
        shapes[el] = digest(el.tag, classes, kids)
    return shapes[root]


class TemplateBook:
    """The templates of the states found so far: a new state's score is ``SAMPLE`` for
    the first state of its template, one less for each found before it, down to 0."""

    def __init__(self) -> None:
        self.families = Families()
        self.seen: Counter[tuple[str, str]] = Counter()

    def score(self, snapshot: Snapshot) -> int:
        self.families.see(snapshot.url)
        template = (self.families.family(snapshot.url), skeleton(snapshot.html))
        self.seen[template] += 1
        return max(0, SAMPLE + 1 - self.seen[template])


class Templates:
    """Links into URL families not entered yet first; then the work of states of a template
    still being sampled (:attr:`Work.score` above 0) and links into families entered fewer
    than ``SAMPLE`` times; then the rest. Within each, shallowest then oldest first. A link
    counts as entering its family when it is taken, so the ranks only fall as the crawl
    goes: a heap re-ranks its top lazily."""

    name = "templates"
    scored = "templates"  # the engine gives each work its state's TemplateBook score

    def __init__(self, seed: int = 0) -> None:
        self.families = Families()
        self.entered: Counter[str] = Counter()
        self.heap: list[tuple[int, int, int]] = []  # (rank, depth, order)
        self.items: dict[int, Work] = {}
        self.of_state: defaultdict[str, set[int]] = defaultdict(set)
        self.order = itertools.count()

    def _rank(self, work: Work) -> int:
        family = self.families.family(work.action.action) if work.action.is_link else None
        if family is not None and not self.entered[family]:
            return 0
        if work.score <= 0 or (family is not None and self.entered[family] >= SAMPLE):
            return 2
        return 1

    def push(self, work: Work) -> None:
        if work.action.is_link:
            self.families.see(work.action.action)
        order = next(self.order)
        self.items[order] = work
        self.of_state[work.state].add(order)
        heapq.heappush(self.heap, (self._rank(work), work.depth, order))

    def pop(self, near: Sequence[str] = ()) -> Work | None:
        while self.heap:
            rank, depth, order = self.heap[0]
            work = self.items.get(order)
            if work is None:  # (discarded)
                heapq.heappop(self.heap)
                continue
            now = self._rank(work)
            if now != rank:
                heapq.heapreplace(self.heap, (now, depth, order))
                continue
            heapq.heappop(self.heap)
            del self.items[order]
            self.of_state[work.state].discard(order)
            if not self.of_state[work.state]:
                del self.of_state[work.state]
            if work.action.is_link:
                self.entered[self.families.family(work.action.action)] += 1
            return work
        return None

    def discard(self, state_id: str) -> int:
        orders = self.of_state.pop(state_id, set())
        for order in orders:
            del self.items[order]
        return len(orders)

    def __len__(self) -> int:
        return len(self.items)
