"""The crawl store in SQLite (standard library, WAL journal): ``OUT/crawl.sqlite``.

Each checkpoint replaces the last one in a single transaction, so a crawl killed at any
moment leaves the previous checkpoint whole. Values that are not keys are JSON text.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from ..errors import ArchiveError
from ..layout import STORE
from .checkpoint import Checkpoint, Run, StateRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT, stop_reason TEXT,
    config TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, attrs TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS edges (
    source TEXT NOT NULL, target TEXT NOT NULL, key TEXT NOT NULL, attrs TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS states (
    id TEXT PRIMARY KEY, key TEXT NOT NULL, url TEXT NOT NULL, title TEXT NOT NULL,
    depth INTEGER NOT NULL, found_at REAL NOT NULL, unreachable INTEGER NOT NULL,
    final INTEGER NOT NULL, snapshot TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS fired (state TEXT NOT NULL, action TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS actions (state TEXT NOT NULL, key TEXT NOT NULL, action TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS effects (action TEXT PRIMARY KEY, urls TEXT NOT NULL,
    targets TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS volatile (name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS tables (name TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS first_loads (url TEXT PRIMARY KEY, html TEXT NOT NULL);
"""
CHECKPOINT_TABLES = (
    "nodes",
    "edges",
    "states",
    "fired",
    "actions",
    "effects",
    "volatile",
    "tables",
    "meta",
)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


class SqliteStore:
    """A crawl's store in one SQLite file; safe to use from several threads."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise ArchiveError(f"cannot open the crawl store {self.path}: {exc}") from None

    def _run(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise ArchiveError(f"crawl store {self.path}: {exc}") from None

    # ---- runs ------------------------------------------------------------------------------
    def start_run(self, config: dict[str, Any], started: str) -> int:
        """Record the start of a run; return its number."""
        self._run("INSERT INTO runs (started, config) VALUES (?, ?)", started, _json(config))
        return int(self._run("SELECT max(id) FROM runs")[0][0])

    def end_run(self, run: int, finished: str, stop_reason: str) -> None:
        """Record how a run ended."""
        self._run(
            "UPDATE runs SET finished = ?, stop_reason = ? WHERE id = ?", finished, stop_reason, run
        )

    def runs(self) -> list[Run]:
        """Every run, first first."""
        rows = self._run("SELECT id, started, finished, stop_reason, config FROM runs ORDER BY id")
        return [Run(i, s, f, r, json.loads(c)) for i, s, f, r, c in rows]

    # ---- first loads --------------------------------------------------------------------------
    def first_load(self, url: str, html: str) -> str:
        """The DOM the first fresh load of ``url`` showed, in this run or an earlier one:
        ``html`` itself if this load is the first. Kept at once, outside checkpoints."""
        rows = self._run("SELECT html FROM first_loads WHERE url = ?", url)
        if rows:
            return str(rows[0][0])
        self._run("INSERT INTO first_loads VALUES (?, ?)", url, html)
        return html

    # ---- checkpoints -------------------------------------------------------------------------
    def save(self, checkpoint: Checkpoint) -> None:
        """Replace the last checkpoint in one transaction."""
        c = checkpoint
        rows: dict[str, list[tuple[Any, ...]]] = {
            "nodes": [(n, _json(a)) for n, a in c.nodes],
            "edges": [(s, t, k, _json(a)) for s, t, k, a in c.edges],
            "states": [
                (
                    s.id,
                    s.key,
                    s.url,
                    s.title,
                    s.depth,
                    s.found_at,
                    int(s.unreachable),
                    int(s.final),
                    _json(s.snapshot),
                )
                for s in c.states
            ],
            "fired": list(c.fired),
            "actions": [(s, k, _json(a)) for s, k, a in c.actions],
            "effects": [(k, _json(u), _json(t)) for k, (u, t) in c.effects.items()],
            "volatile": [(name,) for name in c.volatile],
            "tables": [
                (name, k, _json(v)) for name, table in c.tables.items() for k, v in table.items()
            ],
            "meta": [("stats", _json(c.stats))],
        }
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for table in CHECKPOINT_TABLES:
                    self._db.execute(f"DELETE FROM {table}")
                    if rows[table]:
                        marks = ",".join("?" * len(rows[table][0]))
                        self._db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[table])
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('saved', '1')")
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._db.execute("ROLLBACK")
                raise ArchiveError(f"cannot write the crawl store {self.path}: {exc}") from None

    def load(self) -> Checkpoint | None:
        """The last checkpoint, or ``None`` before the first."""
        if not self._run("SELECT 1 FROM meta WHERE name = 'saved'"):
            return None
        with self._lock:  # one read transaction: a consistent picture
            try:
                self._db.execute("BEGIN")
                get = self._db.execute
                c = Checkpoint(
                    nodes=[
                        (n, json.loads(a)) for n, a in get("SELECT * FROM nodes ORDER BY rowid")
                    ],
                    edges=[
                        (s, t, k, json.loads(a))
                        for s, t, k, a in get("SELECT * FROM edges ORDER BY rowid")
                    ],
                    states=[
                        StateRecord(i, k, u, t, d, f, bool(un), bool(fi), json.loads(snap))
                        for i, k, u, t, d, f, un, fi, snap in get(
                            "SELECT * FROM states ORDER BY rowid"
                        )
                    ],
                    fired=[(s, a) for s, a in get("SELECT * FROM fired")],
                    actions=[(s, k, json.loads(a)) for s, k, a in get("SELECT * FROM actions")],
                    effects={
                        k: (json.loads(u), json.loads(t))
                        for k, u, t in get("SELECT * FROM effects")
                    },
                    volatile=[n for (n,) in get("SELECT name FROM volatile ORDER BY name")],
                    stats=json.loads(
                        get("SELECT value FROM meta WHERE name = 'stats'").fetchone()[0]
                    ),
                )
                for name, k, v in get("SELECT * FROM tables ORDER BY rowid"):
                    c.tables.setdefault(name, {})[k] = json.loads(v)
                self._db.execute("COMMIT")
            except (sqlite3.Error, ValueError, TypeError) as exc:
                raise ArchiveError(f"cannot read the crawl store {self.path}: {exc}") from None
        return c

    def close(self) -> None:
        """Close the database (WAL content is folded into the file)."""
        with self._lock:
            self._db.close()


def open_store(directory: Path) -> SqliteStore:
    """The store of the crawl directory ``directory``."""
    return SqliteStore(Path(directory) / STORE)
