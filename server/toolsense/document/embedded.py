"""A JSON document inside a JSON string of the file (`"tools": "[{\\"name\\": …}]"`, as fine-tuning datasets keep
tools), read as a tree whose positions are the file's.

The string's decoded text is parsed by tree-sitter on its own; `EmbeddedNode` wraps each node of that tree and
answers the read-only questions the engine asks of a node (type, spans, children, fields, text) with byte spans
mapped back through the string's escapes to the file's offsets. So the engine claims, reads, checks and places
findings in an embedded document exactly as in the file itself, and every range (UTF-16 columns included) is
that of the characters in the file. `text` is the embedded document's own JSON (decoded), as a value's text is.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Protocol

from tree_sitter import Node, Parser

from .document import new_parser
from .jsontree import string_content_offsets, string_value

MAX_EMBEDDED_BYTES = 1 << 20
"""Largest JSON string read as an embedded document (1 MiB): real tool lists in a dataset line are a few KB; a
50 MB string is left alone (bounded work and memory whatever the line holds)."""

_ESCAPE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u([0-9a-fA-F]{4})|\\[\s\S]")


class TextMap(Protocol):
    """A JSON text of its own whose byte offsets map to the file's: a string's decoded text (`Embedding`), or a
    streamed tool call assembled from its fragments (`document.assembled`)."""

    text: bytes

    def outer(self, offset: int, end: bool = False) -> int: ...

    def outer_end(self, start: int, end: int) -> int:
        """The file's offset of the end of the text's span [start, end)."""
        ...


class Embedding:
    """The decoded text of a string token of the file and the map from its byte offsets to the file's."""

    def __init__(self, token: bytes, token_start: int, decoded: str, new_parser: Callable[[], Parser]) -> None:
        """token: the string's bytes in the file (quotes included), starting at token_start; decoded: its value."""
        self.text = decoded.encode("utf-8", "surrogatepass")
        self._base = token_start
        body_end = len(token) - 1 if len(token) >= 2 and token.endswith(b'"') else len(token)
        # Every escape, in text order (a few hundred per tool list: built in list comprehensions, not a loop):
        # where it starts in the token, how many bytes it takes there and in the decoded text, and how many bytes
        # shorter the decoded text is than the token once past it.
        # Kept as machine integers: a dataset's thousands of embedded documents hold them all at once.
        matches = list(_ESCAPE.finditer(token, 1, body_end))
        starts = [match.start() for match in matches]
        lengths = [match.end() - match.start() for match in matches]
        widths = [1 if length == 2 else _decoded_width(m) for m, length in zip(matches, lengths, strict=True)]
        shrink = list(accumulate(length - width for length, width in zip(lengths, widths, strict=True)))
        self._starts, self._lengths, self._widths = array("q", starts), array("b", lengths), array("b", widths)
        self._shrink = array("q", shrink)
        before = [0, *shrink[:-1]] if shrink else []  # the shrink before each escape
        self._inner = array("q", [start - 1 - shorter for start, shorter in zip(starts, before, strict=True)])
        """Where each escape's character starts in the decoded text."""
        self.tree = new_parser().parse(self.text)

    def outer(self, offset: int, end: bool = False) -> int:
        """The file's byte offset of a byte offset of the decoded text (an end inside an escape's character: the
        escape's end; a start: its start)."""
        index = bisect.bisect_right(self._inner, offset) - 1
        if index < 0:
            return self._base + 1 + offset  # before the first escape: byte for byte after the opening quote
        start = self._inner[index]
        if offset == start or offset < start + self._widths[index]:
            inside = end and offset > start
            return self._base + self._starts[index] + (self._lengths[index] if inside else 0)
        return self._base + 1 + offset + self._shrink[index]

    def outer_end(self, start: int, end: int) -> int:
        return self.outer(end, end=True)

    @property
    def root(self) -> EmbeddedNode:
        """The `document` node of the embedded text."""
        return EmbeddedNode(self.tree.root_node, self)


