"""The state graph: building it, merging states, and graph.json / GraphML I/O."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import statecrawl
from statecrawl.directory.crawl import CrawlDirectory
from statecrawl.directory.graph import StateGraph
from statecrawl.directory.layout import image_format
from statecrawl.errors import ArchiveError

A, B, C, OLD, INTO = ("a" * 16, "b" * 16, "c" * 16, "0" * 16, "1" * 16)
EXT = "x" + "e" * 15


def edges(graph: StateGraph) -> set[tuple[str, str, str]]:
    return set(graph.graph.edges(keys=True))


def edge_attrs(**extra: Any) -> dict[str, Any]:
    return {"name": "#b \"Go\"", "status": "visible", "event": "click", "action": "h", **extra}


def sample() -> StateGraph:
    g = StateGraph()
    g.graph.graph.update(
        start_url="http://127.0.0.1:8000/",
        config={"start_urls": ["http://127.0.0.1:8000/"], "limits": {"max_depth": 2}},
        started=1.5,
        stats={"states": 2, "transitions": 3},
    )
    g.add_state(
        A, url="http://127.0.0.1:8000/", title="Home", depth=0,
        snapshot=f"states/{A}.html", screenshot=None, found_at=0.0,
    )
    g.add_state(
        B, url="http://127.0.0.1:8000/#b", title="B", depth=1,
        snapshot=f"states/{B}.html", screenshot=f"states/{B}.png", found_at=0.25,
        failures=[{"key": "k9", "error": "gone"}],
    )
    g.add_external("http://elsewhere.test/", EXT)
    g.add_transition(A, B, "k1", **edge_attrs(dialogs=[{"type": "alert", "message": "hi"}]))
    g.add_transition(A, B, "k2", **edge_attrs(event="dblclick"))
    g.add_transition(B, B, "k3", **edge_attrs(settle_ms=12))
    g.add_transition(A, EXT, "k4", **edge_attrs(out_of_scope=True))
    return g


# ---- building ---------------------------------------------------------------------------------


def test_add_state_sets_id_and_kind() -> None:
    g = StateGraph()
    g.add_state(A, url="u", depth=0)
    assert g.graph.nodes[A] == {"id": A, "kind": "state", "url": "u", "depth": 0}


def test_add_state_again_updates_attributes() -> None:
    g = StateGraph()
    g.add_state(A, url="u", depth=3)
    g.add_state(A, depth=1)
    assert g.graph.nodes[A]["depth"] == 1
    assert g.graph.nodes[A]["url"] == "u"
    assert g.graph.number_of_nodes() == 1


def test_add_external_is_not_a_state() -> None:
    g = StateGraph()
    g.add_external("http://elsewhere.test/", EXT)
    assert g.graph.nodes[EXT] == {"id": EXT, "kind": "external", "url": "http://elsewhere.test/"}
    assert g.states() == []


def test_states_in_discovery_order_without_externals() -> None:
    g = StateGraph()
    g.add_state(C)
    g.add_external("http://x.test/", EXT)
    g.add_state(A)
    g.add_state(B)
    g.add_state(C, depth=5)  # an update does not move it
    assert g.states() == [C, A, B]


def test_add_transition_is_keyed_by_action_key() -> None:
    g = sample()
    assert edges(g) == {(A, B, "k1"), (A, B, "k2"), (B, B, "k3"), (A, EXT, "k4")}
    data = g.graph.edges[A, B, "k2"]
    assert data["source"] == A
    assert data["target"] == B
    assert data["event"] == "dblclick"


def test_add_transition_same_key_updates_instead_of_duplicating() -> None:
    g = sample()
    g.add_transition(A, B, "k1", **edge_attrs(settle_ms=99))
    assert g.graph.number_of_edges(A, B) == 2
    assert g.graph.edges[A, B, "k1"]["settle_ms"] == 99


def test_graph_wraps_a_given_multidigraph() -> None:
    inner = nx.MultiDiGraph()
    g = StateGraph(inner)
    g.add_state(A)
    assert g.graph is inner
    assert A in inner


# ---- merge ------------------------------------------------------------------------------------


def merge_sample() -> StateGraph:
    g = StateGraph()
    for node in (A, B, OLD, INTO):
        g.add_state(node, depth=1)
    g.add_transition(A, OLD, "in", **edge_attrs())
    g.add_transition(OLD, B, "out", **edge_attrs())
    g.add_transition(OLD, OLD, "loop", **edge_attrs())
    g.add_transition(INTO, OLD, "to-old", **edge_attrs())
    g.add_transition(OLD, INTO, "to-into", **edge_attrs())
    g.add_transition(A, INTO, "already", **edge_attrs())
    return g


def test_merge_moves_in_and_out_edges() -> None:
    g = merge_sample()
    g.merge(OLD, INTO)
    assert OLD not in g.graph
    assert edges(g) == {
        (A, INTO, "in"),
        (INTO, B, "out"),
        (INTO, INTO, "loop"),
        (INTO, INTO, "to-old"),
        (INTO, INTO, "to-into"),
        (A, INTO, "already"),
    }


def test_merge_rewrites_source_and_target_attributes() -> None:
    g = merge_sample()
    g.merge(OLD, INTO)
    for u, v, data in g.graph.edges(data=True):
        assert (data["source"], data["target"]) == (u, v)
        assert data["event"] == "click"


def test_merge_keeps_the_keepers_attributes_and_order() -> None:
    g = merge_sample()
    g.add_state(INTO, depth=0, url="kept")
    g.merge(OLD, INTO)
    assert g.graph.nodes[INTO]["url"] == "kept"
    assert g.states() == [A, B, INTO]


def test_merge_keeps_the_failures_of_both() -> None:
    g = merge_sample()
    g.graph.nodes[OLD]["failures"] = [{"key": "k1", "error": "hung"}]
    g.graph.nodes[INTO]["failures"] = [{"key": "k2", "error": "threw"}]
    g.merge(OLD, INTO)
    assert [f["key"] for f in g.graph.nodes[INTO]["failures"]] == ["k2", "k1"]


def test_merge_same_action_from_one_source_to_both_becomes_one_edge() -> None:
    g = StateGraph()
    for node in (A, OLD, INTO):
        g.add_state(node)
    g.add_transition(A, OLD, "k", **edge_attrs(settle_ms=1))
    g.add_transition(A, INTO, "k", **edge_attrs(settle_ms=2))
    g.merge(OLD, INTO)
    assert edges(g) == {(A, INTO, "k")}


# ---- rename -----------------------------------------------------------------------------------


def ends(graph: StateGraph) -> set[tuple[str, str, str, str, str]]:
    """Each edge with the ``source`` and ``target`` its attributes name."""
    edges = graph.graph.edges(keys=True, data=True)
    return {(u, v, k, d["source"], d["target"]) for u, v, k, d in edges}


def test_rename_moves_nodes_and_edges_and_keeps_old_ids_as_aliases() -> None:
    g = sample()
    g.rename({A: C})
    assert A not in g.graph
    assert g.states() == [C, B]
    node = g.graph.nodes[C]
    assert (node["id"], node["aliases"], node["title"]) == (C, [A], "Home")
    assert "aliases" not in g.graph.nodes[B]
    assert ends(g) == {
        (C, B, "k1", C, B), (C, B, "k2", C, B), (B, B, "k3", B, B), (C, EXT, "k4", C, EXT)
    }
    assert g.graph.edges[C, B, "k2"]["event"] == "dblclick"
    assert g.graph.graph["start_url"] == "http://127.0.0.1:8000/"


def test_rename_swaps_two_ids() -> None:
    """A new id may be another state's old one: each state keeps its own attributes."""
    g = sample()
    g.rename({A: B, B: A})
    assert g.graph.nodes[B]["title"] == "Home" and g.graph.nodes[B]["aliases"] == [A]
    assert g.graph.nodes[A]["title"] == "B" and g.graph.nodes[A]["aliases"] == [B]
    assert all(g.graph.nodes[n]["id"] == n for n in (A, B))
    assert ends(g) == {
        (B, A, "k1", B, A), (B, A, "k2", B, A), (A, A, "k3", A, A), (B, EXT, "k4", B, EXT)
    }


