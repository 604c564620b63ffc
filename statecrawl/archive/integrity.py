"""Integrity: whether a crawl directory still holds what it recorded, and a store rebuilt.

``statecrawl verify DIR --integrity`` reads every WARC file to its end, checks every record
against its ``WARC-Block-Digest`` and ``WARC-Payload-Digest``, every state's DOM file
against the digest of the snapshot record archived for it (a state's id hashes its DOM
with masked parts and its form values, so the bytes archived are what the file can be
checked against), and the store against the graph. ``--rebuild-store`` writes a new store
from ``graph.json`` when the old one is damaged.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..directory import chain
from ..directory.crawl import Crawl, load
from ..directory.layout import ARCHIVE, STORE
from ..directory.resources import payload_digest
from ..errors import StatecrawlError
from ..state import Action
from ..store import Changes, SqliteStore
from . import scan_warc, snapshot_state, state_part

DAMAGED = ".damaged"  # the suffix a damaged store is kept under when it is rebuilt


@dataclass(slots=True)
class Integrity:
    """What ``check`` found: one line per problem, and what was checked."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    files: int = 0
    records: int = 0
    states: int = 0
    transitions: int = 0

    def report(self) -> str:
        """What ``statecrawl verify --integrity`` prints: each problem, then the summary."""
        verdict = f"{len(self.problems)} problems" if self.problems else "no problem"
        summary = (
            f"integrity: {verdict}; {self.records} records in {self.files} WARC files, "
            f"{self.states} states and {self.transitions} transitions checked"
        )
        return "\n".join([*self.problems, *self.notes, summary])


def check(directory: Path | str) -> Integrity:
    """Check the crawl in ``directory`` (see the module's docstring)."""
    path = Path(directory)
    result = Integrity()
    snapshots = _check_archive(path, result)
    try:
        crawl = load(path)
    except StatecrawlError as exc:
        result.problems.append(str(exc))
        return result
    _check_states(crawl, snapshots, result)
    _check_store(crawl, result)
    return result


def check_integrity(directory: Path | str, stream: TextIO | None = None) -> int:
    """``statecrawl verify --integrity``: print the problems; exit status 2 if any."""
    result = check(directory)
    print(result.report(), file=stream or sys.stdout)
    return 2 if result.problems else 0


def _check_archive(path: Path, result: Integrity) -> dict[str, set[str]]:
    """Read every WARC file; return, by the state id they name, the parts of each state
    archived whole and the payload digests of its snapshot records."""
    snapshots: dict[str, set[str]] = {}
    folder = path / ARCHIVE
    own = [folder / name for name in (sorted(os.listdir(folder)) if folder.is_dir() else ())]
    try:
        files = chain.warc_files(path, own)  # a recrawl's unchanged states are its baseline's
    except StatecrawlError as exc:
        result.problems.append(str(exc))
        files = own
    for warc in files:
        name = warc.name
        if name.endswith(".open"):
            result.notes.append(f"{warc}: left open by a killed run (closed on --resume)")
        if not name.endswith((".warc.gz", ".warc.gz.open")):
            continue
        scan = scan_warc(warc)
        result.files += 1
        result.records += len(scan.records)
        result.problems += [f"{warc}: {problem}" for problem in scan.problems]
        for record in scan.records:
            part = state_part(record.headers)
            if part is None or record.problems:
                continue
            kept = snapshots.setdefault(part[0], set())
            kept.add(part[1])
            if snapshot_state(record.headers) is not None:
                kept.add(record.header("WARC-Payload-Digest"))
    return snapshots


def _check_states(crawl: Crawl, snapshots: dict[str, set[str]], result: Integrity) -> None:
    archived = crawl.config.archive.enabled
    for state in crawl.states():
        result.states += 1
        sid = state["id"]
        for kind in ("snapshot", "screenshot"):
            relative = state.get(kind)
            if relative and not chain.locate(crawl.path, relative).is_file():
                result.problems.append(f"state {sid}: its {kind} {relative} is missing")
        relative = state.get("snapshot")
        if not archived or not relative or not chain.locate(crawl.path, relative).is_file():
            continue
        kept = set().union(*(snapshots.get(n, set()) for n in (sid, *state.get("aliases", ()))))
        needed = ["snapshot", "frames", *(["screenshot"] if state.get("screenshot") else [])]
        for part in needed:
            if part not in kept:
                result.problems.append(f"state {sid}: no whole {part} record in the archive")
        dom = chain.locate(crawl.path, relative).read_bytes()
        if "snapshot" in kept and payload_digest(dom) not in kept:
            result.problems.append(
                f"state {sid}: {relative} is not the DOM archived for it (its digest differs)"
            )
    result.transitions = crawl.graph.number_of_edges()


