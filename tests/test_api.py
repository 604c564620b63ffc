"""Every public entry point refuses bad arguments with a one-line ``ConfigError`` that names
the argument: wrong types, unknown keywords, nonsense values. No browser: a fake one plays a
small scripted application where a crawl is needed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import statecrawl
from statecrawl import Config, ConfigError, StateGraph, analysis
from statecrawl.config import Archive, BrowserSettings, Incremental, Limits, ScopeSettings
from statecrawl.engine import Explorer
from statecrawl.export import export
from statecrawl.export.static import export_static
from statecrawl.export.wacz import export_wacz
from statecrawl.replay import check_fidelity, verify
from statecrawl.report import build_report
from statecrawl.testing import FakeBrowser, tree

URL = "http://127.0.0.1:4/"
CONFIG = Config(start_urls=(URL,))


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    """A real crawl directory of a scripted tree, crawled by a fake browser."""
    app = tree(1, 2)
    out = tmp_path_factory.mktemp("api") / "out"
    config = Config(start_urls=(app.url("/"),), out=out, archive=Archive(enabled=False))
    return Explorer(config, browser_factory=lambda c, _network: FakeBrowser(app, c)).run()


@pytest.fixture(scope="module")
def a_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("file") / "a-file"
    path.write_text("not a directory", encoding="utf-8")
    return path


# (argument named in the message, the call); ``small`` and ``a_file`` are passed in.
Call = Callable[[statecrawl.Crawl, Path], Any]
CALLS: list[tuple[str, str, Call]] = [
    ("crawl: a number", "url", lambda c, f: statecrawl.crawl(123)),
    ("crawl: a URL of a list", "url", lambda c, f: statecrawl.crawl([URL, 5])),
    ("crawl: no URL", "start URL", lambda c, f: statecrawl.crawl([])),
    ("crawl: unknown keyword", "'bogus'", lambda c, f: statecrawl.crawl(URL, bogus=1)),
    ("crawl: negative depth", "limits.max_depth", lambda c, f: statecrawl.crawl(URL, max_depth=-1)),
    ("crawl: depth as text", "limits.max_depth", lambda c, f: statecrawl.crawl(URL, max_depth="2")),
    ("crawl: out is a file", "out", lambda c, f: statecrawl.crawl(URL, out=f)),
    ("crawl: since is a file", "incremental.since",
     lambda c, f: statecrawl.crawl(URL, out=f.parent / "o", incremental={"since": f})),
    ("crawl: limits not a table", "limits", lambda c, f: statecrawl.crawl(URL, limits=3)),
    ("Config: positional", "config", lambda c, f: Config(URL)),
    ("Config: nothing", "start_urls", lambda c, f: Config()),
    ("Config: unknown keyword", "'bogus'", lambda c, f: Config(start_urls=(URL,), bogus=1)),
    ("Config: URLs a number", "start_urls", lambda c, f: Config(start_urls=3)),
    ("Config: a section not a table", "limits", lambda c, f: Config(start_urls=(URL,), limits=3)),
    ("Limits: positional", "limits", lambda c, f: Limits(3)),
    ("Limits: unknown keyword", "limits", lambda c, f: Limits(depth=3)),
    ("Limits: negative", "limits.max_states", lambda c, f: Limits(max_states=-5)),
    ("ScopeSettings: a bad pattern", "scope.include", lambda c, f: ScopeSettings(include=["("])),
    ("BrowserSettings: a count as text", "browser.count", lambda c, f: BrowserSettings(count="2")),
    ("Incremental: unknown", "incremental", lambda c, f: Incremental(since_dir="x")),
    ("from_toml: a number", "path", lambda c, f: Config.from_toml(5)),
    ("from_toml: unknown override", "'bogus'", lambda c, f: Config.from_toml(_toml(f), bogus=1)),
    ("from_mapping: not a table", "config", lambda c, f: Config.from_mapping([URL])),
    ("Explorer: not a Config", "config", lambda c, f: Explorer(URL)),
    ("Explorer: a plugin", "plugins", lambda c, f: Explorer(CONFIG, plugins=[1])),
    ("Explorer: progress", "progress", lambda c, f: Explorer(CONFIG, progress=1)),
    ("Explorer: unknown keyword", "bogus", lambda c, f: Explorer(CONFIG, bogus=1)),
    ("load: a number", "path", lambda c, f: statecrawl.load(3)),
    ("load: a file", "path", lambda c, f: statecrawl.load(f)),
    ("StateGraph: a list", "graph", lambda c, f: StateGraph([1])),
    ("summary: a number", "crawl", lambda c, f: analysis.summary(3)),
    ("depth_profile: a path", "crawl", lambda c, f: analysis.depth_profile(c.path)),
    ("dead_ends: a dict", "crawl", lambda c, f: analysis.dead_ends({})),
    ("shortest_path: an int id", "state_id", lambda c, f: analysis.shortest_path(c, 5)),
    ("shortest_path: an unknown id", "id starting", lambda c, f: analysis.shortest_path(c, "zz")),
    ("replay_script: None", "state_id", lambda c, f: analysis.replay_script(c.graph, None)),
    ("find_states: a graph", "crawl", lambda c, f: analysis.find_states(c.graph, "x")),
    ("find_states: a number", "text", lambda c, f: analysis.find_states(c, 5)),
    ("find_states: a bad regex", "text", lambda c, f: analysis.find_states(c, "(", regex=True)),
    ("find_states: case as text", "case", lambda c, f: analysis.find_states(c, "x", case="no")),
    ("label: a number", "name", lambda c, f: analysis.label(3)),
    ("describe: a string", "edge", lambda c, f: analysis.describe("click")),
    ("diff: a graph", "old", lambda c, f: analysis.diff(c.graph, c)),
    ("diff: a threshold of 2", "threshold", lambda c, f: analysis.diff(c, c, threshold=2)),
    ("layers: None", "crawl", lambda c, f: analysis.layers(None)),
    ("build_report: a number", "directory", lambda c, f: build_report(7)),
    ("build_report: out a file", "out", lambda c, f: build_report(c.path, f)),
    ("export: nothing asked", "export", lambda c, f: export(c.path)),
    ("export_static: a file", "directory", lambda c, f: export_static(f, f.parent / "s")),
    ("export_static: out a file", "out", lambda c, f: export_static(c.path, f)),
    ("export_wacz: a number", "directory", lambda c, f: export_wacz(1, "x.wacz")),
    ("verify: a number", "directory", lambda c, f: verify(1)),
    ("verify: on_check", "on_check", lambda c, f: verify(c.path, on_check="print")),
    ("check_fidelity: 2", "min_fidelity", lambda c, f: check_fidelity(c.path, 2.0)),
]


def _toml(folder: Path) -> Path:
    path = folder.parent / "crawl.toml"
    path.write_text(f'start_urls = ["{URL}"]\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(("named", "call"), [c[1:] for c in CALLS], ids=[c[0] for c in CALLS])
def test_bad_arguments_are_config_errors(
    named: str, call: Call, small: statecrawl.Crawl, a_file: Path
) -> None:
    with pytest.raises(ConfigError) as error:
        call(small, a_file)
    message = str(error.value)
    assert "\n" not in message and len(message) < 300
    assert named in message


def test_good_arguments_still_work(small: statecrawl.Crawl) -> None:
    """The checks take what the entry points always took: paths as text, graphs of every
    kind, a prefix of a state id."""
    assert statecrawl.load(str(small.path)).graph.number_of_nodes() == len(small.graph)
    assert analysis.summary(StateGraph(small.graph))["states"] == len(list(small.states()))
    assert analysis.depth_profile(nx.MultiDiGraph(small.graph))
    start = next(iter(small.states()))["id"]
    assert analysis.shortest_path(small, start[:6]) == []


def test_the_face_documents_every_setting_and_hides_the_engine() -> None:
    """``crawl``'s keywords are the settings ``help()`` shows; ``Explorer`` is internal, its
    old top-level name kept for one release with a warning."""
    import inspect

    keywords = set(inspect.signature(statecrawl.crawl).parameters)
    assert {"out", "max_depth", "max_states", "max_time", "browser", "archive", "config",
            "plugins", "progress"} <= keywords
    assert set(inspect.signature(statecrawl.crawl_by_role).parameters) >= {"out", "login"}
    assert "Explorer" not in statecrawl.__all__
    with pytest.warns(DeprecationWarning, match="statecrawl.crawl"):
        assert statecrawl.Explorer is Explorer


def test_a_config_and_settings_together_are_refused() -> None:
    with pytest.raises(ConfigError, match="either a Config or settings"):
        statecrawl.crawl(config=CONFIG, max_depth=2)
    with pytest.raises(ConfigError, match="no start URL"):
        statecrawl.crawl(config={"out": "x"})