def test_rename_again_accumulates_aliases_and_survives_a_round_trip(tmp_path: Path) -> None:
    g = sample()
    g.rename({A: C})
    g.rename({C: OLD})
    assert g.graph.nodes[OLD]["aliases"] == [A, C]
    g.write(tmp_path)
    again = StateGraph.read(tmp_path / "graph.json")
    assert again.graph.nodes[OLD]["aliases"] == [A, C]
    assert ends(again) == ends(g)


def test_rename_nothing_changes_nothing() -> None:
    g = sample()
    before = g.graph
    g.rename({})
    assert g.graph is before
    assert not any("aliases" in data for _, data in g.graph.nodes(data=True))


def state_files(out: CrawlDirectory) -> dict[str, bytes]:
    """Every file under ``states/``, by name, with its content."""
    return {f.name: f.read_bytes() for f in (out.path / "states").iterdir()}


def test_rename_states_moves_snapshots_and_screenshots(tmp_path: Path) -> None:
    out = CrawlDirectory(tmp_path)
    out.write_state(A, "<p>a</p>")
    out.write_screenshot(A, b"png a")
    out.write_state(B, "<p>b</p>")  # no screenshot
    out.rename_states({A: C, B: OLD})
    assert state_files(out) == {
        f"{C}.html": b"<p>a</p>", f"{C}.png": b"png a", f"{OLD}.html": b"<p>b</p>"
    }


