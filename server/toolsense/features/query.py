"""Finding the unit under the cursor and building the `CursorQuery` every provider receives.

The units' start offsets come from the last good split (`engine.units.split`) and are shifted on every edit,
so a cursor in a half-typed unit (whose text tree-sitter no longer parses as an object) still finds where
its unit starts; the token scan (`document.cursor.cursor_context`) runs from there to the cursor — a few KB,
whatever the size of the file.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from tree_sitter import Node

from ..document.cursor import CursorContext, cursor_context
from ..document.document import ByteEdit, Document
from ..document.embedded import EmbeddedNode
from ..document.jsontree import Pointer, pair_key, value_children
from ..engine.catalog import UnitKind
from ..engine.context import ToolRegistry
from ..engine.units import Split, call_dialect, root_value, split, tool_dialect
from ..jsonvalue import JsonValue, loads
from ..settings import Settings
from .providers import CursorQuery, UnitRef
from .tolerant import read_partial

_MAX_TOLERANT_READ = 2 * 1024 * 1024
_MAX_CURSOR_DEPTH = 512
"""Deeper nesting than this between the scan start and the cursor gets no cursor context: the token scan keeps
a pointer per level, so absurd nesting (`[[[[…` a hundred thousand deep) would cost quadratic memory."""
"""Largest unit read with the (Python, node by node) tolerant reader when `json.loads` rejects its text."""


@dataclass
class UnitIndex:
    """Where the units of a document start, as of the last good split, kept in step with edits."""

    kind: UnitKind | None
    shape: str
    """The file's shape (`engine.units.Shape`): a root object is one unit, arrays and wrappers hold many."""
    prefix: Pointer
    """The pointer of the array that holds the units (`()` for a root array, `("tools",)` for a wrapper)."""
    starts: list[int] = field(default_factory=list)
    pointers: list[Pointer] = field(default_factory=list)
    values: list[JsonValue] = field(default_factory=list)
    dialects: list[str | None] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    """Where each unit ends (just after its closing bracket), shifted like the starts."""
    kinds: dict[Pointer, UnitKind] = field(default_factory=dict)
    """Units whose kind is not the file's (the tool calls in a request body's messages), by pointer."""
    embedded: frozenset[Pointer] = frozenset()
    """Units inside a JSON string of the file (a dataset's `tools`): the cursor there is in a string, whose
    escaped text no completion or hover may write into."""

    @classmethod
    def from_split(
        cls, file_split: Split, values: list[JsonValue] | None = None, dialects: list[str | None] | None = None
    ) -> UnitIndex:
        spans = file_split.spans
        prefix: Pointer = spans[0].pointer[:-1] if spans and spans[0].pointer else ()
        if file_split.shape == "wrapper" and not spans:
            prefix = ("tools",)
        return cls(
            file_split.kind,
            file_split.shape,
            prefix,
            [span.node.start_byte for span in spans],
            [span.pointer for span in spans],
            list(values) if values is not None else [None] * len(spans),
            list(dialects) if dialects is not None else [None] * len(spans),
            [span.node.end_byte for span in spans],
            {span.pointer: span.kind for span in spans if span.kind != file_split.kind},
            frozenset(span.pointer for span in spans if isinstance(span.node, EmbeddedNode)),
        )

    def shift(self, edit: ByteEdit) -> None:
        """Move the starts after an edit; a unit whose opening brace was replaced is forgotten."""
        if edit.old_end >= 1 << 62:
            self.starts, self.pointers, self.values, self.dialects, self.ends = [], [], [], [], []
            return
        delta = edit.new_end - edit.old_end
        first = bisect.bisect_left(self.starts, edit.start)
        if edit.old_end > edit.start:
            last = bisect.bisect_left(self.starts, edit.old_end)
            if last > first:
                del self.starts[first:last], self.pointers[first:last], self.values[first:last]
                del self.dialects[first:last], self.ends[first:last]
        ends = self.ends
        if first > 0 and first - 1 < len(ends) and ends[first - 1] > edit.start:
            # The edit is inside (or cuts the end of) the unit before: its end moves with the edit.
            end = ends[first - 1]
            ends[first - 1] = end + delta if end >= edit.old_end else edit.new_end
        if delta:
            starts = self.starts
            for i in range(first, len(starts)):
                starts[i] += delta
                ends[i] += delta

    def find(self, offset: int) -> int:
        """Index of the last unit starting strictly before offset, or -1."""
        return bisect.bisect_left(self.starts, offset) - 1


