"""The crawl directory: a crawl never mixes with what a directory held before."""

from __future__ import annotations

from pathlib import Path

import pytest

from statecrawl.cli import configure_logging, main
from statecrawl.directory.crawl import CrawlDirectory, is_crawl
from statecrawl.errors import ArchiveError
from tests.conftest import Site, error_line

TABS = "tabs.html"


def earlier_crawl(path: Path) -> None:
    """A directory as an earlier crawl left it."""
    (path / "states").mkdir(parents=True)
    (path / "states" / "old.html").write_text("<p>old</p>", encoding="utf-8")
    (path / "graph.json").write_text("{}", encoding="utf-8")


def test_a_new_or_empty_directory_is_used_as_is(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    for path in (tmp_path / "new", tmp_path / "empty"):
        out = CrawlDirectory(path)
        assert out.path == path and (path / "states").is_dir()
        out.commit()
        assert out.path == path


def test_a_directory_with_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    for overwrite in (False, True):
        with pytest.raises(ArchiveError, match="not empty and holds no crawl"):
            CrawlDirectory(tmp_path, overwrite=overwrite)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_an_earlier_crawl_is_refused_without_overwrite(tmp_path: Path) -> None:
    earlier_crawl(tmp_path / "out")
    assert is_crawl(tmp_path / "out")
    with pytest.raises(ArchiveError, match="give --resume to continue it, --overwrite"):
        CrawlDirectory(tmp_path / "out")


def test_overwrite_keeps_the_earlier_crawl_whole_until_commit(tmp_path: Path) -> None:
    target = tmp_path / "out"
    earlier_crawl(target)
    out = CrawlDirectory(target, overwrite=True)
    assert out.path != target and out.path.parent == tmp_path
    out.write_state("new", "<p>new</p>")
    assert (target / "states" / "old.html").exists()  # a crash now leaves the old crawl
    out.commit()
    assert out.path == target
    assert sorted(p.name for p in (target / "states").iterdir()) == ["new.html"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_crawling_twice_into_one_directory(
    site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI refuses a second crawl into a crawl directory in one line naming --overwrite;
    with --overwrite the new crawl replaces the old one whole."""
    site.page("/", TABS)
    out = tmp_path / "out"
    argv = ["crawl", site.url("/"), "--out", str(out), "-q", "--max-depth", "1"]

    assert main(argv) == 0
    capsys.readouterr()
    first = sorted(p.name for p in (out / "archive").iterdir())
    (out / "states" / "stale.html").write_text("<p>stale</p>", encoding="utf-8")
    assert "--overwrite" in error_line(capsys, argv)
    try:
        assert main(["--log-level", "info", *argv, "--overwrite"]) == 0
    finally:
        configure_logging("warning")
    assert "INFO statecrawl.engine.output: run 1 of the crawl in" in capsys.readouterr().err
    assert not (out / "states" / "stale.html").exists()
    assert len(list((out / "archive").glob("*.warc.gz"))) == len(
        [n for n in first if n.endswith(".warc.gz")]
    )
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