def test_rename_states_moves_screenshots_of_any_format(tmp_path: Path) -> None:
    """A crawl resumed with another screenshot format holds several: each file moves, and
    the path of the renamed state's screenshot is that of its file."""
    out = CrawlDirectory(tmp_path)
    assert out.write_screenshot(A, b"webp a", "webp") == f"states/{A}.webp"
    assert out.write_screenshot(B, b"jpeg b", "jpeg") == f"states/{B}.jpeg"
    out.rename_states({A: C, B: OLD})
    assert state_files(out) == {f"{C}.webp": b"webp a", f"{OLD}.jpeg": b"jpeg b"}
    assert (out.screenshot_path(C), out.screenshot_path(OLD)) == (
        f"states/{C}.webp", f"states/{OLD}.jpeg"
    )


def test_thumbnails_are_webp_and_an_older_crawls_jpeg_is_still_found(tmp_path: Path) -> None:
    """A thumbnail is written as ``<id>.thumb.webp``; a crawl written before holds
    ``<id>.thumb.jpg``, which readers still find and a rename still moves."""
    out = CrawlDirectory(tmp_path)
    assert out.write_thumbnail(A, b"webp a") == f"states/{A}.thumb.webp"
    (tmp_path / "states" / f"{B}.thumb.jpg").write_bytes(b"jpeg b")
    sample().write(tmp_path)
    crawl = statecrawl.load(tmp_path)
    assert crawl.state(A).thumbnail == tmp_path / "states" / f"{A}.thumb.webp"
    assert crawl.state(B).thumbnail == tmp_path / "states" / f"{B}.thumb.jpg"
    out.rename_states({A: C, B: OLD})
    assert state_files(out) == {f"{C}.thumb.webp": b"webp a", f"{OLD}.thumb.jpg": b"jpeg b"}