def object_at(document: Document, start: int) -> Node | None:
    """The object or array node that begins at byte `start` in the current tree, if there is one."""
    node = document.root_around(start, start).named_descendant_for_byte_range(start, start)
    while node is not None and node.start_byte == start and node.type not in ("object", "array"):
        parent = node.parent
        if parent is None or parent.start_byte != start:
            break
        node = parent
    if node is not None and node.start_byte == start and node.type in ("object", "array"):
        return node
    return None


def read_value(document: Document, start: int, fallback: JsonValue = None) -> JsonValue:
    """The unit's value: `json.loads` of its text; else the previous good value; else a forgiving read."""
    node = object_at(document, start)
    if node is not None and not node.has_error:
        try:
            return loads(bytes(document.data[node.start_byte : node.end_byte]))
        except (ValueError, RecursionError):
            pass
    if fallback is not None:
        return fallback
    partial: JsonValue = read_partial(document.data, start, start + _MAX_TOLERANT_READ)
    return partial


def unit_dialect(kind: UnitKind, value: JsonValue, known: str | None) -> str | None:
    if known is not None:
        return known
    if kind == "tool":
        dialect = tool_dialect(value)
        return "anthropic" if dialect == "unknown" else dialect
    if kind == "tool_call":
        return call_dialect(value)
    return "automation"


def _too_deep(data: bytes | bytearray, start: int, offset: int) -> bool:
    """Whether the nesting between start and the cursor is absurdly deep (brackets counted, strings ignored)."""
    depth = data.count(b"[", start, offset) + data.count(b"{", start, offset)
    if depth <= _MAX_CURSOR_DEPTH:
        return False
    return depth - data.count(b"]", start, offset) - data.count(b"}", start, offset) > _MAX_CURSOR_DEPTH


def _scan(data: bytes | bytearray, start: int, base: Pointer, offset: int) -> CursorContext:
    """`cursor_context`, refused (an empty context) when the nesting before the cursor is absurdly deep."""
    if _too_deep(data, start, offset):
        return CursorContext("none", base, "none", "", offset, offset, False, frozenset())
    return cursor_context(data, start, base, offset)


def inner_container(
    document: Document, unit_start: int, unit_pointer: Pointer, offset: int
) -> tuple[int, Pointer] | None:
    """Where the token scan may start instead of the unit's start: the innermost object or array around the
    cursor, when the tree there is sound (no syntax error inside it or on the way up to the unit).

    The scan is a Python loop over bytes (about a microsecond each), so scanning a few hundred bytes instead of
    a 5 KB tool keeps completion well under a millisecond. Its pointer comes from the tree, relative to the unit.
    """
    node: Node | None = document.root_around(offset, unit_start).descendant_for_byte_range(offset, offset)
    container = None
    steps = 0
    while node is not None and node.start_byte >= unit_start:
        steps += 1
        if steps > _MAX_CURSOR_DEPTH:
            return None  # tree-sitter finds a parent from the root down: deep climbs are quadratic

        if node.is_error:
            return None
        if node.type in ("object", "array") and node.start_byte < offset < node.end_byte:
            container = node
            break
        node = node.parent
    if container is None or container.has_error or container.start_byte == unit_start:
        return None
    parts: list[str | int] = []
    node = container
    while node.start_byte != unit_start:
        steps += 1
        if steps > 2 * _MAX_CURSOR_DEPTH:
            return None
        parent = node.parent
        if parent is None or parent.start_byte < unit_start:
            return None
        if parent.type == "pair":
            key = pair_key(parent)
            holder = parent.parent
            if key is None or parent.child_by_field_name("value") != node or holder is None or holder.type != "object":
                return None
            parts.append(key)
            node = holder
        elif parent.type == "array":
            parts.append(sum(1 for child in value_children(parent) if child.start_byte < node.start_byte))
            node = parent
        else:
            return None
    return container.start_byte, (*unit_pointer, *reversed(parts))


def _skip_separators(data: bytes | bytearray, i: int, limit: int) -> int:
    while i < limit and data[i] in b" \t\r\n,":
        i += 1
    return i


