"""Placing findings: unknown key → the key; wrong value → the value; missing property → the parent's key or
its `{`; a template → its characters inside the string; syntax error → the broken node."""

from __future__ import annotations

from tree_sitter import Node

from ..document.document import Document
from ..document.embedded import EmbeddedNode
from ..document.jsontree import LocateCache, Pointer, locate, string_content_offsets
from ..document.lines import Range
from .findings import Target
from .lenient import accepts_trailing_commas

_MAX_SYNTAX_ERRORS = 100
TRAILING_COMMA = "Syntax error: trailing comma"


def place(document: Document, start: Node, pointer: Pointer, target: Target, span: tuple[int, int] | None) -> Range:
    begin, end = place_bytes(start, pointer, target, span)
    return document.range_of(begin, end)


def place_bytes(
    start: Node, pointer: Pointer, target: Target, span: tuple[int, int] | None, cache: LocateCache | None = None
) -> tuple[int, int]:
    location = locate(start, pointer, cache)
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
        if isinstance(value, EmbeddedNode):
            return value.content_offsets(*span)
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


_CLOSERS = {"{": "}", "[": "]"}
_BARE_WORDS = {"NaN", "Infinity", "-Infinity", "undefined", "None", "True", "False"}


def syntax_errors(document: Document, path: str | None = None) -> list[tuple[int, int, str]]:
    """ERROR and MISSING nodes, each as (start, end, message), found by descending only into subtrees that
    contain an error. One diagnostic per broken node, worded by what is wrong there when that is clear.
    With the file's path: less the trailing commas its reader accepts (`lenient.accepts_trailing_commas`)."""
    found = syntax_errors_in(document.outline, len(document.data))
    if found and accepts_trailing_commas(path):
        return [error for error in found if error[2] != TRAILING_COMMA]
    return found


def syntax_errors_in(root: Node, size: int) -> list[tuple[int, int, str]]:
    if not (root.has_error or root.is_error):
        return []
    found: list[tuple[int, int, str]] = []
    stack = [root]
    while stack and len(found) < _MAX_SYNTAX_ERRORS:
        node = stack.pop()
        if node.is_missing:
            found.append(_missing(node))
        elif node.is_error and (node is root or (node.parent is not None and node.parent.type == "document")):
            found.extend(_top_error(node, size))
        elif node.is_error:
            found.extend(_error(node))
        else:
            stack.extend(child for child in reversed(node.children) if child.has_error or child.is_error)
    if not found:
        found.append((size, size, "Syntax error: unexpected end of input"))
    found.sort()
    return found[:_MAX_SYNTAX_ERRORS]


def _top_error(node: Node, size: int) -> list[tuple[int, int, str]]:
    """A document-level ERROR (tree-sitter could not parse the text as a whole): what is left open at the
    end, plus the errors inside its fragments; else the node itself described."""
    found: list[tuple[int, int, str]] = []
    end_problem = _end_of_input(node, size)
    if end_problem is not None:
        found.append(end_problem)
    inner = [child for child in node.children if child.has_error or child.is_error]
    for child in inner:
        # Stop at the cap: a hopelessly broken file has tens of thousands of fragments, and describing each
        # one asks tree-sitter for siblings (linear in their number), which made the whole quadratic.
        if len(found) >= _MAX_SYNTAX_ERRORS:
            break
        found.extend(syntax_errors_in(child, size))
    if not found:
        found.extend(_error(node))
    return found


def _missing(node: Node) -> tuple[int, int, str]:
    before = node.prev_sibling
    after = node.next_sibling
    if before is not None and before.type == "," and after is not None and after.type in ("]", "}"):
        return before.start_byte, before.end_byte, TRAILING_COMMA
    if node.type in ("number", "string", "true", "false", "null", "object", "array"):
        return node.start_byte, node.start_byte, "Syntax error: expected a value"
    return node.start_byte, node.start_byte, f"Syntax error: expected '{node.type}'"


def _error(node: Node) -> list[tuple[int, int, str]]:
    """What a (non-root) ERROR node most likely means: its stray tokens, else a missing comma or colon, …"""
    lexical = _lexical_errors(node)
    return lexical or [_structural_error(node)]


