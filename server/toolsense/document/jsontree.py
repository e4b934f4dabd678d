"""Questions asked of the tree-sitter JSON tree: members, pointers, values. Walks only along a path."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from .outline import LightNode

PointerPart = str | int
Pointer = tuple[PointerPart, ...]

_ESCAPE_OR_CONTROL = re.compile(rb'[\x00-\x1f\\"]')
_SKIPPED = frozenset({"comment", "ERROR"})
VALUE_TYPES = frozenset({"object", "array", "string", "number", "true", "false", "null"})


def value_children(array: Node) -> Iterator[Node]:
    """The element nodes of an array, or the values of a JSON Lines document.

    Comments are not elements. A value that tree-sitter's error recovery wrapped in an ERROR node (`[1 2]`
    parses as `(array (ERROR (number)) (number))`) still counts, so one syntax error does not shift the
    indices of the elements after it. A value error recovery invented (MISSING, after a trailing comma) is
    not there: it would read as a phantom `0` element.
    """
    for child in array.named_children:
        kind = child.type
        if child.is_missing:
            continue
        if kind in VALUE_TYPES:
            yield child
        elif kind == "ERROR":
            for inner in child.named_children:
                if inner.type in VALUE_TYPES:
                    yield inner


def pairs(obj: Node) -> Iterator[Node]:
    """The members of an object, including complete members that error recovery wrapped in an ERROR node."""
    for child in obj.named_children:
        kind = child.type
        if kind == "pair":
            yield child
        elif kind == "ERROR":
            for inner in child.named_children:
                if inner.type == "pair":
                    yield inner


def string_value(node: Node) -> str | None:
    """The decoded content of a string node (escapes resolved); None for anything else."""
    if node.type != "string":
        return None
    if isinstance(node, LightNode):
        return node.value if isinstance(node.value, str) else None  # decoded by the outline's scanner
    raw = node.text
    if raw is None:
        return None
    if len(raw) >= 2 and raw[-1] == 0x22 and _ESCAPE_OR_CONTROL.search(raw, 1, len(raw) - 1) is None:
        try:
            return raw[1:-1].decode("utf-8", "surrogatepass")  # what json.loads gives, without its overhead
        except UnicodeDecodeError:
            pass
    try:
        value = json.loads(raw)
    except ValueError:
        inner = raw[1:-1] if raw.endswith(b'"') and len(raw) >= 2 else raw[1:]
        return inner.decode("utf-8", "replace")
    return value if isinstance(value, str) else None


def pair_key(pair: Node) -> str | None:
    key = pair.child_by_field_name("key")
    return string_value(key) if key is not None else None


def member(obj: Node, name: str, cache: LocateCache | None = None) -> Node | None:
    """The last pair with this key (JSON parsers keep the last duplicate)."""
    if cache is not None and obj.named_child_count >= _INDEXED_SIZE:
        table = cache.members.get(obj.id)
        if table is None:
            table = {}
            for pair in pairs(obj):
                key = pair_key(pair)
                if key is not None:
                    table[key] = pair
            cache.members[obj.id] = table
        return table.get(name)
    found = None
    for pair in pairs(obj):
        if pair_key(pair) == name:
            found = pair
    return found


_INDEXED_SIZE = 32
"""Objects and arrays with at least this many children are indexed once per `LocateCache`."""


@dataclass
class LocateCache:
    """Member and element tables of large objects and arrays, for many `locate` calls on one tree (placing
    100,000 findings in a 100,000-member object must not scan it 100,000 times). Valid for one tree only."""

    members: dict[int, dict[str, Node]] = field(default_factory=dict)
    elements: dict[int, list[Node]] = field(default_factory=dict)


@dataclass(frozen=True)
class Location:
    """Where a pointer led: the value node, the key node of its pair (if a member), how far it got."""

    value: Node
    key: Node | None
    resolved: int
    complete: bool


def document_values(document: Node) -> list[Node]:
    """The top-level values of a `document` node (one for JSON, several for JSON Lines)."""
    return [child for child in document.named_children if child.type in VALUE_TYPES]


def locate(start: Node, pointer: Pointer, cache: LocateCache | None = None) -> Location:
    """Walk down from start along pointer; stops at the deepest node that exists.

    From a `document` node, pointers are absolute: they start at the root value, or — in a JSON Lines document
    with several top-level values — with the index of the value.
    """
    node = start
    key: Node | None = None
    if node.type == "document":
        values = document_values(node)
        if len(values) == 1:
            node = values[0]
        elif pointer and isinstance(pointer[0], int) and 0 <= pointer[0] < len(values):
            node = values[pointer[0]]
            pointer = pointer[1:]
            if not pointer:
                return Location(node, None, 1, True)
            located = locate(node, pointer, cache)
            return Location(located.value, located.key, located.resolved + 1, located.complete)
    for depth, part in enumerate(pointer):
        child: Node | None = None
        child_key: Node | None = None
        if node.type == "object":
            pair = member(node, str(part), cache)
            if pair is not None:
                child = pair.child_by_field_name("value")
                child_key = pair.child_by_field_name("key")
                if child is None:
                    return Location(child_key or pair, child_key, depth, False)
        elif node.type == "array" and isinstance(part, int):
            if cache is not None and node.named_child_count >= _INDEXED_SIZE:
                elements = cache.elements.get(node.id)
                if elements is None:
                    elements = cache.elements[node.id] = list(value_children(node))
                child = elements[part] if 0 <= part < len(elements) else None
            else:
                for index, element in enumerate(value_children(node)):
                    if index == part:
                        child = element
                        break
        if child is None:
            return Location(node, key, depth, False)
        node, key = child, child_key
    return Location(node, key, len(pointer), True)


class TooDeep(ValueError):
    """The JSON nests deeper than toolsense reads (`MAX_DEPTH`)."""

    def __init__(self, offset: int) -> None:
        super().__init__(f"nesting deeper than {MAX_DEPTH} levels at byte {offset}")
        self.offset = offset


MAX_DEPTH = 128
"""Deepest nesting of a unit that toolsense reads into Python values and checks. Real tool definitions nest a
few dozen levels at most; rules walk values recursively and pydantic's JSON parser stops at 200 levels, so a cap
well below both keeps a hostile 10,000-level file to one clear TS006 diagnostic."""


def to_value(node: Node) -> Any:
    """Tolerant conversion of a subtree to Python (for units that json.loads rejects: comments, errors).

    Iterative, and bounded by `MAX_DEPTH` (raises `TooDeep`).
    """
    if isinstance(node, LightNode):
        return node.value  # an outline node: strict JSON, read when the outline was built
    if node.type == "document":
        values = document_values(node)
        return _convert(values[0]) if values else None
    return _convert(node)


def _scalar(node: Node) -> Any:
    kind = node.type
    if kind == "string":
        return string_value(node)
    if kind == "number":
        text = (node.text or b"0").decode()
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return None
    if kind == "true":
        return True
    if kind == "false":
        return False
    return None


def _convert(node: Node) -> Any:
    if node.type not in ("object", "array"):
        return _scalar(node)
    root: Any = {} if node.type == "object" else []
    # (node, container, depth): fill container with node's members or elements.
    stack: list[tuple[Node, Any, int]] = [(node, root, 1)]
    while stack:
        current, container, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TooDeep(current.start_byte)
        if isinstance(container, dict):
            for pair in pairs(current):
                key = pair_key(pair)
                value = pair.child_by_field_name("value")
                if key is None:
                    continue
                container[key] = _child(value, stack, depth)
        else:
            container.extend(_child(element, stack, depth) for element in value_children(current))
    return root


def _child(node: Node | None, stack: list[tuple[Node, Any, int]], depth: int) -> Any:
    if node is None:
        return None
    if node.type == "object":
        made: Any = {}
    elif node.type == "array":
        made = []
    else:
        return _scalar(node)
    stack.append((node, made, depth + 1))
    return made


def string_content_offsets(node: Node, start: int, end: int) -> tuple[int, int]:
    """Byte span in the source of decoded characters [start, end) of a string node (escapes counted)."""
    raw = (node.text or b"").decode("utf-8", "replace")
    body_start = node.start_byte + 1
    chars = 0
    index = 1
    byte = body_start
    first = last = None
    limit = len(raw) - 1 if raw.endswith('"') and len(raw) >= 2 else len(raw)
    while index < limit:
        if chars == start and first is None:
            first = byte
        if chars == end:
            last = byte
            break
        if raw[index] == "\\" and index + 1 < limit:
            width = 6 if raw[index + 1] == "u" else 2
            if raw[index + 1] == "u" and index + 11 < limit + 1 and raw[index + 6 : index + 8] == "\\u":
                code = int(raw[index + 2 : index + 6], 16) if _is_hex(raw[index + 2 : index + 6]) else 0
                if 0xD800 <= code < 0xDC00:
                    width = 12
            segment = raw[index : index + width]
        else:
            segment = raw[index]
            width = 1
        byte += len(segment.encode("utf-8", "surrogatepass"))
        index += width
        chars += 1
    if first is None:
        first = byte
    if last is None:
        last = byte
    return first, last


def _is_hex(text: str) -> bool:
    return len(text) == 4 and all(c in "0123456789abcdefABCDEF" for c in text)
