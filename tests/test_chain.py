"""Incremental crawls that store only what changed (``statecrawl.directory.chain``): a chain
of five recrawls of the shelf app (``tests/test_incremental.py``) reads as a full crawl of the same
revision, ``compact`` folds it into one crawl, and a missing or changed baseline is a
one-line error naming it."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator

import statecrawl
from statecrawl.cli import main
from statecrawl.directory import chain
from statecrawl.directory.layout import THUMBNAIL
from statecrawl.errors import ArchiveError
from statecrawl.incremental.compaction import compact
from statecrawl.incremental.comparison import diff
from statecrawl.replay import verify
from statecrawl.report import build_report
from statecrawl.store import open_store
from tests.conftest import Site, run_tool
from tests.test_incremental import Shelf

REVISIONS = (1, 2, 2, 0, 1)  # of the five recrawls: a change, an item added, none, both undone
RUN = chain.RUN_ATTRS | {"screenshot", "aliases"}  # of a run, or its file names


@pytest.fixture
def shelf(site: Site) -> Shelf:
    return Shelf(site)


def crawl(shelf: Shelf, out: Path, revision: int, since: Path | None = None,
          **options: Any) -> statecrawl.Crawl:
    shelf.revision = revision
    incremental = {"since": since, "verify": 0.3} if since else {}
    options = {"max_depth": 1, "incremental": incremental, **options}
    return statecrawl.crawl(shelf.site.url("/"), out=out, **options)


def answers(result: statecrawl.Crawl) -> tuple[dict[str, Any], set[tuple[str, str, str]]]:
    """What a crawl says of the app: each state's attributes but its run's, its DOM, and
    the transitions."""
    graph = result.graph
    nodes = {
        n: ({k: v for k, v in a.items() if k not in RUN}, result.html(n) if a["kind"] == "state"
            else None)
        for n, a in graph.nodes(data=True)
    }
    return nodes, set(graph.edges(keys=True))


def kinds(directory: Path) -> dict[str, int]:
    """The WARC record types of a crawl directory's own files, counted."""
    found: dict[str, int] = {}
    for warc in sorted((directory / "archive").glob("*.warc.gz")):
        with warc.open("rb") as stream:
            for record in ArchiveIterator(stream):
                found[record.rec_type] = found.get(record.rec_type, 0) + 1
    return found


def pictures(report: Path) -> set[str]:
    """The pictures a report shows (``"<n> screenshot"``, ``"<n> thumbnail"``), each checked
    to name a file."""
    found = set()
    for file in (report / "data" / "s").glob("*.js"):
        data = json.loads(file.read_text().split(",", 1)[1].rsplit(")", 1)[0])
        for kind, url in (("screenshot", data["shot_url"]), ("thumbnail", data["thumbnail"])):
            if url:
                assert (report / urllib.parse.unquote(url)).is_file()
                found.add(f"{file.stem} {kind}")
    return found


