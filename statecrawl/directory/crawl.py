"""The crawl directory: where a crawl writes its graph and states, how it is read back, and
how a loaded crawl and its states show in Jupyter."""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import networkx as nx

from ..config import Config, argument, checked, folder
from ..errors import ArchiveError, ConfigError
from . import chain
from .figures import summary
from .graph import StateGraph
from .layout import (
    ARCHIVE,
    GRAPH_JSON,
    GRAPHML,
    LOCK,
    RESERVE,
    RESERVED,
    SCREENSHOT_TYPES,
    STATES,
    atomic_write,
    thumbnail_path,
    thumbnail_paths,
)
from .lock import DirectoryLock
from .paths import describe


class CrawlDirectory:
    """Writes the files of one crawl directory (see the design's directory contract).

    A crawl never mixes with what a directory held: one that holds an earlier crawl is
    refused unless ``overwrite`` is given, and then the new crawl is written beside it and
    takes its place only when :meth:`commit` is called (the old one stays whole until then),
    or ``resume``, to continue it; any other non-empty directory is refused. One run writes a
    directory at a time: its lock is held from here until :meth:`close`.
    """

    def __init__(self, path: Path, *, overwrite: bool = False, resume: bool = False) -> None:
        self.target = Path(path)
        self.path = self.target
        if resume and not is_crawl(self.target):
            raise ArchiveError(f"{self.target} holds no crawl to resume")
        if not is_crawl(self.target) and _entries(self.target) - {LOCK}:
            raise ArchiveError(
                f"{self.target} is not empty and holds no crawl: choose another --out"
            )
        self.created = not self.target.exists()  # removed again by a run that finds nothing
        self.fresh = not resume and not is_crawl(self.target)  # held nothing but a lock
        self.discarded = False
        try:
            self.target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArchiveError(f"cannot create crawl directory {self.target}: {exc}") from None
        # Nothing in the directory is touched before its lock is held (see lock.py).
        self.lock = DirectoryLock(self.target).acquire()
        self.beside: DirectoryLock | None = None  # that of a crawl written beside the target
        try:
            if is_crawl(self.target) and (resume or overwrite):
                chain.keep(self.target, "--resume" if resume else "--overwrite")
            if not resume and is_crawl(self.target):
                if not overwrite:
                    raise ArchiveError(
                        f"{self.target} already holds a crawl: give --resume to continue it, "
                        "--overwrite to replace it, or choose another --out"
                    )
                self.path = Path(
                    tempfile.mkdtemp(prefix=f".{self.target.name}.", dir=self.target.parent)
                )
                self.beside = DirectoryLock(self.path).acquire()
            (self.path / STATES).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.close()
            raise ArchiveError(f"cannot create crawl directory {self.target}: {exc}") from None
        except ArchiveError:
            self.close()
            raise

    def commit(self) -> None:
        """Put a crawl written beside an earlier one in that one's place. Its lock goes with
        it: the target is locked all along."""
        if self.path == self.target:
            return
        old = self.path.with_name(self.path.name + ".old")
        try:
            os.replace(self.target, old)
            os.replace(self.path, self.target)
        except OSError as exc:
            raise ArchiveError(f"cannot replace the crawl in {self.target}: {exc}") from None
        self.lock.release(old)
        assert self.beside is not None
        self.lock, self.beside = self.beside, None
        shutil.rmtree(old, ignore_errors=True)
        self.path = self.target

    def discard(self) -> None:
        """Remove what this run wrote (it found nothing: every start URL failed), so that the
        same command may run again: a crawl written beside an earlier one goes, a directory
        this run found empty is emptied (and removed by :meth:`close` if this run made it).
        An earlier crawl's directory (``--resume``) is never touched."""
        if self.beside is not None:
            self.beside.release(self.path)
            self.beside = None
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = self.target
        elif self.fresh:
            for entry in _entries(self.target) - {LOCK}:
                path = self.target / entry
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)
            self.discarded = True

    def close(self) -> None:
        """Let the directory's lock go: the run writing it has ended. Safe twice."""
        if self.beside is not None:
            self.beside.release(self.path)
        self.lock.release(self.target)
        if self.discarded and self.created:
            with contextlib.suppress(OSError):  # another run may have put something there
                self.target.rmdir()

    def snapshot_path(self, state_id: str) -> str:
        """The snapshot's path relative to the directory, as graph nodes record it."""
        return snapshot_path(state_id)

    def screenshot_path(self, state_id: str, image_format: str | None = None) -> str:
        """The screenshot's path relative to the directory, ``states/<id>.<format>``; with no
        ``image_format``, in the format of the file the state has (a crawl resumed with
        another format holds several), PNG when it has none."""
        if image_format is None:
            image_format = next(
                (f for f in SCREENSHOT_TYPES if (self.path / STATES / f"{state_id}.{f}").is_file()),
                "png",
            )
        return f"{STATES}/{state_id}.{image_format}"

    def write_state(self, state_id: str, html: str, same_as: Path | None = None) -> str:
        """Write a state's serialized DOM; return its relative path. ``same_as``: a file of an
        earlier crawl that may hold the same DOM, linked instead of copied when it does."""
        relative = self.snapshot_path(state_id)
        data = html.encode("utf-8")
        if same_as is not None:
            with contextlib.suppress(OSError):
                if same_as.read_bytes() == data:
                    (self.path / relative).unlink(missing_ok=True)
                    os.link(same_as, self.path / relative)
                    return relative
        atomic_write(self.path / relative, data)
        return relative

    def write_screenshot(self, state_id: str, image: bytes, image_format: str = "png") -> str:
        """Write a state's screenshot, an ``image_format`` image; return its relative path."""
        relative = self.screenshot_path(state_id, image_format)
        atomic_write(self.path / relative, image)
        return relative

    def write_thumbnail(self, state_id: str, image: bytes) -> str:
        """Write a state's thumbnail, a WebP; return its relative path."""
        relative = thumbnail_path(state_id)
        atomic_write(self.path / relative, image)
        return relative

    def rename_states(self, names: dict[str, str]) -> None:
        """Move the files of renamed states (``names``: old id -> new id); a new id may be
        another state's old one, so every file moves aside first."""
        moves = []
        for old, new in names.items():
            for relative in (self.snapshot_path(old), self.screenshot_path(old),
                             *thumbnail_paths(old)):
                path = self.path / relative
                if path.exists():
                    aside = path.with_name(path.name + ".renaming")
                    os.replace(path, aside)
                    moves.append((aside, self.path / relative.replace(old, new)))
        for aside, path in moves:
            os.replace(aside, path)

    def write_graph(self, graph: StateGraph) -> None:
        """Write ``graph.json`` and ``graph.graphml`` (a recrawl's changes, and no GraphML:
        see :func:`.chain.write_graph`). Twice their size (a megabyte at least) is kept in
        reserve, in a file given up when the disk is full, so that the graph of a crawl the
        disk ended is still written."""
        try:
            chain.write_graph(self.path, graph)
        except ArchiveError:
            if not self.release_reserve():
                raise
            chain.write_graph(self.path, graph)
        files = (self.path / GRAPH_JSON, self.path / GRAPHML)
        self.reserve(sum(f.stat().st_size for f in files if f.is_file()))

    def reserve(self, graph_size: int = 0) -> None:
        """Keep disk space for writing a graph of ``graph_size`` bytes (best effort)."""
        with contextlib.suppress(OSError), (self.path / RESERVE).open("ab") as reserve:
            os.posix_fallocate(reserve.fileno(), 0, max(RESERVED, 2 * graph_size))

    def release_reserve(self) -> bool:
        """Give up the space kept for the graph (at the end of a run); whether any was kept."""
        try:
            (self.path / RESERVE).unlink()
        except FileNotFoundError:
            return False
        return True



