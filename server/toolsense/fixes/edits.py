"""Quick fixes: a finding's `Fix` (data) → formatting-preserving byte edits → files rewritten or LSP edits.

One place turns every edit kind into text for both front doors, `toolsense check --fix` and the language
server's code actions, so they cannot disagree:

- `edits_for_fix(document, fix)` — the byte edits of one fix on one document (None when it cannot apply:
  the pointer is gone, the edits overlap, or the file has a syntax error outside the edit);
- `fix_document(document, check, unsafe=…)` — every chosen fix of a file, non-overlapping ones together,
  re-checked and repeated to a fixed point (bounded); used by `check --fix` and `source.fixAll.toolsense`;
- `apply_fixes_to_workspace(...)` — the CLI: write files (or print a diff) and return what remains.

Formatting is kept: a renamed key keeps its place, a removed member takes its comma and, when it sat on
lines of its own, exactly those lines (CRLF, tabs, comments elsewhere untouched); inserted members are
indented like their siblings, with the file's line ending. Every result is re-parsed and refused when it
would not be valid JSON.
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tree_sitter import Node, Point

from ..document.document import Document, new_parser
from ..document.jsontree import Location, Pointer, locate, pair_key, pairs, string_content_offsets, value_children
from ..engine.checker import Diagnostic
from ..engine.findings import (
    Fix,
    FixEdit,
    InsertMembers,
    MoveMember,
    RemoveMember,
    RenameKey,
    ReplaceInString,
    ReplaceValue,
)
from ..engine.placement import syntax_errors
from ..engine.units import Unit

__all__ = [
    "CLOSE_OBJECTS_TITLE",
    "Composed",
    "FixOutcome",
    "NotApplicable",
    "TextEdit",
    "apply_edits",
    "apply_fixes_to_workspace",
    "choose_fix",
    "close_objects_fix",
    "edits_for_fix",
    "fix_document",
    "locate_pointer",
    "open_object_schemas",
    "unified_diff",
]

MAX_PASSES = 10
"""`fix_document` re-checks and fixes again at most this many times (a fix may reveal another)."""

CLOSE_OBJECTS_TITLE = "Add additionalProperties: false to every object schema"

_SKIPPED = ("comment", "ERROR")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SNIPPET_SPECIAL = re.compile(r"([\\$}])")
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True, order=True)
class TextEdit:
    """Replace bytes [start, end) of a document with `text` (LSP snippet syntax when `snippet`)."""

    start: int
    end: int
    text: str
    snippet: bool = False

    @property
    def encoded(self) -> bytes:
        return self.text.encode("utf-8", "surrogatepass")


class NotApplicable(Exception):
    """The fix does not fit the document (any more): its pointer is gone, or it would break the JSON."""


# --- small text helpers ----------------------------------------------------------------------------------


def json_string(text: str) -> str:
    """A JSON string literal for text: non-ASCII kept as is, control characters and lone surrogates escaped."""
    encoded = json.dumps(text, ensure_ascii=False)
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", encoded)


def snippet_escape(text: str) -> str:
    """Literal text inside an LSP snippet: `\\`, `$` and `}` escaped."""
    return _SNIPPET_SPECIAL.sub(r"\\\1", text)


def _line_start(document: Document, offset: int) -> int:
    return int(document.lines.starts[document.lines.line_of(offset)])


def _line_content_end(document: Document, offset: int) -> int:
    """End of the line's content (before its terminator) for the line holding offset."""
    return document.lines.line_span(document.data, document.lines.line_of(offset))[1]


def _next_line_start(document: Document, offset: int) -> int:
    """Start of the line after the one holding offset (the end of the text on the last line)."""
    line = document.lines.line_of(offset)
    if line + 1 < document.lines.line_count:
        return int(document.lines.starts[line + 1])
    return len(document.data)


def _line_indent(document: Document, offset: int) -> str:
    start = _line_start(document, offset)
    end = start
    data = document.data
    while end < len(data) and data[end] in b" \t":
        end += 1
    return data[start:end].decode("ascii")


def _only_blanks(raw: bytes | bytearray) -> bool:
    return raw.strip(b" \t") == b""


def _blank_or_line_comment(raw: bytes | bytearray) -> bool:
    """Only spaces/tabs, possibly followed by a `//` comment (which then belongs to the member before it)."""
    rest = raw.lstrip(b" \t")
    return rest == b"" or rest.startswith(b"//")


def _same_line(document: Document, a: int, b: int) -> bool:
    return document.lines.line_of(a) == document.lines.line_of(b)


def detect_eol(document: Document, near: int | None = None) -> str:
    """The line ending of the line at `near` (else the file's first one; `\\n` for a one-line file)."""
    data = document.data
    if near is not None:
        line = document.lines.line_of(near)
        if line + 1 < document.lines.line_count:
            content_end = document.lines.line_span(data, line)[1]
            return data[content_end : int(document.lines.starts[line + 1])].decode("ascii")
    match = _LINE_BREAK.search(data, 0, min(len(data), 1 << 20))
    return match.group().decode("ascii") if match else "\n"


_INDENT_CACHE: dict[tuple[int, int], str] = {}


