"""Byte edits as text: the `TextEdit` type, JSON and snippet literals, applying edits, and whether the result
still parses (snippets read as the text they insert once accepted)."""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tree_sitter import Point

from ..document.document import Document, new_parser
from ..document.exponents import parse_json
from ..document.outline import LightNode

_SURROGATE = re.compile("[\ud800-\udfff]")
_SNIPPET_SPECIAL = re.compile(r"([\\$}])")


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


def json_string(text: str) -> str:
    """A JSON string literal for text: non-ASCII kept as is, control characters and lone surrogates escaped."""
    encoded = json.dumps(text, ensure_ascii=False)
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", encoded)


def snippet_escape(text: str) -> str:
    """Literal text inside an LSP snippet: `\\`, `$` and `}` escaped."""
    return _SNIPPET_SPECIAL.sub(r"\\\1", text)


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
    the result from scratch. A document read from its outline (large, clean, never parsed whole) parses only
    the outlined value the edits lie inside.
    """
    plain = [TextEdit(e.start, e.end, _plain(e)) for e in edits]
    top = document.outline
    if isinstance(top, LightNode) and not top.has_error:
        if not plain:
            return True
        inside = _value_around(top, min(e.start for e in plain), max(e.end for e in plain))
        if inside is not None and (clean := _one_clean_value(document, inside, plain)) is not None:
            return clean
    data = apply_edits(document.data, plain)
    if isinstance(top, LightNode):
        return not parse_json(new_parser(), data).root_node.has_error  # no tree to re-parse from; none is kept
    if len(plain) > _FRESH_PARSE_EDITS:
        return not parse_json(new_parser(), data).root_node.has_error
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
    return not parse_json(new_parser(), data, tree).root_node.has_error


_LOCAL_PARSE_SIZE = 1 << 16
"""The outline is descended (its values scanned) only until the value around the edits is this small."""


def _value_around(top: LightNode, start: int, end: int) -> LightNode | None:
    """The smallest outlined object or array whose brackets hold [start, end) strictly inside, descending no
    further than needed (None: only the document holds it, or a value there was read by tree-sitter)."""
    node, found = top, None
    while found is None or found.end_byte - found.start_byte > _LOCAL_PARSE_SIZE:
        named = node.named_children
        at = bisect.bisect_right(named, start, key=lambda child: child.start_byte) - 1
        child = named[at] if at >= 0 else None
        if not isinstance(child, LightNode) or end > child.end_byte:
            break
        if child.type in ("object", "array"):
            if not child.start_byte < start or not end < child.end_byte:
                break
            found = child
        elif child.type != "pair":
            break
        node = child
    return found


def _one_clean_value(document: Document, value: LightNode, plain: Sequence[TextEdit]) -> bool | None:
    """Whether value's text with the edits is one value without a syntax error, alone — then so is the whole
    document, whose rest is unchanged strict JSON; None when the edited text is not one value there (a value
    split in two, say): the whole text decides."""
    start = value.start_byte
    shifted = [TextEdit(e.start - start, e.end - start, e.text) for e in plain]
    text = apply_edits(document.data[start : value.end_byte], shifted)
    root = parse_json(new_parser(), text).root_node
    values = [child for child in root.named_children if child.type != "comment"]
    if len(values) != 1 or values[0].start_byte != 0 or values[0].end_byte != len(text):
        return None
    return not root.has_error


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
