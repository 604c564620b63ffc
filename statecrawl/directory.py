"""The crawl directory: where a crawl writes its graph and states, and how it is read back."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from .config import Config
from .errors import ArchiveError
from .graph import StateGraph

GRAPH_JSON = "graph.json"
STATES = "states"


class CrawlDirectory:
    """Writes the files of one crawl directory (see the design's directory contract)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            (self.path / STATES).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArchiveError(f"cannot create crawl directory {self.path}: {exc}") from None

    def snapshot_path(self, state_id: str) -> str:
        """The snapshot's path relative to the directory, as graph nodes record it."""
        return f"{STATES}/{state_id}.html"

    def screenshot_path(self, state_id: str) -> str:
        """The screenshot's path relative to the directory."""
        return f"{STATES}/{state_id}.png"

    def write_state(self, state_id: str, html: str) -> str:
        """Write a state's serialized DOM; return its relative path."""
        relative = self.snapshot_path(state_id)
        self._write(self.path / relative, html.encode("utf-8"))
        return relative

    def write_screenshot(self, state_id: str, png: bytes) -> str:
        """Write a state's screenshot; return its relative path."""
        relative = self.screenshot_path(state_id)
        self._write(self.path / relative, png)
        return relative

    def rename_states(self, names: dict[str, str]) -> None:
        """Move the files of renamed states (``names``: old id -> new id); a new id may be
        another state's old one, so every file moves aside first."""
        moves = []
        for old, new in names.items():
            for relative in (self.snapshot_path(old), self.screenshot_path(old)):
                path = self.path / relative
                if path.exists():
                    aside = path.with_name(path.name + ".renaming")
                    os.replace(path, aside)
                    moves.append((aside, self.path / relative.replace(old, new)))
        for aside, path in moves:
            os.replace(aside, path)

    def write_graph(self, graph: StateGraph) -> None:
        """Write ``graph.json`` and ``graph.graphml``."""
        graph.write(self.path)

    def _write(self, path: Path, data: bytes) -> None:
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError as exc:
            raise ArchiveError(f"cannot write {path}: {exc}") from None


@dataclass
class Crawl:
    """A finished (or interrupted) crawl, read from its directory.

    ``graph`` is the networkx ``MultiDiGraph`` of states and transitions, ``config`` the
    configuration the crawl ran with, ``stats`` its figures.
    """

    path: Path
    graph: nx.MultiDiGraph

    @property
    def config(self) -> Config:
        """The configuration the crawl ran with."""
        return Config.from_mapping(self.graph.graph["config"])

    @property
    def stats(self) -> dict[str, Any]:
        """Figures of the run: states, transitions, resets, wall time…"""
        return dict(self.graph.graph.get("stats", {}))

    @property
    def start_url(self) -> str:
        """The first start URL."""
        return self.graph.graph["start_url"]

    def states(self) -> Iterator[dict[str, Any]]:
        """Attributes of every state node, in discovery order."""
        for node, data in self.graph.nodes(data=True):
            if data.get("kind") == "state":
                yield {"id": node, **data}

    def transitions(self) -> Iterator[dict[str, Any]]:
        """Attributes of every transition between two states."""
        for _, _, data in self.graph.edges(data=True):
            yield dict(data)

    def html(self, state_id: str) -> str:
        """The serialized DOM of a state."""
        relative = self.graph.nodes[state_id]["snapshot"]
        return (self.path / relative).read_text(encoding="utf-8")

    def __len__(self) -> int:
        return sum(1 for _ in self.states())


def load(path: str | Path) -> Crawl:
    """Read a crawl directory written by :func:`statecrawl.crawl` or ``statecrawl crawl``."""
    path = Path(path)
    return Crawl(path=path, graph=StateGraph.read(path / GRAPH_JSON).graph)