def _decoded_width(match: re.Match[bytes]) -> int:
    """How many bytes of the decoded text (UTF-8, lone surrogates kept) one escape stands for."""
    if match.end() - match.start() == 12:
        return 4  # a surrogate pair: one character outside the Basic Multilingual Plane
    single = match.group(1)
    return 1 if single is None else len(chr(int(single, 16)).encode("utf-8", "surrogatepass"))


class EmbeddedNode:
    """A node of an embedded document, at the file's offsets (see the module docstring)."""

    __slots__ = ("embedding", "inner")
    is_named = True

    def __init__(self, inner: Node, embedding: TextMap) -> None:
        self.inner = inner
        self.embedding = embedding

    def _wrap(self, node: Node | None) -> EmbeddedNode | None:
        return EmbeddedNode(node, self.embedding) if node is not None else None

    @property
    def type(self) -> str:
        return self.inner.type

    @property
    def id(self) -> int:
        return self.inner.id

    @property
    def start_byte(self) -> int:
        return self.embedding.outer(self.inner.start_byte)

    @property
    def end_byte(self) -> int:
        return self.embedding.outer_end(self.inner.start_byte, self.inner.end_byte)

    @property
    def text(self) -> bytes:
        return self.embedding.text[self.inner.start_byte : self.inner.end_byte]

    @property
    def has_error(self) -> bool:
        return self.inner.has_error

    @property
    def is_error(self) -> bool:
        return self.inner.is_error

    @property
    def is_missing(self) -> bool:
        return self.inner.is_missing

    @property
    def named_children(self) -> list[EmbeddedNode]:
        return [EmbeddedNode(child, self.embedding) for child in self.inner.named_children]

    @property
    def children(self) -> list[EmbeddedNode]:
        return [EmbeddedNode(child, self.embedding) for child in self.inner.children]

    @property
    def named_child_count(self) -> int:
        return self.inner.named_child_count

    @property
    def child_count(self) -> int:
        return self.inner.child_count

    def child(self, index: int) -> EmbeddedNode | None:
        return self._wrap(self.inner.child(index))

    def child_by_field_name(self, name: str) -> EmbeddedNode | None:
        return self._wrap(self.inner.child_by_field_name(name))

    @property
    def parent(self) -> EmbeddedNode | None:
        return self._wrap(self.inner.parent)

    @property
    def next_sibling(self) -> EmbeddedNode | None:
        return self._wrap(self.inner.next_sibling)

    @property
    def prev_sibling(self) -> EmbeddedNode | None:
        return self._wrap(self.inner.prev_sibling)

    def file_offset(self, offset: int) -> int:
        """The file's byte offset of a byte offset in this node's own text."""
        return self.embedding.outer(self.inner.start_byte + offset)

    def content_offsets(self, start: int, end: int) -> tuple[int, int]:
        """The file's byte span of decoded characters [start, end) of this string node."""
        first, last = string_content_offsets(self.inner, start, end)
        return self.embedding.outer(first), self.embedding.outer_end(first, last)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EmbeddedNode) and other.inner == self.inner

    def __hash__(self) -> int:
        return hash(self.inner.id)

    def __repr__(self) -> str:
        return f"<EmbeddedNode {self.type} {self.start_byte}..{self.end_byte}>"

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"an embedded node does not answer {name!r}")


def embedded_document(string: Node) -> Node | None:
    """The `document` node of the JSON text a string node of the file holds (typed as a node: it answers as one),
    or None when the string is too large to read as one (`MAX_EMBEDDED_BYTES`) or is no string."""
    if isinstance(string, EmbeddedNode):
        return None  # a string inside an embedded document: its offsets are not the file's bytes
    if string.type != "string" or string.end_byte - string.start_byte > MAX_EMBEDDED_BYTES:
        return None
    decoded = string_value(string)
    token = string.text
    if decoded is None or token is None:
        return None
    root: Any = Embedding(token, string.start_byte, decoded, new_parser).root
    return root  # type: ignore[no-any-return]
