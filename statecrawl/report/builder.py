"""Build the static report of a crawl directory.

The report is a directory: ``index.html`` with the viewer's own script and style, and data
files the viewer loads on demand. Browsers refuse ``fetch()`` of ``file://`` URLs, so every
data file is a script that hands one JSON value to a registration function of the viewer:

    data/index.js     every node's id, label, title, URL, depth, time found, flags, group (see
                      ``groups.py``) and the node that first reached it (the tree view), and the
                      edges as pairs of node numbers (what the graph, the tree, the list and the
                      search results need)
    data/s/<n>.js     node number ``n`` in full: attributes, its transitions in and out, its DOM
                      snapshot and the DOM-mutation frames that led to it (those two packed:
                      JSON, gzip-compressed, in base64, see :func:`pack`)
    data/t/<k>.js     shard ``k`` of the text index: [term, the numbers of the states whose
                      text holds it, as gaps] pairs
    data/a/<k>.js     asset ``k``: an archived stylesheet, image or font a snapshot uses, which
                      the viewer puts in place of its URL (see ``assets.py``)
    shots/<n>.<format>  the screenshots (png, jpeg or webp, as the crawl took them) of a
                      report outside its crawl directory; one inside it (the default,
                      ``DIR/report``) shows the crawl's own ``states/`` files, by relative
                      URLs, and copies none (see :class:`Pictures`)
    shots/<n>.thumb.jpg the thumbnails (``archive.thumbnails``), likewise
    shots/<n>.before.<extension>  a changed state's picture in the earlier crawl

Every crawled string reaches those scripts JSON-encoded with ``<``, ``>`` and ``&`` escaped
(and everything beyond ASCII, U+2028 and U+2029 included), so no crawled text can close the
script or start markup. Files are named by node number, never by anything crawled.
"""

from __future__ import annotations

import base64
import gzip
import itertools
import json
import os
import re
import shutil
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

from .. import coverage as js_coverage
from ..config import checked, folder
from ..directory import chain
from ..directory.crawl import Crawl, load
from ..directory.figures import counts
from ..directory.label import crawl_labels, first_edge
from ..directory.layout import ARCHIVE, SCREENSHOT_TYPES, THUMBNAILS, link_or_copy, thumbnail_paths
from ..directory.paths import searched_text
from ..errors import ArchiveError
from ..harvest import records
from ..models.dom import structure_digest
from ..outage import Period
from ..redaction import strip_userinfo
from ..stats import guard_summary
from .assets import Assets
from .changes import Comparison, compare
from .groups import group_states

ASSETS = ("index.html", "report.js", "report.css")
SHARDS = 64  # text-index shards, chosen by a term's first two characters (as report.js does)
MAX_TEXT = 50_000  # characters of a state's text that are indexed
MAX_TERM = 40  # longer "words" (hashes, base64) are left out of the index
MAX_LISTED = 1000  # transitions listed per direction in a state's file; the count is kept
MAX_LABEL = 160  # characters of a title or URL in the index (state files hold them whole)
FRAMES_URN = re.compile(r"urn:statecrawl:state:([^:]+):frames")
WORDS = re.compile(r"\w+")

# Node flags, as report.js reads them.
(EXTERNAL, FAILED, UNREACHABLE, DIALOGS, TRUNCATED, TIMED_OUT, SCREENSHOT, THUMBNAILED, NEW,
 CHANGED, DOCUMENT) = (1 << i for i in range(11))


