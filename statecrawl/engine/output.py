"""What a crawl writes as it goes: checkpoints to the store (what ``--resume`` reads), exports
of ``graph.json`` for the curious, and the naming of states by their final keys."""

from __future__ import annotations

import logging
import time
from dataclasses import asdict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..directory import chain
from ..directory.crawl import Crawl
from ..directory.figures import counts
from ..directory.layout import RECORDS
from ..harvest import records
from ..version import __version__
from .resume import Saver

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from ..config import Config
    from ..directory.crawl import CrawlDirectory
    from ..outage import Outages
    from ..stats import Stats
    from ..store import SqliteStore
    from .memory import Memory

SAVE_EVERY = 1.0  # seconds between checkpoints: at most this much work is lost to a kill
EXPORT_EVERY = 10.0  # seconds between exports of graph.json and graph.graphml during a crawl
EXPORT_SHARE = 20  # ... at least this many times the last export's duration (<= 5 % of time)

log = logging.getLogger(__name__)


class Output:
    """Writes a crawl's memory and figures. ``in_flight`` gives the work browsers are doing
    (not fired yet, for a checkpoint); ``extra`` the small tables of an incremental crawl;
    ``outages`` the periods the crawl's servers failed; ``store`` is the crawl's own, which a
    recrawl's last checkpoint thins down to what changed."""

    def __init__(
        self,
        *,
        config: Config,
        memory: Memory,
        stats: Stats,
        out: CrawlDirectory,
        store: SqliteStore,
        outages: Outages,
        in_flight: Callable[[], list[tuple[str, str]]],
        extra: Callable[[], Mapping[str, Mapping[str, Any]]],
    ) -> None:
        self.config = config
        self.memory = memory
        self.stats = stats
        self.out = out
        self.store = store
        self.outages = outages
        self.in_flight = in_flight
        self.extra = extra
        self.saver = Saver(store)
        self.started_at = datetime.now(UTC)
        self.run_id = 0
        self._last_save = 0.0
        self._last_export = 0.0
        self._export_every = EXPORT_EVERY

    def start(self) -> None:
        """A run of the crawl starts now: recorded in the store."""
        self.started_at = datetime.now(UTC)
        self.run_id = self.store.start_run(self.config.to_dict(), self.started_at.isoformat())
        log.info("run %d of the crawl in %s started", self.run_id, self.out.path)

    def tick(self, reason: str) -> None:
        """A checkpoint every ``SAVE_EVERY`` seconds of the run, an export of the graph
        every ``EXPORT_EVERY`` (more seldom when exports take long)."""
        elapsed = self.stats.elapsed
        if elapsed - self._last_save >= SAVE_EVERY:
            self._last_save = elapsed
            self.checkpoint()
        if elapsed - self._last_export >= self._export_every:
            began = time.monotonic()
            self.write_graph(False, reason)
            self._last_export = elapsed
            # graph.json is an export for the curious; the store is what resume reads
            self._export_every = max(EXPORT_EVERY, EXPORT_SHARE * (time.monotonic() - began))

    def checkpoint(self) -> None:
        """A checkpoint now: work in flight is not counted as fired."""
        self.saver.save(self.memory, asdict(self.stats), self.in_flight(), self.extra())

    def write_graph(self, finished: bool, reason: str) -> None:
        """``graph.json`` and ``graph.graphml`` now, with the crawl's own attributes
        (``reason``: why the crawl stops, or would stop now). The last (``finished``) holds
        the crawl's :func:`.counts` in its stats, as every reader shows them, and ``fired``:
        the actions this run fired (an incremental crawl's graph holds more transitions)."""
        g = self.memory.graph.graph
        g.graph["start_url"] = self.config.start_urls[0]
        g.graph["start_urls"] = list(self.config.start_urls)
        g.graph["config"] = self.config.to_dict()
        g.graph["started"] = self.started_at.isoformat()
        g.graph["finished"] = datetime.now(UTC).isoformat() if finished else None
        g.graph["software"] = f"statecrawl/{__version__}"
        g.graph["volatile"] = sorted(self.memory.volatile)
        g.graph["masks"] = self.masks()
        g.graph["outages"] = [period.to_data() for period in self.outages.seen()]
        g.graph["stats"] = {**asdict(self.stats), "rate": round(self.stats.rate, 3),
                            "stop_reason": reason,
                            "failed_starts": [f["url"] for f in g.graph.get("failures", [])]}
        if finished:  # the run's work stays as "fired": actions fired by this run
            found = asdict(counts(g, self.out.path))
            found["max_depth"] = found.pop("depth")
            g.graph["stats"].update(found, fired=self.stats.transitions)
        self.out.write_graph(self.memory.graph)

    def write_records(self, started: float) -> None:
        """``records.jsonl`` for the run started at ``started`` (``time.monotonic()``), within
        ``limits.max_time``: records cut short at the limit are noted in the graph's
        ``records_cut``."""
        limit = self.config.limits.max_time
        crawl = Crawl(path=self.out.path, graph=self.memory.graph.graph)
        cut = records.write_within(crawl, self.out.path / RECORDS,
                                   None if limit is None else started + limit)  # fmt: skip
        if cut:
            log.warning("records: %s", cut)
            self.memory.graph.graph.graph["records_cut"] = cut

    def masks(self) -> list[dict[str, Any]]:
        """Every name learned as volatile or held back, with its evidence: how it was seen
        to change (``reload``, ``replay``, ``watched``; ``earlier crawl`` for an incremental
        crawl's), on which URL, the share of that page's text it covers, and ``held`` when
        it is not used."""
        masks = self.memory.masks
        names = sorted(self.memory.volatile | masks.keys())
        return [{"name": n, **masks.get(n, {"how": "earlier crawl"})} for n in names]

    def save_final(self, reason: str) -> None:
        """The last checkpoint and how the run ended (``reason``); the store is closed."""
        try:
            self.checkpoint()
            finished = datetime.now(UTC).isoformat()
            self.store.end_run(self.run_id, finished, reason)
            chain.thin(self.store, self.out.path)  # a recrawl keeps what changed
            log.info(
                "run %d ended (%s): %d states, %d transitions",
                self.run_id, reason, self.stats.states, self.stats.transitions,
            )
        finally:
            self.store.close()

    def name_states(self) -> None:
        """Name each state by its final key. Its id was its key when it was found; volatility
        learned later changes keys, so without this the ids would depend on the order of
        discovery (browsers, timing). Old ids stay on the node as ``aliases``."""
        names = {s.id: s.key for s in self.memory.states.values() if s.id != s.key}
        if not names:
            return
        self.out.rename_states(names)
        self.store.rename_snapshots(names)
        self.memory.retarget(names)
        for new in names.values():
            node = self.memory.graph.node(new)
            node["snapshot"] = self.out.snapshot_path(new)
            if node.get("screenshot"):
                node["screenshot"] = self.out.screenshot_path(new)
