"""How a crawl and its states show in Jupyter: small HTML, every crawled string escaped.

Crawled pages may be hostile: titles, URLs and labels are text to show, never markup, so each
goes through :func:`html.escape`; screenshots are inlined as base64 image data, nothing else.
"""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import analysis
from .layout import SCREENSHOT_TYPES

if TYPE_CHECKING:
    from .crawl import Crawl, StateView

THUMBNAILS = 6  # screenshots a crawl shows
MAX_IMAGE = 2_000_000  # bytes: a larger screenshot is not inlined
MAX_ROWS = 40  # transitions listed each way for a state

STYLE = (
    "<style>.sc-crawl td,.sc-crawl th{text-align:left;padding:1px 8px;vertical-align:top}"
    ".sc-crawl figure{display:inline-block;margin:4px;width:170px;vertical-align:top}"
    ".sc-crawl figcaption{font-size:11px;overflow-wrap:anywhere}"
    ".sc-crawl img{border:1px solid #ccc;max-width:100%}</style>"
)


def _image(path: Path | None, width: int) -> str:
    """An inline ``<img>`` of a screenshot file (see ``StateView.screenshot``), or nothing
    when there is none (or it is huge)."""
    if path is None or not path.is_file() or path.stat().st_size > MAX_IMAGE:
        return ""
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    kind = SCREENSHOT_TYPES[path.suffix[1:]]
    return f'<img src="data:{kind};base64,{data}" width="{width}" alt="screenshot">'


def _rows(pairs: list[tuple[str, Any]]) -> str:
    return "".join(f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>" for k, v in pairs)


def crawl_html(crawl: Crawl) -> str:
    """A crawl's summary and the screenshots of its first states."""
    s = analysis.summary(crawl)
    depths = ", ".join(f"{d}: {n}" for d, n in s["depths"].items())
    table = _rows(
        [
            ("directory", crawl.path),
            ("start URL", s["start_url"]),
            ("states", s["states"]),
            ("transitions", f"{s['transitions']} fired, {s['inferred']} inferred"),
            ("out of scope", s["out_of_scope"]),
            ("states per depth", depths),
            ("failures", s["failures"]),
            ("unreachable", len(s["unreachable"])),
            ("dead ends", s["dead_ends"]),
            ("volatile parts", len(s["volatile"])),
            ("stopped", s["stop_reason"]),
        ]
    )
    figures: list[str] = []
    for state in crawl.states():
        if len(figures) == THUMBNAILS:
            break
        view = crawl.state(state["id"])
        image = _image(view.screenshot, 160)
        if image:
            caption = f"<code>{escape(view.id[:8])}</code> {escape(view.title)}"
            figures.append(f"<figure>{image}<figcaption>{caption}</figcaption></figure>")
    return f'{STYLE}<div class="sc-crawl"><table>{table}</table>{"".join(figures)}</div>'


def _transitions(view: StateView, edges: list[dict[str, Any]], end: str) -> str:
    """A table of transitions: the action and the state at the other ``end``."""
    graph = view.crawl.graph
    rows = []
    for edge in edges[:MAX_ROWS]:
        other = edge[end]
        attrs = graph.nodes[other]
        place = other if attrs.get("kind", "state") == "state" else attrs.get("url", other)
        rows.append(
            f"<tr><td>{escape(analysis.describe(edge))}</td><td>{escape(edge.get('status', ''))}"
            f"</td><td><code>{escape(place)}</code></td></tr>"
        )
    more = len(edges) - MAX_ROWS
    if more > 0:
        rows.append(f"<tr><td colspan=3>… and {more} more</td></tr>")
    heading = "from" if end == "source" else "to"
    return (
        f"<table><tr><th>action</th><th>status</th><th>{heading}</th></tr>{''.join(rows)}</table>"
    )


def state_html(view: StateView) -> str:
    """A state: its screenshot, title, URL, depth, and the transitions in and out."""
    attrs = view.attrs
    facts = [("id", view.id), ("title", view.title), ("URL", view.url), ("depth", view.depth)]
    if attrs.get("unreachable"):
        facts.append(("unreachable", attrs.get("unreachable_reason", "")))
    for failure in attrs.get("failures", ()):
        facts.append(("failure", f"{failure.get('name', '')}: {failure.get('error', '')}"))
    ins, outs = view.in_actions, view.out_actions
    return (
        f'{STYLE}<div class="sc-crawl">{_image(view.screenshot, 320)}'
        f"<table>{_rows(facts)}</table>"
        f"<p>{len(ins)} ways in</p>{_transitions(view, ins, 'source')}"
        f"<p>{len(outs)} actions out</p>{_transitions(view, outs, 'target')}</div>"
    )
