"""A light outline of a large, clean JSON document, built without a tree of the whole text.

tree-sitter's tree of a 22 MB file costs a second to build and 13 times the file in memory, yet a check needs
only the file's top levels (where the units are) and, for the few units that have findings, the path down to
each finding. So a large document is scanned with the standard library's C JSON scanner: the top levels become
light nodes (the read-only part of tree-sitter's `Node` interface the engine uses: `type`, byte spans,
`named_children`, `child_by_field_name`, `text`, …), each value below them a light node that already holds its
decoded value and is expanded (its members found by the same scanner, one level) only when asked about its
children. A question the outline does not answer (a descendant at an offset) goes to tree-sitter's parse of
that value's text alone, at its byte offset in the file, so every position is that of the whole-file tree.

The outline exists only for text that both parsers read alike: strict JSON (no comments, no syntax error, no
`NaN`, JSON whitespace only, valid UTF-8). For anything else `build_outline` returns None and the document
parses the whole text with tree-sitter, as before.
"""

from __future__ import annotations

import itertools
import json
import json.decoder
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from tree_sitter import Node, Parser, Point, Range

_ids = itertools.count(-1, -1)
"""Light nodes have negative ids: never equal to a tree-sitter node's (an address), so tables keyed by
`node.id` (`LocateCache`) can hold both."""

LIGHT_DEPTH = 2
"""Objects whose members are outlined (the root is depth 0): enough for every container a unit sits in
(`tools`, `result.tools`, `toolConfig.tools`, a name-keyed map). Array elements below the root, and everything
deeper, are lazy."""

_UNIT_TREES = 64
"""Unit subtrees kept per outline (a hover or a placement asks about the same unit several times)."""

_TYPES = {"{": "object", "[": "array", '"': "string", "t": "true", "f": "false", "n": "null"}


class _Reject(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _Reject(name)  # NaN, Infinity: Python's json reads them, tree-sitter (and JSON) does not


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_SCANSTRING: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_WS = " \t\n\r"


class Outline:
    """The document's source bytes as scanned and a small cache of unit subtrees parsed from them."""

    def __init__(self, source: bytearray, new_parser: Callable[[], Parser]) -> None:
        self.source = source
        self._new_parser = new_parser
        self._parser: Parser | None = None
        self._trees: OrderedDict[tuple[int, int], Node] = OrderedDict()
        self._lock = threading.Lock()
        """A check on a snapshot (another thread) and a hover share the outline: one parse at a time."""

    def expand(self, node: LightNode) -> list[LightNode]:
        """The pairs or elements of a container not expanded yet, found by scanning its own text."""
        raw = bytes(self.source[node.start_byte : node.end_byte])
        scanner = _Scanner(self, raw.decode("utf-8"), raw.isascii(), node.start_byte)
        end = node.end_byte
        scanner.members(node, 0, LIGHT_DEPTH)
        node.end_byte = end
        return node._named or []

    def subtree(self, start: int, end: int) -> Node:
        """tree-sitter's node of the value at [start, end), parsed from that text alone at its offset."""
        key = (start, end)
        with self._lock:
            found = self._trees.get(key)
            if found is not None:
                self._trees.move_to_end(key)
                return found
            parser = self._parser = self._parser or self._new_parser()
            chunk = bytes(self.source[start:end])
            parser.included_ranges = [Range(Point(0, start), Point(0, end), start, end)]
            tree = parser.parse(lambda offset, _point: chunk[offset - start :] if start <= offset < end else b"")
            node = next((c for c in tree.root_node.named_children if c.type != "comment"), tree.root_node)
            self._trees[key] = node
            if len(self._trees) > _UNIT_TREES:
                self._trees.popitem(last=False)
            return node


class LightNode:
    """A node of the outline: a container, a pair, a member's key, a scalar or a bracket token.

    A container below the outline's top levels is expanded (its members or elements found by the same scanner,
    one level at a time) when first asked about its children; a question the outline does not answer (a
    descendant at a byte offset, …) goes to tree-sitter's subtree of the value."""

    __slots__ = ("_named", "end_byte", "id", "outline", "parent", "start_byte", "type", "value")
    has_error = False
    is_error = False
    is_missing = False
    is_named = True

    def __init__(
        self, outline: Outline, kind: str, start: int, end: int, parent: LightNode | None = None, value: Any = None
    ) -> None:
        self.outline = outline
        self.type = kind
        self.start_byte = start
        self.end_byte = end
        self.parent = parent
        self.id = next(_ids)
        self._named: list[LightNode] | None = None if kind in ("object", "array") else []
        self.value: Any = value

    @property
    def named_children(self) -> list[LightNode]:
        if self._named is None:
            self._named = self.outline.expand(self)
        return self._named

    @property
    def named_child_count(self) -> int:
        return len(self.named_children)

    @property
    def children(self) -> list[LightNode]:
        if self.type in ("object", "array"):
            close = "}" if self.type == "object" else "]"
            opening = LightNode(self.outline, "{" if close == "}" else "[", self.start_byte, self.start_byte + 1)
            closing = LightNode(self.outline, close, self.end_byte - 1, self.end_byte)
            return [opening, *self.named_children, closing]
        return list(self.named_children)

    @property
    def child_count(self) -> int:
        return len(self.children)

    def child(self, index: int) -> LightNode | None:
        children = self.children
        return children[index] if 0 <= index < len(children) else None

    def child_by_field_name(self, name: str) -> LightNode | None:
        if self.type != "pair":
            return None
        named = self.named_children
        if name == "key":
            return named[0]
        return named[1] if name == "value" and len(named) > 1 else None

    @property
    def text(self) -> bytes:
        return bytes(self.outline.source[self.start_byte : self.end_byte])

    @property
    def node(self) -> Node:
        """tree-sitter's node of this value (parsed from its own text, kept in the outline's small cache)."""
        return self.outline.subtree(self.start_byte, self.end_byte)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.node, name)

    def __repr__(self) -> str:
        return f"<LightNode {self.type} {self.start_byte}..{self.end_byte}>"