def test_a_chain_of_five_recrawls_reads_as_a_full_crawl(shelf: Shelf, tmp_path: Path) -> None:
    runs = [tmp_path / "r0"]
    crawl(shelf, runs[0], 0)
    for n, revision in enumerate(REVISIONS, 1):
        runs.append(tmp_path / f"r{n}")
        crawl(shelf, runs[-1], revision, since=runs[-2])
    last = runs[-1]
    full = crawl(shelf, tmp_path / "full", REVISIONS[-1])
    chained = statecrawl.load(last)
    assert answers(chained) == answers(full)
    assert chained.graph.graph["incremental"]["changed"]  # the clock's page, from revision 0

    # Each recrawl holds its changes and a reference, and no GraphML of its own.
    for earlier, run in itertools.pairwise(runs):
        reference = json.loads((run / "baseline.json").read_text())
        assert reference == {"path": str(earlier.resolve()), "digest": chain.digest(earlier)}
        assert "delta" in json.loads((run / "graph.json").read_text())
        assert not (run / "graph.graphml").exists()
        assert open_store(run).is_delta()
    unchanged = runs[3]  # revision 2 again: nothing changed
    kept = json.loads((unchanged / "graph.json").read_text())
    assert kept["nodes"] == kept["edges"] == []
    assert kept["delta"]["gone"] == {"nodes": [], "edges": []}
    assert (unchanged / "crawl.sqlite").stat().st_size < (runs[2] / "crawl.sqlite").stat().st_size
    assert (unchanged / "resources.jsonl").read_text() == ""

    # diff, the report and replay give the answers of the full crawl.
    def ids(changes: dict[str, Any]) -> dict[str, set[str]]:
        return {k: {e if isinstance(e, str) else e["id"] for e in v} for k, v in changes.items()
                if k in ("unchanged", "changed", "new", "deleted")}

    first = statecrawl.load(runs[0])
    assert ids(diff(first, chained)) == ids(diff(first, full))
    report = build_report(last).parent
    full_report = build_report(full.path).parent
    # (the recrawl's report shows the changed states as they were, too) The pictures the
    # recrawl holds are shown where they are; those of the states unchanged since a crawl
    # before: its files, linked; a full crawl's report holds no copy of any.
    assert pictures(report) == pictures(full_report) != set()
    shots = [p for p in (report / "shots").iterdir() if ".before." not in p.name]
    earlier = {os.stat(p).st_ino for run in runs[:-1] for p in (run / "states").iterdir()}
    assert shots and all(p.stat().st_ino in earlier for p in shots)
    assert not any((full_report / "shots").iterdir())
    assert not any(p.stat().st_ino in earlier for p in (last / "states").glob(f"*.{THUMBNAIL}"))
    assert verify(last).fidelity == 1.0  # (every state reproduced from the chain's archive)

    # Resumed deeper, the last recrawl finds what a full crawl that deep finds.
    deeper = crawl(shelf, last, REVISIONS[-1], resume=True, max_depth=2)
    assert answers(deeper) == answers(crawl(shelf, tmp_path / "deep", REVISIONS[-1], max_depth=2))
    assert open_store(last).is_delta()

    # compact folds the chain into one crawl that refers to none of it.
    folded = compact(last, tmp_path / "folded")
    resolved = compact(last, tmp_path / "resolved", resolve_revisits=True)
    assert main(["export", str(last), "--graphml", str(tmp_path / "last.graphml")]) == 0
    assert (tmp_path / "last.graphml").stat().st_size > 0
    expected = answers(deeper)
    for name in runs:
        name.rename(name.with_name(name.name + ".away"))
    for out in (folded, resolved):
        assert not (out / "baseline.json").exists() and not open_store(out).is_delta()
        assert (out / "graph.graphml").is_file()
        assert answers(statecrawl.load(out)) == expected
        assert run_tool("statecrawl", "verify", "--integrity", str(out)).returncode == 0
    assert verify(resolved).fidelity == 1.0
    assert kinds(folded).get("revisit") and not kinds(resolved).get("revisit")
    for warc in (resolved / "archive").glob("*.warc.gz"):
        assert run_tool("warcio", "check", str(warc)).returncode == 0


def test_a_missing_or_changed_baseline_is_a_one_line_error(
    shelf: Shelf, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    crawl(shelf, old, 0)
    crawl(shelf, new, 1, since=old)
    statecrawl.load(new)
    with pytest.raises(ArchiveError, match=re.escape(f"{old} is the baseline of {new}")):
        crawl(shelf, old, 0, overwrite=True)  # statecrawl removes no baseline still referred to

    shutil.move(old, tmp_path / "moved")
    capsys.readouterr()  # (what the crawls wrote)
    for command in (["diff", str(tmp_path / "moved"), str(new)], ["report", str(new)],
                    ["compact", str(new), "--out", str(tmp_path / "full")]):
        assert main(command) == 1
        line = capsys.readouterr().err
        assert line.count("\n") == 1 and f"the baseline {old} of {new} is missing" in line
    with pytest.raises(ArchiveError, match="is missing"):
        statecrawl.crawl(shelf.site.url("/"), out=new, resume=True, max_depth=2)

    shutil.move(tmp_path / "moved", old)
    graph = json.loads((old / "graph.json").read_text())
    graph["graph"]["started"] = "another time"
    (old / "graph.json").write_text(json.dumps(graph))
    assert main(["report", str(new)]) == 1
    line = capsys.readouterr().err
    assert line.count("\n") == 1 and f"the baseline {old} of {new} changed" in line
