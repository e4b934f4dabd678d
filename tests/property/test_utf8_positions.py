"""UTF-8 positions inside a multi-byte character (a client's mistake) never split it: the position moves to the
end of the character, as a UTF-16 position inside a surrogate pair does, so the server's text stays the text the
client computes and stays valid UTF-8."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from propkit import EXAMPLES

from toolsense.document.document import Document
from toolsense.document.lines import Position, Range

PIECES = ["a", "é", "東", "😀", " ", "\n", "\r\n", "\r", '"', "\u2028"]


def _reference(text: str, line: int, character: int) -> int:
    """The str index of a UTF-8 position: characters are consumed while fewer bytes than asked are counted."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    if line >= len(starts):
        return len(text)
    index, units = starts[line], 0
    while index < len(text) and text[index] not in "\r\n" and units < character:
        units += len(text[index].encode("utf-8"))
        index += 1
    return index


@settings(max_examples=EXAMPLES or 300, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=30).map("".join),
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 14), st.integers(0, 3), st.sampled_from(["", "x", "é"]))),
)
def test_utf8_positions_inside_a_character_never_split_it(text: str, edits: list[tuple[int, int, int, str]]) -> None:
    document = Document.from_text("file:///w/x.json", text, encoding="utf-8")
    for line, character, length, insert in edits:
        start = _reference(text, line, character)
        end = max(_reference(text, line, character + length), start)
        document.apply_change(insert, Range(Position(line, character), Position(line, character + length)))
        text = text[:start] + insert + text[end:]
        assert bytes(document.data).decode("utf-8") == text


def test_an_insertion_inside_e_acute_lands_after_it() -> None:
    document = Document.from_text("file:///w/x.json", '{"name": "gét"}', encoding="utf-8")
    document.apply_change("x", Range(Position(0, 12), Position(0, 12)))  # byte 12 is the middle of é
    assert document.text == '{"name": "géxt"}'
