"""``analysis.diff`` and ``statecrawl diff`` on two real crawls of a small site in two
revisions (``tests/pages/revisions.html``): every class of state, exactly."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import statecrawl
from statecrawl import analysis
from statecrawl.cli import main
from statecrawl.scope import origin
from tests.conftest import Site, error_line, serving

Crawls = tuple[statecrawl.Crawl, statecrawl.Crawl]


@pytest.fixture(scope="module")
def crawls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crawls]:
    """Revision 0, then revision 1, of the site crawled one action deep, each served on a
    port of its own (as the demo app is): states are compared by their place, not by URL."""
    work = tmp_path_factory.mktemp("revisions")
    found = []
    for revision in ("0", "1"):
        with serving("127.0.0.1") as server:
            site = Site(server)
            site.page("/", "revisions.html", REVISION=revision)
            out = work / f"revision-{revision}"
            options = {"max_depth": 1, "archive": {"enabled": False}}
            found.append(statecrawl.crawl(site.url("/"), out=out, **options))
    assert found[0].start_url != found[1].start_url
    yield found[0], found[1]


def titles(crawl: statecrawl.Crawl) -> dict[str, str]:
    return {s["title"]: s["id"] for s in crawl.states()}


def test_diff_classifies_every_state(crawls: Crawls) -> None:
    old, new = crawls
    before, after = titles(old), titles(new)
    changes = analysis.diff(old, new)
    assert changes["unchanged"] == [before["About - Kessel"]] == [after["About - Kessel"]]
    changed = {c["title"]: c for c in changes["changed"]}
    assert sorted(changed) == ["Kessel", "News - Kessel", "Prices - Kessel"]
    for title, change in changed.items():
        assert (change["old"], change["id"]) == (before[title], after[title])
        assert change["url"] == new.start_url
    assert changed["Kessel"]["path"] == []
    assert changed["News - Kessel"]["path"] == ['click "News"']
    assert changed["News - Kessel"]["minor"] and changed["News - Kessel"]["similarity"] >= 0.9
    assert not changed["Prices - Kessel"]["minor"] and not changed["Kessel"]["minor"]
    assert changed["Prices - Kessel"]["diff"].splitlines()[2:] == [
        "@@ -1,3 +1,3 @@",
        " Prices",
        "-Apples cost three coins a basket, pears four and plums five.",
        "+Closed until spring: the market moved indoors to the old warehouse by the bridge, "
        "where fishmongers sell herring on Fridays.",
        " Back",
    ]
    assert "-Old\n+Events" in changed["Kessel"]["diff"]
    assert changes["new"] == [
        {
            "id": after["Events - Kessel"],
            "label": "Events",  # the title less the site's name, which most titles carry
            "url": new.start_url,
            "title": "Events - Kessel",
            "path": ['click "Events"'],
        }
    ]
    deleted = {d["title"]: d for d in changes["deleted"]}
    assert sorted(deleted) == ["Old - Kessel", "Team - Kessel"]
    assert deleted["Team - Kessel"] == {
        "id": before["Team - Kessel"],
        "label": "Team",
        "url": old.start_url,
        "title": "Team - Kessel",
        "path": ['click "Team"'],
        "reason": "its path now leads to another state",
        "now": after["About - Kessel"],
        "gone": None,
    }
    old_entry = deleted["Old - Kessel"]
    assert (old_entry["reason"], old_entry["now"], old_entry["gone"]) == (
        "the action is gone", None, 'click "Old"'
    )  # fmt: skip
    targets = {t for _, _, t in changes["transitions_added"]}
    assert targets == {after["Events - Kessel"], after["About - Kessel"]}  # Team leads to About


def test_diff_of_a_crawl_with_itself(crawls: Crawls) -> None:
    old, _ = crawls
    same = analysis.diff(old, old)
    assert same["unchanged"] == [s["id"] for s in old.states()]
    assert not any(same[k] for k in same if k != "unchanged")


def test_cli_diff_json(crawls: Crawls, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = crawls
    assert main(["diff", str(old.path), str(new.path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == json.loads(json.dumps(analysis.diff(old, new)))
    before, after = (origin(crawl.start_url) for crawl in crawls)  # two ports: two origins
    warning = (f"the crawls share no start URL origin ({before} before, {after} now): states "
               "are paired by path only")
    assert json.loads(out)["warnings"] == [warning]
    assert err == f"statecrawl: warning: {warning}\n"
    assert main(["diff", str(old.path), str(old.path), "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_cli_diff_table(crawls: Crawls, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = crawls
    before, after = titles(old), titles(new)
    assert main(["diff", str(old.path), str(new.path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1 unchanged, 3 changed (1 minor), 1 new, 2 deleted"
    assert lines[1].split() == ["STATE", "URL", "TITLE", "PATH"]
    rows = {re.search(r"\b[0-9a-f]{16}\b", line).group(): line for line in lines[2:8]}  # type: ignore[union-attr]
    assert rows[after["News - Kessel"]].startswith("minor 0.9")
    assert rows[after["Events - Kessel"]].endswith('click "Events"')
    assert rows[before["Old - Kessel"]].endswith('click "Old": the action is gone')
    assert rows[before["Team - Kessel"]].endswith(
        f'click "Team": its path now leads to another state ({after["About - Kessel"]})'
    )
    assert f"--- {before['Prices - Kessel']}" in lines


def test_cli_diff_of_a_directory_without_a_crawl(
    crawls: Crawls, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, new = crawls
    line = error_line(capsys, ["diff", str(tmp_path), str(new.path)])
    assert line == f"statecrawl: error: no graph.json in {tmp_path}: not a crawl directory"
    missing = tmp_path / "missing"
    assert "not a crawl directory" in error_line(capsys, ["diff", str(new.path), str(missing)])