class _Scanner:
    def __init__(self, outline: Outline, text: str, ascii_only: bool, base: int = 0) -> None:
        self.outline = outline
        self.text = text
        self.ascii = ascii_only
        self.base = base
        self._char = 0
        self._byte = base

    def byte(self, char: int) -> int:
        """Byte offset of a character offset (offsets are asked in increasing order)."""
        if self.ascii:
            return self.base + char
        if char < self._char:
            self._char, self._byte = 0, self.base
        self._byte += len(self.text[self._char : char].encode("utf-8"))
        self._char = char
        return self._byte

    def skip(self, pos: int) -> int:
        text = self.text
        while pos < len(text) and text[pos] in _WS:
            pos += 1
        return pos

    def value(self, pos: int, depth: int, light: bool, parent: LightNode | None) -> tuple[LightNode, int]:
        first = self.text[pos] if pos < len(self.text) else ""
        if light and first in "{[":
            node = LightNode(self.outline, "object" if first == "{" else "array", self.byte(pos), 0, parent)
            return node, self.members(node, pos, depth)
        value, end = _SCAN(self.text, pos)
        kind = _TYPES.get(first, "number")
        return LightNode(self.outline, kind, self.byte(pos), self.byte(end), parent, value), end

    def members(self, node: LightNode, pos: int, depth: int) -> int:
        """Fill node (the container whose bracket is at pos) with its pairs or elements; the end position."""
        text = self.text
        is_object = node.type == "object"
        close = "}" if is_object else "]"
        named: list[LightNode] = []
        members: dict[str, Any] = {}
        elements: list[Any] = []
        pos = self.skip(pos + 1)
        if pos < len(text) and text[pos] == close:
            pos += 1
        else:
            while True:
                if is_object:
                    if pos >= len(text) or text[pos] != '"':
                        raise _Reject("expected a key")
                    key, key_end = _SCANSTRING(text, pos + 1, True)
                    pair = LightNode(self.outline, "pair", self.byte(pos), 0, node)
                    key_node = LightNode(self.outline, "string", pair.start_byte, self.byte(key_end), pair, key)
                    pos = self.skip(key_end)
                    if pos >= len(text) or text[pos] != ":":
                        raise _Reject("expected ':'")
                    pos = self.skip(pos + 1)
                    child, pos = self.value(pos, depth + 1, depth + 1 <= LIGHT_DEPTH, pair)
                    pair._named = [key_node, child]
                    pair.end_byte = child.end_byte
                    named.append(pair)
                    members[key] = child.value
                else:
                    child, pos = self.value(pos, depth + 1, False, node)
                    named.append(child)
                    elements.append(child.value)
                pos = self.skip(pos)
                if pos < len(text) and text[pos] == ",":
                    pos = self.skip(pos + 1)
                    continue
                if pos < len(text) and text[pos] == close:
                    pos += 1
                    break
                raise _Reject("expected ',' or a closing bracket")
        node._named = named
        node.end_byte = self.byte(pos)
        if node.value is None:
            node.value = members if is_object else elements
        return pos


def build_outline(data: bytearray, new_parser: Callable[[], Parser]) -> LightNode | None:
    """The outline's `document` node, or None when the text is not strict JSON (then only tree-sitter reads it).

    The document's values are outlined; a JSON Lines file (several values) is a document of several."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    outline = Outline(data, new_parser)
    scanner = _Scanner(outline, text, data.isascii())
    document = LightNode(outline, "document", 0, len(data))
    document._named = []
    try:
        pos = scanner.skip(0)
        while pos < len(text):
            child, pos = scanner.value(pos, 0, True, document)
            document._named.append(child)
            pos = scanner.skip(pos)
    except (ValueError, StopIteration, RecursionError, IndexError):
        return None
    if not document._named:
        return None
    return document