def _check_store(crawl: Crawl, result: Integrity) -> None:
    """The store opens, SQLite finds it whole, its checkpoint reads and holds the graph."""
    if not (crawl.path / STORE).is_file():
        result.problems.append(f"{crawl.path / STORE} is missing")
        return
    try:
        store = SqliteStore(crawl.path / STORE)
    except StatecrawlError as exc:
        result.problems.append(str(exc))
        return
    try:
        result.problems += [f"{store.path}: {p}" for p in store.check()]
        runs, checkpoint = store.runs(), chain.load_store(store, crawl.path)
    except StatecrawlError as exc:
        result.problems.append(str(exc))
        return
    finally:
        store.close()
    if checkpoint is None or not runs:
        result.problems.append(f"{store.path} holds no checkpoint")
        return
    if runs[-1].finished is None:
        result.notes.append(
            f"{store.path}: run {runs[-1].id} did not end (killed?): graph.json may be older "
            "than the store; --resume brings them together"
        )
        return
    stored = {n for n, attrs in checkpoint.nodes if attrs.get("kind") == "state"}
    graphed = {s["id"] for s in crawl.states()}
    for sid in sorted(graphed - stored):
        result.problems.append(f"state {sid}: in graph.json, not in the store")
    for sid in sorted(stored - graphed):
        result.problems.append(f"state {sid}: in the store, not in graph.json")
    stored_edges = {(s, t, k) for s, t, k, _ in checkpoint.edges}
    graph_edges = set(crawl.graph.edges(keys=True))
    for s, t, k in sorted(graph_edges - stored_edges):
        result.problems.append(f"transition {s} -> {t} ({k}): in graph.json, not in the store")
    for s, t, k in sorted(stored_edges - graph_edges):
        result.problems.append(f"transition {s} -> {t} ({k}): in the store, not in graph.json")


def rebuild_store(directory: Path | str, stream: TextIO | None = None) -> int:
    """``statecrawl verify DIR --rebuild-store``: write a new store from ``graph.json`` (the
    damaged one is kept as ``crawl.sqlite.damaged``), so that ``--resume`` works again."""
    crawl = load(directory)
    path = crawl.path / STORE
    for suffix in ("", "-wal", "-shm"):
        old = path.with_name(path.name + suffix)
        if old.exists():
            os.replace(old, old.with_name(old.name + DAMAGED))
    store = SqliteStore(path)
    try:
        _fill(store, crawl)
    finally:
        store.close()
    print(
        f"rebuilt {path} from graph.json: {len(crawl)} states, "
        f"{crawl.graph.number_of_edges()} transitions (the damaged store is kept as "
        f"{path.name}{DAMAGED}); the actions never fired are lost, as only the store held "
        "them: a resume gives the same graph, and explores nothing beyond it",
        file=stream or sys.stdout,
    )
    return 0


def _fill(store: SqliteStore, crawl: Crawl) -> None:
    """Write the checkpoint ``graph.json`` holds: its states (without the actions they
    offered, which came from the page agent), transitions, fired pairs and learned names."""
    g = crawl.graph
    meta = g.graph
    config = meta.get("config") or {}
    run = store.start_run(config, meta.get("started") or "")
    changes = Changes(replace=True)
    rows = changes.rows
    rows["nodes"] = [(n, attrs) for n, attrs in g.nodes(data=True)]
    rows["edges"] = [(s, t, k, d) for s, t, k, d in g.edges(keys=True, data=True)]
    states = list(crawl.states())
    rows["states"] = [
        (s["id"], s["id"], s.get("url") or "", s.get("title") or "", s.get("depth") or 0,
         s.get("found_at") or 0.0, bool(s.get("unreachable")), bool(s.get("final")))
        for s in states
    ]
    fired = {(s, k) for s, _, k in g.edges(keys=True) if g.nodes[s].get("kind") == "state"}
    fired |= {(s["id"], f["key"]) for s in states for f in s.get("failures", ()) if "key" in f}
    rows["fired"] = sorted(fired)
    rows["actions"] = [(s, k, _action(d).to_data()) for s, _, k, d in g.edges(keys=True, data=True)
                       if g.nodes[s].get("kind") == "state"]
    rows["volatile"] = [(n,) for n in meta.get("volatile", ())]
    merged = {alias: s["id"] for s in states for alias in s.get("aliases", ())}
    rows["tables"] = [("merged", alias, sid) for alias, sid in merged.items()]
    rows["meta"] = [("stats", meta.get("stats") or {})]
    store.write(changes)
    for s in states:
        store.add_snapshot(s["id"], {"url": s.get("url") or "", "title": s.get("title") or "",
                                     "status": s.get("status")})
    stats = meta.get("stats") or {}
    store.end_run(run, meta.get("finished") or "", stats.get("stop_reason") or "rebuilt")


def _action(data: dict[str, Any]) -> Action:
    """The action of a graph edge: its name is its locator and its label as JSON."""
    name = str(data.get("name") or "")
    locator, label = name, ""
    for at in (i for i in range(len(name)) if name.startswith(' "', i)):
        try:
            value = json.loads(name[at + 1 :])
        except ValueError:
            continue
        if isinstance(value, str):
            locator, label = name[:at], value
            break
    return Action(
        name=name,
        status=str(data.get("status") or ""),
        event=str(data.get("event") or ""),
        action=str(data.get("action") or ""),
        kind=str(data.get("kind") or "script"),
        locator=locator,
        label=label,
        hover=data.get("hover"),
    )

