"""Crawl rules: ``dont_click``, ``click`` and ``click_once`` by CSS, XPath, text and attribute,
in the page, in a shadow root and in a frame inside a frame (``tests/pages/rules.html``), and
``click_once`` under both the default and the exhaustive crawl (``tests/pages/once.html``);
malformed rules refused before anything starts. One crawl per page and rule set."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import statecrawl
from statecrawl import rules
from statecrawl.analysis import label
from statecrawl.config import Config, ConfigError, Rule, Rules
from statecrawl.testing import difference
from tests.conftest import Site, error_line, served

# Each rule kind once; the frame's "Stop" two frames down; a rule for another URL holds nowhere.
DONT_CLICK: list[Any] = [
    {"css": "#css-target", "url": r"127\.0\.0\.1"},
    "xpath://button[@name='xp']",
    "text:Forget me",
    "attr:data-role=risky",
    "xpath://span/button[@id='shadowed']",  # (in a shadow root: its tree's own XPath)
    "#stop",
    {"css": "#ok", "url": "/elsewhere"},
]


def crawl(site: Site, out: Path, page: str = "/", **settings: Any) -> statecrawl.Crawl:
    return statecrawl.crawl(
        site.url(page), out=out, max_depth=settings.pop("max_depth", 1),
        archive={"enabled": False}, **settings,
    )


@pytest.fixture(scope="module")
def pages() -> Iterator[Site]:
    for server in served("127.0.0.1"):
        server.page("/", "rules.html")
        server.page("/outer", "rules-outer.html")
        server.page("/inner", "rules-inner.html")
        server.page("/once", "once.html")
        yield server


def fired(result: statecrawl.Crawl) -> set[str]:
    """The labels of the actions fired."""
    return {label(data["name"])[1] for _, _, data in result.graph.edges(data=True)}


@pytest.fixture(scope="module")
def kept_out(pages: Site, tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    return crawl(pages, tmp_path_factory.mktemp("dont"), rules={"dont_click": DONT_CLICK})


@pytest.fixture(scope="module")
def allowed(pages: Site, tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    """Only OK, Alpha (which a dont_click rule takes back) and the inner frame's Stop."""
    return crawl(pages, tmp_path_factory.mktemp("click"), rules={
        "click": ["#ok", "text:Stop", "#css-target"], "dont_click": ["#css-target"],
    })


def test_dont_click_by_css_xpath_text_attribute(kept_out: statecrawl.Crawl) -> None:
    assert fired(kept_out) == {"OK", "Go"}  # (no rules: Alpha, Beta, Forget me, ... too)
    assert "Forget me" not in " ".join(str(d) for _, d in kept_out.graph.nodes(data=True))


def test_dont_click_holds_in_a_nested_frame(kept_out: statecrawl.Crawl) -> None:
    said = [kept_out.html(s["id"]) for s in kept_out.states()]  # (the frames as srcdoc)
    assert not any(">stopped<" in html for html in said)
    assert any(">going<" in html for html in said)


def test_the_stats_count_what_rules_left_out(kept_out: statecrawl.Crawl) -> None:
    # Alpha, Beta, Forget me, Gamma, Delta and Stop, in each of the 3 states
    assert len(kept_out) == 3
    assert kept_out.stats["ruled_out"] == 6 * 3
    assert kept_out.stats["once_skipped"] == 0


def test_click_allows_only_its_elements(allowed: statecrawl.Crawl) -> None:
    assert fired(allowed) == {"OK", "Stop"}


def test_dont_click_on_a_frame_leaves_out_all_inside(
    pages: Site, tmp_path_factory: pytest.TempPathFactory
) -> None:
    result = crawl(pages, tmp_path_factory.mktemp("frame"),
                   rules={"dont_click": ["iframe[title=inner]"]})
    assert fired(result) == {"Alpha", "Beta", "Forget me", "Gamma", "OK", "Delta"}
    assert result.stats["ruled_out"] == 2 * len(result)  # Stop and Go in each state


