"""Shared helpers for the foundation tests: check a text as `toolsense check` would, describe diagnostics."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from toolsense.document.document import Document
from toolsense.engine.catalog import UnitKind
from toolsense.engine.checker import Diagnostic, FileReport, UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.units import kind_from_path
from toolsense.rules import CATALOG
from toolsense.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CORPUS = ROOT.parent / "shared" / "corpus"

_LSP_LINE = re.compile(r"\r\n|\r|\n")


def context(settings: Settings | None = None) -> CheckContext:
    return CheckContext(settings or Settings(), ToolRegistry(), "file:///x", catalog=CATALOG)


def report(
    text: str | bytes,
    name: str = "x.tool.json",
    settings: Settings | None = None,
    kind: UnitKind | None = None,
    cache: UnitCache | None = None,
) -> tuple[Document, FileReport]:
    settings = settings or Settings()
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    document = Document("file:///x/" + name, bytearray(data))
    hint = kind if kind is not None else kind_from_path("/x/" + name, settings)
    return document, check_document(document, context(settings), hint, cache)


def diagnostics(text: str | bytes, name: str = "x.tool.json", settings: Settings | None = None) -> list[Diagnostic]:
    return report(text, name, settings)[1].diagnostics


def brief(diags: list[Diagnostic], codes: str = "") -> list[tuple[str, tuple[int, int, int, int], str]]:
    """(code, (start line, start char, end line, end char), message), optionally only codes with a prefix."""
    return [
        (d.code, (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), d.message)
        for d in diags
        if d.code.startswith(codes)
    ]


def marked(text: str, needle: str, occurrence: int = 0) -> tuple[int, int, int, int]:
    """The LSP range (UTF-16 columns) of the occurrence-th `needle` in text, computed independently of
    toolsense's line table: lines end at \\r\\n, \\r or \\n only."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    return (*lsp_position(text, start), *lsp_position(text, start + len(needle)))


def lsp_position(text: str, index: int) -> tuple[int, int]:
    """Line and UTF-16 character of a str index (the reference implementation for the tests)."""
    line, line_start = 0, 0
    for match in _LSP_LINE.finditer(text, 0, index):
        line, line_start = line + 1, match.end()
    return line, utf16_len(text[line_start:index])


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def as_jsonable(diags: list[Diagnostic]) -> list[dict[str, Any]]:
    return [
        {"code": d.code, "severity": d.severity.label, "range": d.range.to_json(), "message": d.message} for d in diags
    ]
