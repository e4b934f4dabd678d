"""One `FixEdit` at a time → byte edits that keep the file's formatting.

A renamed key keeps its place; a removed member takes its comma and, when it sat on lines of its own, exactly
those lines (CRLF, tabs, comments elsewhere untouched); inserted members are indented like their siblings,
with the file's line ending. Pointers are placed by the document layer's locator.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property

from tree_sitter import Node

from ..document.document import Document
from ..document.jsontree import (
    LocateCache,
    Location,
    Pointer,
    locate,
    pair_key,
    pairs,
    string_content_offsets,
    value_children,
)
from ..document.outline import LightNode
from ..engine.findings import FixEdit, InsertMembers, MoveMember, RemoveMember, RenameKey, ReplaceInString, ReplaceValue
from ..engine.placement import syntax_errors
from .layout import (
    blank_or_line_comment,
    colon_style,
    comma_style,
    detect_eol,
    detect_indent_unit,
    expand_empty,
    line_content_end,
    line_indent,
    line_start,
    next_line_start,
    only_blanks,
    reindent,
    same_line,
)
from .text import NotApplicable, TextEdit, json_string, snippet_escape


@dataclass
class Source:
    """One state of a document as the edits read it. Lookups share one `LocateCache`, so planning the fixes
    of a file of 5,000 tools does not scan its array once per fix; the indentation step and the syntax errors
    are read once. Valid while the document is not edited (make a new one per state)."""

    document: Document
    cache: LocateCache = field(default_factory=LocateCache)

    @cached_property
    def indent_unit(self) -> str:
        return detect_indent_unit(self.document)

    @cached_property
    def syntax_error_spans(self) -> list[tuple[int, int]]:
        if not self.document.has_error:
            return []
        return [(start, end) for start, end, _ in syntax_errors(self.document)]

    def find(self, pointer: Pointer) -> Location | None:
        """The nodes at an absolute pointer (JSON Lines files: the first part picks the line's value)."""
        found = locate(self.document.outline, pointer, self.cache)
        if not found.complete or found.value.type == "document":
            return None  # a pointer into nothing, or the whole of an empty or multi-value file
        return found

    def need(self, pointer: Pointer) -> Location:
        found = self.find(pointer)
        if found is None:
            raise NotApplicable(f"nothing at /{'/'.join(str(p) for p in pointer)}")
        return found


def edits_for(source: Source, edit: FixEdit, snippets: bool = False) -> list[TextEdit]:
    """The byte edits of one FixEdit; raises NotApplicable."""
    document = source.document
    if isinstance(edit, ReplaceValue):
        node = source.need(edit.pointer).value
        return [TextEdit(node.start_byte, node.end_byte, reindent(document, node.start_byte, edit.json_text))]
    if isinstance(edit, RenameKey):
        key = source.need(edit.pointer).key
        pair = key.parent if key is not None else None
        if key is None or key.type != "string" or pair is None or pair.parent is None:
            raise NotApplicable("not an object member")
        if any(pair_key(other) == edit.new_key and not _same(other, pair) for other in pairs(pair.parent)):
            raise NotApplicable(f"'{edit.new_key}' is there already")
        return [TextEdit(key.start_byte, key.end_byte, json_string(edit.new_key))]
    if isinstance(edit, RemoveMember):
        return _remove(source, edit.pointer)
    if isinstance(edit, InsertMembers):
        return _insert(source, edit, snippets)
    if isinstance(edit, MoveMember):
        return _move(source, edit)
    return _replace_in_string(source, edit)


def _move(source: Source, edit: MoveMember) -> list[TextEdit]:
    """Remove the member where it is and insert it, value unchanged, at the end of the target object. A
    one-line value keeps its text; a longer one is written compactly (its old indentation would not fit)."""
    document = source.document
    if not edit.pointer or not isinstance(edit.pointer[-1], str):
        raise NotApplicable("not an object member")
    found = source.need(edit.pointer)
    if found.key is None:
        raise NotApplicable("not an object member")
    value = found.value
    text = bytes(document.data[value.start_byte : value.end_byte]).decode("utf-8", "surrogatepass")
    if "\n" in text or "\r" in text or value.has_error:
        try:
            text = json.dumps(json.loads(text), ensure_ascii=False, separators=(", ", ": "))
        except ValueError as error:
            raise NotApplicable("the value does not parse") from error
    moved = _insert(source, InsertMembers(edit.into, ((edit.pointer[-1], text),)), False)
    return _remove(source, edit.pointer) + moved


def _replace_in_string(source: Source, edit: ReplaceInString) -> list[TextEdit]:
    node = source.need(edit.pointer).value
    if node.type != "string" or edit.start < 0 or edit.end < edit.start:
        raise NotApplicable("not a string")
    start, end = string_content_offsets(node, edit.start, edit.end)
    return [TextEdit(start, end, json_string(edit.text)[1:-1])]


def _items(container: Node) -> list[Node]:
    return list(pairs(container)) if container.type == "object" else list(value_children(container))


def _same(a: Node, b: Node) -> bool:
    return a.start_byte == b.start_byte and a.end_byte == b.end_byte and a.type == b.type


def _neighbour_comma(data: bytearray, container: Node, item: Node, after: bool) -> tuple[int, int] | None:
    """The comma right after (or before) item among the container's tokens, comments skipped."""
    if isinstance(container, LightNode):
        return _gap_comma(data, container, item, after)
    children = container.children
    index = next(i for i, child in enumerate(children) if _same(child, item))
    step = 1 if after else -1
    index += step
    while 0 <= index < len(children):
        child = children[index]
        if child.type != "comment":
            return (child.start_byte, child.end_byte) if child.type == "," else None
        index += step
    return None


def _gap_comma(data: bytearray, container: LightNode, item: Node, after: bool) -> tuple[int, int] | None:
    """`_neighbour_comma` in an outlined container, whose children are its members and brackets only: the comma
    is in the text between item and its neighbour member (or bracket), among blanks and comments."""
    named = container.named_children
    index = next(i for i, child in enumerate(named) if child.start_byte == item.start_byte)
    if after:
        start, end = item.end_byte, named[index + 1].start_byte if index + 1 < len(named) else container.end_byte - 1
    else:
        start, end = named[index - 1].end_byte if index > 0 else container.start_byte + 1, item.start_byte
    at = start
    while at < end:
        if data.startswith(b"//", at):
            at = data.find(b"\n", at, end)
            at = end if at < 0 else at
        elif data.startswith(b"/*", at):
            close = data.find(b"*/", at + 2, end)
            at = end if close < 0 else close + 2
        elif data[at] == 0x2C:
            return at, at + 1
        else:
            at += 1
    return None


def _remove(source: Source, pointer: Pointer) -> list[TextEdit]:
    document = source.document
    if not pointer:
        raise NotApplicable("cannot remove the whole document")
    location = source.need(pointer)
    if isinstance(pointer[-1], str):
        if location.key is None or location.key.parent is None or location.key.parent.type != "pair":
            raise NotApplicable("not an object member")
        item: Node = location.key.parent
    else:
        item = location.value
    container = item.parent
    if container is None or container.type not in ("object", "array"):
        raise NotApplicable("not inside an object or array")
    data = document.data
    items = _items(container)
    opening, closing = container.children[0], container.children[-1]
    if len(items) == 1:
        interior = data[opening.end_byte : closing.start_byte]
        rest = interior.replace(data[item.start_byte : item.end_byte], b"", 1)
        if rest.strip() == b"":
            return [TextEdit(opening.end_byte, closing.start_byte, "")]  # `{ "a": 1 }` → `{}`
    trailing = _neighbour_comma(data, container, item, after=True)
    leading = None if trailing is not None else _neighbour_comma(data, container, item, after=False)
    after = trailing[1] if trailing is not None else item.end_byte
    row_start = line_start(document, item.start_byte)
    content_end = line_content_end(document, after)
    edits: list[TextEdit] = []
    if leading is not None:
        edits.append(TextEdit(*leading, ""))
    if only_blanks(data[row_start : item.start_byte]) and blank_or_line_comment(data[after:content_end]):
        next_start = next_line_start(document, after)
        if next_start > content_end:  # the member's lines go, terminators included: no blank line is left
            edits.append(TextEdit(row_start, next_start, ""))
            return edits
    if trailing is not None:
        end = after
        while end < len(data) and data[end] in b" \t":
            end += 1
        start = item.start_byte
        if end >= len(data) or data[end] in b"\r\n":  # `x, a,⏎` → `x,⏎`: no trailing blanks left behind
            while start > row_start and data[start - 1] in b" \t":
                start -= 1
        edits.append(TextEdit(start, end, ""))
        return edits
    start = item.start_byte
    while start > 0 and data[start - 1] in b" \t":
        start -= 1
    edits.append(TextEdit(start, item.end_byte, ""))
    return edits


def _member_indent(source: Source, obj: Node, items: list[Node]) -> str:
    document = source.document
    for item in reversed(items):
        start = line_start(document, item.start_byte)
        if only_blanks(document.data[start : item.start_byte]):
            return document.data[start : item.start_byte].decode("ascii")
    return line_indent(document, obj.start_byte) + source.indent_unit


def _inline_object(members: tuple[tuple[str, str], ...], snippet: bool) -> str:
    keys = [snippet_escape(json_string(k)) if snippet else json_string(k) for k, _ in members]
    return "{" + ", ".join(f"{k}: {v}" for k, (_, v) in zip(keys, members, strict=True)) + "}"


def _insert(source: Source, edit: InsertMembers, snippets: bool) -> list[TextEdit]:
    document = source.document
    found = source.find(edit.pointer)
    if found is None and edit.pointer and isinstance(edit.pointer[-1], str):
        # The object itself is missing (`trigger_config` absent): add it to its parent, members inline.
        use_snippets = snippets and bool(edit.snippet_members)
        outer = InsertMembers(
            edit.pointer[:-1],
            ((edit.pointer[-1], _inline_object(edit.members, False)),),
            ((edit.pointer[-1], _inline_object(edit.snippet_members, True)),) if use_snippets else (),
        )
        return _insert(source, outer, snippets)
    obj = source.need(edit.pointer).value
    if obj.type != "object" or not edit.members:
        raise NotApplicable("not an object")
    opening, closing = obj.children[0], obj.children[-1]
    if opening.type != "{" or closing.type != "}" or closing.is_missing:
        raise NotApplicable("unclosed object")
    existing = {key for pair in pairs(obj) if (key := pair_key(pair)) is not None}
    use_snippets = snippets and bool(edit.snippet_members)
    chosen = edit.snippet_members if use_snippets else edit.members
    if any(name in existing for name, _ in chosen):
        raise NotApplicable("a member is there already")
    data = document.data
    colon = colon_style(document, obj)

    def member(name: str, value: str) -> str:
        key = json_string(name)
        return f"{snippet_escape(key) if use_snippets else key}{colon}{value}"

    texts = [member(name, value) for name, value in chosen]
    items = list(pairs(obj))
    multi_line = not same_line(document, opening.start_byte, closing.start_byte)
    eol = detect_eol(document, opening.start_byte)
    if items:
        last = items[-1]
        if not multi_line:
            comma = comma_style(document, items, colon)
            return [TextEdit(last.end_byte, last.end_byte, comma + comma.join(texts), use_snippets)]
        indent = _member_indent(source, obj, items)
        body = ("," + eol).join(indent + text for text in texts)
        content_end = line_content_end(document, last.end_byte)
        rest = data[last.end_byte : content_end]
        if not only_blanks(rest) and blank_or_line_comment(rest):  # keep `// note` on its member's line
            return [
                TextEdit(last.end_byte, last.end_byte, ","),
                TextEdit(content_end, content_end, eol + body, use_snippets),
            ]
        return [TextEdit(last.end_byte, last.end_byte, "," + eol + body, use_snippets)]
    interior = data[opening.end_byte : closing.start_byte]
    base = line_indent(document, opening.start_byte)
    if multi_line:
        inner = base + source.indent_unit
        content_end = line_content_end(document, opening.end_byte)
        at = content_end if blank_or_line_comment(data[opening.end_byte : content_end]) else opening.end_byte
        body = ("," + eol).join(inner + text for text in texts)
        return [TextEdit(at, at, eol + body, use_snippets)]
    if interior.strip() != b"":  # `{ /* c */ }`
        return [TextEdit(opening.end_byte, opening.end_byte, ", ".join(texts) + " ", use_snippets)]
    if expand_empty(document, obj):
        inner = base + source.indent_unit
        body = ("," + eol).join(inner + text for text in texts)
        return [TextEdit(opening.end_byte, closing.start_byte, eol + body + eol + base, use_snippets)]
    pad = " " if interior else ""
    comma = ", " if colon.endswith(" ") else ","
    return [TextEdit(opening.end_byte, closing.start_byte, pad + comma.join(texts) + pad, use_snippets)]
