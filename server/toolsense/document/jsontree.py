"""Questions asked of the tree-sitter JSON tree: members, pointers, values. Walks only along a path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node

PointerPart = str | int
Pointer = tuple[PointerPart, ...]

_SKIPPED = frozenset({"comment", "ERROR"})


def value_children(array: Node) -> Iterator[Node]:
    """The element nodes of an array (comments and error fragments are not elements)."""
    for child in array.named_children:
        if child.type not in _SKIPPED:
            yield child


def pairs(obj: Node) -> Iterator[Node]:
    for child in obj.named_children:
        if child.type == "pair":
            yield child


def string_value(node: Node) -> str | None:
    """The decoded content of a string node (escapes resolved); None for anything else."""
    if node.type != "string" or node.text is None:
        return None
    raw = node.text
    try:
        value = json.loads(raw)
    except ValueError:
        inner = raw[1:-1] if raw.endswith(b'"') and len(raw) >= 2 else raw[1:]
        return inner.decode("utf-8", "replace")
    return value if isinstance(value, str) else None


def pair_key(pair: Node) -> str | None:
    key = pair.child_by_field_name("key")
    return string_value(key) if key is not None else None


def member(obj: Node, name: str) -> Node | None:
    """The last pair with this key (JSON parsers keep the last duplicate)."""
    found = None
    for pair in pairs(obj):
        if pair_key(pair) == name:
            found = pair
    return found


@dataclass(frozen=True)
class Location:
    """Where a pointer led: the value node, the key node of its pair (if a member), how far it got."""

    value: Node
    key: Node | None
    resolved: int
    complete: bool


def locate(start: Node, pointer: Pointer) -> Location:
    """Walk down from start along pointer; stops at the deepest node that exists."""
    node = start
    key: Node | None = None
    for depth, part in enumerate(pointer):
        child: Node | None = None
        child_key: Node | None = None
        if node.type == "object":
            pair = member(node, str(part))
            if pair is not None:
                child = pair.child_by_field_name("value")
                child_key = pair.child_by_field_name("key")
                if child is None:
                    return Location(child_key or pair, child_key, depth, False)
        elif node.type == "array" and isinstance(part, int):
            for index, element in enumerate(value_children(node)):
                if index == part:
                    child = element
                    break
        if child is None:
            return Location(node, key, depth, False)
        node, key = child, child_key
    return Location(node, key, len(pointer), True)


def to_value(node: Node) -> Any:
    """Tolerant conversion of a subtree to Python (for units that json.loads rejects: comments, errors)."""
    kind = node.type
    if kind == "document":
        for child in node.named_children:
            if child.type not in _SKIPPED:
                return to_value(child)
        return None
    if kind == "object":
        result: dict[str, Any] = {}
        for pair in pairs(node):
            key = pair_key(pair)
            value = pair.child_by_field_name("value")
            if key is not None:
                result[key] = to_value(value) if value is not None else None
        return result
    if kind == "array":
        return [to_value(child) for child in value_children(node)]
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
