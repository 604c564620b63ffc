"""The state graph: states as nodes, transitions as edges, over a networkx MultiDiGraph."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import networkx as nx

from ..config import argument, checked
from ..errors import ArchiveError
from ..version import __version__
from .layout import GRAPH_JSON, GRAPHML, atomic_write

# The crawl directory's format, graph attribute ``format`` of graph.json and graph.graphml: 1
# is that of the directory contract; a graph.json without it was written before it, in 1.
FORMAT = 1


class StateGraph:
    """States and the transitions between them.

    Nodes are state ids (16 hex digits) with the attributes of the crawl-directory contract;
    an out-of-scope target is a node of kind ``"external"``, a document a download saved one of
    kind ``"document"`` (its edge has ``download``). Edges are keyed by action key.
    """

    @checked
    def __init__(self, graph: nx.MultiDiGraph[str] | None = None) -> None:
        graph = argument("graph", graph, nx.MultiDiGraph | None)
        self.graph = graph if graph is not None else nx.MultiDiGraph()
        # nodes and edges added, changed or removed since the crawl store last saved them
        self.touched_nodes: set[str] = set()
        self.touched_edges: set[tuple[str, str, str]] = set()

    def add_state(self, state_id: str, **attrs: Any) -> None:
        """Add a state node (or update its attributes)."""
        self.graph.add_node(state_id, id=state_id, kind="state", **attrs)
        self.touched_nodes.add(state_id)

    def add_external(self, url: str, node_id: str) -> None:
        """Add a node for a URL outside the crawl's scope, which is never loaded."""
        self.graph.add_node(node_id, id=node_id, kind="external", url=url)
        self.touched_nodes.add(node_id)

    def add_document(self, node_id: str, **attrs: Any) -> None:
        """Add a node for a document a download saved (``download``), which is no state."""
        self.graph.add_node(node_id, id=node_id, kind="document", **attrs)
        self.touched_nodes.add(node_id)

    def add_transition(self, source: str, target: str, key: str, **attrs: Any) -> None:
        """Add (or update) the edge ``source -> target`` for the action ``key``."""
        self.graph.add_edge(source, target, key=key, source=source, target=target, **attrs)
        self.touched_edges.add((source, target, key))

    def remove_transitions(self, source: str, key: str, **having: Any) -> list[str]:
        """Remove ``source``'s edges of the action ``key`` whose attributes include
        ``having``; return their targets."""
        gone = [
            target
            for _, target, k, attrs in self.graph.out_edges(source, keys=True, data=True)
            if k == key and all(attrs.get(n) == v for n, v in having.items())
        ]
        for target in gone:
            self.graph.remove_edge(source, target, key)
            self.touched_edges.add((source, target, key))
        return gone

    def node(self, node_id: str) -> dict[str, Any]:
        """The attributes of a node, to change them."""
        self.touched_nodes.add(node_id)
        return self.graph.nodes[node_id]

    def edge(self, source: str, target: str, key: str) -> dict[str, Any]:
        """The attributes of an edge, to change them."""
        self.touched_edges.add((source, target, key))
        return self.graph.edges[source, target, key]

    def states(self) -> list[str]:
        """The ids of the state nodes, in discovery order."""
        return [n for n, kind in self.graph.nodes(data="kind") if kind == "state"]

    def merge(self, old: str, into: str) -> None:
        """Fold state ``old`` into ``into``: its edges and recorded failures move over, the
        node goes."""
        failures = self.graph.nodes[old].get("failures")
        if failures:
            self.node(into).setdefault("failures", []).extend(failures)
        for source, target, key, data in [
            *self.graph.in_edges(old, keys=True, data=True),
            *self.graph.out_edges(old, keys=True, data=True),
        ]:
            self.touched_edges.add((source, target, key))
            attrs = {k: v for k, v in data.items() if k not in ("source", "target")}
            if target == old:
                self.add_transition(into if source == old else source, into, key, **attrs)
            else:
                self.add_transition(into, target, key, **attrs)
        self.graph.remove_node(old)
        self.touched_nodes.add(old)

    def rename(self, names: dict[str, str]) -> None:
        """Give states new ids (``names``: old id -> new id); each keeps its old ids in
        ``aliases``, as records written earlier (the archive's) name the state by them."""
        if not names:
            return
        self.touched_nodes.update(self.graph.nodes)  # every node and edge may change
        self.touched_edges.update(self.graph.edges(keys=True))
        self.graph = nx.relabel_nodes(self.graph, names)
        self.touched_nodes.update(self.graph.nodes)
        self.touched_edges.update(self.graph.edges(keys=True))
        for old, new in names.items():
            node = self.graph.nodes[new]
            node["id"] = new
            node["aliases"] = sorted({*node.get("aliases", ()), old})
        for _, _, data in self.graph.edges(data=True):
            data["source"] = names.get(data["source"], data["source"])
            data["target"] = names.get(data["target"], data["target"])

    def to_data(self) -> dict[str, Any]:
        """Node-link data, as written to ``graph.json``, with the crawl ``format``."""
        data: dict[str, Any] = nx.node_link_data(self.graph, edges="edges")
        return {**data, "graph": {**data["graph"], "format": FORMAT}}

    def write(self, directory: Path) -> None:
        """Write ``graph.json`` and ``graph.graphml`` into ``directory`` atomically."""
        atomic_write(directory / GRAPH_JSON, json.dumps(self.to_data(), indent=1, default=str))
        self.write_graphml(directory / GRAPHML)

    def write_graphml(self, path: Path) -> None:
        """Write the graph as GraphML (for Gephi and yEd) to ``path`` atomically."""
        graphml = _graphml_ready(self.graph)
        atomic_write(path, lambda tmp: nx.write_graphml(graphml, tmp))

    @classmethod
    def read(cls, path: Path) -> StateGraph:
        """Read a ``graph.json`` of this crawl format or an earlier one, or any node-link
        data of networkx (see :func:`read_data`)."""
        return cls.from_data(read_data(path), path)

    @classmethod
    def from_data(cls, data: dict[str, Any], path: Path) -> StateGraph:
        """The graph of node-link ``data`` read from ``path`` (see :func:`read_data`)."""
        try:
            graph = cast(  # directed and a multigraph, which the stubs of networkx do not tell
                "nx.MultiDiGraph[str]",
                nx.node_link_graph(
                    {"edges": [], **data, "directed": True, "multigraph": True},
                    directed=True, multigraph=True, edges="edges",
                ),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ArchiveError(f"{path} is not a networkx node-link graph: {exc!r}") from None
        graph.graph.pop("format", None)  # of the file: read, the graph is of this version
        for node, attrs in graph.nodes(data=True):
            attrs["id"] = node
            attrs.setdefault("kind", "state")
        for source, target, attrs in graph.edges(data=True):
            attrs["source"], attrs["target"] = source, target
        return cls(graph)


def read_data(path: Path) -> dict[str, Any]:
    """The node-link data of a ``graph.json`` of this crawl format or an earlier one, or of
    any node-link data of networkx (``edges`` or, as before networkx 3.4, ``links``, read as
    ``edges``); a file of a later format is an ``ArchiveError`` naming the statecrawl that
    wrote it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ArchiveError(f"no graph.json in {path.parent}: not a crawl directory") from None
    except (OSError, ValueError) as exc:
        raise ArchiveError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(meta := data.get("graph", {}), dict):
        raise ArchiveError(f"{path} is not a networkx node-link graph")
    version = meta.get("format", 1)
    if not isinstance(version, int) or isinstance(version, bool):
        raise ArchiveError(f"{path}: unknown crawl format {version!r}")
    if version > FORMAT:
        writer = meta.get("software") or "a later statecrawl"
        raise ArchiveError(
            f"{path} was written by {writer} in crawl format {version!r}; this statecrawl "
            f"{__version__} reads formats up to {FORMAT}: use a later one"
        )
    if "links" in data and "edges" not in data:
        data["edges"] = data.pop("links")
    return data


def _graphml_ready(graph: nx.MultiDiGraph[str]) -> nx.MultiDiGraph[str]:
    """GraphML holds scalars only: lists and dicts become JSON text, None is left out."""

    def clean(attrs: dict[str, Any]) -> dict[str, Any]:
        return {
            k: json.dumps(v, default=str) if isinstance(v, list | tuple | dict)
            else v if isinstance(v, str | int | float | bool) else str(v)
            for k, v in attrs.items()
            if v is not None
        }

    out: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    out.graph.update(clean({**graph.graph, "format": FORMAT}))
    for node, attrs in graph.nodes(data=True):
        out.add_node(node, **clean(attrs))
    for u, v, k, attrs in graph.edges(keys=True, data=True):
        out.add_edge(u, v, key=k, **clean(attrs))
    return out
