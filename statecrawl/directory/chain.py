"""The chain of crawls an incremental crawl builds on (``crawl --since OLD``).

A recrawl keeps only what changed relative to OLD: its ``graph.json`` holds the nodes and
edges that are new or changed and those that are gone, its store the rows that differ from
OLD's and the keys of those that are gone (written whole during a run, thinned at its end),
its ``resources.jsonl`` the resources that are new or changed, its ``states/`` and archive the
files and records of what changed. ``baseline.json`` refers to OLD: its path and the digest
of its ``graph.json`` (which every run that changes a crawl writes again). Every reader
resolves the chain here, OLD first, so that a recrawl reads as a full crawl would; a
baseline that is missing or changed is a one-line error naming it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ArchiveError
from ..store import SqliteStore
from ..store.sqlite import Rows, merge
from .graph import StateGraph, read_data
from .layout import ARCHIVE, BASELINE, GRAPH_JSON, REFERRERS, STORE, atomic_write
from .resources import read_resources

# Node and edge attributes of a run rather than of the app: a state or transition that differs
# from the baseline's in these only is the baseline's (a full crawl's differ from run to run).
RUN_ATTRS = frozenset({"found_at", "settle_ms", "carried", "inferred", "unchanged"})
# What an unchanged state lacks when it was not pictured again: the baseline's picture holds.
KEPT_ATTRS = frozenset({"screenshot"})
FOUND_AT = 4  # the index of ``found_at`` among the other columns of the store's ``states``
# What a resource index entry says of the resource itself, rather than of where it was met.
RESOURCE_FIELDS = ("status", "content_type", "size", "last_modified", "etag", "skipped", "failed")
MET_FIELDS = ("states", "referrers")  # lists: what a recrawl adds to the baseline's


@dataclass(frozen=True, slots=True)
class Reference:
    """A crawl's baseline: its directory and the digest of its ``graph.json``."""

    path: Path
    digest: str


def digest(directory: Path) -> str:
    """The digest a reference to the crawl in ``directory`` records: its ``graph.json``'s."""
    path = (Path(directory) / GRAPH_JSON).resolve()
    try:
        status = path.stat()
        return _digest(path, status.st_mtime_ns, status.st_size)
    except OSError as exc:
        raise ArchiveError(f"cannot read {path}: {exc}") from None


@functools.lru_cache(maxsize=256)
def _digest(path: Path, mtime_ns: int, size: int) -> str:
    """The digest of the file ``path`` as it is at ``mtime_ns`` with ``size`` bytes (read
    once: every file a reader opens checks the chain)."""
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def refer(directory: Path, baseline: Path, name: Path) -> None:
    """Record in the crawl ``directory`` (to be known as ``name``: a crawl written beside an
    earlier one takes its place at the end) that it holds the changes to ``baseline``, and
    in ``baseline`` that it is referred to."""
    baseline = Path(baseline).resolve()
    reference = {"path": str(baseline), "digest": digest(baseline)}
    atomic_write(Path(directory) / BASELINE, json.dumps(reference, indent=1))
    known = [str(p) for p in referrers(baseline)]
    lines = "".join(f"{p}\n" for p in dict.fromkeys([*known, str(Path(name).resolve())]))
    atomic_write(baseline / REFERRERS, lines)


def referrers(directory: Path) -> list[Path]:
    """The crawls that refer to the crawl in ``directory`` as their baseline."""
    try:
        lines = (Path(directory) / REFERRERS).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    here = Path(directory).resolve()
    found = []
    for line in filter(None, lines):
        with contextlib.suppress(ArchiveError):
            if (ref := reference(Path(line))) is not None and ref.path == here:
                found.append(Path(line))
    return found


def keep(directory: Path, doing: str) -> None:
    """Refuse ``doing`` (``--overwrite``, ``--resume``) to the crawl in ``directory`` while a
    crawl refers to it as its baseline: that one would lose what it reads from it."""
    if found := referrers(directory):
        later = found[0]
        raise ArchiveError(
            f"{directory} is the baseline of {later}, which reads what did not change from it: "
            f"fold that one first (statecrawl compact {later} --out FULL) or remove it, "
            f"then {doing}"
        )


