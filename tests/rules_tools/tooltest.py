"""Helpers for the tool-definition and tool-call rule tests: check a text, read ranges and messages back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsense.document.document import Document
from toolsense.engine.catalog import UnitKind
from toolsense.engine.checker import Diagnostic, UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.findings import Fix
from toolsense.engine.workspace import document_tools
from toolsense.rules import CATALOG
from toolsense.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@dataclass(frozen=True)
class D:
    """A diagnostic as tests want to see it: (start line, start col, end line, end col), 0-based UTF-16."""

    range: tuple[int, int, int, int]
    code: str
    severity: str
    message: str
    text: str
    diagnostic: Diagnostic

    @property
    def fixes(self) -> tuple[Fix, ...]:
        return self.diagnostic.finding.fixes if self.diagnostic.finding is not None else ()


def _text_of(document: Document, diagnostic: Diagnostic) -> str:
    start = document.offset_at(diagnostic.range.start)
    end = document.offset_at(diagnostic.range.end)
    return bytes(document.data[start:end]).decode("utf-8", "replace")


def check(
    text: str,
    kind: UnitKind | None = "tool",
    *,
    settings: Settings | None = None,
    registry: ToolRegistry | None = None,
    models: Any = None,
    trusted: bool = True,
    uri: str = "file:///work/project/tools/sample.json",
) -> list[D]:
    document = Document.from_text(uri, text)
    ctx = CheckContext(settings or Settings(), registry or ToolRegistry(), uri, trusted, models, catalog=CATALOG)
    report = check_document(document, ctx, kind, UnitCache())
    result = []
    for d in report.diagnostics:
        r = d.range
        result.append(
            D(
                (r.start.line, r.start.character, r.end.line, r.end.character),
                d.code,
                d.severity.label,
                d.message,
                _text_of(document, d),
                d,
            )
        )
    return result


def codes(diags: list[D]) -> list[str]:
    return [d.code for d in diags]


def only(diags: list[D], *wanted: str) -> list[D]:
    return [d for d in diags if d.code in wanted]


def one(diags: list[D], code: str) -> D:
    found = only(diags, code)
    assert len(found) == 1, [(d.code, d.message) for d in diags]
    return found[0]


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


def line_of(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """(line, column) of the first character of the occurrence-th match of needle (ASCII texts)."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    column = index - (text.rfind("\n", 0, index) + 1)
    return line, column


def span(text: str, needle: str, occurrence: int = 0) -> tuple[int, int, int, int]:
    line, column = line_of(text, needle, occurrence)
    return (line, column, line, column + len(needle))