@pytest.mark.parametrize("image, kind", [
    (b"RIFF\x10\x00\x00\x00WEBPVP8 ", "webp"), (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff\xe0", "jpeg"),
])  # fmt: skip
def test_image_format_reads_the_first_bytes(image: bytes, kind: str) -> None:
    assert image_format(image) == kind


def test_rename_states_swaps_two_states_files(tmp_path: Path) -> None:
    out = CrawlDirectory(tmp_path)
    for state in (A, B, C):
        out.write_state(state, f"<p>{state[0]}</p>")
        out.write_screenshot(state, f"png {state[0]}".encode())
    out.rename_states({A: B, B: A})
    assert state_files(out) == {  # nothing left aside, the third state untouched
        f"{B}.html": b"<p>a</p>", f"{B}.png": b"png a",
        f"{A}.html": b"<p>b</p>", f"{A}.png": b"png b",
        f"{C}.html": b"<p>c</p>", f"{C}.png": b"png c",
    }


# ---- write / read -----------------------------------------------------------------------------


def test_write_then_read_round_trip(tmp_path: Path) -> None:
    g = sample()
    g.write(tmp_path)
    again = StateGraph.read(tmp_path / "graph.json")
    assert again.graph.is_directed()
    assert again.graph.is_multigraph()
    assert again.graph.graph == g.graph.graph
    assert list(again.graph.nodes) == list(g.graph.nodes)
    assert again.states() == [A, B]
    assert edges(again) == edges(g)
    for node, data in g.graph.nodes(data=True):
        assert {k: v for k, v in data.items() if k != "id"} == {
            k: v for k, v in again.graph.nodes[node].items() if k != "id"
        }
    ends = ("source", "target")
    for u, v, k, data in g.graph.edges(keys=True, data=True):
        assert {n: x for n, x in data.items() if n not in ends} == {
            n: x for n, x in again.graph.edges[u, v, k].items() if n not in ends
        }


def test_read_keeps_the_contracts_node_and_edge_attributes(tmp_path: Path) -> None:
    g = sample()
    g.write(tmp_path)
    again = StateGraph.read(tmp_path / "graph.json")
    assert dict(again.graph.nodes(data=True)) == dict(g.graph.nodes(data=True))
    assert list(again.graph.edges(keys=True, data=True)) == list(
        g.graph.edges(keys=True, data=True)
    )


def test_graph_json_is_node_link_with_the_contract_fields(tmp_path: Path) -> None:
    sample().write(tmp_path)
    data = json.loads((tmp_path / "graph.json").read_text(encoding="utf-8"))
    assert data["directed"] is True
    assert data["multigraph"] is True
    assert data["graph"]["start_url"] == "http://127.0.0.1:8000/"
    nodes = {n["id"]: n for n in data["nodes"]}
    assert set(nodes) == {A, B, EXT}
    assert nodes[A]["screenshot"] is None
    assert nodes[B]["failures"] == [{"key": "k9", "error": "gone"}]
    assert nodes[EXT]["kind"] == "external"
    by_key = {e["key"]: e for e in data["edges"]}
    assert set(by_key) == {"k1", "k2", "k3", "k4"}
    assert {"key", "name", "status", "event", "action", "source", "target"} <= set(by_key["k1"])
    assert (by_key["k3"]["source"], by_key["k3"]["target"]) == (B, B)
    assert by_key["k1"]["dialogs"] == [{"type": "alert", "message": "hi"}]


def test_write_turns_other_values_into_text_in_both_files(tmp_path: Path) -> None:
    g = StateGraph()
    g.graph.graph["out"] = tmp_path / "out"
    g.add_state(A, viewport=(1280, 900))
    g.write(tmp_path)
    data = json.loads((tmp_path / "graph.json").read_text(encoding="utf-8"))
    assert data["graph"]["out"] == str(tmp_path / "out")
    assert data["nodes"][0]["viewport"] == [1280, 900]
    ml = nx.read_graphml(tmp_path / "graph.graphml")
    assert ml.graph["out"] == str(tmp_path / "out")
    assert json.loads(ml.nodes[A]["viewport"]) == [1280, 900]


def test_graphml_parses_and_holds_lists_as_json_text(tmp_path: Path) -> None:
    sample().write(tmp_path)
    ml = nx.read_graphml(tmp_path / "graph.graphml", force_multigraph=True, edge_key_type=str)
    assert ml.is_directed()
    assert set(ml.nodes) == {A, B, EXT}
    assert set(ml.edges(keys=True)) == {(A, B, "k1"), (A, B, "k2"), (B, B, "k3"), (A, EXT, "k4")}
    assert json.loads(ml.graph["config"])["limits"] == {"max_depth": 2}
    assert json.loads(ml.graph["stats"]) == {"states": 2, "transitions": 3}
    assert json.loads(ml.nodes[B]["failures"]) == [{"key": "k9", "error": "gone"}]
    assert json.loads(ml.edges[A, B, "k1"]["dialogs"]) == [{"type": "alert", "message": "hi"}]
    assert ml.nodes[A]["depth"] == 0
    assert ml.nodes[B]["found_at"] == 0.25
    assert ml.edges[A, EXT, "k4"]["out_of_scope"] is True
    assert "screenshot" not in ml.nodes[A]  # None is left out
    assert ml.nodes[B]["screenshot"] == f"states/{B}.png"


def test_write_leaves_no_temporary_files_and_overwrites(tmp_path: Path) -> None:
    g = sample()
    g.write(tmp_path)
    g.add_state(C, depth=2)
    g.write(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.graphml", "graph.json"]
    assert StateGraph.read(tmp_path / "graph.json").states() == [A, B, C]


def test_write_does_not_change_the_graph(tmp_path: Path) -> None:
    g = sample()
    before = json.dumps(g.to_data(), sort_keys=True)
    g.write(tmp_path)
    assert json.dumps(g.to_data(), sort_keys=True) == before
    assert g.graph.nodes[B]["failures"] == [{"key": "k9", "error": "gone"}]


def test_write_into_a_missing_directory_is_an_archive_error(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="cannot write"):
        sample().write(tmp_path / "missing")


def test_read_missing_file_is_not_a_crawl_directory(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="not a crawl directory") as info:
        StateGraph.read(tmp_path / "graph.json")
    assert str(tmp_path) in str(info.value)


def test_read_malformed_file_is_an_archive_error(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ArchiveError, match="cannot read"):
        StateGraph.read(path)
