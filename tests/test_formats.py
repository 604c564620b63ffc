"""Crawl directories outlive versions: the fixtures of every earlier format stay readable.

``tests/data/crawl-format<N>`` are crawls written by the statecrawl of each format (see
``tests/data/make_crawl.py``); they are read from copies, never written.
"""

from __future__ import annotations

import ast
import contextlib
import json
import shutil
import sqlite3
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import statecrawl
from statecrawl import analysis
from statecrawl.cli import main
from statecrawl.config import Archive, Config
from statecrawl.directory.graph import FORMAT
from statecrawl.errors import ConfigError, StatecrawlWarning
from statecrawl.replay import ArchiveIndex, ReplayServer, verify
from statecrawl.store.sqlite import VERSION, open_store

from .conftest import Site, error_line

DATA = Path(__file__).parent / "data"
FIXTURES = sorted(DATA.glob("crawl-format*"))


def test_the_current_format_has_its_fixture() -> None:
    assert DATA / f"crawl-format{FORMAT}" in FIXTURES


@pytest.fixture
def copy(tmp_path: Path) -> Callable[[Path], Path]:
    """A fixture crawl copied into the test's directory: readers may write beside it."""

    def make(source: Path = DATA / f"crawl-format{FORMAT}") -> Path:
        return Path(shutil.copytree(source, tmp_path / source.name))

    return make


