"""Placing findings: unknown key → the key; wrong value → the value; missing property → the parent's key or
its `{`; a template → its characters inside the string; syntax error → the broken node."""

from __future__ import annotations

from tree_sitter import Node

from ..document.document import Document
from ..document.jsontree import Pointer, locate, string_content_offsets
from ..document.lines import Range
from .findings import Target

_MAX_SYNTAX_ERRORS = 100


def place(document: Document, start: Node, pointer: Pointer, target: Target, span: tuple[int, int] | None) -> Range:
    begin, end = place_bytes(start, pointer, target, span)
    return document.range_of(begin, end)


def place_bytes(start: Node, pointer: Pointer, target: Target, span: tuple[int, int] | None) -> tuple[int, int]:
    location = locate(start, pointer)
    value, key = location.value, location.key
    if not location.complete:
        # The pointer goes further than the text (a missing member): mark the deepest existing object.
        return _parent_bytes(value, key)
    if target == "key" and key is not None:
        return key.start_byte, key.end_byte
    if target == "parent":
        return _parent_bytes(value, key)
    if target == "member" and key is not None:
        return key.start_byte, value.end_byte
    if span is not None and value.type == "string":
        return string_content_offsets(value, *span)
    return value.start_byte, value.end_byte


def _parent_bytes(value: Node, key: Node | None) -> tuple[int, int]:
    if key is not None:
        return key.start_byte, key.end_byte
    first = value.child(0) if value.type in ("object", "array") else None
    if first is not None:
        return first.start_byte, first.end_byte
    return value.start_byte, value.end_byte


def _describe(node: Node) -> str:
    text = (node.text or b"").decode("utf-8", "replace")
    first = text.splitlines()[0] if text else ""
    return first[:20] + ("…" if len(first) > 20 or len(text) > len(first) else "")


def syntax_errors(document: Document) -> list[tuple[int, int, str]]:
    """ERROR and MISSING nodes, found by descending only into subtrees that contain an error."""
    root = document.root
    if not root.has_error:
        return []
    found: list[tuple[int, int, str]] = []
    stack = [root]
    while stack and len(found) < _MAX_SYNTAX_ERRORS:
        node = stack.pop()
        if node.is_missing:
            expected = node.type
            found.append((node.start_byte, node.start_byte, f"Syntax error: expected '{expected}'"))
            continue
        if node.is_error:
            leaf = node
            while leaf.child_count:
                first = leaf.child(0)
                if first is None:
                    break
                leaf = first
            end = leaf.end_byte if leaf.end_byte > leaf.start_byte else node.end_byte
            end = min(end, node.end_byte, leaf.start_byte + 200)
            if node.start_byte == node.end_byte:
                message = "Syntax error: unexpected end of input"
            else:
                message = f"Syntax error: unexpected '{_describe(leaf)}'"
            found.append((node.start_byte, max(end, node.start_byte), message))
            continue
        stack.extend(child for child in reversed(node.children) if child.has_error)
    if not found and root.has_error:
        end = len(document.data)
        found.append((end, end, "Syntax error: unexpected end of input"))
    found.sort()
    return found
