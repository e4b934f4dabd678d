"""The shape of the package, read from its source: no import cycles, each layer of docs/design.md imports only the
layers below it, and no module grows past 500 lines without a stated reason.

Every import counts: one inside a function (a lazy import is still a dependency) and one under `if TYPE_CHECKING:`
(it never runs, but it says the module needs the other to be understood: a circle through it is still a circle,
and the first circle this test missed went through one). Importing `a.b.c` runs `a/__init__` and `a/b/__init__`
too, so those count as imported as well.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "server" / "toolsense"
DESIGN = REPO / "docs" / "design.md"
MAX_LINES = 500
OVER_LIMIT: dict[str, str] = {}
"""Modules allowed over `MAX_LINES`, each with the reason. An entry whose module is back under the limit fails too,
so the list never hides a regression."""

Modules = dict[str, tuple[Path, bool]]


def modules_of(package: Path) -> Modules:
    """Every module of the package by dotted name, with its file and whether it is a package's `__init__`."""
    found: Modules = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of the module, wherever it is: top level, in a function, under TYPE_CHECKING."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def _targets(modules: Modules, module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = module.split(".") if is_package else module.split(".")[:-1]
        if node.level:
            base = base[: len(base) - node.level + 1]
            prefix = ".".join([*base, *([node.module] if node.module else [])])
        else:
            prefix = node.module or ""
        names = []
        for alias in node.names:
            candidate = f"{prefix}.{alias.name}"
            names.append(candidate if candidate in modules else prefix)
    for name in names:
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            target = ".".join(parts[:end])
            if target in modules and target != module and not module.startswith(target + "."):
                yield target


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module → the modules of the same package it imports."""
    modules = modules_of(package)
    graph: dict[str, set[str]] = {}
    for module, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = {target for node in _imports(tree) for target in _targets(modules, module, is_package, node)}
    return graph


MODULES = modules_of(PACKAGE)
GRAPH = import_graph(PACKAGE)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def design_layers(text: str) -> list[set[str]]:
    """The rows of the layer table in docs/design.md, lowest first: the top-level modules and packages of each
    (`rules/tools/` is `rules`, `settings.py` is `settings`)."""
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return [{re.split(r"[/.]", name)[0] for name in re.findall(r"`([^`]+)`", row)} for row in rows]


LAYERS = design_layers(DESIGN.read_text(encoding="utf-8"))


def _top(module: str) -> str:
    """The top-level module or package of `toolsense.a.b` (`a`); the root package itself is ``."""
    return module.split(".")[1] if "." in module else ""


def upward_imports(graph: dict[str, set[str]], layers: list[set[str]]) -> list[str]:
    """Each import of a module from a layer listed after its own (the root package, imported by all, is none)."""
    rank = {name: index for index, names in enumerate(layers) for name in names}
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in targets
        if _top(target) and rank[_top(target)] > rank[_top(module)]
    )


def _package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return package


def test_the_graph_sees_the_package() -> None:
    assert "toolsense.rules.tools.json_schema" in GRAPH
    assert "toolsense.domain.validation" in GRAPH["toolsense.rules.tools.structure"]
    assert "toolsense.domain" in GRAPH["toolsense.rules.tools.structure"]  # the package's __init__ runs first


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_circle_through_a_type_checking_import_is_found(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low.py": """\
                from __future__ import annotations

                from typing import TYPE_CHECKING

                if TYPE_CHECKING:
                    from .high import High


                def make() -> High: ...
            """,
            "high.py": "from .low import make\n\n\nclass High: ...\n",
            "user.py": "from . import low\n",
        },
    )
    assert _cycles(import_graph(package)) == [["pkg.high", "pkg.low"]]


def test_a_circle_through_a_function_local_import_is_found(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a/__init__.py": "",
            "a/first.py": "def later() -> None:\n    from ..b.second import value\n",
            "b/__init__.py": "",
            "b/second.py": "from ..a import first\n\nvalue = 1\n",
        },
    )
    assert _cycles(import_graph(package)) == [["pkg.a.first", "pkg.b.second"]]


def test_no_import_cycles() -> None:
    assert _cycles(GRAPH) == []


def test_the_layer_table_is_read() -> None:
    table = """# x\n\n## Layers\nText.\n\n| Package | Owns |\n|---|---|\n| `low/` | a |\n| `mid.py`, `other/x/` | b |
| `high/` | c |\n\n## Next\n| `not/` | d |\n"""
    assert design_layers(table) == [{"low"}, {"mid", "other"}, {"high"}]
    graph = {"t.high.a": {"t.low"}, "t.low": {"t.mid"}, "t.mid": {"t.other.x", "t"}, "t.other.x": {"t.mid"}}
    assert upward_imports(graph, design_layers(table)) == ["t.low imports t.mid"]


def test_every_module_has_a_layer() -> None:
    placed = set().union(*LAYERS)
    assert sorted({_top(module) for module in GRAPH} - placed - {""}) == []


def test_layers_import_only_downwards() -> None:
    assert upward_imports(GRAPH, LAYERS) == []


def test_features_never_import_rules() -> None:
    """Editor help answers from `domain`, never from a rule family (design.md)."""
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if _top(module) == "features"
        for target in targets
        if _top(target) == "rules"
    )
    assert wrong == []


def test_modules_stay_small() -> None:
    lengths = {
        path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path, _ in MODULES.values()
    }
    over = sorted(name for name, count in lengths.items() if count > MAX_LINES and name not in OVER_LIMIT)
    assert over == [], f"over {MAX_LINES} lines: split them, or add them to OVER_LIMIT with the reason"
    stale = sorted(name for name in OVER_LIMIT if lengths.get(name, 0) <= MAX_LINES)
    assert stale == [], "back under the limit (or gone): take them out of OVER_LIMIT"


def test_rules_holds_rule_families_only() -> None:
    """Model code lives in `domain`; `rules` holds the families, the catalog they fill and the structure codes they
    share."""
    rules = PACKAGE / "rules"
    entries = {path.name for path in rules.iterdir() if path.name != "__pycache__"}
    assert entries == {
        "__init__.py",
        "catalog.py",
        "structure.py",
        "tools",
        "automations",
        "calls",
        "configs",
    }
