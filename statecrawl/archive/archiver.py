"""The crawl's archivist: the plugin that hands every exchange and every new state to the
archive writer, takes the states' pictures, and repairs what a killed run lost."""

from __future__ import annotations

import dataclasses
import functools
import logging
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..browser.network import Exchange
from ..browser.screenshot import Images, take
from ..directory import chain
from ..directory.layout import thumbnail_paths
from ..directory.resources import archived_headers, payload_digest
from ..errors import ArchiveError
from ..plugins.hooks import CrawlView, Plugin, StateEvent
from .reading import lost_captures, state_part
from .spool import Spool
from .writer import ArchiveWriter

if TYPE_CHECKING:
    from ..state import Snapshot, State

log = logging.getLogger(__name__)


class Archiver(Plugin):
    """The crawl's archivist: every exchange, and every state's DOM, frames and screenshot
    (``archive.screenshots``: of every state, of none, or of the first state of each URL;
    in an incremental crawl, a URL the earlier crawl has a screenshot of has one).

    A browser's thread takes the pictures of the state it shows (each capture bounded by
    ``archive.capture_timeout``: one given up leaves the state without that picture, said in
    the log, on the state's node as ``missing_images`` and in its frames' record) and hands
    the writes to a :class:`~statecrawl.archive.spool.Spool`, whose thread writes every record and
    file of the archive: no browser waits for a disk. The pictures are made in the browser's
    camera thread meanwhile (see :mod:`statecrawl.browser.pictures`); the spool's thread
    waits for them, and what it learns of them is recorded on the states' nodes by the next
    hook a browser's thread calls (the crawl's lock is not the spool's to take: the crawl
    holds it while it waits for the spool at its end)."""

    needs_network = True
    fatal = (ArchiveError,)  # an archive that cannot be written (a full disk) ends the crawl

    def __init__(self) -> None:
        self.writer: ArchiveWriter | None = None
        self.spool: Spool | None = None
        self.missing = 0  # states with a picture missing
        self._shot_urls: set[str] = set()  # "new-url": the URLs with a screenshot
        self._lock = threading.Lock()  # hooks run in every browser's thread
        self._notes: list[tuple[str, dict[str, Any]]] = []  # the spool's, for the state nodes

    def on_start(self, crawl: CrawlView) -> None:
        config = crawl.config
        info = {"start_urls": list(config.start_urls), "config": config.to_dict()}
        self.writer = ArchiveWriter(crawl.directory.path, config.archive, info)
        if config.resume:
            self._repair(crawl)
        baseline = crawl.baseline
        if baseline is not None:  # what the earlier crawl archived is referred to, not copied
            self.writer.seed(baseline.payloads, baseline.rebase)
            # "new-url": a URL the earlier crawl has a screenshot of has one
            nodes = baseline.graph.nodes(data=True)
            self._shot_urls = {
                baseline.rebase(n["url"]) for _, n in nodes if n.get("screenshot") and n.get("url")
            }
        self.spool = Spool("statecrawl-archive")  # from here, the archive's only writer

    def _repair(self, crawl: CrawlView) -> None:
        """Archive again, from ``states/``, every known state with a record in no WARC file
        (lost from a file cut short): its DOM, screenshot and how it was reached, but not
        its frames, which only the lost record held. Say which files were cut and what was
        lost, in the log and in ``graph.json``."""
        assert self.writer is not None
        graph = crawl.graph()
        archived = set(self.writer.archived_states)  # a recrawl's unchanged states: its chain's
        for path in chain.warc_files(crawl.directory.path, []):
            archived.update(p for h in archived_headers(path) if (p := state_part(h)) is not None)
        found = {}
        for node, attrs in graph.nodes(data=True):
            if attrs.get("kind") != "state":
                continue
            names = {node, *attrs.get("aliases", ())}
            parts = {part for name, part in archived if name in names}
            needed = {"snapshot", "frames", *(["screenshot"] if attrs.get("screenshot") else [])}
            if not needed <= parts:
                found[node] = attrs
        cuts = [
            f"{c.path.name} ended inside a record: cut back from {c.size} bytes to {c.end}"
            for c in self.writer.cuts
        ]
        if not found and not cuts:
            return
        lost = lost_captures(crawl.directory.path, self.writer.files)
        why = "a record of it was in no WARC file"
        for node, attrs in found.items():
            html = (crawl.directory.path / attrs["snapshot"]).read_text(encoding="utf-8")
            shot = crawl.directory.path / attrs["screenshot"] if attrs.get("screenshot") else None
            image = shot.read_bytes() if shot is not None and shot.is_file() else None
            small = chain.locate(crawl.directory.path, *thumbnail_paths(node))
            thumbnail = small.read_bytes() if small.is_file() else None
            parent, action = _way_in(graph, node)
            self.writer.write_state(node, node, attrs.get("url") or "", html, None, image,
                                    parent, action, rearchived=why, thumbnail=thumbnail)
        repairs = [*cuts, f"{len(found)} states archived again from states/ ({why})"]
        if lost:
            repairs.append(f"the captures of {len(lost)} URLs are lost: {', '.join(lost[:3])}"
                           + (" …" if len(lost) > 3 else ""))
        log.warning("archive repaired: %s", "; ".join(repairs))
        crawl.record("archive_repairs", repairs)

    def on_state(self, crawl: CrawlView, event: StateEvent) -> None:
        assert self.writer is not None and self.spool is not None
        self._annotate(crawl)
        state, snapshot, browser, action = event.state, event.snapshot, event.browser, event.action
        writer = self.writer
        earlier = crawl.baseline.records.get(state.key) if crawl.baseline else None
        if earlier is not None and payload_digest(snapshot.html.encode("utf-8")) == earlier.digest:
            # The state as the earlier crawl archived it: a revisit, and no new screenshot.
            self.spool.put(functools.partial(
                writer.write_unchanged_state, state.id, state.key, state.url, earlier))
            return
        settings = crawl.config.archive
        # An unchanged state whose DOM differs in its volatile parts only (a clock) is archived
        # in full, as its bytes are new, but gets no new screenshot.
        shoots = earlier is None and self._shoots(settings.screenshots, state.url)
        if browser is None:  # a browser of another process (a Dask worker) took them
            missing = {part: why for part, why in snapshot.missing_images.items()
                       if part != "screenshot" or shoots}  # fmt: skip
            images = Images(snapshot.screenshot if shoots else None, snapshot.thumbnail, missing)
        else:  # (its pictures are made while the crawl goes on: see _write_state)
            images = take(browser, settings, shoots, later=True)
        attrs: dict[str, Any] = {}
        if images.screenshot is not None:
            attrs["screenshot"] = crawl.directory.screenshot_path(
                state.id, settings.screenshot_format
            )
        if images.missing:
            attrs["missing_images"] = dict(images.missing)
            self._missed(state, images.missing)
        if attrs:
            crawl.annotate(state.id, **attrs)
        described = None
        if action is not None:
            fields = ("name", "status", "event", "action")
            described = {**dict(zip(fields, action.as_tuple(), strict=True)), "key": action.key}
        self.spool.put(functools.partial(
            self._write_state, crawl, state, snapshot, images, event.parent, described))

    def _write_state(
        self,
        crawl: CrawlView,
        state: State,
        snapshot: Snapshot,
        images: Images,
        parent: str | None,
        action: dict[str, Any] | None,
    ) -> None:
        """Write a state's pictures into the crawl's directory and its records, once they
        are made (in the spool's thread)."""
        assert self.writer is not None
        counted = bool(images.missing)
        shooting = "screenshot" in images.coming
        missed = images.arrived(self.writer.settings.capture_timeout)
        if missed:
            self._note(state.id, missing_images=dict(images.missing))
            self._missed(state, missed, counted)
        directory = crawl.directory
        image_format = self.writer.settings.screenshot_format
        if images.screenshot is not None:
            if shooting:
                self._note(state.id, screenshot=directory.screenshot_path(state.id, image_format))
            directory.write_screenshot(state.id, images.screenshot, image_format)
        if images.thumbnail is not None:
            directory.write_thumbnail(state.id, images.thumbnail)
        self.writer.write_state(
            state.id, state.key, state.url, snapshot.html, snapshot.frames, images.screenshot,
            parent, action, thumbnail=images.thumbnail, missing=images.missing,
        )

    def _note(self, state_id: str, **attrs: Any) -> None:
        """Keep ``attrs`` for state ``state_id``'s node, for :meth:`_annotate` (in the spool's
        thread)."""
        with self._lock:
            self._notes.append((state_id, attrs))

    def _annotate(self, crawl: CrawlView) -> None:
        """Record on the states' nodes what the spool's thread noted (in a hook's thread)."""
        with self._lock:
            notes, self._notes = self._notes, []
        for state_id, attrs in notes:
            crawl.annotate(state_id, **attrs)

    def _missed(self, state: State, missing: Mapping[str, str], counted: bool = False) -> None:
        """Count (unless ``counted`` already) and log the pictures ``state`` has none of."""
        with self._lock:
            self.missing += not counted
        for part, why in missing.items():
            log.warning("state %s (%s) has no %s: %s", state.id, state.url, part, why)

    def _shoots(self, mode: str, url: str) -> bool:
        """Whether a new state at ``url`` gets a screenshot in screenshots ``mode``; with
        "new-url", the first state at a URL in this run does, whichever browser found it."""
        if mode != "new-url":
            return mode == "all"
        with self._lock:
            first = url not in self._shot_urls
            self._shot_urls.add(url)
        return first

    def on_exchanges(self, crawl: CrawlView, state: str | None, exchanges: list[Exchange]) -> None:
        assert self.spool is not None
        self._annotate(crawl)
        self.spool.put(functools.partial(self._write_exchanges, state, exchanges))

    def _write_exchanges(self, state: str | None, exchanges: list[Exchange]) -> None:
        """Archive ``exchanges`` (in the spool's thread)."""
        assert self.writer is not None
        for exchange in exchanges:
            self.writer.write_exchange(exchange, state)

    def on_finish(self, crawl: CrawlView) -> None:
        """Wait for the writes handed over, then close the archive."""
        if self.writer is None:
            return
        try:
            if self.spool is not None:
                self.spool.close()
        finally:
            self._annotate(crawl)
            self.writer.close()
            files = [p.name for p in self.writer.files]
            counts = {**dataclasses.asdict(self.writer.stats), "missing_images": self.missing}
            crawl.record("archive", {**counts, "files": files})


def _way_in(graph: Any, state: str) -> tuple[str | None, dict[str, Any] | None]:
    """The state before ``state`` on a shortest way in, and the action that led on."""
    edges = [(graph.nodes[s].get("depth", 0), s, k, d)
             for s, _, k, d in graph.in_edges(state, keys=True, data=True) if s != state]
    if not edges:
        return None, None
    _, source, key, data = min(edges, key=lambda e: (e[0], e[1], e[2]))
    fields = ("name", "status", "event", "action")
    return source, {**{f: data.get(f) for f in fields}, "key": key}

