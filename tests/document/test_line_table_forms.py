"""A line table is a list for small text and a numpy array for large text (or once edits make it long): both
forms give the same line starts and positions, before and after edits."""

from __future__ import annotations

import random

from toolsense.document import lines
from toolsense.document.lines import LineTable


def _fresh(data: bytes) -> list[int]:
    return [0, *(m.end() for m in lines._LINE_BREAK.finditer(data))]


def test_small_text_gets_a_list_and_large_text_an_array() -> None:
    assert isinstance(LineTable(b"a\nb\r\nc\rd").starts, list)
    assert not isinstance(LineTable(b"x\n" * lines._VECTOR_BYTES).starts, list)


def test_edits_keep_both_forms_equal_to_a_fresh_table() -> None:
    chooser = random.Random(7)
    data = bytearray(b"".join(chooser.choice([b"ab", b"\n", b"\r\n", b"\r", b"\xc3\xa9"]) for _ in range(3000)))
    table = LineTable(data)
    assert isinstance(table.starts, list)
    for _ in range(400):
        start = chooser.randrange(len(data) + 1)
        end = min(len(data), start + chooser.randrange(6))
        text = chooser.choice([b"", b"\n", b"\n\n\n\n", b"x\r", b"\r\n" * 40])
        table.replace(data, start, end, text)
        data[start:end] = text
        assert [int(s) for s in table.starts] == _fresh(bytes(data))
    assert not isinstance(table.starts, list), "edits made the table long: it became an array"
    array_table = LineTable(bytes(data) + b"\n" * lines._VECTOR_BYTES)
    list_table = LineTable(bytes(data))
    offsets = [chooser.randrange(len(data) + 5) - 2 for _ in range(200)]
    for encoding in ("utf-8", "utf-16", "utf-32"):
        assert list_table.positions_at(data, offsets, encoding) == array_table.positions_at(data, offsets, encoding)
