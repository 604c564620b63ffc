"""The notebooks in ``notebooks/`` run from start to end (nbclient, the virtual environment's
Python kernel) against crawls made here, and are kept in the repository without outputs."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import statecrawl

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def run(name: str, cwd: Path) -> nbformat.NotebookNode:
    """Execute a notebook in ``cwd``; a failing cell raises ``CellExecutionError``."""
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",  # jupyter_client starts it with the Python running the tests
        resources={"metadata": {"path": str(cwd)}},
    )
    return client.execute()


def outputs(notebook: nbformat.NotebookNode) -> str:
    """Every text output of a notebook, joined."""
    texts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", ()):
            texts.append(output.get("text", ""))
            texts.extend(str(v) for k, v in output.get("data", {}).items() if k.startswith("text"))
    return "\n".join(texts)


def test_notebooks_are_stored_without_outputs() -> None:
    names = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    assert names == [
        "01-explore-a-crawl.ipynb",
        "02-deep-web-coverage.ipynb",
        "03-compare-crawls.ipynb",
    ]
    for name in names:
        notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(notebook)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, name


def test_explore_a_crawl(
    small_crawl: statecrawl.Crawl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STATECRAWL_CRAWL", str(small_crawl.path))
    monkeypatch.setenv("STATECRAWL_FIND", "2.1")
    text = outputs(run("01-explore-a-crawl.ipynb", tmp_path))
    assert "1 states show '2.1'" in text
    assert '1 click "child 2"\n2 click "child 1"' in text
    assert "from statecrawl.browser import Browser" in text
    assert not (tmp_path / "statecrawl-demo").exists()


def test_deep_web_coverage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATECRAWL_DEMO_OUT", str(tmp_path / "demo"))
    text = outputs(run("02-deep-web-coverage.ipynb", tmp_path))
    crawl = statecrawl.load(tmp_path / "demo")
    assert max(s["depth"] for s in crawl.states()) == 2
    for query in ("battery", "drone", "model"):
        assert query in text


def test_compare_crawls(
    small_crawl: statecrawl.Crawl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shallow = statecrawl.crawl(
        small_crawl.start_url, out=tmp_path / "shallow", max_depth=1, archive={"enabled": False}
    )
    monkeypatch.setenv("STATECRAWL_OLD", str(shallow.path))
    monkeypatch.setenv("STATECRAWL_NEW", str(small_crawl.path))
    text = outputs(run("03-compare-crawls.ipynb", tmp_path))
    assert "'new': 16" in text and "'unchanged': 5" in text
    assert "limits.max_depth" in text and "limits.max_states" not in text  # settings that differ
