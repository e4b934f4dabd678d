"""A positioned JSON document: UTF-8 bytes, an LSP line table and an incrementally re-parsed tree-sitter tree."""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter_json
from tree_sitter import Language, Node, Parser, Point, Tree

from .lines import LineTable, Position, PositionEncoding, Range

JSON_LANGUAGE = Language(tree_sitter_json.language())


def new_parser() -> Parser:
    return Parser(JSON_LANGUAGE)


@dataclass(frozen=True)
class ByteEdit:
    """One replacement, in byte offsets of the text before it."""

    start: int
    old_end: int
    new_end: int


@dataclass
class Document:
    """Text and everything positional about it. Edits keep line table and tree in step."""

    uri: str
    data: bytearray
    version: int | None = None
    encoding: PositionEncoding = "utf-16"
    parser: Parser = field(default_factory=new_parser, repr=False)
    lines: LineTable = field(init=False, repr=False)
    tree: Tree = field(init=False, repr=False)
    edits_since_check: list[ByteEdit] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.lines = LineTable(self.data)
        self.tree = self.parser.parse(bytes(self.data))

    @classmethod
    def from_text(
        cls, uri: str, text: str, version: int | None = None, encoding: PositionEncoding = "utf-16"
    ) -> Document:
        return cls(uri, bytearray(text.encode("utf-8", "surrogatepass")), version, encoding)

    @property
    def root(self) -> Node:
        return self.tree.root_node

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")

    def _point(self, offset: int) -> Point:
        # tree-sitter only uses points for its own bookkeeping; bytes decide reuse, so the LSP line is fine.
        line = self.lines.line_of(offset)
        return Point(line, offset - int(self.lines.starts[line]))

    def replace_bytes(self, start: int, end: int, new_text: bytes) -> None:
        """Apply one edit to the bytes, the line table and the tree, then re-parse incrementally."""
        start_point = self._point(start)
        old_end_point = self._point(end)
        self.lines.replace(self.data, start, end, new_text)
        self.data[start:end] = new_text
        new_end = start + len(new_text)
        self.tree.edit(
            start_byte=start,
            old_end_byte=end,
            new_end_byte=new_end,
            start_point=start_point,
            old_end_point=old_end_point,
            new_end_point=self._point(new_end),
        )
        self.edits_since_check.append(ByteEdit(start, end, new_end))

    def reparse(self) -> None:
        self.tree = self.parser.parse(bytes(self.data), self.tree)

    def apply_change(self, new_text: str, range_: Range | None = None) -> None:
        """An LSP content change: full text when range_ is None, else an incremental replacement."""
        encoded = new_text.encode("utf-8", "surrogatepass")
        if range_ is None:
            self.data = bytearray(encoded)
            self.lines = LineTable(self.data)
            self.tree = self.parser.parse(bytes(self.data))
            self.edits_since_check.append(ByteEdit(0, 1 << 62, len(encoded)))
            return
        start = self.offset_at(range_.start)
        end = max(self.offset_at(range_.end), start)
        self.replace_bytes(start, end, encoded)
        self.reparse()

    def offset_at(self, position: Position) -> int:
        return self.lines.offset_at(self.data, position, self.encoding)

    def position_at(self, offset: int) -> Position:
        return self.lines.position_at(self.data, offset, self.encoding)

    def range_of(self, start: int, end: int) -> Range:
        return Range(self.position_at(start), self.position_at(end))

    def node_range(self, node: Node) -> Range:
        return self.range_of(node.start_byte, node.end_byte)

    def slice(self, start: int, end: int) -> bytes:
        return bytes(self.data[start:end])
