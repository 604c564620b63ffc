"""Pagination to the end: the actions that step through a query's results ("Next", numbered
pages, "Load more", infinite scroll), and the walk of each query's result pages, so that a
crawl follows them up to a per-query cap at no cost in depth; no browser."""

from __future__ import annotations

import re

from ..state import Action

_NEXT = re.compile(
    r"^(next( page)?|more|load more|show more|see more|more results|older|forward"
    r"|[\u203a\u00bb>\u2192]+)$"
    r"|^next\W|\W(next|more)$",
    re.I,
)
_NUMBER = re.compile(r"^(?:page\s*)?(\d{1,5})$", re.I)
_SPACE = re.compile(r"\s+")


def pager(action: Action) -> int | str | None:
    """What a pagination action does: ``"next"`` (the page after, or more of the list), a
    page number, or ``None`` for an action that does not page.

    >>> pager(Action("b", "visible", "click", "handler:click", label="Next \u203a"))
    'next'
    >>> pager(Action("b", "visible", "click", "handler:click", label="Page 3"))
    3
    """
    if action.event == "scroll":
        return "next"
    if action.event not in ("click", "keydown:Enter") or action.kind == "submit":
        return None
    label = _SPACE.sub(" ", action.label).strip()
    number = _NUMBER.match(label)
    if number:
        return int(number.group(1))
    return "next" if _NEXT.search(label) else None


class Walks:
    """The result pages of each query: a state a submit led to that lists records is page 1;
    a pagination action in a page leads to the next one (or the one it names), up to
    ``max_pages``, past which it is not fired (``None``: pagination is an action like any
    other)."""

    def __init__(self, max_pages: int | None) -> None:
        self.max_pages = max_pages
        self.pages: dict[str, int] = {}  # state -> its page in its query's results

    def _target(self, source: str | None, action: Action) -> int | None:
        """The page a pagination action in a result page leads to, whatever the cap."""
        if self.max_pages is None or source not in self.pages:
            return None
        kind = pager(action)
        if kind is None:
            return None
        return self.pages[source] + 1 if kind == "next" else int(kind)

    def step(self, source: str, action: Action) -> int | None:
        """The page ``action`` leads to from ``source``, if it pages within the cap."""
        page = self._target(source, action)
        if page is None or self.max_pages is None:
            return None
        return page if 1 < page <= self.max_pages else None

    def beyond(self, source: str, action: Action) -> bool:
        """Whether ``action`` pages past the cap: it is not fired."""
        page = self._target(source, action)
        return page is not None and self.max_pages is not None and page > self.max_pages

    def page(self, parent: str | None, action: Action | None, lists: bool) -> int | None:
        """The page of a new state that ``action`` in ``parent`` led to (``lists``: it shows
        records): the next after a pagination step, 1 after any other action (a query's
        first page, a list sorted another way); else ``None``."""
        if self.max_pages is None or action is None or not lists:
            return None
        target = self._target(parent, action)
        return 1 if target is None else target

    def enter(self, state: str, page: int) -> None:
        """``state`` is ``page`` of its query's results."""
        self.pages.setdefault(state, page)
