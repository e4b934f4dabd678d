"""Checking a text in process, as the engine checks a buffer, and reading the diagnostics back.

`check()` is the one way a test checks a text: it returns each diagnostic with its range (0-based, UTF-16), code,
severity, message and the source text it covers. `report()` gives the document and the engine's whole report
(units, facts) for tests that look past the diagnostics.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsense.document.document import Document
from toolsense.engine.catalog import UnitKind
from toolsense.engine.checker import Diagnostic, FileReport, UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.findings import Fix
from toolsense.engine.units import kind_from_path
from toolsense.engine.workspace import document_tools
from toolsense.rules import CATALOG
from toolsense.settings import Settings
from toolsense.usermodels import ModelRegistry, load_models

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# Next to the checkout (../shared), or next to the folder of worktrees (../../shared).
CORPUS = next(
    (p / "shared" / "corpus" for p in ROOT.parents[:2] if (p / "shared" / "corpus").is_dir()),
    ROOT.parent / "shared" / "corpus",
)
TOOL_URI = "file:///work/project/tools/sample.json"
MODEL_FIXTURES = ROOT / "tests" / "models" / "fixtures"
"""Small model packages (tsfx_*) that tests register as a user's models."""
HONEYCOMB_MODELS = {
    "honeycomb_create_slo": "honeycomb.tool_inputs:SLOToolInput",
    "honeycomb_create_board": "honeycomb.tool_inputs:BoardToolInput",
}
"""The worked example's models (examples/honeycomb), registered by tool name as examples/toolsense.toml does."""


@dataclass(frozen=True)
class D:
    """A diagnostic as tests want to see it: (start line, start col, end line, end col), 0-based UTF-16."""

    range: tuple[int, int, int, int]
    code: str
    severity: str
    message: str
    text: str
    """The source text the range covers."""
    diagnostic: Diagnostic

    @property
    def fixes(self) -> tuple[Fix, ...]:
        return self.diagnostic.finding.fixes if self.diagnostic.finding is not None else ()


def context(
    settings: Settings | None = None,
    registry: ToolRegistry | None = None,
    uri: str = "file:///x",
    trusted: bool = True,
    models: Any = None,
) -> CheckContext:
    return CheckContext(settings or Settings(), registry or ToolRegistry(), uri, trusted, models, catalog=CATALOG)


def report(
    text: str | bytes,
    name: str = "x.tool.json",
    settings: Settings | None = None,
    kind: UnitKind | None = None,
    cache: UnitCache | None = None,
) -> tuple[Document, FileReport]:
    """The document `file:///x/<name>` and its report; the kind, unless given, from the name as the CLI finds it."""
    settings = settings or Settings()
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    document = Document("file:///x/" + name, bytearray(data))
    hint = kind if kind is not None else kind_from_path("/x/" + name, settings)
    return document, check_document(document, context(settings), hint, cache)


def diagnostics(text: str | bytes, name: str = "x.tool.json", settings: Settings | None = None) -> list[Diagnostic]:
    return report(text, name, settings)[1].diagnostics


def check(
    text: str,
    kind: UnitKind | None = "tool",
    *,
    settings: Settings | None = None,
    registry: ToolRegistry | None = None,
    models: Any = None,
    trusted: bool = True,
    uri: str = TOOL_URI,
) -> list[D]:
    """The diagnostics of `text` checked as `kind` (None: recognised from the content)."""
    document = Document.from_text(uri, text)
    result = check_document(document, context(settings, registry, uri, trusted, models), kind, UnitCache())
    return [seen(document, d) for d in result.diagnostics]


def seen(document: Document, diagnostic: Diagnostic) -> D:
    r = diagnostic.range
    start = document.offset_at(r.start)
    end = document.offset_at(r.end)
    return D(
        (r.start.line, r.start.character, r.end.line, r.end.character),
        diagnostic.code,
        diagnostic.severity.label,
        diagnostic.message,
        bytes(document.data[start:end]).decode("utf-8", "replace"),
        diagnostic,
    )


def codes(diags: list[D]) -> list[str]:
    return [d.code for d in diags]


def only(diags: list[D], *wanted: str) -> list[D]:
    return [d for d in diags if d.code in wanted]


def one(diags: list[D], code: str) -> D:
    found = only(diags, code)
    assert len(found) == 1, f"expected one {code}, got {[(d.code, d.message) for d in diags]}"
    return found[0]


def brief(diags: list[Diagnostic], codes: str = "") -> list[tuple[str, tuple[int, int, int, int], str]]:
    """(code, (start line, start char, end line, end char), message), optionally only codes with a prefix."""
    return [
        (d.code, (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), d.message)
        for d in diags
        if d.code.startswith(codes)
    ]


def registry_of(*files: tuple[str, str]) -> ToolRegistry:
    """A registry from (uri, text) tool files."""
    registry = ToolRegistry()
    for uri, text in files:
        registry.set_file(uri, document_tools(Document.from_text(uri, text), "tool"))
    return registry


def tool(schema: dict[str, Any], name: str = "t", description: str = "Does a thing.", **extra: Any) -> str:
    """An Anthropic tool as pretty JSON (2-space indent), so ranges are easy to read in the tests."""
    value: dict[str, Any] = {"name": name, "description": description, "input_schema": schema}
    value.update(extra)
    return json.dumps(value, indent=2)


def honeycomb_models() -> ModelRegistry:
    """The worked example's models, loaded from examples/ as the editor loads a user's."""
    registry = load_models(Settings(models=HONEYCOMB_MODELS, python_path=(".",)), EXAMPLES, timeout=30)
    assert registry.problems == []
    return registry
