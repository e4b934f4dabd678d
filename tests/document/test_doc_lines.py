"""The LSP line table: line breaks, conversions between byte offsets and positions in every encoding."""

from __future__ import annotations

import pytest
from positions import lsp_position

from toolsense.document.document import Document
from toolsense.document.lines import LineTable, Position, Range


def starts(text: str) -> list[int]:
    return [int(s) for s in LineTable(text.encode("utf-8")).starts]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", [0]),
        ("a", [0]),
        ("a\nb", [0, 2]),
        ("a\r\nb", [0, 3]),
        ("a\rb", [0, 2]),
        ("a\n", [0, 2]),
        ("\r\n\r\n", [0, 2, 4]),
        ("\n\r", [0, 1, 2]),  # \n then a lone \r: two breaks
        ("\r\r\n", [0, 1, 3]),
        ("a\r", [0, 2]),
    ],
)
def test_lines_end_only_at_lf_crlf_and_cr(text: str, expected: list[int]) -> None:
    assert starts(text) == expected


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\f", "\x85", "\v", "\x1c", "\x1d", "\x1e"])
def test_characters_that_str_splitlines_breaks_on_are_not_line_breaks(separator: str) -> None:
    text = f'{{"a": "x{separator}y"}}'
    assert len(text.splitlines()) == 2  # what Python's splitlines (and pygls) would do
    table = LineTable(text.encode())
    assert table.line_count == 1
    offset = len(text.encode()) - 1  # the closing brace
    assert table.position_at(text.encode(), offset, "utf-16") == Position(0, len(text) - 1)


def test_line_span_excludes_the_terminator() -> None:
    data = b"ab\r\ncd\ref\ngh"
    table = LineTable(data)
    assert [table.line_span(data, i) for i in range(table.line_count)] == [(0, 2), (4, 6), (7, 9), (10, 12)]


# --- encodings ------------------------------------------------------------------------------------------

TEXT = '{"emoji": "\U0001f600", "cjk": "東京", "combining": "e\u0301", "flag": "🇫🇷"}\r\n  "tail": "👍🏽x"'


@pytest.mark.parametrize(
    ("needle", "utf16", "utf8", "utf32"),
    [
        ('"cjk"', (0, 16), (0, 18), (0, 15)),  # after 😀: 2 UTF-16 units, 4 bytes, 1 code point
        ('"combining"', (0, 29), (0, 35), (0, 28)),  # after 東京: 1 unit, 3 bytes, 1 code point each
        ('"flag"', (0, 48), (0, 55), (0, 47)),  # e + U+0301: 2 units, 3 bytes, 2 code points
        ('"tail"', (1, 2), (1, 2), (1, 2)),  # CRLF is one line break
        ('x"', (1, 15), (1, 19), (1, 13)),  # 👍🏽 is two astral code points: 4 units, 8 bytes
    ],
)
def test_position_at_counts_code_units_of_the_encoding(
    needle: str, utf16: tuple[int, int], utf8: tuple[int, int], utf32: tuple[int, int]
) -> None:
    data = TEXT.encode()
    table = LineTable(data)
    offset = data.index(needle.encode())
    assert lsp_position(TEXT, TEXT.index(needle)) == utf16  # the reference agrees with the table below
    for encoding, expected in (("utf-16", utf16), ("utf-8", utf8), ("utf-32", utf32)):
        position = table.position_at(data, offset, encoding)  # type: ignore[arg-type]
        assert (position.line, position.character) == expected, encoding
        assert table.offset_at(data, position, encoding) == offset, encoding  # type: ignore[arg-type]


def test_round_trip_at_every_character_boundary() -> None:
    text = "a😀b\r\n東\u0301\u2028c\rd\n🇫🇷"
    data = text.encode()
    table = LineTable(data)
    for index, char in enumerate([*text, ""]):
        offset = len(text[:index].encode())
        position = table.position_at(data, offset, "utf-16")
        if not (char == "\n" and text[index - 1 : index] == "\r"):  # between \r and \n is no LSP position
            assert (position.line, position.character) == lsp_position(text, index)
            assert table.offset_at(data, position, "utf-16") == offset


def test_out_of_range_positions_are_clamped() -> None:
    data = "ab\ncd😀".encode()
    table = LineTable(data)
    assert table.offset_at(data, Position(0, 99), "utf-16") == 2  # end of line 0, not into line 1
    assert table.offset_at(data, Position(5, 0), "utf-16") == len(data)
    assert table.offset_at(data, Position(-1, 3), "utf-16") == 0
    assert table.offset_at(data, Position(1, -4), "utf-16") == 3
    assert table.position_at(data, 10_000, "utf-16") == Position(1, 4)
    assert table.position_at(data, -3, "utf-16") == Position(0, 0)


def test_a_character_inside_a_surrogate_pair_does_not_split_the_code_point() -> None:
    data = "😀x".encode()
    table = LineTable(data)
    assert table.offset_at(data, Position(0, 1), "utf-16") in (0, 4)


# --- the table under edits ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "start", "end", "insert"),
    [
        (b"a\r\nb", 2, 2, b"x"),  # split a CRLF pair: \r x \n is two breaks
        (b"a\rb", 2, 2, b"\n"),  # join a lone \r and a new \n into one CRLF
        (b"a\r\nb", 2, 3, b""),  # delete the \n of a CRLF
        (b"a\r\nb", 1, 2, b""),  # delete the \r of a CRLF
        (b"a\nb", 1, 1, b"\r"),  # make a CRLF from a LF
        (b"", 0, 0, b"x\r\ny\rz\n"),
        (b"x\r\ny\rz\n", 0, 9, b""),
        (b"1\n2\n3\n4\n5\n6\n", 5, 7, b"\r"),
        (b"a\r", 2, 2, b"\n"),  # a trailing lone \r becomes CRLF
        ("é\u2028\n".encode(), 2, 5, b"\r"),
    ],
)
def test_replace_keeps_the_table_equal_to_a_fresh_one(before: bytes, start: int, end: int, insert: bytes) -> None:
    table = LineTable(before)
    table.replace(bytearray(before), start, end, insert)
    after = before[:start] + insert + before[end:]
    assert list(table.starts) == list(LineTable(after).starts)


def test_document_apply_change_uses_utf16_positions() -> None:
    text = '{"a": "😀", "b": 1}'
    document = Document.from_text("file:///x.json", text)
    # Replace the 1 after "b": (UTF-16 column 17 → 18).
    column = text.index("1")
    assert column == 16  # str index; the emoji counts 2 in UTF-16
    document.apply_change("2", Range(Position(0, column + 1), Position(0, column + 2)))
    assert document.text == '{"a": "😀", "b": 2}'
    document.apply_change("👍", Range(Position(0, 7), Position(0, 9)))
    assert document.text == '{"a": "👍", "b": 2}'


def test_document_utf8_and_utf32_encodings() -> None:
    text = '{"a": "😀", "b": 1}'
    utf8 = Document.from_text("file:///x.json", text, encoding="utf-8")
    utf8.apply_change("2", Range(Position(0, 19), Position(0, 20)))
    assert utf8.text.endswith('"b": 2}')
    utf32 = Document.from_text("file:///x.json", text, encoding="utf-32")
    utf32.apply_change("3", Range(Position(0, 16), Position(0, 17)))
    assert utf32.text.endswith('"b": 3}')
    assert utf32.position_at(len(utf32.data)) == Position(0, 18)