def detect_indent_unit(document: Document) -> str:
    """The file's indentation step: a tab, or the most common increase in leading spaces (default two)."""
    key = (document.serial, document.edit_count)
    found = _INDENT_CACHE.get(key)
    if found is None:
        if len(_INDENT_CACHE) > 64:
            _INDENT_CACHE.clear()
        found = _INDENT_CACHE[key] = _indent_unit(document)
    return found


def _indent_unit(document: Document) -> str:
    sample = bytes(document.data[: 1 << 16])
    lines = [line for line in _LINE_BREAK.split(sample) if line.strip()]
    tabs = sum(1 for line in lines if line.startswith(b"\t"))
    spaces = sum(1 for line in lines if line.startswith(b" "))
    if tabs > spaces:
        return "\t"
    steps: Counter[int] = Counter()
    previous = 0
    for line in lines:
        width = len(line) - len(line.lstrip(b" "))
        if width > previous:
            steps[width - previous] += 1
        previous = width
    if not steps:
        return "  "
    step = min(steps.most_common(1)[0][0], 8)
    return " " * step


# --- pointers --------------------------------------------------------------------------------------------


def top_values(document: Document) -> list[Node]:
    return [child for child in document.root.named_children if child.type not in _SKIPPED]


_CHILDREN_CACHE: dict[tuple[int, int, int, int], list[Node]] = {}


def _elements(document: Document, array: Node) -> list[Node]:
    """An array's elements, remembered per document state: a file of 5,000 tools is not walked per fix."""
    key = (document.serial, document.edit_count, array.start_byte, array.end_byte)
    found = _CHILDREN_CACHE.get(key)
    if found is None:
        if len(_CHILDREN_CACHE) > 256:
            _CHILDREN_CACHE.clear()
        found = _CHILDREN_CACHE[key] = list(value_children(array))
    return found


def locate_pointer(document: Document, pointer: Pointer) -> Location | None:
    """The nodes at an absolute pointer (JSON Lines files: the first part picks the line's value)."""
    values = top_values(document)
    if not values:
        return None
    node = values[0]
    if len(values) > 1:
        if not pointer or not isinstance(pointer[0], int) or not 0 <= pointer[0] < len(values):
            return None
        node, pointer = values[pointer[0]], pointer[1:]
    key: Node | None = None
    for depth, part in enumerate(pointer):
        if node.type == "array" and isinstance(part, int):
            elements = _elements(document, node) if node.child_count > 64 else list(value_children(node))
            if not 0 <= part < len(elements):
                return None
            node, key = elements[part], None
            continue
        found = locate(node, pointer[depth : depth + 1])
        if not found.complete:
            return None
        node, key = found.value, found.key
    return Location(node, key, len(pointer), True)


def _need(document: Document, pointer: Pointer) -> Location:
    found = locate_pointer(document, pointer)
    if found is None:
        raise NotApplicable(f"nothing at /{'/'.join(str(p) for p in pointer)}")
    return found


# --- one edit kind at a time -----------------------------------------------------------------------------


def edits_for(document: Document, edit: FixEdit, snippets: bool = False) -> list[TextEdit]:
    """The byte edits of one FixEdit; raises NotApplicable."""
    if isinstance(edit, ReplaceValue):
        node = _need(document, edit.pointer).value
        return [TextEdit(node.start_byte, node.end_byte, _reindent(document, node.start_byte, edit.json_text))]
    if isinstance(edit, RenameKey):
        key = _need(document, edit.pointer).key
        pair = key.parent if key is not None else None
        if key is None or key.type != "string" or pair is None or pair.parent is None:
            raise NotApplicable("not an object member")
        if any(pair_key(other) == edit.new_key and not _same(other, pair) for other in pairs(pair.parent)):
            raise NotApplicable(f"'{edit.new_key}' is there already")
        return [TextEdit(key.start_byte, key.end_byte, json_string(edit.new_key))]
    if isinstance(edit, RemoveMember):
        return _remove(document, edit.pointer)
    if isinstance(edit, InsertMembers):
        return _insert(document, edit, snippets)
    if isinstance(edit, MoveMember):
        return _move(document, edit)
    return _replace_in_string(document, edit)


def _move(document: Document, edit: MoveMember) -> list[TextEdit]:
    """Remove the member where it is and insert it, value unchanged, at the end of the target object. A
    one-line value keeps its text; a longer one is written compactly (its old indentation would not fit)."""
    if not edit.pointer or not isinstance(edit.pointer[-1], str):
        raise NotApplicable("not an object member")
    found = _need(document, edit.pointer)
    if found.key is None:
        raise NotApplicable("not an object member")
    value = found.value
    text = bytes(document.data[value.start_byte : value.end_byte]).decode("utf-8", "surrogatepass")
    if "\n" in text or "\r" in text or value.has_error:
        try:
            text = json.dumps(json.loads(text), ensure_ascii=False, separators=(", ", ": "))
        except ValueError as error:
            raise NotApplicable("the value does not parse") from error
    moved = _insert(document, InsertMembers(edit.into, ((edit.pointer[-1], text),)), False)
    return _remove(document, edit.pointer) + moved


