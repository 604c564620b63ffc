"""The earlier crawl an incremental recrawl compares itself with (``crawl --since OLD``).

A :class:`Baseline` reads OLD once: its states and the actions between them (from its store),
its archived payloads and state snapshots (from its WARC files, for revisit records that
point at them), and the resources each state fetched (from its resource index). Before the
recrawl starts it asks the server, with conditional requests, which of those resources
changed: a state whose subtree fetched nothing that changed need not be explored again, only
verified by a sample of its actions (see :class:`statecrawl.engine.Explorer`).
"""

from __future__ import annotations

import logging
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import networkx as nx

from ..directory import chain
from ..directory.crawl import is_crawl, load
from ..directory.layout import ARCHIVE
from ..directory.resources import Seen, archived_headers, payload, payload_digest
from ..errors import ArchiveError
from ..scope import Scope, origin
from ..state import Action, Snapshot
from ..store import open_store

CHECK_TIMEOUT = 10.0  # seconds for one conditional request
CHECK_THREADS = 8  # conditional requests at once
MAX_CHECKED = 10_000  # resources checked at most; past that, all count as changed
SHOWN = 10  # changed resources named in the log

log = logging.getLogger(__name__)


class Baseline:
    """What the crawl in ``path`` found, as seen from a recrawl starting at ``start_urls``.

    When the recrawl's start URLs are served from other origins than OLD's (a demo app on a
    new port), OLD's URLs are read as if on the new origins (``rebase``).
    """

    def __init__(self, path: Path, start_urls: Iterable[str]) -> None:
        path = Path(path)
        if not is_crawl(path):
            raise ArchiveError(f"--since {path}: not a crawl directory (no graph.json)")
        self.path = path
        crawl = load(path)
        self.graph = crawl.graph
        old_starts = self.graph.graph.get("start_urls") or [crawl.start_url]
        self._origins = {
            origin(old): origin(new) for old, new in zip(old_starts, start_urls, strict=False)
        }
        nodes = self.graph.nodes
        self.states = {n for n, a in nodes(data=True) if a.get("kind") == "state"}
        self._ids = {alias: n for n in self.states for alias in nodes[n].get("aliases", ())}
        self._ids.update((n, n) for n in self.states)
        self.volatile: frozenset[str] = frozenset(self.graph.graph.get("volatile") or ())
        self.targets = {(u, k): v for u, v, k in self.graph.edges(keys=True) if v in self.states}
        self.actions: dict[str, list[Action]] = {}  # state -> its actions
        self.loads: dict[str, str] = {}  # a loaded URL (new origin) -> the state it showed
        self.snapshots: dict[str, dict[str, Any]] = {}
        self.history: dict[str, list[int]] = {}
        self._read_store()
        self.payloads: list[Seen] = []  # OLD's archived payloads, on the new origins
        self.records: dict[str, Seen] = {}  # state -> its snapshot's record in OLD's archive
        self._digests: dict[str, str] = {}  # URL (new origin) -> its last payload digest
        for warc in chain.warc_files(path, sorted((path / ARCHIVE).glob("*.warc.gz"))):
            self._read_warc(warc)
        self.dirty: set[str] = set()  # states whose subtree fetched something that changed
        self.changed: set[str] = set()  # resources (new origins) that changed

    # ---- reading OLD --------------------------------------------------------------------------
    def id(self, state_id: str) -> str | None:
        """OLD's final id of a state named ``state_id`` at some time in OLD."""
        return self._ids.get(state_id)

    def rebase(self, url: str) -> str:
        """``url`` of OLD as served to the recrawl."""
        parts = urlsplit(url)
        new = self._origins.get(origin(url)) if parts.scheme in ("http", "https") else None
        if new is None:
            return url
        scheme_host = urlsplit(new)
        return urlunsplit((scheme_host.scheme, scheme_host.netloc, *parts[2:]))

    def _read_store(self) -> None:
        store = open_store(self.path)
        try:
            checkpoint = chain.load_store(store, self.path)
        finally:
            store.close()
        if checkpoint is None:
            return
        for source, _, data in checkpoint.actions:
            state = self.id(source)
            if state is not None:
                self.actions.setdefault(state, []).append(Action.from_data(data))
        for record in checkpoint.states:
            state = self.id(record.id)
            if state is not None:
                self.snapshots[state] = record.snapshot
        self.history = {k: list(v) for k, v in checkpoint.tables.get("history", {}).items()}
        for url, state in checkpoint.tables.get("loads", {}).items():
            if (found := self.id(state)) is not None:
                self.loads[self.rebase(url)] = found

    def _read_warc(self, warc: Path) -> None:
        for headers in archived_headers(warc):
            kind = headers.get_header("WARC-Type")
            uri = headers.get_header("WARC-Target-URI")
            digest = headers.get_header("WARC-Payload-Digest")
            if (seen := payload(headers)) is not None:
                self.payloads.append(seen)
                self._digests[self.rebase(uri)] = seen.digest
            elif kind == "revisit" and digest:
                self._digests[self.rebase(uri)] = digest
            elif kind == "resource" and digest and headers.get_header("WARC-Statecrawl-Key"):
                state = self.id(headers.get_header("WARC-Statecrawl-State") or "")
                if state is not None:
                    self.records[state] = Seen(uri, digest, headers.get_header("WARC-Record-ID"),
                                               headers.get_header("WARC-Date"))

    def snapshot(self, state: str) -> Snapshot:
        """OLD's snapshot of ``state``, its DOM read from OLD's ``states/``."""
        node = self.graph.nodes[state]
        try:
            html = chain.locate(self.path, node["snapshot"]).read_text(encoding="utf-8")
        except (OSError, KeyError) as exc:
            raise ArchiveError(
                f"--since {self.path}: the DOM of state {state} is gone: {exc}"
            ) from None
        meta = self.snapshots.get(state) or {"url": node.get("url"), "title": node.get("title")}
        return Snapshot(html=html, **meta)

    # ---- what changed -------------------------------------------------------------------------
    def check(self, scope: Scope) -> None:
        """Ask the server which of OLD's resources changed (conditional requests where OLD
        recorded an ``ETag`` or a ``Last-Modified``; else the payload digest decides), and mark
        dirty every state that fetched one and the states below it in OLD's tree down to
        those at another URL that fetched something of their own. (The states above it need
        no new visit: the way to it goes through them, and what the recrawl carries over
        from OLD is followed down to what is dirty.)"""
        started = time.monotonic()
        try:
            entries = chain.resources(self.path)
        except ArchiveError:
            entries = []  # a crawl without an archive: nothing known, nothing to skip
            self.dirty = set(self.states)
            return
        checked = [e for e in entries if e.get("status") and self.rebase(e["url"]) in scope]
        if len(checked) > MAX_CHECKED:
            self.dirty = set(self.states)
            return
        fetched: set[str] = set()  # states that fetched something of their own
        with ThreadPoolExecutor(CHECK_THREADS) as pool:
            changed = pool.map(self._changed, checked)
            for entry, is_changed in zip(checked, changed, strict=True):
                states = set(filter(None, map(self.id, entry.get("states", ()))))
                fetched |= states
                if is_changed:
                    self.changed.add(self.rebase(entry["url"]))
                    self.dirty |= states
        # Along the crawl's tree (an action that leads one level deeper; a "Back" up is no
        # tree edge): the states below one that changed may show what it fetched (a
        # single-page app keeps it in memory), down to those at another URL that fetched
        # something of their own, which show that. One at the same URL (a detail's tab that
        # fetched the tab's own content) still shows the rest of the page.
        depth: dict[str, Any] = {n: attrs.get("depth") for n, attrs in self.graph.nodes(data=True)}
        url: dict[str, Any] = {n: attrs.get("url") for n, attrs in self.graph.nodes(data=True)}
        tree = nx.DiGraph(
            (u, v) for u, v in self.graph.edges()
            if u in self.states and v in self.states and depth[v] == depth[u] + 1
        )
        below = [s for s in self.dirty if s in tree]
        while below:
            following = [
                child for state in below for child in tree.successors(state)
                if child not in self.dirty and (child not in fetched or url[child] == url[state])
            ]
            self.dirty.update(following)
            below = following
        log.info(
            "since %s: %d of %d resources changed (checked in %.1f s); %d of %d states to "
            "explore again%s", self.path, len(self.changed), len(checked),
            time.monotonic() - started, len(self.dirty), len(self.states),
            "".join(f"\n  changed: {url}" for url in sorted(self.changed)[:SHOWN]),
        )

    def _changed(self, entry: dict[str, Any]) -> bool:
        url = self.rebase(entry["url"])
        request = urllib.request.Request(url)
        if entry.get("etag"):
            request.add_header("If-None-Match", entry["etag"])
        if entry.get("last_modified"):
            request.add_header("If-Modified-Since", entry["last_modified"])
        try:
            with urllib.request.urlopen(request, timeout=CHECK_TIMEOUT) as response:
                if response.status != entry["status"]:
                    return True
                return payload_digest(response.read()) != self._digests.get(url)
        except urllib.error.HTTPError as exc:  # 304, or an error page recorded as such
            if exc.code == 304:
                return False
            if exc.code != entry["status"]:
                return True
            # An error whose body OLD never kept (the browser's own fetch of a missing
            # /favicon.ico gives none) is the same error: its status is all there is to compare.
            known = self._digests.get(url)
            return known is not None and payload_digest(exc.read()) != known
        except (OSError, ValueError):
            return True  # not known to be the same
