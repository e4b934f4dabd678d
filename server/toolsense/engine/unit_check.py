"""Check some units of a document alone: the editor's keystroke fast path, O(unit) instead of O(file).

A full check (`checker.check_document`) reuses cached unit results but still walks every unit of the file
(split, reads, dialects, placement, file-level rules). When an edit stays inside one unit, that unit's text is
checked as a document of its own, with the file's context and facts, and its diagnostics are placed back in the
file through the file's own line table: they equal what a full check says about that unit. Findings that look
across units (duplicate names, tool counts) are left to the next full check.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..document.document import Document
from ..document.jsontree import Pointer
from ..document.lines import Range
from .catalog import UnitKind
from .checker import Diagnostic, RelatedResolver, UnitCache, check_document
from .context import CheckContext
from .filefacts import FileFacts
from .suppression import suppressed_in_file
from .units import Unit


@dataclass(frozen=True)
class UnitSlice:
    """One unit of a document to check: its bytes `[start, end)`, its pointer in the file, and what the last
    full check found it to be."""

    start: int
    end: int
    pointer: Pointer
    kind: UnitKind
    dialect: str | None


@dataclass(frozen=True)
class UnitResult:
    unit: Unit
    """The unit as read alone, with its pointer in the file."""
    diagnostics: list[Diagnostic]
    """Its diagnostics, placed in the file."""


def check_units(
    document: Document,
    slices: list[UnitSlice],
    ctx: CheckContext,
    facts: FileFacts | None,
    resolver: RelatedResolver | None = None,
) -> list[UnitResult] | None:
    """Check each slice alone; None when one of them cannot be checked alone (its text does not parse, or it
    reads as another dialect than the file gave it): the caller then checks the whole file."""
    results: list[UnitResult] = []
    for piece in slices:
        result = _check_one(document, piece, ctx, facts, resolver)
        if result is None:
            return None
        results.append(result)
    return results


def _check_one(
    document: Document,
    piece: UnitSlice,
    ctx: CheckContext,
    facts: FileFacts | None,
    resolver: RelatedResolver | None,
) -> UnitResult | None:
    alone = Document(
        document.uri, bytearray(document.data[piece.start : piece.end]), document.version, document.encoding
    )
    if alone.root.has_error:
        return None
    report = check_document(alone, ctx, piece.kind, UnitCache(), resolver, facts)
    if len(report.units) != 1 or report.units[0].dialect != piece.dialect:
        return None  # e.g. a unit of no telling dialect, which takes the file's dominant one
    placed = [_placed(d, alone, document, piece.start) for d in report.diagnostics]
    # A comment above the unit is not in its text: the file's comments have the last word.
    diagnostics = suppressed_in_file(document, placed, piece.pointer, ctx.catalog.security_codes)
    return UnitResult(dataclasses.replace(report.units[0], pointer=piece.pointer), diagnostics)


def _placed(diagnostic: Diagnostic, alone: Document, document: Document, base: int) -> Diagnostic:
    """A diagnostic of the unit's own document, placed where the unit lies in the file (through byte offsets,
    so the file's line table and position encoding decide the range)."""

    def moved(range_: Range) -> Range:
        return document.range_of(base + alone.offset_at(range_.start), base + alone.offset_at(range_.end))

    related = tuple(
        dataclasses.replace(r, range=moved(r.range)) if r.uri == document.uri else r for r in diagnostic.related
    )
    return dataclasses.replace(diagnostic, range=moved(diagnostic.range), related=related)


__all__ = ["UnitResult", "UnitSlice", "check_units"]
