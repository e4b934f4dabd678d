"""Every tree-sitter parse of JSON text, with the exponent signs the grammar misreads read as numbers.

tree-sitter-json 0.24.8 (the release on PyPI) allows `e-5` but not `e+5` in a number, so `1e+16` (what Python's
`json.dumps(1e16)` writes, and RFC 8259 allows) parses as an ERROR holding `1` and `e`, then the number `+16`.
The fix upstream is not released. So a parse that has errors is looked at where the text has a digit, `e` or
`E`, `+` and a digit: where tree-sitter put that `e` in an ERROR (not in a string or a comment, which it reads
right), the `+` is read as `0`, which the grammar accepts and which gives the same number (`1e016` is `1e+16`)
in the same bytes, so every node keeps its place. Only those bytes change, and only in what tree-sitter reads:
the document's text is untouched (a number node's own text may read `1e016`: the same value).
"""

from __future__ import annotations

import re

from tree_sitter import Parser, Point, Range, Tree

_SIGNED_EXPONENT = re.compile(rb"(?<=[0-9][eE])\+(?=[0-9])")


def _misread_signs(tree: Tree, data: bytes, base: int) -> list[int]:
    """Offsets (in data) of the exponent signs tree-sitter put in an ERROR: not those inside strings and
    comments, which look the same."""
    if not tree.root_node.has_error:
        return []
    root = tree.root_node
    found = []
    for match in _SIGNED_EXPONENT.finditer(data):
        at = match.start()
        node = root.descendant_for_byte_range(base + at - 1, base + at)
        if node is not None and (node.type == "ERROR" or node.is_error):
            found.append(at)
    return found


def _signs_read(data: bytes, offsets: list[int]) -> bytes:
    read = bytearray(data)
    for at in offsets:
        read[at] = 0x30  # "0": `e016` is what `e+16` is, and the grammar reads it
    return bytes(read)


def parse_json(parser: Parser, data: bytes, old_tree: Tree | None = None) -> Tree:
    """`parser.parse(data, old_tree)`, with exponent signs read as numbers (a fresh parse when one was not)."""
    tree = parser.parse(data, old_tree) if old_tree is not None else parser.parse(data)
    offsets = _misread_signs(tree, data, 0)
    return parser.parse(_signs_read(data, offsets)) if offsets else tree


def parse_json_at(parser: Parser, chunk: bytes, start: int) -> Tree:
    """The tree of chunk alone, read as standing at byte offset start of its document (every node's offsets are
    the document's), with exponent signs read as numbers."""
    end = start + len(chunk)
    parser.included_ranges = [Range(Point(0, start), Point(0, end), start, end)]

    def parse(text: bytes) -> Tree:
        return parser.parse(lambda offset, _point: text[offset - start :] if start <= offset < end else b"")

    tree = parse(chunk)
    offsets = _misread_signs(tree, chunk, start)
    return parse(_signs_read(chunk, offsets)) if offsets else tree
