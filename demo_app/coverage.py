"""How much of the demo app a crawl reached, checked against the app's own data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from . import data

TAB = re.compile(
    r'data-tab="(\w+)"[^>]*aria-selected="true"|aria-selected="true"[^>]*data-tab="(\w+)"'
)


@dataclass
class QueryCoverage:
    """For one query: the result pages and details expected, and those the crawl reached."""

    query: str
    pages: set[int] = field(default_factory=set)
    expected_pages: set[int] = field(default_factory=set)
    details: set[str] = field(default_factory=set)
    expected_details: set[str] = field(default_factory=set)

    @property
    def complete(self) -> bool:
        """Every results page and every detail of the query was reached."""
        return self.pages >= self.expected_pages and self.details >= self.expected_details


def coverage(
    states: list[dict[str, Any]], html: dict[str, str], queries: tuple[str, ...], revision: int = 0
) -> dict[str, Any]:
    """Compare crawled states with the demo data at ``revision``.

    ``states`` are state-node attributes (``id``, ``url``), ``html`` their DOMs by id.
    Returns ``{"queries": [QueryCoverage…], "tabs": {number: {tab names}}}``: every
    detail seen and the tabs seen open for it.
    """
    tabs: dict[str, set[str]] = {}
    pages: dict[str, set[int]] = {q: set() for q in queries}
    for state in states:
        parts = urlsplit(state["url"])
        if parts.path.startswith("/patent/"):
            number = parts.path.rsplit("/", 1)[-1]
            match = TAB.search(html[state["id"]])
            tab = (match.group(1) or match.group(2)) if match else None
            seen = tabs.setdefault(number, set())
            if tab:
                seen.add(tab)
        elif parts.path.rstrip("/") == "/search":
            params = parse_qs(parts.query)
            query = params.get("q", [""])[0]
            default_field = params.get("field", ["title"])[0] == "title"
            no_filter = not params.get("from", [""])[0] and not params.get("to", [""])[0]
            if query in pages and default_field and no_filter:
                pages[query].add(int(params.get("page", ["1"])[0]))
    result = []
    for query in queries:
        found = data.search(query, revision=revision)
        count = data.page_count(len(found))
        result.append(
            QueryCoverage(
                query=query,
                pages=pages[query],
                expected_pages=set(range(1, count + 1)),
                details={p["number"] for p in found} & set(tabs),
                expected_details={p["number"] for p in found},
            )
        )
    return {"queries": result, "tabs": tabs}
