"""The package type-checks: mypy, configured in pyproject.toml, on ``statecrawl`` as installed.

``statecrawl.models``, ``.strategies`` and ``.demo_app`` live outside ``statecrawl/`` (the
package-dir mapping of pyproject.toml) and mypy has no such mapping: it checks a tree of links
in ``.mypy_cache/package`` laid out as the installed package, and the errors name the real files.
mypy's cache is ``.mypy_cache`` too: a first run takes about 20 s, the next ones about a second.
"""

from __future__ import annotations

import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".mypy_cache"
TREE = CACHE / "package"
PACKAGE = "statecrawl"


def _link_tree() -> None:
    """Lay out links to the sources in ``TREE`` as the package is installed."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package_dirs: dict[str, str] = setuptools.get("package-dir", {})
    shutil.rmtree(TREE, ignore_errors=True)
    top = TREE / PACKAGE
    top.mkdir(parents=True)
    for source in (ROOT / package_dirs.get(PACKAGE, PACKAGE)).iterdir():
        if source.name != "__pycache__":
            (top / source.name).symlink_to(source)
    for name, directory in package_dirs.items():
        if name != PACKAGE:
            TREE.joinpath(*name.split(".")).symlink_to(ROOT / directory, target_is_directory=True)


def _real(line: str) -> str:
    """An output line of mypy with the file in the tree of links named by its real path."""
    path, separator, rest = line.partition(":")
    real = Path(path).resolve()
    if not separator or not real.is_relative_to(ROOT):
        return line
    return f"{real.relative_to(ROOT)}:{rest}"


def test_mypy_finds_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    _link_tree()
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MYPYPATH", str(TREE))
    stdout, stderr, status = api.run([
        "--config-file", str(ROOT / "pyproject.toml"),
        "--cache-dir", str(CACHE),
        "--no-color-output",
        "--no-error-summary",
        "-p", PACKAGE,
    ])  # fmt: skip
    assert not stderr, stderr
    lines = [_real(line) for line in stdout.splitlines()]
    errors = Counter(line.partition(":")[0] for line in lines if ": error: " in line)
    summary = "\n".join(f"{count:4} {path}" for path, count in sorted(errors.items()))
    assert status == 0 and not lines, (
        f"mypy found {errors.total()} errors in {len(errors)} files:\n{summary}\n\n"
        + "\n".join(lines)
    )
