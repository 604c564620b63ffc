"""A server-rendered application of a few templates and many pages, for the templates
strategy: a home page listing every item, item pages, their owners, revision lists and
diffs, an about page and a calendar whose "next month" never ends.

``TEMPLATES`` names each template by the pattern of its paths; :func:`template` tells a
URL's. The home page links every item, so breadth-first loads them all before it sees an
owner, a revision list or a diff, each a level further down.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from urllib.parse import urlsplit

from werkzeug import Request, Response

from statecrawl.plugins.hooks import CrawlView, Plugin, StateEvent
from statecrawl.state import Action, Snapshot

TEMPLATES = {
    "home": r"/",
    "item": r"/item/\d+",
    "user": r"/user/\d+",
    "revisions": r"/item/\d+/revisions",
    "diff": r"/diff",
    "calendar": r"/cal/\d+/\d+",
    "about": r"/about",
}
USERS = 20
REVISIONS = 3


def template(url: str) -> str | None:
    """The template a URL of the app shows, by its path."""
    path = urlsplit(url).path
    return next((name for name, p in TEMPLATES.items() if re.fullmatch(p, path)), None)


def _page(title: str, body: str) -> Response:
    nav = ('<nav><a href="/">Home</a> <a href="/cal/2024/1">Calendar</a> '
           '<a href="/about">About</a></nav>')
    text = (f"<!doctype html><title>{html.escape(title)}</title>{nav}"
            f'<main class="{title.split()[0].lower()}"><h1>{html.escape(title)}</h1>{body}</main>')
    return Response(text, content_type="text/html; charset=utf-8")


def _links(pairs: list[tuple[str, str]]) -> str:
    rows = "".join(f'<li><a href="{h}">{html.escape(t)}</a></li>' for h, t in pairs)
    return f"<ul>{rows}</ul>"


def handler(items: int) -> Callable[[Request], Response]:
    """The app with ``items`` items, as a handler of every path."""

    def answer(request: Request) -> Response:
        path = request.path
        if path == "/":
            listed = [(f"/item/{n}", f"Item {n}") for n in range(1, items + 1)]
            return _page("Tracker home", _links(listed))
        if path == "/about":
            return _page("About the tracker", "<p>A small tracker.</p>")
        if m := re.fullmatch(r"/item/(\d+)", path):
            n = int(m[1])
            links = [(f"/user/{n % USERS}", "Owner"), (f"/item/{n}/revisions", "History")]
            return _page(f"Item {n}", f"<p>Item number {n}.</p>" + _links(links))
        if m := re.fullmatch(r"/item/(\d+)/revisions", path):
            n = int(m[1])
            revs = [(f"/diff?item={n}&rev={r}", f"Revision {r}") for r in range(1, REVISIONS + 1)]
            return _page(f"Revisions of item {n}", _links(revs))
        if path == "/diff":
            item, rev = request.args.get("item", "?"), request.args.get("rev", "?")
            return _page(f"Diff {item}.{rev}", f'<pre class="diff">- old {rev}\n+ new {rev}</pre>')
        if m := re.fullmatch(r"/user/(\d+)", path):
            k = int(m[1])
            owned = [(f"/item/{n}", f"Item {n}") for n in range(1, items + 1) if n % USERS == k]
            return _page(f"User {k}", _links(owned))
        if m := re.fullmatch(r"/cal/(\d+)/(\d+)", path):
            year, month = int(m[1]), int(m[2])
            after = (year + month // 12, month % 12 + 1)
            return _page(f"Calendar {year}-{month:02d}",
                         f'<a class="next" href="/cal/{after[0]}/{after[1]}">Next month</a>')
        return Response("not found", status=404, content_type="text/plain")

    return answer


class Reach(Plugin):
    """Counts the transitions fired, and when each template was first shown: ``first[name]``
    is how many transitions had been fired then."""

    def __init__(self) -> None:
        self.fired = 0
        self.first: dict[str, int] = {}

    def on_transition(self, crawl: CrawlView, source: str, action: Action, target: str,
                      snapshot: Snapshot | None) -> None:
        if snapshot is not None:
            self.fired += 1

    def on_state(self, crawl: CrawlView, event: StateEvent) -> None:
        name = template(event.state.url)
        if name is not None:
            self.first.setdefault(name, self.fired)

    def all_after(self) -> int | None:
        """The transitions fired before every template was shown (``None``: not all were)."""
        return max(self.first.values()) if len(self.first) == len(TEMPLATES) else None

    def reached(self, transitions: int) -> int:
        """The templates shown once ``transitions`` had been fired."""
        return sum(1 for n in self.first.values() if n <= transitions)
