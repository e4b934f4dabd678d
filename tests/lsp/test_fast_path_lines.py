"""The keystroke fast path moves the diagnostics of the units it does not re-check by the lines an edit adds or
removes. An edit that brings a lone `\\r` and a `\\n` together makes one CRLF line break out of two: the other
units' diagnostics must not move down a line, even before the settle check replaces them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rawrpc import ServerProcess

BOUND_S = 60.0
FIRST = (
    '    {"name": "first", "description": "Says hello to the user by name.",\n'
    '     "input_schema": {"type": "object", "properties": {}, "additionalProperties": false}},\n'
)
SECOND = '    {"name": "second", "input_schema": {"type": "object", "properties": {}, "additionalProperties": false}}\n'
TEXT = '{"tools": [\n' + FIRST + SECOND + "]}\n"
LONE_CR_SPACE = TEXT.replace('by name.",\n', 'by name.",\r \n', 1)
LONE_CR = TEXT.replace('by name.",\n', 'by name.",\r', 1)
LINE_1 = TEXT.split("\n")[1]


def _position(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


def _line_of_second(text: str) -> int:
    return len(re.findall(r"\r\n|\r|\n", text[: text.index('"name": "second"')]))


def _apply(text: str, start: dict[str, int], end: dict[str, int], new: str) -> str:
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    low = starts[start["line"]] + start["character"]
    high = starts[end["line"]] + end["character"]
    return text[:low] + new + text[high:]


@pytest.mark.timeout(BOUND_S * 2)
@pytest.mark.parametrize(
    ("text", "start", "end", "new"),
    [
        (TEXT, _position(1, len(LINE_1)), _position(1, len(LINE_1)), "\r"),  # \r before an existing \n
        (LONE_CR_SPACE, _position(2, 0), _position(2, 1), ""),  # delete what separates a lone \r and a \n
        (LONE_CR, _position(2, 0), _position(2, 0), "\n"),  # \n right after a lone \r
        (LONE_CR, _position(2, 0), _position(2, 0), "\n\n"),  # one line more, not two
        (TEXT, _position(1, len(LINE_1)), _position(1, len(LINE_1)), "\r\r"),  # one line more, not two
    ],
    ids=["cr-before-lf", "delete-between-cr-and-lf", "lf-after-lone-cr", "two-lf-after-lone-cr", "two-cr-before-lf"],
)
def test_joining_cr_and_lf_keeps_other_units_in_place(
    tmp_path: Path, text: str, start: dict[str, int], end: dict[str, int], new: str
) -> None:
    path = tmp_path / "tools" / "pair.tools.json"
    path.parent.mkdir()
    path.write_bytes(text.encode())
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, text)
        before = server.wait_diagnostics(uri, BOUND_S, lambda p: p["version"] == 1)
        assert _ts240_lines(before) == [_line_of_second(text)]
        server.change(uri, 2, [{"range": {"start": start, "end": end}, "text": new}])
        # The first publish for the new version is the fast path's (the full check follows later).
        after = server.wait_diagnostics(uri, BOUND_S, lambda p: p["version"] == 2)
        assert _ts240_lines(after) == [_line_of_second(_apply(text, start, end, new))]
    finally:
        server.close()


def _ts240_lines(params: dict[str, Any]) -> list[int]:
    """Lines of the missing-description finding of tool "second" (a unit the edits never touch)."""
    return [d["range"]["start"]["line"] for d in params["diagnostics"] if d["code"] == "TS240"]
