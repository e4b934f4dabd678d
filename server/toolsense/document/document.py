"""A positioned JSON document: UTF-8 bytes, an LSP line table and an incrementally re-parsed tree-sitter tree."""

from __future__ import annotations

import bisect
import copy
import itertools
import re
from dataclasses import dataclass, field
from typing import cast

import tree_sitter_json
from tree_sitter import Language, Node, Parser, Point, Tree

from .exponents import parse_json
from .jsontree import to_value
from .lines import LineTable, Position, PositionEncoding, Range
from .outline import LightNode, build_outline
from .outline_edit import edit_outline

JSON_LANGUAGE = Language(tree_sitter_json.language())


def new_parser() -> Parser:
    return Parser(JSON_LANGUAGE)


@dataclass(frozen=True)
class ByteEdit:
    """One replacement, in byte offsets of the text before it."""

    start: int
    old_end: int
    new_end: int


FRESH_PARSE_LIMIT = 512 * 1024
"""Documents up to this size are re-parsed from scratch when an incremental parse leaves syntax errors.

tree-sitter's error recovery depends on the old tree it reuses, so after edits a broken text can get a
different (equally valid) recovery than the same text opened fresh — and so different syntax diagnostics and
units. A fresh parse makes the state after edits exactly that of opening the final text. It is lazy (done when
the tree is next read, so a burst of keystrokes pays once) and bounded by size (a 512 KB parse takes a few
tens of milliseconds, about what a keystroke may cost); larger broken documents keep tree-sitter's incremental
recovery, which is as good but may differ from a fresh parse in how it groups the broken tokens. A larger
document read from its outline reads an element of its root array that an edit broke from that element's text
alone (`outline.edit_outline`): its syntax errors are confined to it, where a fresh parse of the whole text may
read everything after a stray quote inside out."""

OUTLINE_LIMIT = 1024 * 1024
"""Documents from this size on are not parsed as a whole until something asks for the tree: the engine reads
them from a light outline (`outline.build_outline`), which costs a fraction of tree-sitter's time and memory."""

_EDIT_LOG_LIMIT = 4096
_LONE_CR = re.compile(rb"\r(?!\n)")
_serials = itertools.count(1)


def _start_of(node: Node | LightNode) -> int:
    return node.start_byte


def _count_lone_cr(data: bytearray, lo: int, hi: int) -> int:
    """How many `\\r` at positions [lo, hi) are not followed by `\\n` (the next byte may lie beyond hi)."""
    lo, hi = max(lo, 0), min(hi, len(data))
    if lo >= hi:
        return 0
    found = len(_LONE_CR.findall(data, lo, hi))
    if hi < len(data) and data[hi - 1] == 0x0D and data[hi] == 0x0A:
        found -= 1  # the window cut a CRLF pair: the regex could not see the `\\n`
    return found