def _reindent(document: Document, at: int, text: str) -> str:
    """A multi-line replacement value: its later lines indented like the line it starts on, file line endings."""
    if "\n" not in text and "\r" not in text:
        return text
    lines = re.split(r"\r\n|\r|\n", text)
    indent = _line_indent(document, at)
    eol = detect_eol(document, at)
    return eol.join([lines[0], *(indent + line if line else line for line in lines[1:])])


def _replace_in_string(document: Document, edit: ReplaceInString) -> list[TextEdit]:
    node = _need(document, edit.pointer).value
    if node.type != "string" or edit.start < 0 or edit.end < edit.start:
        raise NotApplicable("not a string")
    start, end = string_content_offsets(node, edit.start, edit.end)
    return [TextEdit(start, end, json_string(edit.text)[1:-1])]


def _items(container: Node) -> list[Node]:
    return list(pairs(container)) if container.type == "object" else list(value_children(container))


def _same(a: Node, b: Node) -> bool:
    return a.start_byte == b.start_byte and a.end_byte == b.end_byte and a.type == b.type


def _neighbour_comma(container: Node, item: Node, after: bool) -> Node | None:
    """The comma right after (or before) item among the container's tokens, comments skipped."""
    children = container.children
    index = next(i for i, child in enumerate(children) if _same(child, item))
    step = 1 if after else -1
    index += step
    while 0 <= index < len(children):
        child = children[index]
        if child.type != "comment":
            return child if child.type == "," else None
        index += step
    return None


def _remove(document: Document, pointer: Pointer) -> list[TextEdit]:
    if not pointer:
        raise NotApplicable("cannot remove the whole document")
    location = _need(document, pointer)
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
    trailing = _neighbour_comma(container, item, after=True)
    leading = None if trailing is not None else _neighbour_comma(container, item, after=False)
    after = trailing.end_byte if trailing is not None else item.end_byte
    line_start = _line_start(document, item.start_byte)
    content_end = _line_content_end(document, after)
    edits: list[TextEdit] = []
    if leading is not None:
        edits.append(TextEdit(leading.start_byte, leading.end_byte, ""))
    if _only_blanks(data[line_start : item.start_byte]) and _blank_or_line_comment(data[after:content_end]):
        next_start = _next_line_start(document, after)
        if next_start > content_end:  # the member's lines go, terminators included: no blank line is left
            edits.append(TextEdit(line_start, next_start, ""))
            return edits
    if trailing is not None:
        end = after
        while end < len(data) and data[end] in b" \t":
            end += 1
        start = item.start_byte
        if end >= len(data) or data[end] in b"\r\n":  # `x, a,⏎` → `x,⏎`: no trailing blanks left behind
            while start > line_start and data[start - 1] in b" \t":
                start -= 1
        edits.append(TextEdit(start, end, ""))
        return edits
    start = item.start_byte
    while start > 0 and data[start - 1] in b" \t":
        start -= 1
    edits.append(TextEdit(start, item.end_byte, ""))
    return edits


def _colon_style(document: Document, obj: Node) -> str:
    """How the file writes `key: value` (`": "` or `":"`), from the object's members or its own pair."""
    candidates = list(pairs(obj))[:3]
    if obj.parent is not None and obj.parent.type == "pair":
        candidates.append(obj.parent)
    for pair in candidates:
        key = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        if key is None or value is None:
            continue
        between = bytes(document.data[key.end_byte : value.start_byte])
        if b"\n" not in between and b"\r" not in between and b"/" not in between and between.strip() == b":":
            return between.decode("ascii")
    return ": "


def _comma_style(document: Document, items: list[Node], colon: str) -> str:
    for first, second in itertools.pairwise(items):
        between = bytes(document.data[first.end_byte : second.start_byte])
        if b"\n" not in between and b"\r" not in between and between.strip() == b",":
            return between.lstrip(b" \t").decode("ascii")
    return ", " if colon.endswith(" ") else ","


def _member_indent(document: Document, obj: Node, items: list[Node]) -> str:
    for item in reversed(items):
        start = _line_start(document, item.start_byte)
        if _only_blanks(document.data[start : item.start_byte]):
            return document.data[start : item.start_byte].decode("ascii")
    return _line_indent(document, obj.start_byte) + detect_indent_unit(document)


def _expand_empty(document: Document, obj: Node) -> bool:
    """Whether `{}` becomes a multi-line object: yes when what holds it is laid out on several lines."""
    parent = obj.parent
    holder = parent.parent if parent is not None and parent.type == "pair" else parent
    if holder is None or holder.type == "document":
        return True
    return not _same_line(document, holder.start_byte, max(holder.end_byte - 1, holder.start_byte))


def _inline_object(members: tuple[tuple[str, str], ...], snippet: bool) -> str:
    keys = [snippet_escape(json_string(k)) if snippet else json_string(k) for k, _ in members]
    return "{" + ", ".join(f"{k}: {v}" for k, (_, v) in zip(keys, members, strict=True)) + "}"


