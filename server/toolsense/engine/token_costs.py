"""The token cost of each tool a document defines, for hover, the outline and `toolsense check --stats`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..document.document import Document
from ..document.jsontree import Pointer
from ..models.definitions import NAME_KEY
from ..tokens import TokenCount, count_tool
from .catalog import UnitKind
from .units import Unit, read_unit, split, with_dialects


@dataclass(frozen=True)
class ToolCost:
    name: str
    pointer: Pointer
    """The tool's place in the document."""
    dialect: str
    count: TokenCount


def unit_cost(unit: Unit, index: int) -> ToolCost | None:
    """A tool unit's cost (None for other units); a tool without a name is `tool N`."""
    if unit.kind != "tool" or unit.dialect not in NAME_KEY or not isinstance(unit.value, dict):
        return None
    value: object = unit.value
    for part in NAME_KEY[unit.dialect]:
        value = value.get(part) if isinstance(value, dict) else None
    name = value if isinstance(value, str) and value else f"tool {index}"
    return ToolCost(name, unit.pointer, unit.dialect, count_tool(unit.value, unit.dialect))


def document_costs(
    document: Document, kind: UnitKind | None, dialect: str | None = None, max_units: int | None = None
) -> list[ToolCost]:
    """Every tool of the document with its cost, in document order; none when the file has more than
    max_units units (an editor's hover does not read a generated file's thousands of tools)."""
    file_split = split(document, kind, dialect)
    if file_split.kind != "tool" or (max_units is not None and len(file_split.spans) > max_units):
        return []
    units = with_dialects([read_unit(document, span) for span in file_split.spans])
    return [cost for index, unit in enumerate(units) if (cost := unit_cost(unit, index)) is not None]


def total(costs: Iterable[ToolCost]) -> TokenCount:
    """The sum, exact only when every part is."""
    counts = [cost.count for cost in costs]
    return TokenCount(sum(count.tokens for count in counts), all(count.exact for count in counts))
