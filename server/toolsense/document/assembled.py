"""A JSON value assembled from pieces of the file (a streamed tool call whose `arguments` come in fragments, one
per chunk), read as a tree whose positions are the file's.

The assembled text is the concatenation of its pieces: *verbatim* pieces are bytes of the file copied as they are
(a fragment string's content, escapes included, so the concatenation is the same JSON string the client would
build), and *anchored* pieces are text of our own (the `{"function": {"name": ` around them) that stands for one
span of the file. An `EmbeddedNode` over the assembled tree answers with the file's offsets, so the engine reads,
checks and places findings in it as in the file itself.

Where a finding lands: its start is the file byte its first character came from; its end is clipped to the piece
its start is in. So a finding on an assembled argument lands on the chunk that carries its first character (only
that chunk's part of it), and a finding on the call's members as a whole (a missing member, the `function` object)
lands on the span the anchored text stands for: the call's first chunk. The assembled value itself spans from its
first piece to its last, so the engine sees an edit to any fragment as an edit to the unit.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Node

from .document import new_parser
from .embedded import EmbeddedNode


@dataclass(frozen=True)
class Piece:
    """Bytes of the assembled text: copied from the file at `start` (verbatim), or our own standing for the file's
    span [start, end) (anchored)."""

    text: bytes
    start: int
    end: int
    verbatim: bool


def verbatim(token: Node, start: int = 0, end: int | None = None) -> Piece:
    """Bytes [start, end) of a token of the file, copied as they are."""
    text = token.text or b""
    end = len(text) if end is None else end
    return Piece(text[start:end], token.start_byte + start, token.start_byte + end, True)


def anchored(text: str, start: int, end: int) -> Piece:
    return Piece(text.encode("utf-8"), start, end, False)


def string_pieces(tokens: Sequence[Node], anchor: tuple[int, int]) -> list[Piece]:
    """One JSON string from the string tokens of its fragments: the first's opening quote and content, the others'
    content, the last's closing quote (`""` standing for `anchor` when there is no fragment)."""
    if not tokens:
        return [anchored('""', *anchor)]
    if len(tokens) == 1:
        return [verbatim(tokens[0])]
    first, *middle, last = tokens
    return [
        verbatim(first, 0, len(first.text or b"") - 1),
        *(verbatim(token, 1, len(token.text or b"") - 1) for token in middle),
        verbatim(last, 1),
    ]


class Assembly:
    """The assembled text and the map from its byte offsets to the file's (a `document.embedded.TextMap`)."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = tuple(pieces)
        starts, at = [], 0
        for piece in self.pieces:
            starts.append(at)
            at += len(piece.text)
        self._starts = starts
        self.text = b"".join(piece.text for piece in self.pieces)
        self.tree = new_parser().parse(self.text)

    def _piece(self, offset: int, end: bool) -> int:
        """The piece an offset is in: the one it starts (a start) or the one it ends (an end)."""
        index = bisect.bisect_left(self._starts, offset) - 1 if end else bisect.bisect_right(self._starts, offset) - 1
        return min(max(index, 0), len(self.pieces) - 1)

    def outer(self, offset: int, end: bool = False) -> int:
        index = self._piece(offset, end)
        piece = self.pieces[index]
        if not piece.verbatim:
            return piece.end if end else piece.start
        return piece.start + min(offset - self._starts[index], piece.end - piece.start)

    def outer_end(self, start: int, end: int) -> int:
        """The end of [start, end), clipped to the piece the start is in; the whole text (the assembled value, the
        unit) ends where its last piece does, so an edit to any of its fragments is an edit to the unit."""
        if start == 0 and end >= len(self.text):
            return max(piece.end for piece in self.pieces)
        index = self._piece(start, False)
        if self._piece(end, True) != index:
            return self.pieces[index].end
        return self.outer(end, end=True)

    @property
    def root(self) -> EmbeddedNode:
        """The `document` node of the assembled text."""
        return EmbeddedNode(self.tree.root_node, self)