def _insert(document: Document, edit: InsertMembers, snippets: bool) -> list[TextEdit]:
    found = locate_pointer(document, edit.pointer)
    if found is None and edit.pointer and isinstance(edit.pointer[-1], str):
        # The object itself is missing (`trigger_config` absent): add it to its parent, members inline.
        use_snippets = snippets and bool(edit.snippet_members)
        outer = InsertMembers(
            edit.pointer[:-1],
            ((edit.pointer[-1], _inline_object(edit.members, False)),),
            ((edit.pointer[-1], _inline_object(edit.snippet_members, True)),) if use_snippets else (),
        )
        return _insert(document, outer, snippets)
    obj = _need(document, edit.pointer).value
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
    colon = _colon_style(document, obj)

    def member(name: str, value: str) -> str:
        key = json_string(name)
        return f"{snippet_escape(key) if use_snippets else key}{colon}{value}"

    texts = [member(name, value) for name, value in chosen]
    items = list(pairs(obj))
    multi_line = not _same_line(document, opening.start_byte, closing.start_byte)
    eol = detect_eol(document, opening.start_byte)
    if items:
        last = items[-1]
        if not multi_line:
            comma = _comma_style(document, items, colon)
            return [TextEdit(last.end_byte, last.end_byte, comma + comma.join(texts), use_snippets)]
        indent = _member_indent(document, obj, items)
        body = ("," + eol).join(indent + text for text in texts)
        content_end = _line_content_end(document, last.end_byte)
        rest = data[last.end_byte : content_end]
        if not _only_blanks(rest) and _blank_or_line_comment(rest):  # keep `// note` on its member's line
            return [
                TextEdit(last.end_byte, last.end_byte, ","),
                TextEdit(content_end, content_end, eol + body, use_snippets),
            ]
        return [TextEdit(last.end_byte, last.end_byte, "," + eol + body, use_snippets)]
    interior = data[opening.end_byte : closing.start_byte]
    base = _line_indent(document, opening.start_byte)
    if multi_line:
        inner = base + detect_indent_unit(document)
        content_end = _line_content_end(document, opening.end_byte)
        at = content_end if _blank_or_line_comment(data[opening.end_byte : content_end]) else opening.end_byte
        body = ("," + eol).join(inner + text for text in texts)
        return [TextEdit(at, at, eol + body, use_snippets)]
    if interior.strip() != b"":  # `{ /* c */ }`
        return [TextEdit(opening.end_byte, opening.end_byte, ", ".join(texts) + " ", use_snippets)]
    if _expand_empty(document, obj):
        inner = base + detect_indent_unit(document)
        body = ("," + eol).join(inner + text for text in texts)
        return [TextEdit(opening.end_byte, closing.start_byte, eol + body + eol + base, use_snippets)]
    pad = " " if interior else ""
    comma = ", " if colon.endswith(" ") else ","
    return [TextEdit(opening.end_byte, closing.start_byte, pad + comma.join(texts) + pad, use_snippets)]


# --- whole fixes -----------------------------------------------------------------------------------------


def _overlapping(edits: Sequence[TextEdit]) -> bool:
    """Edits sorted by (start, end) overlap, or two start at the same place (their order would be a guess)."""
    return any(b.start < a.end or b.start == a.start for a, b in itertools.pairwise(edits))


def _syntax_error_spans(document: Document) -> list[tuple[int, int]]:
    if not document.root.has_error:
        return []
    return [(start, end) for start, end, _ in syntax_errors(document)]


def _errors_inside(errors: Iterable[tuple[int, int]], edits: Sequence[TextEdit]) -> bool:
    return all(any(e.start <= start and end <= e.end for e in edits) for start, end in errors)


def edits_for_fix(
    document: Document, fix: Fix, snippets: bool = False, check_syntax: bool = True
) -> list[TextEdit] | None:
    """The byte edits of a fix, sorted; None when it cannot apply or would leave invalid JSON.

    A file with a syntax error outside the edit is never touched.
    """
    try:
        edits = sorted(edit for part in fix.edits for edit in edits_for(document, part, snippets))
    except NotApplicable:
        return None
    if not edits or _overlapping(edits):
        return None
    if not _errors_inside(_syntax_error_spans(document), edits):
        return None
    if check_syntax and not parses_clean_after(document, edits):
        return None
    return edits


def apply_edits(data: bytes | bytearray, edits: Iterable[TextEdit]) -> bytes:
    """The text with non-overlapping edits applied (snippet texts are applied as they are written)."""
    result = bytearray(data)
    for edit in sorted(edits, reverse=True):
        result[edit.start : edit.end] = edit.encoded
    return bytes(result)


_LONE_CR = re.compile(rb"\r(?!\n)")
_FRESH_PARSE_EDITS = 32
"""With more edits than this, the result is parsed from scratch (one pass) instead of incrementally."""


def _pointer_of(document: Document) -> Callable[[int], Point]:
    """tree-sitter's point for an offset: rows end only at `\\n`; the LSP line table agrees unless the text
    has a lone `\\r` (a line break for LSP, not for tree-sitter), then rows are counted."""
    data = document.data
    if _LONE_CR.search(data) is None:
        lines = document.lines

        def by_table(offset: int) -> Point:
            line = lines.line_of(offset)
            return Point(line, offset - int(lines.starts[line]))

        return by_table
    return lambda offset: Point(data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1))


