"""Records: the repeated items of result lists (sibling subtrees of one shape that lead to a
detail, and table rows with links) extracted from the stored DOMs, deduplicated by key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import statecrawl
from statecrawl import analysis
from statecrawl.cli import main
from statecrawl.directory.layout import RECORDS
from statecrawl.harvest.records import collect, extract, per_query
from statecrawl.report import build_report

LIST = """<html><body><nav><a href="/a">Home</a><a href="/b">Help</a></nav>
<ol class="results">
  <li class="result" data-number="US101"><h3><a href="#">Solid electrolyte cell</a></h3>
    <span class="result-year">Granted 2019</span><p>Assignee: Acme Cells</p></li>
  <li class="result" data-number="US102"><h3><a href="#">Rotor blade damping</a></h3>
    <span class="result-year">Granted 2021</span><p>Assignee: Windco</p></li>
</ol></body></html>"""

TABLE = """<html><body><table><tr><th>Number</th><th>Title</th><th>Filing year</th></tr>
<tr><td><a href="/patent/US201">US201</a></td><td>Heat pump valve</td><td>2020</td></tr>
<tr><td><a href="/patent/US202">US202</a></td><td>Drone landing gear</td><td>2018</td></tr>
</table></body></html>"""


def test_a_list_of_items_gives_a_record_each_with_its_labelled_fields() -> None:
    found = dict(extract(LIST, "http://example.test/search"))
    assert found == {
        "US101": {"title": "Solid electrolyte cell", "year": "2019", "assignee": "Acme Cells"},
        "US102": {"title": "Rotor blade damping", "year": "2021", "assignee": "Windco"},
    }


def test_table_rows_are_records_named_by_their_headers() -> None:
    found = dict(extract(TABLE, "http://example.test/search"))
    assert found == {
        "http://example.test/patent/US201": {
            "number": "US201", "title": "Heat pump valve", "filing_year": "2020",
        },
        "http://example.test/patent/US202": {
            "number": "US202", "title": "Drone landing gear", "filing_year": "2018",
        },
    }


@pytest.mark.parametrize("html", [
    "<nav><a href='/a'>A</a><a href='/b'>B</a></nav>",  # bare links: a menu, a pager
    "<ul><li><span>one</span></li><li><span>two</span></li></ul>",  # nothing leads anywhere
    "<p>not a list</p>",
])
def test_menus_and_plain_text_are_not_records(html: str) -> None:
    assert extract(f"<html><body>{html}</body></html>") == []


def test_the_demo_results_are_records_of_their_query_and_their_detail(
    demo_crawl_live: statecrawl.Crawl, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo crawled to depth 2 with "battery": each result of the query is a record with
    its number, title and year, the query and page that listed it, and the detail opened
    from it; the start page's latest patents are records of no query."""
    frame = analysis.records(demo_crawl_live)
    assert frame["key"].is_unique
    battery = frame[frame["query"] == "q=battery&field=title"]
    assert len(battery) >= 10
    assert battery["year"].str.fullmatch(r"\d{4}").all()
    assert battery["title"].str.len().gt(0).all()
    assert (battery["key"] == battery["number"]).all()
    details = battery.dropna(subset=["detail_state"])
    assert len(details) >= 5
    for row in details.itertuples():
        assert row.key in demo_crawl_live.html(row.detail_state)
    out = tmp_path / "records.jsonl"
    assert main(["export", str(demo_crawl_live.path), "--records", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == len(frame) and f"{len(frame)} records" in capsys.readouterr().out


def test_the_crawl_writes_its_records_and_the_report_counts_them_per_query(
    demo_crawl_live: statecrawl.Crawl, tmp_path: Path
) -> None:
    """``records.jsonl`` is written by the crawl itself; the report's summary gives the
    number of records of each query."""
    lines = (demo_crawl_live.path / RECORDS).read_text().splitlines()
    written = [json.loads(line) for line in lines]
    assert written == json.loads(json.dumps(collect(demo_crawl_live.graph, demo_crawl_live.html)))
    counts = per_query(demo_crawl_live.path)
    assert counts["q=battery&field=title"] >= 10 and sum(counts.values()) == len(written)
    index = (build_report(demo_crawl_live.path, tmp_path / "report").parent / "data" / "index.js")
    meta = json.loads(index.read_text().split("(", 1)[1].rsplit(")", 1)[0])["meta"]
    assert meta["counts"]["records"] == len(written)
    assert meta["records"].startswith("records by query: ")
    assert f"q=battery&field=title {counts['q=battery&field=title']}" in meta["records"]