@dataclass
class Crawl:
    """A finished (or interrupted) crawl, read from its directory.

    ``graph`` is the networkx ``MultiDiGraph`` of states and transitions, ``config`` the
    configuration the crawl ran with, ``stats`` its figures.
    """

    path: Path
    graph: nx.MultiDiGraph[str]

    @property
    def config(self) -> Config:
        """The configuration the crawl ran with, as far as this version knows its settings
        (see :meth:`Config.from_stored`: the others are warned of)."""
        return recorded_config(self.graph, str(self.path / GRAPH_JSON))

    @property
    def stats(self) -> dict[str, Any]:
        """Figures of the run: states, transitions, resets, wall time…"""
        return dict(self.graph.graph.get("stats", {}))

    @property
    def start_url(self) -> str:
        """The first start URL (that of the config when the graph does not say it)."""
        return self.graph.graph.get("start_url") or self.config.start_urls[0]

    def states(self) -> Iterator[dict[str, Any]]:
        """Attributes of every state node, in discovery order."""
        for node, data in self.graph.nodes(data=True):
            if data.get("kind") == "state":
                yield {"id": node, **data}

    def transitions(self) -> Iterator[dict[str, Any]]:
        """Attributes of every transition, its action ``key`` included."""
        for _, _, key, data in self.graph.edges(keys=True, data=True):
            yield {**data, "key": key}

    def html(self, state_id: str) -> str:
        """The serialized DOM of a state (``states/<id>.html`` if the graph does not say)."""
        relative = self.graph.nodes[state_id].get("snapshot") or snapshot_path(state_id)
        try:
            return chain.locate(self.path, relative).read_text(encoding="utf-8")
        except OSError as exc:
            raise ArchiveError(f"cannot read the DOM of state {state_id}: {exc}") from None

    def __len__(self) -> int:
        return sum(1 for _ in self.states())

    def __repr__(self) -> str:
        return f"<Crawl of {self.graph.graph.get('start_url')} in {self.path}: {len(self)} states>"

    def state(self, state_id: str) -> StateView:
        """One state, read-only, by its id or a prefix of it that names one state only."""
        return StateView(self, find_state(self.graph, state_id))

    def _repr_html_(self) -> str:

        return crawl_html(self)