def locate_cursor(document: Document, index: UnitIndex, offset: int) -> tuple[CursorContext, UnitRef | None]:
    """The cursor context and the unit holding the cursor (None when it is between or outside units)."""
    data = document.data
    kind = index.kind
    position = index.find(offset)
    if position >= 0:
        start = index.starts[position]
        pointer = index.pointers[position]
        if pointer in index.embedded:
            return CursorContext("none", pointer, "none", "", offset, offset, False, frozenset()), None
        node = object_at(document, start)
        if node is not None and not node.has_error and node.end_byte <= offset and kind is not None and pointer:
            # After this unit: maybe in a new unit not yet in the index (typed since the last check).
            last = pointer[-1]
            next_pointer: Pointer = (*pointer[:-1], last + 1) if isinstance(last, int) else pointer
            context = _scan(data, node.end_byte, next_pointer, offset)
            if context.container == "none":
                return context, None
            new_start = _skip_separators(data, node.end_byte, offset)
            value = read_value(document, new_start)
            return context, UnitRef(kind, next_pointer, new_start, value, unit_dialect(kind, value, None))
        sound = node is not None and not _too_deep(data, start, offset)
        inner = inner_container(document, start, pointer, offset) if sound else None
        scan_start, base = inner if inner is not None else (start, pointer)
        context = _scan(data, scan_start, base, offset)
        if kind is None or (context.container == "none" and context.slot == "none"):
            return context, None
        value = read_value(document, start, index.values[position])
        own = index.kinds.get(pointer, kind)
        return context, UnitRef(own, pointer, start, value, unit_dialect(own, value, index.dialects[position]))
    # Before every known unit (or none is known, in a file opened broken): scan from the top of the file.
    top = document.outline  # the outline of a large file: its root's start is all this needs
    root = root_value(top) if top.type == "document" else None
    usable = root is not None and root.type in ("object", "array") and root.start_byte <= offset
    scan_start = root.start_byte if root is not None and usable else _skip_separators(data, 0, offset)
    context = _scan(data, scan_start, (), offset)
    if kind is None:
        return context, None
    depth = _unit_depth(index, context.pointer, data, scan_start)
    length = len(context.pointer)
    inside = length > depth if context.slot == "value" else length >= depth
    if not inside or context.container == "none":
        return context, None
    unit_pointer = context.pointer[:depth]
    unit_start = scan_start if depth == 0 else _start_by_scan(data, scan_start, depth, offset)
    if unit_start is None:
        return context, None
    value = read_value(document, unit_start)
    return context, UnitRef(kind, unit_pointer, unit_start, value, unit_dialect(kind, value, None))


def _unit_depth(index: UnitIndex, pointer: Pointer, data: bytes | bytearray, scan_start: int) -> int:
    """How deep units sit: 0 for a single-object file, 1 in a root array, 2 in `{"tools": [...]}`."""
    if index.shape in ("array", "lines", "wrapper"):
        return len(index.prefix) + 1
    if index.shape == "object":
        return 0
    # The tree could not tell (the file is broken): go by the text.
    if scan_start < len(data) and data[scan_start] == 0x5B:
        return 1
    if len(pointer) >= 2 and pointer[0] in ("tools", "functions", "automations") and isinstance(pointer[1], int):
        return 2
    if len(pointer) >= 3 and pointer[:2] == ("result", "tools") and isinstance(pointer[2], int):
        return 3
    return 0


def _start_by_scan(data: bytes | bytearray, start: int, depth: int, offset: int) -> int | None:
    """The start of the innermost container opened at nesting `depth` before offset (strings skipped)."""
    level = 0
    found: int | None = None
    i = start
    while i < offset:
        byte = data[i]
        if byte == 0x22:
            i += 1
            while i < offset and data[i] != 0x22:
                i += 2 if data[i] == 0x5C else 1
        elif byte in b"{[":
            if level == depth:
                found = i
            level += 1
        elif byte in b"}]":
            level -= 1
        i += 1
    return found


def build_query(
    document: Document,
    index: UnitIndex,
    offset: int,
    registry: ToolRegistry,
    settings: Settings,
    *,
    snippets: bool = False,
) -> CursorQuery:
    context, unit = locate_cursor(document, index, offset)
    return CursorQuery(document, offset, index.kind, unit, context, registry, settings, snippets)


def build_hover_query(
    document: Document, index: UnitIndex, offset: int, registry: ToolRegistry, settings: Settings
) -> CursorQuery:
    """The query for "the token at this character": a position on a token's first character (or its opening
    quote) belongs to that token, as does one on its closing quote."""
    query = build_query(document, index, offset, registry, settings)
    if query.cursor.replace_start == query.cursor.replace_end and offset < len(document.data):
        query = build_query(document, index, offset + 1, registry, settings)
    return query


def index_for(document: Document, kind_hint: UnitKind | None) -> UnitIndex:
    """A fresh index from the document's current tree (when no check has produced one yet)."""
    return UnitIndex.from_split(split(document, kind_hint))
