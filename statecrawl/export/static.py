"""A crawl as static HTML: every state a page, every action to another state a link.

``OUT/index.html`` lists the states; ``OUT/states/<id>.html`` is each state's recorded DOM
with scripts removed (see :mod:`statecrawl.replay.rewrite`) and the actions that led to other
states turned into links to their pages: a link's own ``href``, a link around a button's or
a tab's content, and a bar of links at the end of the page for the rest (actions of one
element with several outcomes, such as a search form's queries, or elements inside a shadow
root). Styles, images and fonts come from the archive into ``OUT/assets/`` and are linked
relatively, so the copy opens from ``file://`` and walks by clicking with no request leaving
the machine: the rewriting makes every other link and form target inert.
"""

from __future__ import annotations

import html
import mimetypes
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import lxml.html
import xxhash

from ..analysis import describe, label
from ..config import checked, folder
from ..directory.crawl import Crawl, load
from ..directory.layout import STATES, atomic_write
from ..errors import ArchiveError
from ..redaction import strip_userinfo
from ..replay.index import ArchiveIndex
from ..replay.rewrite import CSP, link_actions, rewrite_css, serialize, static_html

ASSETS = "assets"
INDEX = "index.html"
ACTIONS_HEADING = "Other ways on from this state"


class _Assets:
    """Archived resources saved once each under ``OUT/assets/``, named by their URL's digest."""

    def __init__(self, out: Path, index: ArchiveIndex) -> None:
        self.folder = out / ASSETS
        self.index = index
        self.names: dict[str, str | None] = {}

    def save(self, url: str) -> str | None:
        """The file name of the archived resource at ``url`` (saved now if new), or None
        when the archive has no usable GET of it."""
        if url in self.names:
            return self.names[url]
        self.names[url] = None  # a stylesheet that imports itself stops here
        found = self.index.resource(url)
        if found is None:
            return None
        mime, body = found
        suffix = PurePosixPath(urlsplit(url).path).suffix.lower()
        if not suffix.isascii() or not suffix[1:].isalnum() or len(suffix) > 8:
            suffix = ""
        suffix = suffix or mimetypes.guess_extension(mime) or ".bin"
        name = xxhash.xxh64_hexdigest(url.encode("utf-8")) + suffix
        if mime == "text/css" or suffix == ".css":
            css = rewrite_css(body.decode("utf-8", "replace"), url, self.save)
            body = css.encode("utf-8")
        atomic_write(self.folder / name, body)
        self.names[url] = name
        return name

    def from_page(self, url: str) -> str | None:
        """A resource's path relative to a page in ``OUT/states/``."""
        name = self.save(url)
        return f"../{ASSETS}/{name}" if name else None


@checked
def export_static(directory: Path | str, out: Path | str) -> Path:
    """Write the crawl in ``directory`` as static HTML into ``out``; return ``out/index.html``."""
    crawl = load(folder("directory", directory))
    out = folder("out", out)
    if out.resolve() == crawl.path.resolve():
        raise ArchiveError("--static: write the static copy outside the crawl directory")
    try:
        (out / STATES).mkdir(parents=True, exist_ok=True)
        (out / ASSETS).mkdir(exist_ok=True)
    except OSError as exc:
        raise ArchiveError(f"cannot create {out}: {exc.strerror or exc}") from None
    assets = _Assets(out, ArchiveIndex(crawl.path))
    states = list(crawl.states())
    for state in states:
        page = _state_page(crawl, state, assets)
        atomic_write(out / STATES / f"{state['id']}.html", page)
    atomic_write(out / INDEX, _index_page(crawl, states))
    return out / INDEX


def _state_page(crawl: Crawl, state: dict[str, Any], assets: _Assets) -> str:
    # a copy to share: the URLs of the page lose their userinfo (states/ keeps it as it was)
    page = strip_userinfo(crawl.html(state["id"]))
    root = static_html(page, state.get("url") or "", assets.from_page)
    if root is None:
        root = lxml.html.document_fromstring("<html><body></body></html>")
    actions = []
    seen = set()
    for edge in crawl.state(state["id"]).out_actions:
        target = edge["target"]
        node = crawl.graph.nodes[target]
        if node.get("kind") == "document":  # a download: the archived file, saved as an asset
            href = assets.from_page(node.get("url") or "")
        elif target != state["id"] and node.get("kind") == "state":
            href = f"{target}.html"
        else:
            continue
        locator = label(edge.get("name", ""))[0]
        if href is None or (locator, target) in seen:
            continue
        seen.add((locator, target))
        actions.append((locator, href, describe(edge)))
    link_actions(root, actions, ACTIONS_HEADING)
    return serialize(root)


def _index_page(crawl: Crawl, states: list[dict[str, Any]]) -> str:
    rows = []
    for state in sorted(states, key=lambda s: (s.get("depth") or 0, s.get("found_at") or 0)):
        sid = html.escape(state["id"])
        title = html.escape(state.get("title") or state["id"])
        url = html.escape(state.get("url") or "")
        rows.append(
            f'<li><a href="{STATES}/{sid}.html">{title}</a> <small>depth '
            f"{state.get('depth')} · {url} · <code>{sid}</code></small></li>"
        )
    start = html.escape(crawl.start_url)
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv='
        f'"Content-Security-Policy" content="{CSP}">'
        f"<title>Static copy of {start}</title><style>body{{font:15px sans-serif;margin:2em}}"
        "li{margin:.3em 0}small{color:#666}</style></head><body>"
        f"<h1>Static copy of {start}</h1><p>{len(states)} states, crawled by statecrawl. Each "
        "opens as recorded, without scripts; its actions that led to other states are links."
        f"</p><ol>{''.join(rows)}</ol></body></html>"
    )