@dataclass
class Document:
    """Text and everything positional about it. Edits keep line table and tree in step.

    The tree after any sequence of edits equals the tree of the final text parsed fresh (see
    `FRESH_PARSE_LIMIT`); byte edits are logged so a check can tell which units an edit touched.
    """

    uri: str
    data: bytearray
    version: int | None = None
    encoding: PositionEncoding = "utf-16"
    parser: Parser = field(default_factory=new_parser, repr=False)
    _lines: LineTable | None = field(default=None, init=False, repr=False)
    """Built when a position is first asked for (indexing a file for its tools never asks)."""
    fresh_parse_limit: int = field(default=FRESH_PARSE_LIMIT, repr=False)
    outline_limit: int = field(default=OUTLINE_LIMIT, repr=False)
    serial: int = field(init=False, repr=False)
    """Unique per Document object: caches remember which document (and which edit) they last saw."""
    edit_count: int = field(default=0, init=False, repr=False)
    """How many edits were applied; `edits_since(count)` lists those after a given count."""
    checked_edit_count: int = field(default=0, init=False, repr=False)
    """`edit_count` at the last `check_document` of this document."""
    claimed_kind: str | None = field(default=None, init=False, repr=False)
    """The kind of units this document held the last time it parsed cleanly and was claimed (the editor's
    history of an open document): a file of ours half typed still gets its syntax errors
    (`engine.ownership.broken_file_owner`). None: never seen clean and ours."""
    _tree: Tree | None = field(default=None, init=False, repr=False)
    """None until first read for a document of `outline_limit` bytes or more."""
    _outline: LightNode | None = field(default=None, init=False, repr=False)
    _outline_failed: bool = field(default=False, init=False, repr=False)
    """True when the text is not strict JSON, or an edit left it so outside one outlined value (see
    `replace_bytes`): the document is tree-sitter's from then on (its incremental re-parse costs a keystroke far
    less than scanning the whole text again)."""
    _needs_fresh_parse: bool = field(default=False, init=False, repr=False)
    _needs_reparse: bool = field(default=False, init=False, repr=False)
    _edit_log: list[ByteEdit] = field(default_factory=list, init=False, repr=False)
    _lone_cr: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self.serial = next(_serials)
        self._lone_cr = _count_lone_cr(self.data, 0, len(self.data))
        if len(self.data) < self.outline_limit:
            self._tree = parse_json(self.parser, bytes(self.data))

    @classmethod
    def from_text(
        cls, uri: str, text: str, version: int | None = None, encoding: PositionEncoding = "utf-16"
    ) -> Document:
        return cls(uri, bytearray(text.encode("utf-8", "surrogatepass")), version, encoding)

    @property
    def lines(self) -> LineTable:
        if self._lines is None:
            self._lines = LineTable(self.data)
        return self._lines

    @property
    def tree(self) -> Tree:
        if self._tree is None:
            self._tree = parse_json(self.parser, bytes(self.data))
            self._needs_reparse = self._needs_fresh_parse = False
        if self._needs_reparse:
            self.reparse()
        if self._needs_fresh_parse:
            self._needs_fresh_parse = False
            if len(self.data) <= self.fresh_parse_limit:
                self._tree = parse_json(self.parser, bytes(self.data))
        assert self._tree is not None
        return self._tree

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def root_around(self, offset: int, unit_start: int = -1) -> Node:
        """A node to look for the nodes at `offset` in: the whole tree's root; or, for a large document read from
        its outline and never parsed whole, tree-sitter's node of the outlined value around offset (a unit),
        parsed from that value's text alone at its byte offset, so positions are those of the whole tree. A
        hover or a completion in a 22 MB file then parses one tool, not the file. unit_start: the value looked
        in is no smaller than the one starting there (a climb from offset reaches the unit)."""
        light = self._outline
        if self._tree is not None or light is None:
            return self.root
        found: LightNode | None = None
        while light._named is not None:  # members already outlined; a lazy value is not scanned here
            named = light._named
            at = bisect.bisect_right(named, offset, key=_start_of) - 1  # members are in text order
            inner = named[at] if at >= 0 and offset < named[at].end_byte else None
            if inner is None:
                break
            if not isinstance(inner, LightNode):
                return cast(Node, inner)  # a broken element, read by tree-sitter already
            light = inner
            if light.type in ("object", "array"):
                found = light
                if light.start_byte == unit_start:
                    break
        return found.node if found is not None else self.root

    @property
    def outline(self) -> Node:
        """The root the engine reads the file's structure from: the tree's, or — for a large document whose
        tree was never asked for — the root of a light outline of the same shape and offsets (strict JSON
        only; anything else is parsed by tree-sitter). Outline nodes answer the read-only questions the engine
        asks of tree-sitter nodes (type, spans, children, fields, text), so they are typed as such."""
        if self._outline is not None:
            return cast(Node, self._outline)
        if self._tree is None and not self._outline_failed:
            self._outline = build_outline(self.data, new_parser)
            if self._outline is not None:
                return cast(Node, self._outline)
            self._outline_failed = True
        return self.root

    @property
    def has_error(self) -> bool:
        """Whether the text has a syntax error (asked of the outline when the document has one)."""
        return self.outline.has_error

    def _drop_outline(self) -> None:
        """Before the bytes change: the outline keeps reading the text it was built from (nodes of it may live on
        in reports and units), and the document is tree-sitter's from then on."""
        if self._outline is not None and self._outline.outline.source is self.data:
            self._outline.outline.freeze()
        self._outline = None
        self._outline_failed = True

    def _edit_outline(self, start: int, end: int, new_text: bytes) -> bool:
        """Apply an edit to the bytes through the outline when it lies inside one outlined container and leaves
        strict JSON there (`outline.edit_outline`): the document keeps a light outline, and a keystroke in a
        22 MB file scans the members it touched instead of parsing the whole text. False: nothing was done."""
        light = self._outline
        if light is None or self._tree is not None or light.outline.source is not self.data:
            return False  # not outlined, or a snapshot's (its outline reads the original's bytes)
        if start == end and not new_text:
            return True
        # A broken element is read alone only where a fresh parse is not promised (see FRESH_PARSE_LIMIT).
        tolerant = to_value if len(self.data) > self.fresh_parse_limit else None
        edited = edit_outline(light, start, end, new_text, tolerant)
        if edited is None:
            return False
        light.outline.apply(edited.outline, start, end, new_text)
        self._outline = edited
        return True

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")

    def _point(self, offset: int) -> Point:
        """tree-sitter's point for a byte offset: rows end only at `\\n`, columns count bytes.

        That is the LSP line table's answer unless a lone `\\r` (a line break for LSP, not for tree-sitter)
        comes first; such old-Mac line ends are counted so the common case stays O(log n).
        """
        if self._lone_cr:
            row = self.data.count(b"\n", 0, offset)
            return Point(row, offset - (self.data.rfind(b"\n", 0, offset) + 1))
        line = self.lines.line_of(offset)
        return Point(line, offset - int(self.lines.starts[line]))

    @property
    def edits_since_check(self) -> list[ByteEdit]:
        """The edits since the last `check_document` of this document (a full-reset edit when not logged)."""
        edits = self.edits_since(self.checked_edit_count)
        return edits if edits is not None else [ByteEdit(0, 1 << 62, len(self.data))]

    def edits_since(self, seen: int) -> list[ByteEdit] | None:
        """The byte edits applied after the document's `edit_count` was `seen`; None when no longer logged."""
        missing = self.edit_count - seen
        if missing < 0 or missing > len(self._edit_log):
            return None
        return self._edit_log[len(self._edit_log) - missing :] if missing else []

    def _log(self, edit: ByteEdit) -> None:
        self.edit_count += 1
        self._edit_log.append(edit)
        if len(self._edit_log) > _EDIT_LOG_LIMIT:
            del self._edit_log[: _EDIT_LOG_LIMIT // 2]

    def replace_bytes(self, start: int, end: int, new_text: bytes) -> None:
        """Apply one edit to the bytes, the line table and the tree (call `reparse` after a batch of edits)."""
        start = min(max(start, 0), len(self.data))
        end = min(max(end, start), len(self.data))
        unread = self._outline is None and self._tree is None and not self._outline_failed
        if unread and len(self.data) > self.fresh_parse_limit:
            # Outlined first (never asked yet: the server's own copy of a file checked elsewhere), so that an edit
            # that breaks one element keeps the rest outlined instead of going to tree-sitter whole.
            self._outline = build_outline(self.data, new_parser)
            self._outline_failed = self._outline is None
        start_point = self._point(start) if self._tree is not None else Point(0, 0)
        old_end_point = self._point(end) if self._tree is not None else Point(0, 0)
        if self._lines is not None:
            self._lines.replace(self.data, start, end, new_text)
        self._lone_cr -= _count_lone_cr(self.data, start - 1, end)
        if not self._edit_outline(start, end, new_text):
            if self._outline is not None or self._tree is not None:
                self._drop_outline()
            # else an outline never built stays so: built from the text of the time when first asked
            self.data[start:end] = new_text
        new_end = start + len(new_text)
        self._lone_cr += _count_lone_cr(self.data, start - 1, new_end)
        if self._tree is not None:
            self._tree.edit(
                start_byte=start,
                old_end_byte=end,
                new_end_byte=new_end,
                start_point=start_point,
                old_end_point=old_end_point,
                new_end_point=self._point(new_end),
            )
        self._log(ByteEdit(start, end, new_end))

    def reparse(self) -> None:
        """Incremental re-parse after edits; a broken result is re-parsed fresh when the tree is next read."""
        self._needs_reparse = False
        if self._tree is None:
            return  # parsed as a whole when first read
        self._tree = parse_json(self.parser, bytes(self.data), self._tree)
        self._needs_fresh_parse = self._tree.root_node.has_error

    def apply_change(self, new_text: str, range_: Range | None = None) -> None:
        """An LSP content change: full text when range_ is None, else an incremental replacement."""
        encoded = new_text.encode("utf-8", "surrogatepass")
        if range_ is None:
            old_length = len(self.data)
            self._drop_outline()
            self.data = bytearray(encoded)
            self._lines = None
            self._lone_cr = _count_lone_cr(self.data, 0, len(self.data))
            keep_lazy = self._tree is None and len(self.data) >= self.outline_limit
            self._tree = None if keep_lazy else parse_json(self.parser, bytes(self.data))
            self._outline_failed = not keep_lazy  # a new text as a whole: read as on open
            self._needs_fresh_parse = self._needs_reparse = False
            self._log(ByteEdit(0, old_length, len(encoded)))
            return
        start = self.offset_at(range_.start)
        end = max(self.offset_at(range_.end), start)
        self.replace_bytes(start, end, encoded)
        # Parsed when the tree is next read: a burst of keystrokes on a large file is parsed once, not per edit.
        self._needs_reparse = True

    def offset_at(self, position: Position) -> int:
        return self.lines.offset_at(self.data, position, self.encoding)

    def position_at(self, offset: int) -> Position:
        return self.lines.position_at(self.data, offset, self.encoding)

    def range_of(self, start: int, end: int) -> Range:
        return Range(self.position_at(start), self.position_at(end))

    def ranges_of(self, spans: list[tuple[int, int]]) -> list[Range]:
        """Many byte spans as LSP ranges, with one vectorised line lookup."""
        positions = self.lines.positions_at(self.data, [offset for span in spans for offset in span], self.encoding)
        return [Range(positions[i], positions[i + 1]) for i in range(0, len(positions), 2)]

    def node_range(self, node: Node) -> Range:
        return self.range_of(node.start_byte, node.end_byte)

    def slice(self, start: int, end: int) -> bytes:
        return bytes(self.data[start:end])

    def snapshot(self) -> Document:
        """A copy to read on another thread while this document keeps taking edits (the language server checks
        large files off its event loop). It keeps the serial and the edit log, so a `UnitCache` follows the
        original and its snapshots alike; bytes, line table, tree (an O(1) tree-sitter copy) and parser are its own.
        """
        # Settle a pending (fresh) parse here, on the owner's thread; a document still without a tree stays so
        # (its outline, if any, is shared: later edits make new generations of it, and this one reads the text it
        # was built from through their links, see `outline.Outline.read`).
        tree = self.tree if self._tree is not None else None
        snap = copy.copy(self)
        snap.data = bytearray(self.data)
        snap._lines = copy.copy(self.lines)
        snap.parser = new_parser()
        snap._tree = tree.copy() if tree is not None else None
        snap._edit_log = list(self._edit_log)
        return snap
