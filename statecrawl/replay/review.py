"""The QA view of a crawl (``qa.html`` beside ``qa.json``, written by ``statecrawl qa``): each
state's recorded picture and its replays side by side, with their scores and misses, the
worst first.

A static page with no script; every crawled string is escaped, and pictures are linked by
their paths relative to the crawl directory (named by state id, never by anything crawled).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from ..directory.layout import QA, QA_VIEW, atomic_write, read_json

STYLE = (
    "body{font:14px sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
    "td,th{padding:6px 8px;vertical-align:top;border-bottom:1px solid #ddd;text-align:left}"
    "img{width:240px;border:1px solid #ccc}.bad{color:#b00}.good{color:#070}"
    "code{font-size:12px;word-break:break-all}ul{margin:4px 0;padding-left:1.2em}"
)


def score(entry: dict[str, Any]) -> float:
    """A state's worst score over the replayers that judged it (1.0 for none)."""
    return min(
        (entry[name]["score"] for name in entry if isinstance(entry[name], dict)), default=1.0
    )


def write_view(directory: Path) -> Path:
    """Write ``qa.html`` of the ``qa.json`` in crawl ``directory``; return its path."""
    data = read_json(directory / QA) or {"replayers": {}, "states": []}
    names = list(data["replayers"])
    heads = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    rows = [_row(entry, names) for entry in sorted(data["states"], key=score)]
    summary = "".join(_summary(n, figures) for n, figures in data["replayers"].items())
    page = (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>statecrawl QA</title>'
        f"<style>{STYLE}</style></head><body><h1>Archive QA</h1><ul>{summary}</ul>"
        f"<p>Thresholds: {html.escape(_thresholds(data.get('thresholds', {})))}.</p>"
        f"<table><tr><th>state</th><th>crawl</th>{heads}</tr>{''.join(rows)}</table>"
        "</body></html>"
    )
    path = directory / QA_VIEW
    atomic_write(path, page)
    return path


def _summary(name: str, figures: dict[str, Any]) -> str:
    if figures.get("error"):
        return f"<li>{html.escape(name)}: not run: {html.escape(figures['error'])}</li>"
    return (
        f"<li><b>{html.escape(name)}</b>: {figures['matched']} of {figures['states']} states "
        f"match ({figures['share']:.1%}), {figures['misses']} requests missing from the "
        f"archive, {figures.get('refused', 0)} refused (out of scope, never fetched), "
        f"{len(figures.get('background', []))} of Chromium's own calls refused, "
        f"{figures['seconds_per_state']:.2f} s a state</li>"
    )


def _thresholds(thresholds: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in thresholds.items())


def _row(entry: dict[str, Any], names: list[str]) -> str:
    title = html.escape(entry.get("title") or entry["id"])
    cells = [
        f"<td><b>{title}</b><br><code>{html.escape(entry['id'])}</code><br>"
        f"<code>{html.escape(entry.get('url') or '')}</code></td>",
        f"<td>{_image(entry.get('recorded'))}</td>",
    ]
    for name in names:
        judged = entry.get(name)
        cells.append(f"<td>{_judged(judged)}</td>" if judged else "<td></td>")
    return f"<tr>{''.join(cells)}</tr>"


def _judged(judged: dict[str, Any]) -> str:
    verdict = "match" if judged["match"] else f"differs: {judged['cause']}"
    pixels = "no picture" if judged["pixels"] is None else f"pixels {judged['pixels']:.3f}"
    misses = "".join(f"<li><code>{html.escape(m)}</code></li>" for m in judged["misses"])
    reason = f"<br>{html.escape(judged['reason'])}" if judged.get("reason") else ""
    return (
        f"{_image(judged.get('picture'))}<br>"
        f'<span class="{"good" if judged["match"] else "bad"}">{html.escape(verdict)}</span>'
        f"<br>{pixels}, text {judged['text']:.3f}{reason}"
        + (f"<ul>{misses}</ul>" if misses else "")
    )


def _image(relative: str | None) -> str:
    if not relative:
        return "(no picture)"
    return f'<img src="{html.escape(relative)}" alt="" loading="lazy">'
