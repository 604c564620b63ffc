"""The pure parts of the real applications kit (``benchmarks/realapps.py``): reading coverage.py's
report and V8's block coverage, comparing checksums, naming warnings. The kit's apps are not
installed here: the benchmark itself runs them."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from benchmarks.realapps import (
    changed,
    code_offset,
    python_lines,
    table_sums,
    v8_lines,
    warning_kind,
)

SOURCE = "var a = 1;\nfunction f() {\n  return 2;\n}\n\nf;\n"
F_START = SOURCE.index("function f")
F_END = SOURCE.index("}\n") + 1


def functions(offset: int, length: int, f_count: int) -> list[dict[str, Any]]:
    """V8's coverage of SOURCE compiled at ``offset`` in a script of ``length``."""
    def ranges(start: int, end: int, count: int) -> dict[str, Any]:
        return {"ranges": [{"startOffset": start, "endOffset": end, "count": count}]}
    return [ranges(0, length, 1), ranges(offset + F_START, offset + F_END, f_count)]


def test_python_lines_reads_the_totals() -> None:
    report = {"totals": {"covered_lines": 120, "num_statements": 900}, "files": {}}
    assert python_lines(report) == (120, 900)


def test_v8_lines_of_a_script_that_is_its_file() -> None:
    assert v8_lines(SOURCE, functions(0, len(SOURCE), 0)) == (2, 5)  # f's body never ran
    assert v8_lines(SOURCE, functions(0, len(SOURCE), 3)) == (5, 5)


def test_v8_lines_of_a_wrapped_module() -> None:
    prefix = "(function(exports,require) {  (function(){"
    script = prefix + SOURCE + "\n;})();\nreturn exports;\n})"
    offset = len(prefix)
    wrapped: list[dict[str, Any]] = [
        {"ranges": [{"startOffset": 0, "endOffset": len(script), "count": 1}]},
        {"ranges": [{"startOffset": 1, "endOffset": len(script) - 1, "count": 1}]},
        {"ranges": [{"startOffset": prefix.index("function(){"),
                     "endOffset": offset + len(SOURCE) + 3, "count": 1}]},
        *functions(offset, len(script), 0)[1:],
    ]
    assert code_offset(SOURCE, wrapped) == offset
    assert v8_lines(SOURCE, wrapped) == (2, 5)
    assert v8_lines(SOURCE + "// another file\n", wrapped) is None


def test_changed_names_what_differs_came_or_went(tmp_path: Path) -> None:
    database = tmp_path / "app.db"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE items (id INTEGER, name TEXT)")
        db.execute("CREATE TABLE session (id TEXT)")
        db.executemany("INSERT INTO items VALUES (?, ?)", [(1, "a"), (2, "b")])
    before = table_sums(database, skip=["session"])
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO session VALUES ('x')")
    assert changed(before, table_sums(database, skip=["session"])) == []
    with sqlite3.connect(database) as db:
        db.execute("UPDATE items SET name = 'c' WHERE id = 2")
        db.execute("CREATE TABLE drafts (id INTEGER)")
    assert changed(before, table_sums(database, skip=["session"])) == [
        "table drafts", "table items"
    ]


def test_warning_kind_masks_ids_and_numbers() -> None:
    a = warning_kind("state 4e3729ab: its URL shows another state (try 3)")
    b = warning_kind("state 99ff0012: its URL shows another state (try 12)")
    assert a == b == "state …: its URL shows another state (try …)"
