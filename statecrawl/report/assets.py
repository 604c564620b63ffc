"""The archived stylesheets, images and fonts a state's snapshot uses, as report assets.

The report shows a snapshot in a sandboxed frame whose policy loads nothing but inline data,
so a page's resources reach it as ``data:`` URLs: each archived resource a snapshot refers to
becomes one numbered asset, written once as ``data/a/<k>.js``. An image or a font is a
``data:`` URL; a stylesheet is its text with every ``url()`` in it turned into the ``data:``
URL of the archived resource, or dropped (see :func:`statecrawl.replay.rewrite.rewrite_css`);
an ``@import`` is dropped. A state's file lists the URLs its snapshot refers to with their
asset numbers, and the viewer puts the assets in place of those URLs.
"""

from __future__ import annotations

import base64
from pathlib import Path

from ..errors import ArchiveError
from ..replay.index import ArchiveIndex
from ..replay.rewrite import rewrite_css, static_html

MAX_INLINED = 2_000_000  # bytes of one image or font inlined; a larger one is left out
INLINED_TYPES = ("image/", "font/", "application/font-", "application/x-font-")
CSS = "text/css"


class Assets:
    """The assets of a report, numbered in the order snapshots first refer to them."""

    def __init__(self, crawl: Path) -> None:
        self.index = ArchiveIndex(crawl) if (crawl / "archive").is_dir() else None
        self.numbers: dict[str, int | None] = {}
        self.values: list[str] = []

    def of(self, html: str | None, url: str) -> list[tuple[str, int]]:
        """``(URL, asset number)`` of each archived resource the snapshot ``html`` of a page
        at ``url`` loads (its stylesheets, images, and the images of its inline styles)."""
        if self.index is None or not html:
            return []
        found: dict[str, int] = {}

        def note(reference: str) -> str | None:
            number = self._number(reference)
            if number is not None:
                found[reference] = number
            return None

        static_html(html, url, note)
        return list(found.items())

    def _number(self, url: str) -> int | None:
        if url not in self.numbers:
            self.numbers[url] = None  # a stylesheet that refers to itself stops here
            value = self._value(url)
            if value is not None:
                self.numbers[url] = len(self.values)
                self.values.append(value)
        return self.numbers[url]

    def _resource(self, url: str) -> tuple[str, bytes] | None:
        """The archived MIME type and payload of ``url`` (``None``: none, or unreadable)."""
        assert self.index is not None
        try:
            return self.index.resource(url)
        except ArchiveError:
            return None

    def _value(self, url: str) -> str | None:
        """A stylesheet's rewritten text, or an image's or font's ``data:`` URL."""
        found = self._resource(url)
        if found is None:
            return None
        mime, body = found
        if mime == CSS:
            return rewrite_css(body.decode("utf-8", "replace"), url, self._inline)
        return _data_url(mime, body)

    def _inline(self, url: str) -> str | None:
        """What a stylesheet's ``url()`` becomes: the archived image's or font's data URL."""
        found = self._resource(url)
        return _data_url(*found) if found is not None else None


def _data_url(mime: str, body: bytes) -> str | None:
    if not mime.startswith(INLINED_TYPES) or len(body) > MAX_INLINED:
        return None
    return f"data:{mime};base64,{base64.b64encode(body).decode('ascii')}"