def reference(directory: Path) -> Reference | None:
    """The baseline the crawl in ``directory`` refers to, unchecked; ``None`` for a full crawl."""
    path = Path(directory) / BASELINE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Reference(Path(data["path"]), str(data["digest"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ArchiveError(f"cannot read {path}: {exc!r}") from None


def baseline(directory: Path) -> Path | None:
    """The baseline of the crawl in ``directory``, checked: there, and as it was referred to."""
    found = reference(directory)
    if found is None:
        return None
    if not (found.path / GRAPH_JSON).is_file():
        raise ArchiveError(
            f"the baseline {found.path} of {directory} is missing: put it back (the crawl "
            "reads what did not change from it)"
        )
    if digest(found.path) != found.digest:
        raise ArchiveError(
            f"the baseline {found.path} of {directory} changed since {directory} was crawled: "
            "put back the crawl it was"
        )
    return found.path


def crawls(directory: Path) -> list[Path]:
    """The crawls a crawl is read from: its baselines, the first first, and itself last."""
    chain = [Path(directory)]
    while (earlier := baseline(chain[-1])) is not None:
        if earlier.resolve() in {p.resolve() for p in chain}:
            raise ArchiveError(f"the baselines of {directory} refer to each other: {earlier}")
        chain.append(earlier)
    return chain[::-1]


def locate(directory: Path, *relatives: str) -> Path:
    """The first file of ``relatives`` the crawl in ``directory`` holds: its own, else its
    baselines' (an unchanged state's picture); its own path to the first when none has one."""
    for crawl in reversed(crawls(directory)):
        for relative in relatives:
            if (crawl / relative).is_file():
                return crawl / relative
    return Path(directory) / relatives[0]


def warc_files(directory: Path, own: list[Path]) -> list[Path]:
    """The WARC files of the chain of ``directory``: its baselines', the first first, then
    ``own`` (those of the crawl itself, in the order written)."""
    earlier = [
        path for crawl in crawls(directory)[:-1]
        for path in sorted((crawl / ARCHIVE).glob("*.warc.gz"))
    ]
    return [*earlier, *own]


# ---- the graph --------------------------------------------------------------------------------
def _item_key(kind: str, item: dict[str, Any]) -> Any:
    return item["id"] if kind == "nodes" else (item["source"], item["target"], item["key"])


def _changed(new: dict[str, Any], old: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The attributes of ``new`` that differ from ``old`` (but the run's), and those of
    ``old`` it has no more (but the run's, and a picture not taken again)."""
    changed = {
        k: v for k, v in new.items()
        if k not in RUN_ATTRS and old.get(k) != v and not (k in KEPT_ATTRS and v is None)
    }
    dropped = [k for k in old if k not in new and k not in RUN_ATTRS | KEPT_ATTRS]
    return changed, dropped


def same_attrs(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether a node's or edge's attributes ``new`` are the baseline's ``old``."""
    return _changed(new, old) == ({}, [])


def delta(data: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """The node-link ``data`` of a graph as its changes to ``base``'s: the nodes and edges
    new (whole), changed (their changed attributes) or gone, and the attributes dropped."""
    data = json.loads(json.dumps(data, default=str))  # values as they read back
    out: dict[str, Any] = {k: v for k, v in data.items() if k not in ("nodes", "edges")}
    changes: dict[str, Any] = {"gone": {}, "unset": {}}
    for kind in ("nodes", "edges"):
        old = {_item_key(kind, item): item for item in base.get(kind, ())}
        new = {_item_key(kind, item): item for item in data.get(kind, ())}
        out[kind] = []
        unset = changes["unset"][kind] = []
        for key, item in new.items():
            if key not in old:
                out[kind].append(item)
                continue
            changed, dropped = _changed(item, old[key])
            if changed or dropped:
                named = {"id": key} if kind == "nodes" else dict(zip(("source", "target", "key"),
                                                                  key, strict=True))
                out[kind].append({**named, **changed})
            if dropped:
                unset.append([key, dropped])
        changes["gone"][kind] = [key for key in old if key not in new]
    out["delta"] = changes
    return out


def apply(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """The node-link data of the graph that ``changes`` (see :func:`delta`) make of ``base``."""
    out = {k: v for k, v in changes.items() if k != "delta"}
    made = changes["delta"]
    for kind in ("nodes", "edges"):
        items = {_item_key(kind, item): dict(item) for item in base.get(kind, ())}
        for key in made["gone"][kind]:
            items.pop(key if kind == "nodes" else tuple(key), None)
        for item in changes.get(kind, ()):
            key = _item_key(kind, item)
            items[key] = {**items.get(key, {}), **item}
        for key, dropped in made["unset"][kind]:
            for name in dropped:
                items.get(key if kind == "nodes" else tuple(key), {}).pop(name, None)
        out[kind] = list(items.values())
    nodes = {item["id"] for item in out["nodes"]}
    out["edges"] = [e for e in out["edges"] if e["source"] in nodes and e["target"] in nodes]
    return out


def graph_data(directory: Path) -> dict[str, Any]:
    """The node-link data of the crawl in ``directory``, its chain resolved."""
    data = read_data(Path(directory) / GRAPH_JSON)
    if "delta" not in data:
        return data
    earlier = baseline(directory)
    if earlier is None:
        raise ArchiveError(f"{Path(directory) / GRAPH_JSON} holds changes, and {BASELINE} is gone")
    return apply(graph_data(earlier), data)


def read_graph(directory: Path) -> StateGraph:
    """The state graph of the crawl in ``directory``, its chain resolved."""
    return StateGraph.from_data(graph_data(directory), Path(directory) / GRAPH_JSON)


def write_graph(directory: Path, graph: StateGraph) -> None:
    """Write the graph of the crawl in ``directory``: whole, with ``graph.graphml``, for a full
    crawl; as its changes to the baseline's, and no GraphML, for a recrawl."""
    earlier = baseline(directory)
    if earlier is None:
        graph.write(directory)
        return
    data = delta(graph.to_data(), graph_data(earlier))
    atomic_write(Path(directory) / GRAPH_JSON, json.dumps(data, indent=1, default=str))


# ---- the store --------------------------------------------------------------------------------
def _same_row(table: str, new: tuple[Any, ...], old: tuple[Any, ...]) -> bool:
    """Whether a store row ``new`` is the baseline's ``old`` (see ``RUN_ATTRS``)."""
    if table in ("nodes", "edges", "snapshots"):  # attributes (snapshots: of the page)
        return same_attrs(new[0], old[0])
    if table == "states":
        return new[:FOUND_AT] + new[FOUND_AT + 1:] == old[:FOUND_AT] + old[FOUND_AT + 1:]
    return new == old


def store_rows(directory: Path) -> Rows:
    """The store rows of the crawl in ``directory``, its chain resolved."""
    store = SqliteStore(Path(directory) / STORE)
    try:
        rows, gone = store.rows()
        delta_store = store.is_delta()
    finally:
        store.close()
    if not delta_store:
        return rows
    earlier = baseline(directory)
    if earlier is None:
        raise ArchiveError(f"{Path(directory) / STORE} holds changes, and {BASELINE} is gone")
    return merge(store_rows(earlier), rows, gone)


def load_store(store: SqliteStore, directory: Path) -> Any:
    """The last checkpoint of ``store``, the store of the crawl in ``directory``, its chain
    resolved (a ``Checkpoint``, or ``None`` before the first)."""
    earlier = baseline(directory) if store.is_delta() else None
    return store.load(store_rows(earlier) if earlier is not None else None)


def thin(store: SqliteStore, directory: Path) -> None:
    """Keep in the store of a recrawl only what differs from its baseline's (at a run's end)."""
    earlier = baseline(directory)
    if earlier is not None and not store.is_delta():
        store.thin(store_rows(earlier), _same_row)


def thicken(store: SqliteStore, directory: Path) -> None:
    """Make the store of a recrawl whole again, to resume it."""
    if store.is_delta():
        earlier = baseline(directory)
        if earlier is None:
            raise ArchiveError(f"{store.path} holds changes, and {BASELINE} is gone")
        store.thicken(store_rows(earlier))


# ---- the resource index -----------------------------------------------------------------------
def resources(directory: Path) -> list[dict[str, Any]]:
    """The resource index of the crawl in ``directory``, its chain resolved (by URL, the
    latest entry of each)."""
    entries: dict[str, dict[str, Any]] = {}
    for crawl in crawls(directory):
        entries.update((e["url"], e) for e in read_resources(crawl))
    return list(entries.values())


def new_resources(directory: Path, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the resource index of the crawl in ``directory`` keeps of ``entries``: for a
    recrawl, those new or changed against the baseline's (where met: added to the
    baseline's), all of them for a full crawl."""
    earlier = baseline(directory)
    if earlier is None:
        return entries
    try:
        base = {e["url"]: e for e in resources(earlier)}
    except ArchiveError:
        return entries  # a baseline without an archive
    kept = []
    for entry in entries:
        old = base.get(entry["url"])
        if old is not None:
            met = {f: [*old.get(f, []), *(v for v in entry.get(f, []) if v not in old.get(f, []))]
                   for f in MET_FIELDS}
            if all(entry.get(f) == old.get(f) for f in RESOURCE_FIELDS) and all(
                met[f] == old.get(f, []) for f in MET_FIELDS
            ):
                continue
            entry = {**entry, **met}
        kept.append(entry)
    return kept