def edit_graph(directory: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = directory / "graph.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def edges(crawl: statecrawl.Crawl) -> set[tuple[str, str, str]]:
    return set(crawl.graph.edges(keys=True))


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_every_reader_reads_a_crawl_of_each_format(
    fixture: Path, copy: Callable[[Path], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy(fixture)
    written = json.loads((directory / "graph.json").read_text(encoding="utf-8"))
    assert f"crawl-format{written['graph'].get('format', 1)}" == fixture.name
    with warnings.catch_warnings():
        warnings.simplefilter("error", StatecrawlWarning)  # nothing of its own is unknown
        crawl = statecrawl.load(directory)
        states = [s["id"] for s in crawl.states()]
        assert len(states) >= 3 and crawl.graph.number_of_edges() >= len(states)
        assert all("</html>" in crawl.html(s) for s in states)
        assert crawl.config.start_urls[0] == crawl.start_url

        assert main(["report", str(directory)]) == 0
        assert (directory / "report" / "index.html").is_file()
        static, wacz = tmp_path / "static", tmp_path / "crawl.wacz"
        assert main(["export", str(directory), "--static", str(static), "--wacz", str(wacz)]) == 0
        assert len(list(static.rglob("*.html"))) > len(states)
        with zipfile.ZipFile(wacz) as packed:
            assert "datapackage.json" in packed.namelist()
        capsys.readouterr()
        assert main(["diff", str(directory), str(directory), "--json"]) == 0
        assert sorted(json.loads(capsys.readouterr().out)["unchanged"]) == sorted(states)

        assert set(ArchiveIndex(directory).snapshots) >= set(states)
        assert verify(directory).fidelity == 1.0


def test_the_links_form_and_a_graph_without_optional_attributes_are_read(
    copy: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = statecrawl.load(copy())
    bare = Path(shutil.copytree(original.path, tmp_path / "bare"))

    def strip(data: dict[str, Any]) -> None:
        data["graph"] = {"config": data["graph"]["config"]}  # no format, stats, start_url...
        data["nodes"] = [{"id": node["id"]} for node in data["nodes"]]  # no title, depth...
        # as networkx < 3.4 wrote node-link data: "links"
        data["links"] = [{k: e[k] for k in ("source", "target", "key")} for e in data.pop("edges")]

    edit_graph(bare, strip)
    crawl = statecrawl.load(bare)
    assert edges(crawl) == edges(original)
    assert len(crawl) == len(original) and crawl.stats == {}
    assert crawl.start_url == original.start_url
    assert all(crawl.html(s["id"]) == original.html(s["id"]) for s in crawl.states())
    assert all(crawl.state(s["id"]).title == "" for s in crawl.states())
    assert main(["report", str(bare)]) == 0
    assert main(["export", str(bare), "--static", str(tmp_path / "static")]) == 0
    capsys.readouterr()
    assert main(["diff", str(original.path), str(bare), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["unchanged"]) == len(original)


def test_settings_of_another_version_are_warned_of_and_left_out(
    copy: Callable[..., Path],
) -> None:
    directory = copy()

    def later(data: dict[str, Any]) -> None:
        config = data["graph"]["config"]
        config["teleport"] = True  # a setting this version does not know
        config["limits"]["max_wormholes"] = 3
        config["archive"]["dedup"] = "by-magic"  # a value it no longer accepts
        config["limits"]["max_depth"] = 1

    edit_graph(directory, later)
    crawl = statecrawl.load(directory)
    with pytest.warns(StatecrawlWarning) as caught:
        config = crawl.config
    messages = [str(w.message) for w in caught]
    assert any("teleport" in m for m in messages)
    assert any("limits.max_wormholes" in m for m in messages)
    assert any("archive.dedup" in m and "by-magic" in m for m in messages)
    assert all("\n" not in m and str(directory / "graph.json") in m for m in messages)
    assert config.archive.dedup == Archive().dedup and config.limits.max_depth == 1
    with pytest.warns(StatecrawlWarning), ReplayServer(directory) as server:
        assert server.index.snapshots
    # a user's own settings are checked as strictly as ever
    with pytest.raises(ConfigError, match="unknown setting"):
        Config.from_mapping(crawl.graph.graph["config"])
    # a replay script runs with what this version reads of them
    deep = next(s["id"] for s in crawl.states() if s.get("depth") == 1)
    with pytest.warns(StatecrawlWarning):
        script = ast.parse(analysis.replay_script(crawl, deep))
    (recorded,) = [
        ast.literal_eval(node.value) for node in script.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "CONFIG"
    ]
    assert Config.from_mapping(recorded).limits.max_depth == 1


def test_a_graph_of_a_later_format_is_refused(
    copy: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy()

    def later(data: dict[str, Any]) -> None:
        data["graph"].update(format=FORMAT + 1, software="statecrawl/9.0.0")

    edit_graph(directory, later)
    line = error_line(capsys, ["report", str(directory)])
    assert "statecrawl/9.0.0" in line and f"format {FORMAT + 1}" in line
    assert f"up to {FORMAT}" in line


def set_schema(directory: Path, version: int, sql: str = "") -> None:
    with contextlib.closing(sqlite3.connect(directory / "crawl.sqlite")) as db:
        db.executescript(f"{sql}PRAGMA user_version = {version};")


def test_a_store_of_a_later_schema_is_refused(
    copy: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy()
    set_schema(directory, VERSION + 1, "UPDATE about SET value = '9.0.0';")
    line = error_line(capsys, ["crawl", "--out", str(directory), "--resume"])
    assert f"written by statecrawl 9.0.0 (store schema {VERSION + 1})" in line
    assert f"reads store schemas up to {VERSION}" in line
    set_schema(directory, 1)
    line = error_line(capsys, ["crawl", "--out", str(directory), "--resume"])
    assert "store schema 1" in line and "crawl again" in line


def test_resume_migrates_a_store_of_an_earlier_schema(
    site: Site, crawl: Callable[..., statecrawl.Crawl], capsys: pytest.CaptureFixture[str]
) -> None:
    site.page("/", "tabs.html")
    first = crawl(site.url("/"), max_depth=1)
    store = first.path / "crawl.sqlite"
    # Schema 2, as it was: its inference evidence (urls, targets) and an inferred transition
    # led elsewhere than the action does, which the migration must not keep.
    source, target, key = next((s, t, k) for s, t, k in edges(first) if s != t)
    wrong = next(s["id"] for s in first.states() if s["id"] not in (source, target))
    with contextlib.closing(sqlite3.connect(store)) as db:
        config = json.loads(db.execute("SELECT config FROM runs").fetchone()[0])
        config["politeness"]["teleport"] = True
        db.execute("UPDATE runs SET config = ?", (json.dumps(config),))
        db.execute(
            "UPDATE edges SET target = ?, attrs = json_set(attrs, '$.inferred', json('true')) "
            "WHERE source = ? AND target = ? AND key = ?",
            (wrong, source, target, key),
        )
        db.commit()
    set_schema(
        first.path, 2,
        "DROP TABLE about; DROP TABLE effects; CREATE TABLE effects "
        "(action TEXT PRIMARY KEY, urls TEXT NOT NULL, targets TEXT NOT NULL);",
    )
    capsys.readouterr()
    assert main(["crawl", "--out", str(first.path), "--resume", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "statecrawl: warning: " in err and "politeness.teleport" in err
    resumed = statecrawl.load(first.path)
    assert edges(resumed) == edges(first)
    written = json.loads((first.path / "graph.json").read_text(encoding="utf-8"))
    assert written["graph"]["format"] == FORMAT
    with contextlib.closing(open_store(first.path)) as reopened:
        assert reopened.runs()
    with contextlib.closing(sqlite3.connect(store)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == VERSION
        assert db.execute("SELECT value FROM about").fetchone()[0] == statecrawl.__version__


def test_a_stored_config_keeps_what_this_version_accepts() -> None:
    stored = Config(start_urls=("http://127.0.0.1:4/",), out=Path("/tmp/crawl")).to_dict()
    stored["timing"].update(quiet_ms=9000)  # longer than settle_timeout_ms: the check between
    stored["browser"] = "fast"  # a section that is no table
    stored["inputs"]["max_options"] = 2
    with pytest.warns(StatecrawlWarning) as caught:
        config = Config.from_stored(stored, "graph.json")
    assert config.timing.quiet_ms == 15 and config.inputs.max_options == 2
    assert config.browser == Config(start_urls=("http://127.0.0.1:4/",)).browser
    assert [str(w.message).split(":")[0] for w in caught] == ["graph.json"] * 2
    for unreadable in (None, {"limits": {}}, {"start_urls": ["ftp://127.0.0.1/"]}):
        with pytest.raises(ConfigError, match=r"^graph\.json: "):
            Config.from_stored(unreadable, "graph.json")