@checked
def build_report(
    directory: str | Path, out: str | Path | None = None, *, against: str | Path | None = None
) -> Path:
    """Write the report of the crawl in ``directory`` to ``out`` (default ``directory/report``)
    and return the path of its ``index.html``. A report already at ``out`` is replaced.
    ``against``: an earlier crawl's directory, whose states the report compares with its own
    (an incremental crawl's report compares with the crawl it was made since by default)."""
    crawl = load(folder("directory", directory))
    changes = compare(crawl, folder("against", against) if against is not None else None)
    target = folder("out", out) if out is not None else crawl.path / "report"
    _check_target(target)
    building = target.with_name(f".{target.name}.building-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    try:
        _write_report(crawl, building, changes, target)
        _replace(building, target)
    except OSError as exc:
        raise ArchiveError(f"cannot write the report to {target}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return target / "index.html"


def script_call(function: str, *args: Any) -> str:
    """``function(arg, ...);`` with each argument as JSON that is safe inside a script."""
    values = ",".join(
        json.dumps(a, ensure_ascii=True, separators=(",", ":"), default=str) for a in args
    )
    safe = values.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f"{function}({safe});\n"


def pack(value: Any) -> str:
    """``value`` as JSON, gzip-compressed, in base64 (report.js unpacks it): a state's DOM and
    frames in a fifth of the bytes their escaped JSON takes, in characters a script holds as
    they are."""
    data = json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=str)
    return base64.b64encode(gzip.compress(data.encode("ascii"), 9, mtime=0)).decode("ascii")


def terms(text: str) -> set[str]:
    """The index terms of ``text``: lower-case words of 2 to ``MAX_TERM`` characters."""
    return {w for w in WORDS.findall(text[:MAX_TEXT].lower()) if 2 <= len(w) <= MAX_TERM}


def shard(term: str) -> int:
    """The text-index shard of a term (report.js computes the same)."""
    return (ord(term[0]) * 31 + ord(term[1])) % SHARDS


def first_reached(graph: Any, nodes: list[str], number: dict[str, int]) -> list[int]:
    """The number of the node whose transition first reached each node (see
    :func:`statecrawl.directory.label.first_edge`), ``-1`` for a root; a loop (depths that
    disagree) is cut where it closes, so the result is a forest."""
    parent = []
    for node in nodes:
        edge = first_edge(graph, node)
        parent.append(number[edge["source"]] if edge is not None else -1)
    walked = [0] * len(parent)  # 0: not yet, 1: on the chain being walked, 2: done
    for n in range(len(parent)):
        steps, k = [], n
        while k >= 0 and not walked[k]:
            walked[k] = 1
            steps.append(k)
            k = parent[k]
        if k >= 0 and walked[k] == 1:  # back on this chain: a loop, cut at the node it closes on
            parent[k] = -1
        for k in steps:
            walked[k] = 2
    return parent


def read_frames(path: Path) -> dict[str, dict[str, Any]]:
    """The frames metadata of each state in the crawl's WARC files, by the id the record
    names (an earlier id of a renamed state is one of its ``aliases``)."""
    found: dict[str, dict[str, Any]] = {}
    archive = path / ARCHIVE
    if not archive.is_dir():
        return found
    files = sorted(archive.glob("*.warc.gz")) + sorted(archive.glob("*.warc.gz.open"))
    for file in files:
        for uri, payload in _metadata_records(file):
            match = FRAMES_URN.fullmatch(uri)
            if match is None or match.group(1) in found:
                continue
            try:
                details = json.loads(payload)
            except ValueError:
                continue
            if isinstance(details, dict):
                found[match.group(1)] = details
    return found


def _metadata_records(file: Path) -> Iterator[tuple[str, bytes]]:
    """``(target URI, payload)`` of each metadata record; a cut-off file yields what it has."""
    try:
        with file.open("rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_type == "metadata":
                    uri = record.rec_headers.get_header("WARC-Target-URI") or ""
                    yield uri, record.content_stream().read()
    except (ArchiveLoadFailed, OSError, EOFError, ValueError):
        return


def _check_target(target: Path) -> None:
    if (
        target.exists()
        and not _is_report(target)
        and (not target.is_dir() or any(target.iterdir()))
    ):
        raise ArchiveError(f"{target} exists and is not a statecrawl report: choose another --out")


def _is_report(path: Path) -> bool:
    return (path / "index.html").is_file() and (path / "data" / "index.js").is_file()


def _replace(building: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists():
        os.replace(building, target)
        return
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    os.replace(target, old)
    os.replace(building, target)
    shutil.rmtree(old, ignore_errors=True)


def _write_report(crawl: Crawl, out: Path, changes: Comparison | None, home: Path) -> None:
    """Write the report that will be at ``home`` to ``out``."""
    graph = crawl.graph
    pictures = Pictures(crawl.path, home, out / "shots")
    nodes = list(graph.nodes)
    number = {node: i for i, node in enumerate(nodes)}
    for node, data in graph.nodes(data=True):
        for alias in data.get("aliases", ()):
            number.setdefault(alias, number[node])
    edges = [(number[s], number[t]) for s, t in graph.edges()]
    depths = _depths(crawl, nodes)
    found = counts(crawl)
    (out / "data" / "s").mkdir(parents=True)
    (out / "data" / "t").mkdir()
    (out / "data" / "a").mkdir()
    (out / "shots").mkdir()
    for name in ASSETS:
        (out / name).write_bytes(resources.files(__package__).joinpath("static", name).read_bytes())
    frames = read_frames(crawl.path)
    labels = crawl_labels(graph, crawl.path)
    assets = Assets(crawl.path)
    marks = changes.marks() if changes is not None else {}
    postings: list[defaultdict[str, list[int]]] = [defaultdict(list) for _ in range(SHARDS)]
    flags = []
    structures: list[str | None] = []
    for n, node in enumerate(nodes):
        data = graph.nodes[node]
        html = _snapshot(crawl.path, data)
        state = data.get("kind") == "state"
        structures.append(structure_digest(html) if state and html else None)
        shot, shot_url = pictures.screenshot(data, n)
        thumbnail = pictures.thumbnail(node, n)
        flags.append(
            _flags(graph, node, data, shot)
            | (THUMBNAILED if thumbnail else 0)
            | {"new": NEW, "changed": CHANGED}.get(marks.get(node, ""), 0)
        )
        for term in terms(searched_text(graph, html) if state and html else ""):
            postings[shard(term)][term].append(n)
        details = {
            **{k: v for k, v in data.items() if k not in ("snapshot", "screenshot")},
            "n": n,
            "label": labels[node],
            "depth": data.get("depth") if state else None,  # a document has none of its own
            "shot": shot,
            "shot_url": shot_url,
            "thumbnail": thumbnail,
            "packed": pack({"html": html, "replay": _replay(frames, data, node, number)}),
            "assets": assets.of(html, str(data.get("url") or "")),
            "change": _change(changes, node, out / "shots", n),
            **_transitions(graph, node, number),
        }
        (out / "data" / "s" / f"{n}.js").write_text(script_call("SC.state", n, details), "ascii")
    for k, value in enumerate(assets.values):
        (out / "data" / "a" / f"{k}.js").write_text(script_call("SC.asset", k, value), "ascii")
    for k, shard_terms in enumerate(postings):
        packed = [[term, _deltas(states)] for term, states in sorted(shard_terms.items())]
        (out / "data" / "t" / f"{k}.js").write_text(script_call("SC.terms", k, packed), "ascii")
    index = {
        "meta": {
            "start_url": graph.graph.get("start_url"),
            "started": graph.graph.get("started"),
            "finished": graph.graph.get("finished"),
            "stats": graph.graph.get("stats", {}),
            "counts": asdict(found),
            "summary": found.describe(),
            "volatile": len(graph.graph.get("volatile") or ()),
            "outages": [Period.from_data(o).describe() for o in graph.graph.get("outages") or ()
                        if isinstance(o, dict)],
            "shards": SHARDS,
            "comparison": changes.summary() if changes is not None else None,
            "coverage": _coverage(crawl.path),
            "records": _records(crawl.path),
            "guard": guard_summary(graph.graph.get("stats", {})),
        },
        "ids": nodes,
        "labels": [_label(labels[node]) for node in nodes],
        "titles": [_label(graph.nodes[node].get("title")) for node in nodes],
        "urls": [_label(graph.nodes[node].get("url")) for node in nodes],
        "depth": depths,
        "found": [_seconds(graph.nodes[node].get("found_at")) for node in nodes],
        "parent": first_reached(graph, nodes, number),
        "flags": flags,
        **_groups(graph, nodes, structures),
        "edges": [n for pair in edges for n in pair],
    }
    (out / "data" / "index.js").write_text(script_call("SC.index", index), "ascii")


def _groups(graph: Any, nodes: list[str], structures: list[str | None]) -> dict[str, Any]:
    """The report's groups: ``group``, each node's group number (``-1`` for none),
    ``groups``, their names, and ``groupUnits``, what their members are: states, grouped by
    URL pattern and structure, and documents apart, by URL pattern (a crawl's downloads
    would otherwise be a fan of single dots)."""
    group = [-1] * len(nodes)
    names: list[str] = []
    units: list[str] = []
    for kind, unit in (("state", "states"), ("document", "documents")):
        urls = [str(graph.nodes[node].get("url") or "")
                if graph.nodes[node].get("kind") == kind else None for node in nodes]
        shapes = structures if kind == "state" else [None] * len(nodes)
        for members in group_states(urls, shapes):
            for n in members.members:
                group[n] = len(names)
            names.append(_label(members.name))
            units.append(unit)
    return {"group": group, "groups": names, "groupUnits": units}


def _seconds(value: Any) -> float | None:
    return round(float(value), 2) if isinstance(value, int | float) else None


def _records(path: Path) -> str | None:
    """The crawl's records per query, for the summary line (if it wrote them; their number
    is in its counts)."""
    counts = records.per_query(path)
    if not counts:
        return None
    each = ", ".join(f"{query or 'no query'} {count}" for query, count in
                     sorted(counts.items(), key=lambda item: (-item[1], item[0])))  # fmt: skip
    return f"records by query: {each}"


def _coverage(path: Path) -> str | None:
    """The crawl's JavaScript coverage in a few words, for the summary line (if recorded)."""
    data = js_coverage.read(path)
    return js_coverage.share(data["total"]) if data else None


def _change(
    changes: Comparison | None, node: str, shots: Path, n: int
) -> dict[str, Any] | None:
    """A changed state's change, with the earlier state's picture linked to
    ``shots/<n>.before.<extension>`` (``before``: that extension, or ``None``)."""
    change = changes.change(node) if changes is not None else None
    if changes is None or change is None:
        return None
    source = changes.before(str(change["old"]))
    before = None
    if source is not None:
        before = next((name for name in THUMBNAILS if source.name.endswith(name)), None)
        before = before or source.suffix[1:]
        link_or_copy(source, shots / f"{n}.before.{before}")
    return {**change, "before": before}


def _depths(crawl: Crawl, nodes: list[str]) -> list[int]:
    """Each node's depth; an external node sits one layer below its shallowest source."""
    graph = crawl.graph
    depths = []
    for node in nodes:
        depth = graph.nodes[node].get("depth")
        if not isinstance(depth, int):
            sources = [graph.nodes[s].get("depth") for s in graph.predecessors(node)]
            depth = min((d + 1 for d in sources if isinstance(d, int)), default=0)
        depths.append(depth)
    return depths


def _snapshot(path: Path, data: dict[str, Any]) -> str | None:
    """A state's DOM as the report shows it: the userinfo of its URLs removed (the report is
    a view to share; only ``states/`` keeps the page as it was)."""
    relative = data.get("snapshot")
    if not isinstance(relative, str):
        return None
    try:
        source = chain.locate(path, relative)
        return strip_userinfo(source.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None


class Pictures:
    """Where the report shows each state's pictures: the crawl's own files, by URLs relative
    to the report, when both are inside the crawl directory (a copy of a report inside it is a
    copy of the crawl); else links (or copies) in the report's ``shots/``."""

    def __init__(self, crawl: Path, home: Path, shots: Path) -> None:
        self.crawl = crawl.resolve()
        self.home = home.resolve()
        self.shots = shots
        self.inside = self.home.is_relative_to(self.crawl)

    def screenshot(self, data: dict[str, Any], n: int) -> tuple[str | None, str | None]:
        """Node ``n``'s screenshot (an unchanged state's of a recrawl: its baseline's): its
        format and URL, or ``None`` twice when it has none in a known format."""
        relative = data.get("screenshot")
        source = chain.locate(self.crawl, relative) if isinstance(relative, str) else None
        image_format = source.suffix[1:] if source is not None else ""
        if source is None or image_format not in SCREENSHOT_TYPES or not source.is_file():
            return None, None
        return image_format, self._url(source, f"{n}.{image_format}")

    def thumbnail(self, node: str, n: int) -> str | None:
        """Node ``n``'s thumbnail's URL, or ``None`` when it has none."""
        source = chain.locate(self.crawl, *thumbnail_paths(node))
        if not source.is_file():
            return None
        return self._url(source, f"{n}.{source.name.split('.', 1)[1]}")

    def _url(self, source: Path, name: str) -> str:
        source = source.resolve()
        if self.inside and source.is_relative_to(self.crawl):
            return quote(Path(os.path.relpath(source, self.home)).as_posix())
        link_or_copy(source, self.shots / name)
        return f"shots/{name}"


def _flags(graph: Any, node: str, data: dict[str, Any], shot: str | None) -> int:
    dialogs = any(d.get("dialogs") for _, _, d in graph.out_edges(node, data=True))
    return (
        (EXTERNAL if data.get("kind") == "external" else 0)
        | (DOCUMENT if data.get("kind") == "document" else 0)
        | (FAILED if data.get("failures") else 0)
        | (UNREACHABLE if data.get("unreachable") else 0)
        | (DIALOGS if dialogs else 0)
        | (TRUNCATED if data.get("truncated") else 0)
        | (TIMED_OUT if data.get("settle_timed_out") else 0)
        | (SCREENSHOT if shot else 0)
    )


def _replay(
    frames: dict[str, dict[str, Any]], data: dict[str, Any], node: str, number: dict[str, int]
) -> dict[str, Any] | None:
    """What led to the state when it was found: the parent's number, the action, the frames."""
    record = next((frames[i] for i in (node, *data.get("aliases", ())) if i in frames), None)
    if record is None or not record.get("frames"):
        return None
    parent = record.get("parent")
    return {
        "parent": number.get(parent) if isinstance(parent, str) else None,
        "action": record.get("action"),
        "frames": record["frames"],
    }


def _transitions(graph: Any, node: str, number: dict[str, int]) -> dict[str, Any]:
    def listed(edges: Any) -> list[dict[str, Any]]:
        out = []
        for source, target, key, data in edges:
            rest = {k: v for k, v in data.items() if k not in ("source", "target")}
            out.append({**rest, "key": key, "s": number[source], "t": number[target]})
            if len(out) == MAX_LISTED:
                break
        return out

    return {
        "in": listed(graph.in_edges(node, keys=True, data=True)),
        "out": listed(graph.out_edges(node, keys=True, data=True)),
        "in_count": graph.in_degree(node),
        "out_count": graph.out_degree(node),
    }


def _deltas(states: list[int]) -> list[int]:
    """Sorted node numbers as gaps from the previous one (smaller files)."""
    return [n - previous for previous, n in itertools.pairwise([0, *states])]


def _label(value: Any) -> str:
    text = str(value) if value is not None else ""
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"
