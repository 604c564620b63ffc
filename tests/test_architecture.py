"""The package's shape, read from its source with ``ast`` (no browser, nothing imported):

- no import circle of any kind among statecrawl's modules: top-level imports, imports inside
  functions (lazy ones), imports under ``if TYPE_CHECKING:`` and ``importlib.import_module``
  calls with a literal name all count, since a circle of any of them is a knot to untie;
- the layers import only downwards: the readers never import the engine (``LAYERS``);
- no class is longer than ``MAX_CLASS_LINES`` lines.

Which modules: every ``.py`` file under the directories ``[tool.setuptools.package-dir]`` of
pyproject.toml maps to a package (``statecrawl/``, ``models/`` as ``statecrawl.models``,
``strategies/`` as ``statecrawl.strategies``, ``demo_app/`` as ``statecrawl.demo_app``).

What an import is an edge to:

- ``import a.b.c``, ``from a.b.c import name`` and ``from a.b import c`` (``c`` a module) are
  edges to the module ``a.b.c``; ``from a.b import name`` (``name`` not a module) is an edge
  to ``a.b``'s ``__init__``; relative imports are resolved first.
- Importing ``a.b.c`` also runs the ``__init__`` of ``a`` and of ``a.b``: that is an edge to
  each of those package inits *that does not contain the importing module*. A module inside
  package ``P`` is only ever run after ``P/__init__`` has started, so its import of a sibling
  does not run ``P/__init__`` again: counting that edge would make every package whose
  ``__init__`` re-exports its submodules a circle, though Python never trips on it. From
  outside ``P`` the init does run, and a circle through it is a real one (``statecrawl.state``
  importing ``statecrawl.browser.answers`` runs ``browser/__init__``, which may import
  ``browser.browser``, which imports ``statecrawl.state``). An explicit import of a package
  itself (``from statecrawl.browser import Browser``, ``from . import Name``) is always an edge
  to its init, from inside the package too: the init is then asked for a name it may not have
  defined yet.
"""

from __future__ import annotations

import ast
import itertools
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOP = "statecrawl"

# The layer rule: modules of each package (or module) on the left never import, directly or
# through other modules, anything of the packages on the right. Add a line to add a rule.
READERS = ("statecrawl.analysis", "statecrawl.report", "statecrawl.export",
           "statecrawl.replay", "statecrawl.service")
LAYERS: dict[str, tuple[str, ...]] = {reader: ("statecrawl.engine",) for reader in READERS}

MAX_CLASS_LINES = 400  # decorators, docstring and blank lines included


@dataclass(frozen=True)
class Import:
    importer: str  # dotted module name
    target: str  # dotted module name (a package's name stands for its __init__)
    path: Path
    line: int
    kind: str  # "top-level", "in a function", "TYPE_CHECKING"
    text: str  # the import statement as written
    implicit: bool = False  # an edge to a package init that runs before ``target``

    def describe(self) -> str:
        where = f"{rel(self.path)}:{self.line}"
        how = f" (runs {self.target}/__init__)" if self.implicit else ""
        return f"{where} [{self.kind}] {self.text}{how}"


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Package name -> its directory, from pyproject.toml's package-dir (``statecrawl`` too)."""
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapping = {TOP: TOP, **setuptools.get("package-dir", {})}
    return {package: root / folder for package, folder in mapping.items()}


def find_modules(dirs: dict[str, Path]) -> dict[str, Path]:
    """Every module's dotted name -> its file; a package's name -> its ``__init__.py``."""
    mapped = {path.resolve() for path in dirs.values()}
    modules: dict[str, Path] = {}
    for package, folder in dirs.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if "__pycache__" in parts or any(  # a folder mapped to a package of its own
                    parent.resolve() in mapped and parent != folder
                    for parent in path.parents if folder in parent.parents):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((package, *parts))] = path
    return modules


def is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def resolve(importer: str, level: int, module: str | None, modules: dict[str, Path]) -> str:
    """The absolute name ``from {'.' * level}{module} import ...`` means in ``importer``."""
    if level == 0:
        return module or ""
    package = importer if is_package(importer, modules) else importer.rpartition(".")[0]
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - (level - 1)])
    return f"{base}.{module}" if module else base


def known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is one of our modules."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def contains(package: str, module: str) -> bool:
    return module == package or module.startswith(package + ".")