def _end_point(start: Point, text: bytes) -> Point:
    breaks = text.count(b"\n")
    if not breaks:
        return Point(start.row, start.column + len(text))
    return Point(start.row + breaks, len(text) - (text.rfind(b"\n") + 1))


def parses_clean_after(document: Document, edits: Sequence[TextEdit]) -> bool:
    """Whether the document with these edits (snippets as plain text) parses without a syntax error.

    A few edits re-parse incrementally from the document's tree (cost: the edited region); many edits parse
    the result from scratch.
    """
    plain = [TextEdit(e.start, e.end, _plain(e)) for e in edits]
    data = apply_edits(document.data, plain)
    if len(plain) > _FRESH_PARSE_EDITS:
        return not new_parser().parse(data).root_node.has_error
    tree = document.tree.copy()
    point = _pointer_of(document)
    for edit in sorted(plain, reverse=True):
        text = edit.encoded
        start = point(edit.start)
        tree.edit(
            start_byte=edit.start,
            old_end_byte=edit.end,
            new_end_byte=edit.start + len(text),
            start_point=start,
            old_end_point=point(edit.end),
            new_end_point=_end_point(start, text),
        )
    return not new_parser().parse(data, tree).root_node.has_error


def _plain(edit: TextEdit) -> str:
    """What a snippet edit inserts once the user accepts its defaults (first choice, placeholder text)."""
    return _unsnippet(edit.text, 0, None)[0] if edit.snippet else edit.text


def _unsnippet(text: str, at: int, stop: str | None) -> tuple[str, int]:
    """Plain text of snippet syntax from `at` up to an unescaped `stop` (`}` inside a placeholder)."""
    out: list[str] = []
    while at < len(text):
        char = text[at]
        if char == "\\" and at + 1 < len(text) and text[at + 1] in "\\$}|,":
            out.append(text[at + 1])
            at += 2
        elif stop is not None and char == stop:
            return "".join(out), at + 1
        elif char == "$" and (match := re.match(r"\$(\d+)|\$\{(\d+)(?:(:)|(\|))?", text[at:])):
            at += match.end()
            if match.group(3):  # ${1:default}
                default, at = _unsnippet(text, at, "}")
                out.append(default)
            elif match.group(4):  # ${1|first,second|}
                choices: list[str] = []
                current: list[str] = []
                while at < len(text) and not text.startswith("|}", at):
                    if text[at] == "\\" and at + 1 < len(text):
                        current.append(text[at + 1])
                        at += 2
                    elif text[at] == ",":
                        choices.append("".join(current))
                        current = []
                        at += 1
                    else:
                        current.append(text[at])
                        at += 1
                choices.append("".join(current))
                out.append(choices[0])
                at += 2
            elif match.group(2) is not None:  # ${1}
                at += 1 if text[at : at + 1] == "}" else 0
        else:
            out.append(char)
            at += 1
    return "".join(out), at


def choose_fix(fixes: Sequence[Fix], unsafe: bool) -> Fix | None:
    """The fix `--fix` applies for one diagnostic: the preferred allowed one, or the only allowed one."""
    allowed = [fix for fix in fixes if fix.safe or unsafe]
    preferred = [fix for fix in allowed if fix.preferred]
    if preferred:
        return preferred[0]
    return allowed[0] if len(allowed) == 1 else None


Checker = Callable[[Document], list[Diagnostic]]
Chooser = Callable[[Diagnostic], Fix | None]


@dataclass
class FixOutcome:
    """The result of fixing one document to a fixed point."""

    data: bytes
    applied: int
    passes: int
    diagnostics: list[Diagnostic]
    changed: bool
    edits: list[TextEdit] = field(default_factory=list)
    """Non-overlapping edits of the original text that give `data` (every pass composed)."""


