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

An edit inside one outlined container keeps the outline (`outline_edit.edit_outline`): a new generation of
nodes is made from the members the edit touched, scanned again, and the old one reads the text it was built from
through a link to the new one (`Outline.read`), so reports and snapshots holding old nodes are never moved.
"""

from __future__ import annotations

import itertools
import json
import json.decoder
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from tree_sitter import Node, Parser

from .exponents import parse_json_at

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


class _Lineage:
    """What the generations of one document's outline share: the parser and one lock (a check on a snapshot,
    on another thread, reads old generations while the owner's edits make new ones)."""

    def __init__(self, new_parser: Callable[[], Parser]) -> None:
        self.new_parser = new_parser
        self.parser: Parser | None = None
        self.lock = threading.RLock()


class Outline:
    """One generation of a document's outline: the source bytes its nodes' spans refer to, and a small cache of
    unit subtrees parsed from them.

    An edit inside one outlined value makes a new generation (`edit_outline`) and links this one to it with the
    edit and the bytes it removed, so nodes of this generation (held by earlier reports, units or a snapshot's
    check) keep reading the text they were built from, at their own offsets, while the document's bytes change.
    """

    def __init__(self, source: bytearray, new_parser: Callable[[], Parser], lineage: _Lineage | None = None) -> None:
        self.source = source
        """The live bytes of the document while this is its current generation (else see `_next`)."""
        self._lineage = lineage or _Lineage(new_parser)
        self._trees: OrderedDict[tuple[int, int], Node] = OrderedDict()
        self._next: tuple[Outline, int, int, int, bytes] | None = None
        """(the next generation, edit start, old end, new end, the bytes the edit removed)."""
        self._jump: tuple[Outline, int] | None = None
        """A later generation whose bytes before an offset are this one's (a shortcut over many links)."""

    @property
    def _lock(self) -> threading.RLock:
        return self._lineage.lock

    def read(self, start: int, end: int) -> bytes:
        """This generation's bytes [start, end): the live source, through the edits made since when needed."""
        with self._lineage.lock:
            gen, low = self, 1 << 62
            while True:
                jump = gen._jump
                if jump is not None and end <= jump[1]:
                    gen, low = jump[0], min(low, jump[1])
                    continue
                link = gen._next
                if link is None or end > link[1]:
                    break
                gen, low = link[0], min(low, link[1])  # an edit at or after end: this span is untouched
            if gen is not self:
                self._jump = (gen, low)
            if gen._next is None:
                return bytes(gen.source[start:end])
            return gen._read_through(start, end)

    def _read_through(self, start: int, end: int) -> bytes:
        pieces: list[tuple[int, int] | bytes] = [(start, end)]
        gen: Outline = self
        while gen._next is not None:
            gen, at, old_end, new_end, removed = gen._next
            delta = new_end - old_end
            moved: list[tuple[int, int] | bytes] = []
            for piece in pieces:
                if isinstance(piece, bytes):
                    moved.append(piece)
                    continue
                low, high = piece
                if high <= at:
                    moved.append(piece)
                elif low >= old_end:
                    moved.append((low + delta, high + delta))
                else:
                    if low < at:
                        moved.append((low, at))
                    moved.append(removed[max(low, at) - at : min(high, old_end) - at])
                    if high > old_end:
                        moved.append((new_end, high + delta))
            pieces = moved
        source = gen.source
        return b"".join(p if isinstance(p, bytes) else bytes(source[p[0] : p[1]]) for p in pieces)

    def freeze(self) -> None:
        """Before the document's bytes change without a new generation: keep a copy of them."""
        with self._lineage.lock:
            if self._next is None:
                self.source = bytearray(self.source)

    def successor(self, source: bytearray, start: int, end: int) -> Outline:
        """A new generation for an edit of [start, end); the unit trees wholly before it stay valid."""
        new = Outline(source, self._lineage.new_parser, self._lineage)
        with self._lineage.lock:
            for key, tree in self._trees.items():
                if key[1] <= start:
                    new._trees[key] = tree
        return new

    def apply(self, new: Outline, start: int, end: int, new_text: bytes) -> None:
        """Change the live bytes and link this generation to the next one, in one step for readers."""
        with self._lineage.lock:
            source = self.source
            removed = bytes(source[start:end])
            source[start:end] = new_text
            self._next = (new, start, end, start + len(new_text), removed)
            self._trees = OrderedDict()  # its nodes may still parse, from the text read through the link

    def parse_at(self, text: bytes, start: int) -> Node | None:
        """tree-sitter's one value in text, which stands at offset start of the document; None if not one."""
        with self._lineage.lock:
            lineage = self._lineage
            parser = lineage.parser = lineage.parser or lineage.new_parser()
            tree = parse_json_at(parser, text, start)
        values = [c for c in tree.root_node.named_children if c.type != "comment"]
        return values[0] if len(values) == 1 else None

    def expand(self, node: LightNode) -> list[LightNode]:
        """The pairs or elements of a container not expanded yet, found by scanning its own text."""
        raw = self.read(node.start_byte, node.end_byte)
        scanner = _Scanner(self, raw.decode("utf-8"), raw.isascii(), node.start_byte)
        end = node.end_byte
        scanner.members(node, 0, node._depth)
        node.end_byte = end
        return node._named or []

    def subtree(self, start: int, end: int) -> Node:
        """tree-sitter's node of the value at [start, end), parsed from that text alone at its offset."""
        key = (start, end)
        with self._lineage.lock:
            found = self._trees.get(key)
            if found is not None:
                self._trees.move_to_end(key)
                return found
            lineage = self._lineage
            parser = lineage.parser = lineage.parser or lineage.new_parser()
            tree = parse_json_at(parser, self.read(start, end), start)
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

    __slots__ = (
        "__weakref__",
        "_depth",
        "_error",
        "_named",
        "_parent",
        "end_byte",
        "id",
        "outline",
        "start_byte",
        "type",
        "value",
    )
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
        self._depth = LIGHT_DEPTH
        """The depth its members are scanned at: an outlined container's own; below them, all lazy."""
        self._error = False
        """Whether a member holds a syntax error (an element of the root array read by tree-sitter, see
        `edit_outline`)."""

    @property
    def parent(self) -> LightNode | None:
        """The container (or pair) holding this node, while it lives. Held weakly: a node holds its children, not
        its parent, so the nodes of an outline form no cycle and a generation no longer used (`edit_outline` makes
        one per keystroke) is freed at once, not left to pile up until a full garbage collection."""
        ref = self._parent
        return ref() if ref is not None else None

    @parent.setter
    def parent(self, node: LightNode | None) -> None:
        self._parent = weakref.ref(node) if node is not None else None

    @property
    def has_error(self) -> bool:
        return self._error

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
        return self.outline.read(self.start_byte, self.end_byte)

    @property
    def node(self) -> Node:
        """tree-sitter's node of this value (parsed from its own text, kept in the outline's small cache)."""
        return self.outline.subtree(self.start_byte, self.end_byte)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.node, name)

    def detached(self) -> LightNode:
        """This node as a copy whose members, scanned when asked for, are not kept in the outline (a one-off
        read of every unit, such as the document's symbols, leaves no expanded nodes behind)."""
        if self._named is not None:
            return self
        copy = LightNode(self.outline, self.type, self.start_byte, self.end_byte, self.parent, self.value)
        copy._depth, copy._error = self._depth, self._error
        return copy

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
            node._depth = depth
            return node, self.members(node, pos, depth)
        value, end = _SCAN(self.text, pos)
        kind = _TYPES.get(first, "number")
        return LightNode(self.outline, kind, self.byte(pos), self.byte(end), parent, value), end

    def member(self, node: LightNode, pos: int, depth: int) -> tuple[LightNode, int]:
        """One pair (of an object) or element (of an array) of node, starting at pos; the end position."""
        if node.type != "object":
            return self.value(pos, depth + 1, False, node)
        text = self.text
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
        return pair, pos

    def members(self, node: LightNode, pos: int, depth: int) -> int:
        """Fill node (the container whose bracket is at pos) with its pairs or elements; the end position."""
        text = self.text
        close = "}" if node.type == "object" else "]"
        named: list[LightNode] = []
        pos = self.skip(pos + 1)
        if pos < len(text) and text[pos] == close:
            pos += 1
        else:
            while True:
                child, pos = self.member(node, pos, depth)
                named.append(child)
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
            node.value = _container_value(node.type, named)
        return pos

    def run(self, node: LightNode, before: bool, after: bool) -> list[LightNode]:
        """The members of node in the whole text, a run of them between two kept ones: `before`/`after` say
        whether a kept member precedes/follows (so a comma leads/trails), else the bracket does."""
        text = self.text
        found: list[LightNode] = []
        pos = self.skip(0)
        want_member = not before
        while pos < len(text):
            if want_member:
                child, pos = self.member(node, pos, node._depth)
                found.append(child)
            elif text[pos] == ",":
                pos += 1
            else:
                raise _Reject("expected ','")
            want_member = not want_member
            pos = self.skip(pos)
        # The run ends where a member is wanted only when one follows (after a comma), else after a member (or,
        # with no member on either side, empty).
        if after != want_member and (before or after or found):
            raise _Reject("a member or a comma is missing")
        return found


def _container_value(kind: str, named: list[LightNode]) -> Any:
    """The decoded value of a container from its members' (the last of duplicate keys wins, as in json)."""
    if kind == "object":
        return {pair._named[0].value: pair._named[1].value for pair in named if pair._named}
    return [child.value for child in named]


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