@pytest.fixture(scope="module")
def once(pages: Site, tmp_path_factory: pytest.TempPathFactory) -> statecrawl.Crawl:
    return crawl(pages, tmp_path_factory.mktemp("once"), "/once", max_depth=2,
                 rules={"click_once": ["#help"]})


def test_click_once_fires_once_in_the_whole_crawl(once: statecrawl.Crawl) -> None:
    helps = [(s, t) for s, t, d in once.graph.edges(data=True) if "Help" in d["name"]]
    start = once.graph.graph["start_urls"][0]
    first = next(s["id"] for s in once.states() if s["depth"] == 0 and s["url"] == start)
    assert [s for s, _ in helps] == [first]
    # home, one, two, and each with the message: Help left out in one, two and home + help
    assert len(once) == 6
    assert once.stats["once_skipped"] == 3


def test_click_once_gives_the_same_graph_exhaustive(
    once: statecrawl.Crawl, pages: Site, tmp_path: Path
) -> None:
    exhaustive = crawl(pages, tmp_path / "all", "/once", max_depth=2,
                       rules={"click_once": ["#help"]}, explore={"shortcuts": False})
    assert difference(exhaustive, once) is None
    assert exhaustive.stats["once_skipped"] == once.stats["once_skipped"]


# ---- malformed rules, before anything starts -------------------------------------------------

URL = "http://127.0.0.1:4/"


@pytest.mark.parametrize(("rule", "named"), [
    ("a[", "rule css 'a['"),
    ("div >", "rule css 'div >'"),
    ("xpath://div[", "rule xpath '//div['"),
    ("regex:(", "rule text_regex"),
    ("attr:=x", "rule attribute '=x'"),
    ({"url": "/x"}, "a rule needs css"),
    ({"css": "#a", "id": "x"}, "unknown setting(s) 'id'"),
])
def test_a_malformed_rule_is_one_line(rule: Any, named: str) -> None:
    with pytest.raises(ConfigError) as error:
        Config.from_mapping({"start_urls": [URL], "rules": {"dont_click": [rule]}})
    message = str(error.value)
    assert message.startswith("rules.dont_click: ") and named in message
    assert "\n" not in message


def test_a_malformed_rule_flag_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = error_line(capsys, ["crawl", URL, "--click-once", "xpath://div["])
    assert "rules.click_once: rule xpath '//div[' is no XPath" in line


def test_the_flags_and_a_file_make_rules(tmp_path: Path) -> None:
    toml = tmp_path / "crawl.toml"
    toml.write_text(
        f'start_urls = ["{URL}"]\n[[rules.dont_click]]\ncss = "#logout"\n'
        '[[rules.dont_click]]\ntext = "Delete"\nurl = "/admin"\n'
        '[rules]\nclick_once = ["text:Accept"]\n',
        encoding="utf-8",
    )
    config = Config.from_toml(toml)
    assert config.rules == Rules(
        dont_click=(Rule(css="#logout"), Rule(text="Delete", url="/admin")),
        click_once=(Rule(text="Accept"),),
    )
    assert Config.from_mapping(config.to_dict()) == config


@pytest.mark.parametrize(("spec", "table"), [
    ("#logout", {"css": "#logout"}),
    ("css:a.x", {"css": "a.x"}),
    ("xpath://a[@id='x']", {"xpath": "//a[@id='x']"}),
    ("text:Sign out", {"text": "Sign out"}),
    ("regex:(?i)delete", {"text_regex": "(?i)delete"}),
    ("attr:data-action=delete", {"attribute": "data-action=delete"}),
])
def test_a_rule_in_one_string(spec: str, table: dict[str, str]) -> None:
    assert rules.parse(spec) == table


@pytest.mark.parametrize("selector", [
    "#logout", "div:has(> img)", "li:nth-child(2 of .x)", ":not(.a, .b)", 'a[href^="x" i]',
    "x-el::part(btn)", "input:checked + label", "svg|circle", 'a[title="]"]', "nav a, footer a",
])
def test_css_selectors_the_browser_takes_pass(selector: str) -> None:
    rules.check_css(selector)