class _Taken:
    """Accepted edits, sorted, for O(log n) overlap checks (same rule as `_overlapping`)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.edits: list[TextEdit] = []

    def conflicts(self, edit: TextEdit) -> bool:
        index = bisect.bisect_left(self.starts, edit.start)
        if index < len(self.edits):
            after = self.edits[index]
            if after.start == edit.start or after.start < edit.end:
                return True
        if index > 0:
            before = self.edits[index - 1]
            if edit.start < before.end:
                return True
        return False

    def add(self, edit: TextEdit) -> None:
        index = bisect.bisect_left(self.starts, edit.start)
        self.starts.insert(index, edit.start)
        self.edits.insert(index, edit)


def _planned(document: Document, diagnostics: Iterable[Diagnostic], choose: Chooser) -> list[list[TextEdit]]:
    """Non-overlapping edit groups (one per fix) for the chosen fixes, in document order."""
    taken = _Taken()
    groups: list[list[TextEdit]] = []
    seen: set[tuple[TextEdit, ...]] = set()
    claimed: set[tuple[Pointer, str]] = set()
    chosen = [fix for diagnostic in diagnostics if (fix := choose(diagnostic)) is not None]
    # Fixes that keep the user's text (a rename, a replacement) go before those inserting placeholders: with
    # `"titel": "Sleep"` and `title` missing, the rename wins and the insertion is not needed any more.
    chosen.sort(key=lambda fix: any(isinstance(edit, InsertMembers) for edit in fix.edits))
    for fix in chosen:
        edits = edits_for_fix(document, fix, check_syntax=False)
        if edits is None or tuple(edits) in seen:
            continue
        claims = _claims(fix)
        if claims & claimed or any(taken.conflicts(edit) for edit in edits):
            continue  # e.g. two fixes that would both create the key "title": the next pass decides
        seen.add(tuple(edits))
        claimed |= claims
        for edit in edits:
            taken.add(edit)
        groups.append(edits)
    return groups


def _claims(fix: Fix) -> set[tuple[Pointer, str]]:
    """The (object, key) pairs a fix creates: two fixes of one pass must not create the same key."""
    claims: set[tuple[Pointer, str]] = set()
    for edit in fix.edits:
        if isinstance(edit, RenameKey) and edit.pointer:
            claims.add((edit.pointer[:-1], edit.new_key))
        elif isinstance(edit, InsertMembers):
            claims.update((edit.pointer, name) for name, _ in edit.members)
        elif isinstance(edit, MoveMember) and edit.pointer:
            claims.add((edit.into, str(edit.pointer[-1])))
    return claims


def _valid_groups(document: Document, groups: list[list[TextEdit]]) -> list[list[TextEdit]]:
    """The groups whose combined result parses; one by one when the whole batch does not."""
    if parses_clean_after(document, [edit for group in groups for edit in group]):
        return groups
    kept: list[list[TextEdit]] = []
    for group in groups:
        candidate = [edit for g in [*kept, group] for edit in g]
        if parses_clean_after(document, candidate):
            kept.append(group)
    return kept


def fix_document(
    document: Document,
    check: Checker,
    unsafe: bool = False,
    diagnostics: list[Diagnostic] | None = None,
    choose: Chooser | None = None,
    max_passes: int = MAX_PASSES,
) -> FixOutcome:
    """Apply the chosen fixes of every diagnostic, re-check, repeat until nothing changes (at most max_passes).

    Overlapping fixes wait for the next pass; a pass that would produce invalid JSON keeps only the fixes
    that do not; a text seen before stops the loop (fixes that undo each other).
    """
    chooser: Chooser = choose or (lambda d: choose_fix(d.finding.fixes, unsafe) if d.finding else None)
    current = document
    remaining = diagnostics if diagnostics is not None else check(document)
    seen = {bytes(document.data)}
    composed = Composed()
    applied = passes = 0
    while passes < max_passes:
        groups = _valid_groups(current, _planned(current, remaining, chooser))
        if not groups:
            break
        edits = sorted(edit for group in groups for edit in group)
        data = apply_edits(current.data, edits)
        if data in seen:
            break
        seen.add(data)
        composed.add(edits)
        passes += 1
        applied += len(groups)
        current = Document(current.uri, bytearray(data), current.version, current.encoding)
        remaining = check(current)
    changed = current is not document
    edits = composed.edits(current.data) if changed else []
    return FixOutcome(bytes(current.data), applied, passes, remaining, changed, edits)


@dataclass
class _Region:
    """A changed region: bytes [old_start, old_end) of the original are [start, end) of the current text."""

    old_start: int
    old_end: int
    start: int
    end: int


class Composed:
    """Edits of successive passes composed into edits of the original text (no diff of the two texts, which
    is quadratic on the repetitive lines of a large tool file)."""

    def __init__(self) -> None:
        self.regions: list[_Region] = []

    def add(self, edits: Sequence[TextEdit]) -> None:
        """Record one pass's edits (sorted, non-overlapping, in the coordinates of the current text)."""
        items: list[tuple[int, int, _Region | TextEdit]] = [(r.start, r.end, r) for r in self.regions]
        items += [(e.start, e.end, e) for e in edits]
        items.sort(key=lambda item: (item[0], item[1]))
        merged: list[_Region] = []
        shift = 0  # current − original length of the regions passed so far (before this pass)
        growth = 0  # new − current length of this pass's edits passed so far
        index = 0
        while index < len(items):
            start, end, _ = items[index]
            group = [items[index]]
            index += 1
            while index < len(items) and items[index][0] <= end:
                end = max(end, items[index][1])
                group.append(items[index])
                index += 1
            region_shift = sum(
                (r.end - r.start) - (r.old_end - r.old_start) for _, _, r in group if isinstance(r, _Region)
            )
            edit_growth = sum(len(e.encoded) - (e.end - e.start) for _, _, e in group if isinstance(e, TextEdit))
            old_start = start - shift
            old_end = end - shift - region_shift
            merged.append(_Region(old_start, old_end, start + growth, end + growth + edit_growth))
            shift += region_shift
            growth += edit_growth
        self.regions = merged

    def edits(self, current: bytes | bytearray) -> list[TextEdit]:
        """The original text's edits: each changed region replaced by its current text."""
        return [
            TextEdit(r.old_start, r.old_end, bytes(current[r.start : r.end]).decode("utf-8", "surrogatepass"))
            for r in self.regions
        ]