class Collector(ast.NodeVisitor):
    """Every import of one module, with where it stands (top level, function, TYPE_CHECKING)."""

    def __init__(self, importer: str, path: Path, source: str, modules: dict[str, Path]):
        self.importer, self.path, self.modules = importer, path, modules
        self.lines = source.splitlines()
        self.kinds = ["top-level"]
        self.imports: list[Import] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.kinds.append("in a function")
        self.generic_visit(node)
        self.kinds.pop()

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
        if name == "TYPE_CHECKING":
            self.kinds.append("TYPE_CHECKING")
            for child in node.body:
                self.visit(child)
            self.kinds.pop()
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def text(self, node: ast.stmt | ast.expr) -> str:
        lines = self.lines[node.lineno - 1: node.end_lineno]
        return " ".join(line.strip() for line in lines)

    def add(self, node: ast.stmt | ast.expr, target: str) -> None:
        found = known(target, self.modules)
        if found is None or found == self.importer:
            return
        text, kind = self.text(node), self.kinds[-1]
        self.imports.append(Import(self.importer, found, self.path, node.lineno, kind, text))
        parts = found.split(".")
        for end in range(1, len(parts)):  # the package inits that run before ``found``
            package = ".".join(parts[:end])
            if package in self.modules and not contains(package, self.importer):
                self.imports.append(
                    Import(self.importer, package, self.path, node.lineno, kind, text, True))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if contains(TOP, alias.name):
                self.add(node, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = resolve(self.importer, node.level, node.module, self.modules)
        if not contains(TOP, base):
            return
        as_package = False
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            if alias.name != "*" and submodule in self.modules:
                self.add(node, submodule)
            else:
                as_package = True
        if as_package:  # a name of ``base`` itself: its module, or its package's init
            self.add(node, base)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if (name == "import_module" and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            target = node.args[0].value
            if target.startswith("."):
                level = len(target) - len(target.lstrip("."))
                target = resolve(self.importer, level, target.lstrip(".") or None, self.modules)
            if contains(TOP, target):
                self.add(node, target)
        self.generic_visit(node)


def collect(modules: dict[str, Path]) -> tuple[list[Import], dict[str, ast.Module]]:
    imports: list[Import] = []
    trees: dict[str, ast.Module] = {}
    for name, path in modules.items():
        source = path.read_text(encoding="utf-8")
        trees[name] = tree = ast.parse(source, str(path))
        collector = Collector(name, path, source, modules)
        collector.visit(tree)
        imports += collector.imports
    return imports, trees


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), those with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return found


def shortest_path(graph: dict[str, set[str]], start: str, goals: set[str],
                  within: set[str] | None = None) -> list[str] | None:
    previous: dict[str, str | None] = {start: None}
    queue = [start]
    for node in queue:
        for child in sorted(graph.get(node, ())):
            if child in previous or (within is not None and child not in within):
                continue
            previous[child] = node
            if child in goals:
                path = [child]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            queue.append(child)
    return None


def graph_of(imports: list[Import]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for edge in imports:
        graph[edge.importer].add(edge.target)
    return graph


def cycle_report(imports: list[Import]) -> list[str]:
    """One paragraph per circle: its modules, a shortest loop, and every import inside it."""
    graph = graph_of(imports)
    reports = []
    for members in sorted(components(graph), key=len, reverse=True):
        inside = set(members)
        loops = [shortest_loop(graph, member, inside) for member in members]
        loop = min((found for found in loops if found), key=len)
        lines = [f"circle of {len(members)} modules: {', '.join(members)}",
                 f"  shortest loop: {' -> '.join(loop)}",
                 "  imports inside the circle (cut one of each loop):"]
        for edge in sorted(imports, key=lambda e: (e.importer, e.line, e.target)):
            if edge.importer in inside and edge.target in inside:
                lines.append(f"    {edge.importer} -> {edge.target}: {edge.describe()}")
        reports.append("\n".join(lines))
    return reports


def shortest_loop(graph: dict[str, set[str]], start: str, within: set[str]) -> list[str] | None:
    best: list[str] | None = None
    for child in sorted(graph.get(start, ())):
        if child not in within:
            continue
        if child == start:
            return [start, start]
        path = shortest_path(graph, child, {start}, within)
        if path and (best is None or len(path) + 1 < len(best)):
            best = [start, *path]
    return best


def layer_report(imports: list[Import], modules: dict[str, Path],
                 layers: dict[str, tuple[str, ...]] = LAYERS) -> list[str]:
    graph = graph_of(imports)
    by_edge: dict[tuple[str, str], list[Import]] = defaultdict(list)
    for edge in imports:
        by_edge[edge.importer, edge.target].append(edge)
    reports = []
    for reader, forbidden in layers.items():
        banned = {name for name in modules if any(contains(f, name) for f in forbidden)}
        for module in sorted(name for name in modules if contains(reader, name)):
            path = shortest_path(graph, module, banned)
            if path is None:
                continue
            lines = [f"{module} imports {path[-1]} ({reader} must not import "
                     f"{', '.join(forbidden)}): {' -> '.join(path)}"]
            for importer, target in itertools.pairwise(path):
                edge = by_edge[importer, target][0]
                lines.append(f"    {importer} -> {target}: {edge.describe()}")
            reports.append("\n".join(lines))
    return reports


def class_report(trees: dict[str, ast.Module], modules: dict[str, Path],
                 limit: int = MAX_CLASS_LINES) -> list[str]:
    reports = []
    for name, tree in sorted(trees.items()):
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = node.end_lineno - first + 1  # type: ignore[operator]
                if length > limit:
                    reports.append(f"{rel(modules[name])}:{node.lineno} class {node.name}: "
                                   f"{length} lines (at most {limit})")
    return reports


@pytest.fixture(scope="module")
def package() -> tuple[dict[str, Path], list[Import], dict[str, ast.Module]]:
    modules = find_modules(package_dirs())
    imports, trees = collect(modules)
    return modules, imports, trees


def test_the_reading_finds_the_package(package) -> None:
    """Guards against a test that passes because it read nothing."""
    modules, imports, _ = package
    expected = {"statecrawl", "statecrawl.cli", "statecrawl.models", "statecrawl.strategies"}
    assert expected <= set(modules)
    assert any(e.importer == "statecrawl.cli" and e.target == "statecrawl.config" for e in imports)


def test_no_import_circle(package) -> None:
    _, imports, _ = package
    reports = cycle_report(imports)
    assert not reports, "import circles:\n\n" + "\n\n".join(reports)


def test_readers_never_import_the_engine(package) -> None:
    modules, imports, _ = package
    reports = layer_report(imports, modules)
    assert not reports, "layer violations:\n\n" + "\n\n".join(reports)


def test_no_class_is_too_long(package) -> None:
    modules, _, trees = package
    reports = class_report(trees, modules)
    assert not reports, "classes too long:\n" + "\n".join(reports)


def test_the_rules_on_a_made_up_package(tmp_path: Path) -> None:
    """The edge rules themselves: relative imports, ``from . import module``, lazy and
    TYPE_CHECKING imports, package inits run from outside but not from inside."""
    files = {
        "statecrawl/__init__.py": "",
        "statecrawl/state.py": "from .browser.answers import Answers\n",
        "statecrawl/browser/__init__.py": "from .browser import Browser\n",
        "statecrawl/browser/browser.py": "from . import answers\nfrom ..state import State\n",
        "statecrawl/browser/answers.py": "def f():\n    from statecrawl import errors\n",
        "statecrawl/errors.py": "from typing import TYPE_CHECKING\n"
                                "if TYPE_CHECKING:\n    from .engine import run\n",
        "statecrawl/engine/__init__.py": "",
        "statecrawl/engine/run.py": "",
        "statecrawl/analysis/__init__.py": "from .functions import *\n",
        "statecrawl/analysis/functions.py": "import importlib\n"
                                            "importlib.import_module('statecrawl.errors')\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    modules = find_modules({TOP: tmp_path / TOP})
    imports, _ = collect(modules)
    edges = {(e.importer, e.target, e.kind) for e in imports}
    assert edges == {
        ("statecrawl.state", "statecrawl.browser.answers", "top-level"),
        ("statecrawl.state", "statecrawl.browser", "top-level"),  # runs browser/__init__
        ("statecrawl.browser", "statecrawl.browser.browser", "top-level"),
        ("statecrawl.browser.browser", "statecrawl.browser.answers", "top-level"),
        ("statecrawl.browser.browser", "statecrawl.state", "top-level"),
        ("statecrawl.browser.answers", "statecrawl.errors", "in a function"),
        ("statecrawl.errors", "statecrawl.engine.run", "TYPE_CHECKING"),
        ("statecrawl.errors", "statecrawl.engine", "TYPE_CHECKING"),
        ("statecrawl.analysis", "statecrawl.analysis.functions", "top-level"),
        ("statecrawl.analysis.functions", "statecrawl.errors", "top-level"),
    }
    assert [report.splitlines()[0] for report in cycle_report(imports)] == [
        "circle of 3 modules: statecrawl.browser, statecrawl.browser.browser, statecrawl.state"]
    layers = {"statecrawl.analysis": ("statecrawl.engine",)}
    assert [report.splitlines()[0].rpartition(": ")[2]
            for report in layer_report(imports, modules, layers)] == [
        "statecrawl.analysis -> statecrawl.analysis.functions -> statecrawl.errors"
        " -> statecrawl.engine",
        "statecrawl.analysis.functions -> statecrawl.errors -> statecrawl.engine"]