@dataclass(frozen=True)
class StateView:
    """One state of a crawl, read-only: what Jupyter shows of it, and its ways in and out."""

    crawl: Crawl
    id: str

    @property
    def attrs(self) -> dict[str, Any]:
        """The node's attributes (a copy)."""
        return dict(self.crawl.graph.nodes[self.id])

    @property
    def url(self) -> str:
        return self.attrs.get("url") or ""

    @property
    def title(self) -> str:
        return self.attrs.get("title") or ""

    @property
    def depth(self) -> int | None:
        return self.attrs.get("depth")

    @property
    def screenshot(self) -> Path | None:
        """The screenshot file, when the crawl took one; its extension is its format, a key
        of ``SCREENSHOT_TYPES``."""
        relative = self.attrs.get("screenshot")
        path = chain.locate(self.crawl.path, relative) if relative else None
        if path is None or path.suffix[1:] not in SCREENSHOT_TYPES or not path.is_file():
            return None
        return path

    @property
    def thumbnail(self) -> Path | None:
        """The thumbnail file (``archive.thumbnails``), when the crawl took one."""
        path = chain.locate(self.crawl.path, *thumbnail_paths(self.id))
        return path if path.is_file() else None

    @property
    def in_actions(self) -> list[dict[str, Any]]:
        """The transitions that lead here from another state."""
        edges = self.crawl.graph.in_edges(self.id, keys=True, data=True)
        return [{**d, "source": s, "target": t, "key": k} for s, t, k, d in edges if s != t]

    @property
    def out_actions(self) -> list[dict[str, Any]]:
        """The transitions fired here (to this state itself included)."""
        edges = self.crawl.graph.out_edges(self.id, keys=True, data=True)
        return [{**d, "source": s, "target": t, "key": k} for s, t, k, d in edges]

    def html(self) -> str:
        """The serialized DOM."""
        return self.crawl.html(self.id)

    def __repr__(self) -> str:
        return f"<State {self.id} {self.title!r} at {self.url}, depth {self.depth}>"

    def _repr_html_(self) -> str:

        return state_html(self)


def recorded_config(graph: nx.MultiDiGraph[str], source: str) -> Config:
    """The config a crawl's graph recorded (:meth:`Config.from_stored`), its start URLs
    taken from the graph's own attributes when the config lacks them."""
    attrs = graph.graph
    urls = attrs.get("start_urls") or ([attrs["start_url"]] if attrs.get("start_url") else None)
    return Config.from_stored(attrs.get("config"), source, urls)


def find_state(graph: nx.MultiDiGraph[str], state_id: str) -> str:
    """The id of the state named by ``state_id`` or by a prefix of it that names one state
    only; a ``ConfigError`` otherwise."""
    state_id = argument("state_id", state_id, str)
    if state_id in graph:
        return state_id
    found = [n for n in graph if isinstance(n, str) and n.startswith(state_id)] if state_id else []
    if len(found) == 1:
        return found[0]
    what = "several states" if found else "no state"
    raise ConfigError(f"{what} in this crawl with an id starting {state_id!r}")


def snapshot_path(state_id: str) -> str:
    """Where a state's DOM is, relative to its crawl directory."""
    return f"{STATES}/{state_id}.html"


def is_crawl(path: Path) -> bool:
    """Whether ``path`` holds a crawl, finished or not."""
    return any((path / name).exists() for name in (GRAPH_JSON, STATES, ARCHIVE))


def _entries(path: Path) -> set[str]:
    """The names in directory ``path`` (none when it cannot be listed: creating it says why)."""
    try:
        return {entry.name for entry in path.iterdir()}
    except OSError:
        return set()


@checked
def load(path: str | Path) -> Crawl:
    """Read a crawl directory written by :func:`statecrawl.crawl` or ``statecrawl crawl``."""
    path = folder("path", path)
    return Crawl(path=path, graph=chain.read_graph(path).graph)


def loaded(crawl: Any, what: str, name: str = "crawl") -> Crawl:
    if not isinstance(crawl, Crawl):
        raise ConfigError(f"{name}: {what} reads the crawl's files: pass statecrawl.load(DIR)")
    return crawl


# ---- how a crawl and its states show in Jupyter: small HTML, every crawled string escaped
# (crawled pages may be hostile: titles, URLs and labels are text to show, never markup;
# screenshots are inlined as base64 image data, nothing else)

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
    s = summary(crawl)
    depths = ", ".join(f"{d}: {n}" for d, n in s["depths"].items())
    table = _rows(
        [
            ("directory", crawl.path),
            ("start URL", s["start_url"]),
            ("states", s["states"]),
            ("transitions", f"{s['transitions']} fired, {s['inferred']} inferred"),
            ("documents", f"{s['documents']} ({s['downloads']} downloads)"),
            ("out of scope", s["out_of_scope"]),
            ("records", s["records"]),
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
            f"<tr><td>{escape(describe(edge))}</td><td>{escape(edge.get('status', ''))}"
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