def _split_keep(data: bytes) -> list[bytes]:
    lines: list[bytes] = []
    position = 0
    for match in _LINE_BREAK.finditer(data):
        lines.append(data[position : match.end()])
        position = match.end()
    if position < len(data):
        lines.append(data[position:])
    return lines


# --- the "close every object schema" source action -------------------------------------------------------

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_SINGLE = ("additionalProperties", "items", "not", "if", "then", "else", "contains")
_MAX_SCHEMA_DEPTH = 64


def open_object_schemas(
    schema: Any, pointer: Pointer = (), depth: int = 0, in_all_of: bool = False
) -> Iterator[Pointer]:
    """Pointers (relative to schema) of object schemas without `additionalProperties`.

    Skipped: `allOf` branches and schemas that use `allOf`, `anyOf`, `oneOf` or `$ref` (closing them would
    reject the properties the branches define), `anyOf`/`oneOf` branches of an object that lists properties of
    its own (a branch is checked against the whole object), free-form objects that list no `properties` (closing
    one would allow only `{}`: whether it should is the author's choice), and booleans.
    """
    if not isinstance(schema, dict) or depth > _MAX_SCHEMA_DEPTH:
        return
    kind = schema.get("type")
    is_object = kind == "object" or (isinstance(kind, list) and "object" in kind)
    is_object = is_object or (kind is None and isinstance(schema.get("properties"), dict))
    closed = "additionalProperties" in schema or "unevaluatedProperties" in schema
    listed = isinstance(schema.get("properties"), dict) or isinstance(schema.get("patternProperties"), dict)
    composed = any(keyword in schema for keyword in ("allOf", "anyOf", "oneOf", "$ref"))
    if is_object and listed and not closed and not in_all_of and not composed:
        yield pointer
    for keyword in _SCHEMA_MAPS:
        children = schema.get(keyword)
        if isinstance(children, dict):
            for name, child in children.items():
                yield from open_object_schemas(child, (*pointer, keyword, name), depth + 1)
    for keyword in _SCHEMA_LISTS:
        branches = schema.get(keyword)
        if isinstance(branches, list):
            for index, child in enumerate(branches):
                beside = keyword == "allOf" or (keyword in ("anyOf", "oneOf") and listed)
                yield from open_object_schemas(child, (*pointer, keyword, index), depth + 1, beside)
    for keyword in _SCHEMA_SINGLE:
        child = schema.get(keyword)
        if isinstance(child, dict):
            yield from open_object_schemas(child, (*pointer, keyword), depth + 1)
        elif keyword == "items" and isinstance(child, list):
            for index, item in enumerate(child):
                yield from open_object_schemas(item, (*pointer, keyword, index), depth + 1)


def close_objects_fix(document: Document, kind_hint: Any = None, units: Sequence[Unit] | None = None) -> Fix | None:
    """One fix adding `"additionalProperties": false` to every open object schema of every tool in the file.

    `units`: the file's units when a check has just read them (the language server's last report).
    """
    from ..engine.units import read_unit, split, with_dialects
    from ..models.definitions import SCHEMA_KEY

    if units is None:
        file_split = split(document, kind_hint)
        if file_split.kind != "tool":
            return None
        units = with_dialects([read_unit(document, span) for span in file_split.spans])
    edits: list[FixEdit] = []
    for unit in units:
        if unit.kind != "tool":
            continue
        if unit.dialect not in SCHEMA_KEY or unit.dialect == "gemini" or not isinstance(unit.value, dict):
            continue  # Gemini's schema subset has no additionalProperties
        keys = [SCHEMA_KEY[unit.dialect]] + ([("outputSchema",)] if unit.dialect == "mcp" else [])
        for key in keys:
            schema: Any = unit.value
            for part in key:
                schema = schema.get(part) if isinstance(schema, dict) else None
            for relative in open_object_schemas(schema):
                edits.append(InsertMembers((*unit.pointer, *key, *relative), (("additionalProperties", "false"),)))
    if not edits:
        return None
    return Fix(CLOSE_OBJECTS_TITLE, tuple(edits), safe=True)


# --- the CLI: `toolsense check --fix / --diff / --unsafe-fixes` ------------------------------------------

_BOM = b"\xef\xbb\xbf"


