"""The crawl store in SQLite (standard library, WAL journal): ``OUT/crawl.sqlite``.

A checkpoint writes only the rows that changed since the last one, in a single
transaction, so a crawl killed at any moment leaves the previous checkpoint whole and the
cost of a checkpoint does not grow with the crawl. Values that are not keys are JSON text;
the long ones that are read only whole (inference evidence, snapshot metadata, first loads'
DOMs: mostly words and markup over again) are kept zlib-compressed, as BLOBs. The words a
page shows, which the inference evidence of every action fired in it repeats, are kept once
(table ``words``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import threading
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..directory.layout import STORE
from ..errors import ArchiveError, one_line
from ..version import __version__
from .checkpoint import Changes, Checkpoint, Run, StateRecord

VERSION = 8  # PRAGMA user_version of the schema below; 1 rewrote every checkpoint whole, 2
# kept the URLs and targets of actions where 3 keeps their evidence, 4 names the statecrawl
# that wrote it (table ``about``, which every later schema keeps), 5 may hold only the changes
# to a baseline's store (meta ``delta``, table ``gone``; see :mod:`statecrawl.directory.chain`),
# 6 may keep the values of ``PACKED`` compressed, 7 keeps the sets of inference evidence that
# grow with the crawl (sources, targets, inferred) as rows of ``effect_states``, so that a
# checkpoint adds rows where it rewrote the whole evidence of an action (an evidence of schema
# 6 keeps them in itself, and reads as before until the next whole checkpoint rewrites it),
# 8 keeps each distinct set of word lists an evidence holds (``WORDS``) once, as a row of
# ``words`` the evidence names by its digest (an evidence of schema 7 holds its lists itself)
OLDEST = 2  # the oldest schema this version migrates
SCHEMA = """
CREATE TABLE IF NOT EXISTS about (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT, stop_reason TEXT,
    config TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, attrs TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS edges (
    source TEXT NOT NULL, target TEXT NOT NULL, key TEXT NOT NULL, attrs TEXT NOT NULL,
    PRIMARY KEY (source, target, key));
CREATE TABLE IF NOT EXISTS states (
    id TEXT PRIMARY KEY, key TEXT NOT NULL, url TEXT NOT NULL, title TEXT NOT NULL,
    depth INTEGER NOT NULL, found_at REAL NOT NULL, unreachable INTEGER NOT NULL,
    final INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots (state TEXT PRIMARY KEY, meta TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS fired (state TEXT NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (state, action));
CREATE TABLE IF NOT EXISTS actions (state TEXT NOT NULL, key TEXT NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (state, key));
CREATE TABLE IF NOT EXISTS effects (action TEXT PRIMARY KEY, evidence TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS effect_states (action TEXT NOT NULL, role TEXT NOT NULL,
    state TEXT NOT NULL, PRIMARY KEY (action, role, state));
CREATE TABLE IF NOT EXISTS words (id TEXT PRIMARY KEY, words TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS volatile (name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS tables (name TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (name, key));
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS first_loads (url TEXT PRIMARY KEY, html TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS gone (name TEXT PRIMARY KEY, keys TEXT NOT NULL);
"""
# What turns schema N into N + 1, beyond the tables SCHEMA adds. Schema 2's inference evidence
# followed older rules: it goes, and with it the transitions inferred (a resumed crawl fires
# them, or infers them again on new evidence).
_INFERRED = "json_extract({0}.attrs, '$.inferred')"
MIGRATIONS: dict[int, tuple[str, ...]] = {
    2: (
        "DELETE FROM fired WHERE EXISTS (SELECT 1 FROM edges e WHERE e.source = fired.state "
        f"AND e.key = fired.action AND {_INFERRED.format('e')})",
        "DELETE FROM actions WHERE EXISTS (SELECT 1 FROM edges e WHERE e.source = actions.state "
        f"AND e.key = actions.key AND {_INFERRED.format('e')})",
        f"DELETE FROM edges WHERE {_INFERRED.format('edges')}",
        "DROP TABLE IF EXISTS effects",
    ),
}
# checkpoint table -> (its key columns, its other columns, which of those hold JSON)
TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]] = {
    "nodes": (("id",), ("attrs",), frozenset({"attrs"})),
    "edges": (("source", "target", "key"), ("attrs",), frozenset({"attrs"})),
    "states": (
        ("id",),
        ("key", "url", "title", "depth", "found_at", "unreachable", "final"),
        frozenset(),
    ),
    "fired": (("state", "action"), (), frozenset()),
    "actions": (("state", "key"), ("action",), frozenset({"action"})),
    "effects": (("action",), ("evidence",), frozenset({"evidence"})),
    "effect_states": (("action", "role", "state"), (), frozenset()),
    "words": (("id",), ("words",), frozenset({"words"})),
    "volatile": (("name",), (), frozenset()),
    "tables": (("name", "key"), ("value",), frozenset({"value"})),
    "meta": (("name",), ("value",), frozenset({"value"})),
}
# the tables a delta store keeps the changes of: the checkpoint's but ``meta`` (the crawl's own
# figures), and those kept at once
DELTA: dict[str, tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]] = {
    **{name: spec for name, spec in TABLES.items() if name != "meta"},
    "snapshots": (("state",), ("meta",), frozenset({"meta"})),
    "first_loads": (("url",), ("html",), frozenset()),
}
# table -> its column whose values are kept zlib-compressed (a BLOB; a value that would not
# shrink stays text): on the demo the inference evidence took 4.9 MB as text, 0.9 MB so
PACKED = {"effects": "evidence", "snapshots": "meta", "first_loads": "html", "words": "words"}
# the evidence's lists of words (the page's, those shared, those whose counts moved): the
# same in every action fired in one page, kept once in ``words``; the evidence names them
WORDS = ("common", "overlap", "moved")
NAMED = "words"  # the evidence's field that names them
DELTA_PAGE = 1024  # bytes: the page size of a delta store (see SqliteStore.thin)
Row = tuple[Any, ...]
Rows = dict[str, dict[Row, Row]]  # table -> key -> other values, decoded
Gone = dict[str, list[tuple[Any, ...]]]  # table -> keys of the baseline's rows that are gone
# (kept as one row of a JSON list a table: a row and an index entry a key would cost more)


def merge(base: Rows, own: Rows, gone: Gone) -> Rows:
    """The rows of a delta store (``own`` and ``gone``) over those of its baseline."""
    merged = {table: dict(base.get(table, {})) for table in DELTA}
    for table, keys in gone.items():
        for key in keys:
            merged[table].pop(key, None)
    for table, rows in own.items():
        merged[table].update(rows)
    return merged


def _words_apart(effects: list[Row]) -> tuple[list[Row], list[Row]]:
    """Rows of ``effects`` whose lists of words are named by their digest, and the rows of
    ``words`` that hold those lists."""
    rows, words = [], {}
    for action, evidence in effects:
        listed = {k: evidence[k] for k in WORDS if k in evidence}
        if listed:
            digest = hashlib.blake2b(_json(listed).encode("utf-8"), digest_size=16).hexdigest()
            words[digest] = (digest, listed)
            evidence = {k: v for k, v in evidence.items() if k not in listed} | {NAMED: digest}
        rows.append((action, evidence))
    return rows, list(words.values())


def _effects(rows: Rows) -> dict[str, dict[str, Any]]:
    """The inference evidence of each action, with its sets of states (schema 7 keeps them as
    rows of ``effect_states``, schema 6 in the evidence itself) and its words (schema 8 keeps
    them in ``words``, schema 7 in the evidence itself)."""
    sets: dict[str, dict[str, set[str]]] = {}
    for action, role, state in rows["effect_states"]:
        sets.setdefault(action, {}).setdefault(role, set()).add(state)
    words = {k: w for (k,), (w,) in rows["words"].items()}
    effects = {k: e for (k,), (e,) in rows["effects"].items()}
    for evidence in effects.values():
        if NAMED in evidence:
            evidence.update(words[evidence.pop(NAMED)])
    for action, roles in sets.items():
        evidence = effects.setdefault(action, {})
        for role, states in roles.items():
            evidence[role] = sorted(states.union(evidence.get(role, ())))
    return effects


def _checkpoint(rows: Rows, stats: dict[str, Any]) -> Checkpoint:
    """The checkpoint the tables ``rows`` hold."""
    meta = rows["snapshots"]
    c = Checkpoint(
        nodes=[(n, a) for (n,), (a,) in rows["nodes"].items()],
        edges=[(*edge, a) for edge, (a,) in rows["edges"].items()],
        states=[
            StateRecord(i, k, u, t, d, f, bool(un), bool(fi), meta.get((i,), ({},))[0])
            for (i,), (k, u, t, d, f, un, fi) in rows["states"].items()
        ],
        fired=list(rows["fired"]),
        actions=[(*key, a) for key, (a,) in rows["actions"].items()],
        effects=_effects(rows),
        volatile=sorted(n for (n,) in rows["volatile"]),
        stats=stats,
    )
    for (name, k), (v,) in rows["tables"].items():
        c.tables.setdefault(name, {})[k] = v
    return c


def damaged(path: Path, what: object) -> ArchiveError:
    """The one-line error of a store that cannot be read, with the way out."""
    return ArchiveError(
        f"the crawl store {path} is damaged ({one_line(str(what))}): rebuild it from "
        f"graph.json and the WARC files with `statecrawl verify {path.parent} --rebuild-store`"
    )


def _failure(path: Path, doing: str, exc: Exception) -> ArchiveError:
    """The error ``exc`` of SQLite (or of decoding what it read) while ``doing``: damage, with
    the way out, or another failure (a full disk, a lock) as it is."""
    if isinstance(exc, ValueError | TypeError | zlib.error) or (  # UnicodeDecodeError, JSON
        isinstance(exc, sqlite3.DatabaseError)
        and any(w in str(exc) for w in ("malformed", "not a database", "decode"))
    ):
        return damaged(path, exc)
    return ArchiveError(f"{doing} the crawl store {path}: {exc}")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _upsert(table: str) -> str:
    keys, others, _ = TABLES[table]
    columns = keys + others
    marks = ",".join("?" * len(columns))
    update = ", ".join(f"{c} = excluded.{c}" for c in others)
    action = f"DO UPDATE SET {update}" if others else "DO NOTHING"
    return (
        f"INSERT INTO {table} ({','.join(columns)}) VALUES ({marks}) "
        f"ON CONFLICT ({','.join(keys)}) {action}"
    )


def _encode(table: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    keys, others, encoded = {**TABLES, **DELTA}[table]
    return row[: len(keys)] + tuple(
        _pack(_json(v) if c in encoded else v) if c == PACKED.get(table)
        else _json(v) if c in encoded else v
        for c, v in zip(others, row[len(keys) :], strict=True)
    )


def _pack(text: str) -> str | bytes:
    """``text`` zlib-compressed, or itself when that is not smaller."""
    data = text.encode("utf-8")
    packed = zlib.compress(data)
    return packed if len(packed) < len(data) else text


def _unpack(value: Any) -> Any:
    """What :func:`_pack` was given (a value of any other column: itself)."""
    return zlib.decompress(value).decode("utf-8") if isinstance(value, bytes) else value


class SqliteStore:
    """A crawl's store in one SQLite file; safe to use from several threads."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise ArchiveError(f"cannot open the crawl store {self.path}: {exc}") from None
        try:
            self._prepare()
        except BaseException:
            self._db.close()
            raise

    def _prepare(self) -> None:
        """Create the schema in a fresh store, migrate an older one, refuse a newer one."""
        db = self._db
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            if self._schema() is not None and (problems := self.check(quick=True)):
                raise damaged(self.path, problems[0])
            if self._schema() != VERSION:
                db.execute("BEGIN IMMEDIATE")  # and read again: one process migrates it
                version = self._schema()
                if version != VERSION:
                    steps = [] if version is None else self._migrations(version)
                    for statement in [*steps, *SCHEMA.split(";")]:
                        db.execute(statement)
                    db.execute("INSERT OR REPLACE INTO about VALUES ('statecrawl', ?)",
                               (__version__,))
                    db.execute(f"PRAGMA user_version = {VERSION}")
                db.execute("COMMIT")
            db.executescript(SCHEMA)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise _failure(self.path, "cannot open", exc) from None

    def check(self, quick: bool = False) -> list[str]:
        """What SQLite finds wrong in the file (``PRAGMA integrity_check``, or the faster
        ``quick_check``, which skips comparing indexes with their tables): nothing when whole."""
        pragma = "quick_check" if quick else "integrity_check"
        rows = [str(r[0]) for r in self._db.execute(f"PRAGMA {pragma}(20)").fetchall()]
        return [] if rows == ["ok"] else rows

    def _schema(self) -> int | None:
        """The store's schema version; ``None`` for an empty file."""
        if not self._db.execute("SELECT 1 FROM sqlite_master").fetchone():
            return None
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrations(self, version: int) -> list[str]:
        """The statements that bring a store of schema ``version`` to ``VERSION``; an
        ``ArchiveError`` for a schema too old to migrate, or newer than this one."""
        if version > VERSION:
            try:
                row = self._db.execute("SELECT value FROM about WHERE name = 'statecrawl'")
                writer = f"statecrawl {row.fetchone()[0]}"
            except (sqlite3.Error, TypeError):
                writer = "a later statecrawl"
            raise ArchiveError(
                f"{self.path} was written by {writer} (store schema {version}); this "
                f"statecrawl {__version__} reads store schemas up to {VERSION}: use a later one"
            )
        if version < OLDEST:
            raise ArchiveError(
                f"{self.path} was written by another version of statecrawl (store schema "
                f"{version}), older than this one migrates ({OLDEST} to {VERSION}): crawl again"
            )
        return [s for v in range(version, VERSION) for s in MIGRATIONS.get(v, ())]

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it or nothing, and a one-line error."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                yield self._db
                self._db.execute("COMMIT")
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                if self._db.in_transaction:  # SQLite rolls back by itself on a full disk
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise _failure(self.path, "cannot write", exc) from None

    def _run(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                raise _failure(self.path, "cannot use", exc) from None

    # ---- runs ------------------------------------------------------------------------------
    def start_run(self, config: dict[str, Any], started: str) -> int:
        """Record the start of a run; return its number."""
        self._run("INSERT INTO runs (started, config) VALUES (?, ?)", started, _json(config))
        return int(self._run("SELECT max(id) FROM runs")[0][0])

    def end_run(self, run: int, finished: str, stop_reason: str) -> None:
        """Record how a run ended, drop the words no evidence names any more, and
        give back the pages its rewritten rows left free (the inference evidence changes all
        along a run: on the demo they were a fifth of the file)."""
        self._run(
            "UPDATE runs SET finished = ?, stop_reason = ? WHERE id = ?", finished, stop_reason, run
        )
        try:
            named = {json.loads(_unpack(e)).get(NAMED) for (e,) in self._run(
                "SELECT evidence FROM effects")}
        except (ValueError, zlib.error) as exc:
            raise damaged(self.path, exc) from None
        with self._transaction() as db:
            unnamed = [(k,) for (k,) in db.execute("SELECT id FROM words") if k not in named]
            db.executemany("DELETE FROM words WHERE id = ?", unnamed)
        self._run("VACUUM")

    def runs(self) -> list[Run]:
        """Every run, first first."""
        rows = self._run("SELECT id, started, finished, stop_reason, config FROM runs ORDER BY id")
        try:
            return [Run(i, s, f, r, json.loads(c)) for i, s, f, r, c in rows]
        except ValueError as exc:
            raise damaged(self.path, exc) from None

    # ---- kept at once, outside checkpoints -----------------------------------------------------
    def first_load(self, url: str, html: str) -> str:
        """The DOM the first fresh load of ``url`` showed, in this run or an earlier one:
        ``html`` itself if this load is the first."""
        rows = self._run("SELECT html FROM first_loads WHERE url = ?", url)
        if rows:
            try:
                return str(_unpack(rows[0][0]))
            except (zlib.error, UnicodeDecodeError) as exc:
                raise damaged(self.path, exc) from None
        self._run("INSERT INTO first_loads VALUES (?, ?)", *_encode("first_loads", (url, html)))
        return html

    def add_snapshot(self, state: str, meta: dict[str, Any]) -> None:
        """Keep the snapshot metadata of a new state (``Snapshot.meta()``): the explorer
        keeps only what it needs in memory."""
        self._run("INSERT OR REPLACE INTO snapshots VALUES (?, ?)",
                  *_encode("snapshots", (state, meta)))

    def rename_snapshots(self, names: dict[str, str]) -> None:
        """States got new ids (old id -> new id)."""
        with self._transaction() as db:
            db.executemany(
                "UPDATE OR REPLACE snapshots SET state = ? WHERE state = ?",
                [(new, old) for old, new in names.items()],
            )

    # ---- checkpoints -------------------------------------------------------------------------
    def write(self, changes: Changes) -> None:
        """Make a checkpoint of ``changes`` to the last one, in one transaction."""
        written = dict(changes.rows)
        if "effects" in written:
            written["effects"], words = _words_apart(written["effects"])
            written["words"] = [*written.get("words", ()), *words]
        with self._transaction() as db:
            if changes.replace:
                db.execute("DELETE FROM gone")
            for table, (keys, _, _) in TABLES.items():
                if changes.replace:
                    db.execute(f"DELETE FROM {table}")
                elif changes.gone.get(table):
                    where = " AND ".join(f"{k} = ?" for k in keys)
                    db.executemany(f"DELETE FROM {table} WHERE {where}", changes.gone[table])
                if written.get(table):
                    db.executemany(_upsert(table), [_encode(table, r) for r in written[table]])
            db.execute("INSERT OR REPLACE INTO meta VALUES ('saved', '1')")

    def load(self, base: Rows | None = None) -> Checkpoint | None:
        """The last checkpoint, or ``None`` before the first; that of a delta store (see
        :meth:`thin`) over ``base``, its baseline's rows."""
        if not self._run("SELECT 1 FROM meta WHERE name = 'saved'"):
            return None
        rows, gone, stats = self._read()
        try:
            return _checkpoint(merge(base, rows, gone) if base is not None else rows, stats)
        except KeyError as exc:
            raise damaged(self.path, f"no words {exc} that an inference evidence names") from None

    def rows(self) -> tuple[Rows, Gone]:
        """The rows of the tables a delta keeps, in the order written, and the keys of the
        baseline's rows that are gone (none unless :meth:`thin` made it a delta)."""
        rows, gone, _ = self._read()
        return rows, gone

    def is_delta(self) -> bool:
        """Whether the store holds only the changes to a baseline's (see :meth:`thin`)."""
        return bool(self._run("SELECT 1 FROM meta WHERE name = 'delta'"))

    def thin(self, base: Rows, same: Callable[[str, tuple[Any, ...], tuple[Any, ...]], bool]
             ) -> None:
        """Keep only what differs from ``base``, the baseline's rows: the rows ``same`` finds
        equal to the baseline's go, and the baseline's rows this store lacks are noted gone."""
        own, _, _ = self._read()
        with self._transaction() as db:
            db.execute("DELETE FROM gone")
            for table, (keys, _, _) in DELTA.items():
                earlier = base.get(table, {})
                where = " AND ".join(f"{k} = ?" for k in keys)
                equal = [
                    k for k, v in own[table].items() if k in earlier and same(table, v, earlier[k])
                ]
                db.executemany(f"DELETE FROM {table} WHERE {where}", equal)
                if dropped := [list(k) for k in earlier if k not in own[table]]:
                    db.execute("INSERT INTO gone VALUES (?, ?)", (table, _json(dropped)))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('delta', '1')")
        # The file shrinks to what is kept, in small pages: what a recrawl keeps is mostly
        # long values (inference evidence, page metadata) that end inside a page. (A page size
        # changes outside WAL only; with another connection open, the mode stays and so does
        # the page size.)
        for pragma in ("journal_mode=DELETE", f"page_size={DELTA_PAGE}"):
            self._run(f"PRAGMA {pragma}")
        self._run("VACUUM")
        self._run("PRAGMA journal_mode=WAL")

    def thicken(self, base: Rows) -> None:
        """Make a delta store whole again from ``base``, its baseline's rows (to resume it)."""
        if not self.is_delta():
            return
        own, gone, _ = self._read()
        with self._transaction() as db:
            for table, (keys, others, _) in DELTA.items():
                dropped = set(gone.get(table, ()))
                missing = [
                    _encode(table, (*k, *v)) for k, v in base.get(table, {}).items()
                    if k not in own[table] and k not in dropped
                ]
                columns = keys + others
                db.executemany(
                    f"INSERT INTO {table} ({','.join(columns)}) "
                    f"VALUES ({','.join('?' * len(columns))})",
                    missing,
                )
            db.execute("DELETE FROM gone")
            db.execute("DELETE FROM meta WHERE name = 'delta'")

    def _read(self) -> tuple[Rows, Gone, dict[str, Any]]:
        """Every row of the tables a delta keeps, the gone keys and the figures, in one read
        transaction: a consistent picture."""
        with self._lock:
            try:
                self._db.execute("BEGIN")
                get = self._db.execute
                rows: Rows = {}
                for table, (keys, others, encoded) in DELTA.items():
                    found = rows[table] = {}
                    for row in get(f"SELECT {','.join(keys + others)} FROM {table} ORDER BY rowid"):
                        found[tuple(row[: len(keys)])] = tuple(
                            json.loads(_unpack(v)) if c in encoded else _unpack(v)
                            for c, v in zip(others, row[len(keys) :], strict=True)
                        )
                gone: Gone = {}
                for name, keys in get("SELECT name, keys FROM gone"):
                    gone[name] = [tuple(k) for k in json.loads(keys)]
                stats = get("SELECT value FROM meta WHERE name = 'stats'").fetchone()
                self._db.execute("COMMIT")
            except (sqlite3.Error, ValueError, TypeError, zlib.error) as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise _failure(self.path, "cannot read", exc) from None
        return rows, gone, json.loads(stats[0]) if stats else {}

    def close(self) -> None:
        """Close the database (WAL content is folded into the file)."""
        with self._lock:
            self._db.close()


def open_store(directory: Path) -> SqliteStore:
    """The store of the crawl directory ``directory``."""
    return SqliteStore(Path(directory) / STORE)
