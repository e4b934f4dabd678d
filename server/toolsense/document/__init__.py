"""Text and positions: line table, tree-sitter tree, pointers to ranges, cursor context."""

from .cursor import CursorContext, cursor_context
from .document import ByteEdit, Document
from .jsontree import Location, Pointer, PointerPart, locate, to_value
from .lines import LineTable, Position, PositionEncoding, Range

__all__ = [
    "ByteEdit",
    "CursorContext",
    "Document",
    "LineTable",
    "Location",
    "Pointer",
    "PointerPart",
    "Position",
    "PositionEncoding",
    "Range",
    "cursor_context",
    "locate",
    "to_value",
]
