"""Between the engine's positional types (byte offsets, `document.lines.Range`) and LSP's."""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types

from ..document.document import Document
from ..document.lines import Position, PositionEncoding, Range
from ..engine.catalog import rule_page
from ..engine.checker import Diagnostic
from ..textsafety import escape_controls

ENCODINGS: dict[str, PositionEncoding] = {
    types.PositionEncodingKind.Utf8.value: "utf-8",
    types.PositionEncodingKind.Utf16.value: "utf-16",
    types.PositionEncodingKind.Utf32.value: "utf-32",
}


def to_lsp_range(range_: Range) -> types.Range:
    return types.Range(
        types.Position(range_.start.line, range_.start.character),
        types.Position(range_.end.line, range_.end.character),
    )


def from_lsp_range(range_: types.Range) -> Range:
    return Range(Position(range_.start.line, range_.start.character), Position(range_.end.line, range_.end.character))


def offset_at(document: Document, position: types.Position) -> int:
    return document.offset_at(Position(position.line, position.character))


def span_range(document: Document, start: int, end: int) -> types.Range:
    return to_lsp_range(document.range_of(start, end))


def to_lsp_diagnostic(
    diagnostic: Diagnostic, related_support: bool, uri_map: Callable[[str], str] | None = None
) -> types.Diagnostic:
    related = None
    if related_support and diagnostic.related:
        related = [
            types.DiagnosticRelatedInformation(
                types.Location(uri_map(r.uri) if uri_map else r.uri, to_lsp_range(r.range)), escape_controls(r.message)
            )
            for r in diagnostic.related
        ]
    return types.Diagnostic(
        range=to_lsp_range(diagnostic.range),
        message=escape_controls(diagnostic.message),  # quotes file text: shown, never interpreted
        severity=types.DiagnosticSeverity(int(diagnostic.severity)),
        code=diagnostic.code,
        code_description=types.CodeDescription(rule_page(diagnostic.code)),  # the editor links the code to its page
        source=diagnostic.source,
        related_information=related,
    )