def _structural_error(node: Node) -> tuple[int, int, str]:
    children = node.children
    named = [child for child in children if child.type != "comment"]
    after = node.next_sibling
    while after is not None and after.type == "comment":
        after = after.next_sibling
    if len(named) == 1 and named[0].type == ",":
        if after is not None and after.type in ("]", "}"):
            return node.start_byte, node.end_byte, TRAILING_COMMA
        return node.start_byte, node.end_byte, "Syntax error: unexpected ','"
    for index, child in enumerate(named):
        following = named[index + 1] if index + 1 < len(named) else after
        if child.type == "string" and node.parent is not None and node.parent.type == "object":
            if following is None or following.type in ("}", ",", "pair"):
                return (
                    child.start_byte,
                    child.end_byte,
                    f"Syntax error: expected ':' and a value after {_quoted(child)}",
                )
            if following.type != ":":
                return child.start_byte, child.end_byte, f"Syntax error: expected ':' after {_quoted(child)}"
    last = named[-1] if named else None
    if (
        last is not None
        and last.type in ("pair", "object", "array", "string", "number", "true", "false", "null")
        and after is not None
        and after.type in ("pair", "object", "array", "string", "number", "true", "false", "null")
    ):
        # On the token where the comma was expected (as VS Code's JSON support and TypeScript place it).
        token = _first_token(after)
        return token.start_byte, token.end_byte, f"Syntax error: expected ',' after {_quoted(last)}"
    first = children[0] if children else node
    end = first.end_byte if first.end_byte > first.start_byte else node.end_byte
    if node.start_byte == node.end_byte:
        return node.start_byte, node.end_byte, "Syntax error: unexpected end of input"
    return node.start_byte, min(end, node.start_byte + 200), f"Syntax error: unexpected {_quoted(first)}"


def _first_token(node: Node) -> Node:
    """A member's key, a container's opening bracket, or the scalar itself."""
    if node.type == "pair":
        key = node.child_by_field_name("key")
        return key if key is not None else node
    if node.type in ("object", "array") and node.child_count:
        return node.children[0]
    return node


def _lexical_errors(node: Node) -> list[tuple[int, int, str]]:
    """The ERROR leaves inside node: characters that are no JSON token (`tru`, `'a'`, a bare key)."""
    found: list[tuple[int, int, str]] = []
    stack = [node]
    while stack and len(found) < _MAX_SYNTAX_ERRORS:
        current = stack.pop()
        if current.is_error and current.child_count == 0 and current.end_byte > current.start_byte:
            word = (current.text or b"").decode("utf-8", "replace")
            following = current.next_sibling
            message = f"Syntax error: unexpected {_quoted(current)}"
            if word.startswith("\\"):
                message += ": not a valid escape sequence"
            elif word.startswith("'"):
                message += ": JSON strings use double quotes"
            elif following is not None and following.type == ":" and word.replace("_", "a").isalnum():
                message += ": property names must be double-quoted strings"
            elif word in _BARE_WORDS:
                message += ": not a JSON value"
            found.append((current.start_byte, current.end_byte, message))
            continue
        stack.extend(child for child in reversed(current.children) if child.is_error or child.has_error)
    return found


def _end_of_input(error_root: Node, size: int) -> tuple[int, int, str] | None:
    """For a document-level ERROR: a string or brackets left open at the end of the text."""
    open_brackets: list[str] = []
    quote: Node | None = None
    content_end = 0
    for child in error_root.children:
        kind = child.type
        if kind in _CLOSERS:
            open_brackets.append(kind)
            quote = None
        elif kind in ("}", "]"):
            if open_brackets and _CLOSERS[open_brackets[-1]] == kind:
                open_brackets.pop()
            quote = None
        elif kind == '"':
            quote, content_end = child, child.end_byte
        elif kind in ("string_content", "escape_sequence") and quote is not None:
            content_end = child.end_byte
        elif kind != "comment":
            quote = None
    if quote is not None:
        return quote.start_byte, content_end, "Syntax error: unterminated string"
    if open_brackets:
        closer = _CLOSERS[open_brackets[-1]]
        last = error_root.children[-1] if error_root.child_count else None
        end = last.end_byte if last is not None else size
        return end, end, f"Syntax error: unexpected end of input: expected '{closer}'"
    return None


def _quoted(node: Node) -> str:
    text = _describe(node)
    return f'"{text}"' if text.startswith("'") else f"'{text}'"
