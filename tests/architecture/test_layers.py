"""The shape of the package, read from its source: no import cycles, the layers import only downwards, and no
module grows past 500 lines without a stated reason.

Every import counts, also one inside a function (a lazy import is still a dependency); only imports under
`if TYPE_CHECKING:` are left out (they never run). Importing `a.b.c` runs `a/__init__` and `a/b/__init__` too, so
those count as imported as well.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "toolsense"
MAX_LINES = 500
OVER_LIMIT: dict[str, str] = {}
"""Modules allowed over `MAX_LINES`, each with the reason. An entry whose module is back under the limit fails too,
so the list never hides a regression."""


def _modules() -> dict[str, tuple[Path, bool]]:
    found: dict[str, tuple[Path, bool]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


MODULES = _modules()


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    class Collect(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if "TYPE_CHECKING" in ast.unparse(node.test):
                for item in node.orelse:
                    self.visit(item)
            else:
                self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            found.append(node)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            found.append(node)

    Collect().visit(tree)
    return found


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
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
            names.append(candidate if candidate in MODULES else prefix)
    for name in names:
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            target = ".".join(parts[:end])
            if target in MODULES and target != module and not module.startswith(target + "."):
                yield target


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, (path, is_package) in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = {target for node in _imports(tree) for target in _targets(module, is_package, node)}
    return graph


GRAPH = _graph()


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


def test_the_graph_sees_the_package() -> None:
    assert "toolsense.rules.tools.json_schema" in GRAPH
    assert "toolsense.domain.validation" in GRAPH["toolsense.rules.tools.structure"]
    assert "toolsense.domain" in GRAPH["toolsense.rules.tools.structure"]  # the package's __init__ runs first


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles() -> None:
    assert _cycles(GRAPH) == []


def _importers(layer: str) -> dict[str, set[str]]:
    return {module: targets for module, targets in GRAPH.items() if module.startswith(f"toolsense.{layer}")}


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("features", ("rules",)),
        ("domain", ("rules", "features", "lsp", "cli")),
        ("engine", ("rules", "features", "lsp", "cli")),
        ("document", ("engine", "domain", "rules", "features", "lsp", "cli")),
    ],
)
def test_layers_import_only_downwards(layer: str, forbidden: tuple[str, ...]) -> None:
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in _importers(layer).items()
        for target in targets
        if any(target == f"toolsense.{name}" or target.startswith(f"toolsense.{name}.") for name in forbidden)
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