def unified_diff(old: bytes, new: bytes, name: str, edits: Sequence[TextEdit] | None = None) -> str:
    """A unified diff (`--- a/name`, `+++ b/name`) that marks a missing final newline like git does.

    With the edits that turn old into new, only the lines around them are compared (fast on large files).
    """
    old_lines = [line.decode("utf-8", "surrogateescape") for line in _split_keep(old)]
    new_lines = [line.decode("utf-8", "surrogateescape") for line in _split_keep(new)]
    windows = [(0, len(old_lines), 0, len(new_lines))] if edits is None else _windows(old, new, edits)
    out = [f"--- a/{name}\n", f"+++ b/{name}\n"] if windows else []
    changed = False
    for a1, a2, b1, b2 in windows:
        hunk = difflib.unified_diff(old_lines[a1:a2], new_lines[b1:b2], lineterm="\n")
        for line in itertools.islice(hunk, 2, None):
            changed = True
            if line.startswith("@@"):
                match = re.match(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@", line)
                assert match is not None
                old_at = int(match.group(1)) + a1  # the window's line 1 is line a1 + 1
                new_at = int(match.group(3)) + b1
                line = f"@@ -{old_at}{match.group(2) or ''} +{new_at}{match.group(4) or ''} @@\n"
            out.append(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n")
    return "".join(out) if changed else ""


def _windows(old: bytes, new: bytes, edits: Sequence[TextEdit]) -> list[tuple[int, int, int, int]]:
    """Line windows (old a1..a2, new b1..b2) around groups of edits, with room for three lines of context."""
    old_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(old)]
    new_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(new)]
    old_count = len(_split_keep(old))
    new_count = len(_split_keep(new))

    def line_of(offset: int) -> int:
        return bisect.bisect_right(old_starts, offset) - 1

    def offset_of(line: int) -> int:
        return old_starts[line] if line < len(old_starts) else len(old)

    groups: list[list[int]] = []  # [a1, a2, byte delta before the group, byte delta of the group]
    delta = 0
    for edit in sorted(edits):
        first, last = line_of(edit.start), line_of(max(edit.end - 1, edit.start)) + 1
        grown = len(edit.encoded) - (edit.end - edit.start)
        a1, a2 = max(first - 4, 0), min(last + 4, old_count)
        if groups and a1 <= groups[-1][1]:
            groups[-1][1] = max(groups[-1][1], a2)
            groups[-1][3] += grown
        else:
            groups.append([a1, a2, delta, grown])
        delta += grown
    windows: list[tuple[int, int, int, int]] = []
    for a1, a2, before, grown in groups:
        start = offset_of(a1) + before
        end = offset_of(a2) + before + grown
        b1 = bisect.bisect_right(new_starts, start) - 1
        b2 = len(new_starts) if end >= len(new) else bisect.bisect_right(new_starts, end) - 1
        windows.append((a1, a2, b1, min(b2, new_count)))
    return windows


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def apply_fixes_to_workspace(
    workspace: Any, results: dict[Path, list[Diagnostic]], diff_only: bool, unsafe: bool, out: TextIO, err: TextIO
) -> dict[Path, list[Diagnostic]]:
    """Fix every checked file (tool files first: fixing a tool may change what automations are checked
    against), write it back (or print a diff) and return the diagnostics that remain."""
    from ..engine.checker import UnitCache, check_document
    from ..engine.workspace import LoadedFile, document_tools

    fixed_files = applied = 0
    order = sorted(results, key=lambda p: (workspace.kinds.get(p) != "tool", str(p)))
    for path in order:
        loaded = workspace.files.get(path)
        diagnostics = results[path]
        if loaded is None or loaded.document is None:
            continue
        if not any(choose_fix(d.finding.fixes, unsafe) for d in diagnostics if d.finding is not None):
            continue
        kind = workspace.kinds.get(path)
        context = workspace.context(loaded.uri)
        cache = UnitCache()  # across passes: units a pass did not touch are not checked again

        def check(
            document: Document, context: Any = context, kind: Any = kind, cache: UnitCache = cache
        ) -> list[Diagnostic]:
            return check_document(document, context, kind, cache).diagnostics

        outcome = fix_document(loaded.document, check, unsafe, diagnostics)
        if not outcome.changed:
            continue
        try:
            raw = path.read_bytes()
        except OSError as error:
            err.write(f"toolsense: cannot read {path}: {error.strerror}\n")
            continue
        bom = _BOM if raw.startswith(_BOM) else b""
        if raw != bom + bytes(loaded.document.data):
            err.write(f"toolsense: {path} changed while it was being checked; not fixed\n")
            continue
        new = bom + outcome.data
        if diff_only:
            shift = len(bom)
            moved = [TextEdit(e.start + shift, e.end + shift, e.text) for e in outcome.edits]
            out.write(unified_diff(raw, new, _display(path), moved))
        else:
            try:
                path.write_bytes(new)
            except OSError as error:
                err.write(f"toolsense: cannot write {path}: {error.strerror}\n")
                continue
        fixed_files += 1
        applied += outcome.applied
        document = Document(loaded.uri, bytearray(outcome.data))
        workspace.files[path] = LoadedFile(path, loaded.uri, document)
        workspace.registry.set_file(loaded.uri, document_tools(document, kind))
    remaining: dict[Path, list[Diagnostic]] = workspace.check_all() if fixed_files else results
    problems = "problem" if applied == 1 else "problems"
    files = "file" if fixed_files == 1 else "files"
    verb = "Would fix" if diff_only else "Fixed"
    err.write(f"{verb} {applied} {problems} in {fixed_files} {files}.\n" if applied else "No fixes applied.\n")
    if not unsafe:
        hidden = sum(
            1
            for diagnostics in remaining.values()
            for d in diagnostics
            if d.finding is not None and choose_fix(d.finding.fixes, True) is not None
        )
        if hidden:
            err.write(f"{hidden} more fix{'es' if hidden != 1 else ''} available with --unsafe-fixes.\n")
    return remaining
