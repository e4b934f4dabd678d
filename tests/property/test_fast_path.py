"""The keystroke fast path equals a full check, version by version.

On a keystroke the server re-checks only the unit the edit touched and moves every other diagnostic with the
text (`lsp/incremental.py`). For any sequence of edits — in particular those that bring a lone `\\r` and a `\\n`
together into one CRLF line break (a `\\r` typed before a `\\n`, a `\\n` typed after a lone `\\r`, deleting what
stands between them) — the diagnostics the server holds after EVERY edit equal those of a full check of that
version's text, not only after the last edit or the settle check.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from positions import lsp_position
from propkit import EXAMPLES

from toolsense.document.document import Document
from toolsense.engine.checker import UnitCache, check_document
from toolsense.lsp.app import create_server
from toolsense.lsp.convert import to_lsp_diagnostic
from toolsense.lsp.server import ToolsenseServer

URI = "file:///w/tools/fast.tools.json"
BREAKS = ["\n", "\r\n", "\r", "\r \n", "\r  \n", " "]
INSERTS = ["\r", "\n", "\r\n", " ", "\r\r", "\n\n", "\r\n\r", "\n\r"]
OPS = ["cr-before-lf", "lf-after-cr", "delete-between", "insert", "delete-space"]


def _unit(index: int, seps: list[str]) -> str:
    """A tool without a description (TS240 on every unit), its members separated by the given line breaks."""
    a, b, c = seps
    return (
        f'{{"name": "tool_{index}",{a}"input_schema": {{{b}"type": "object",{c}'
        f'"properties": {{"p{index}": {{"type": "string"}}}}, "additionalProperties": false}}}}'
    )


def _text(seps: list[list[str]]) -> str:
    return "[\n" + ",\n".join(_unit(i, s) for i, s in enumerate(seps)) + "\n]\n"


def _outside_strings(text: str) -> list[bool]:
    """For each index: whether it lies outside a JSON string (the texts here have no escapes)."""
    inside = False
    out = []
    for char in text:
        out.append(not inside and char != '"')
        if char == '"':
            inside = not inside
    return out


def _edit(text: str, op: str, fraction: float, insert: str) -> tuple[int, int, str] | None:
    """A whitespace edit between tokens: (start, end, new text) in str indices, or None when there is none."""
    free = _outside_strings(text)
    candidates: list[tuple[int, int, str]] = []
    for i, char in enumerate(text):
        if not free[i]:
            continue
        lone_cr = char == "\r" and text[i + 1 : i + 2] != "\n"
        if op == "cr-before-lf" and char == "\n" and text[i - 1 : i] != "\r":
            candidates.append((i, i, "\r"))
        elif op == "lf-after-cr" and lone_cr:
            candidates.append((i + 1, i + 1, "\n" + insert.replace("\r", "")))
        elif op == "delete-between" and lone_cr and (match := re.match(r" +\n", text[i + 1 :])):
            candidates.append((i + 1, i + match.end() - 1, ""))
        elif op == "insert" and char in " \r\n" and not (char == "\n" and text[i - 1 : i] == "\r"):
            candidates.append((i, i, insert))
        elif op == "delete-space" and char == " ":
            candidates.append((i, i + 1, ""))
    if not candidates:
        return None
    return candidates[min(int(fraction * len(candidates)), len(candidates) - 1)]


def _rows(diagnostics: list[types.Diagnostic]) -> list[tuple[Any, ...]]:
    return sorted(
        (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.code, d.message)
        for d in diagnostics
    )


def _full_check(server: ToolsenseServer, text: str) -> list[types.Diagnostic]:
    """What a full check of this text says, on a document of its own (the open one is left as it is)."""
    document = Document.from_text(URI, text, encoding=server.encoding)
    report = check_document(document, server.context_for(URI), "tool", UnitCache(), server.resolve_range)
    return [to_lsp_diagnostic(d, server.caps.related_information, server.client_uri) for d in report.diagnostics]


def _run(text: str, steps: list[tuple[str, float, str]]) -> int:
    """Apply the edits one by one as didChange does, check after each like a keystroke, compare every version.
    Returns how many versions the fast path answered."""

    async def run() -> int:
        server = create_server()
        server.text_document_publish_diagnostics = lambda params: None  # type: ignore[method-assign,assignment,misc]
        od = server.open(URI, text, 1, "json")
        server.check(od, "open")
        current = text
        fast = 0
        for version, (op, fraction, insert) in enumerate(steps, 2):
            edit = _edit(current, op, fraction, insert)
            if edit is None:
                continue
            start, end, new = edit
            lsp_range = types.Range(
                types.Position(*lsp_position(current, start)), types.Position(*lsp_position(current, end))
            )
            server.change(od, version, [types.TextDocumentContentChangePartial(range=lsp_range, text=new)])
            current = current[:start] + new + current[end:]
            server.check(od, "edit")
            fast += not od.settled
            assert _rows(od.diagnostics) == _rows(_full_check(server, current)), (version, op, repr(current))
        if od.timer is not None:
            od.timer.cancel()
        return fast

    return asyncio.run(run())


SETTINGS = settings(
    max_examples=EXAMPLES or 120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@SETTINGS
@given(
    st.lists(st.lists(st.sampled_from(BREAKS), min_size=3, max_size=3), min_size=3, max_size=5),
    st.lists(
        st.tuples(st.sampled_from(OPS), st.floats(0, 1, exclude_max=True), st.sampled_from(INSERTS)),
        min_size=1,
        max_size=8,
    ),
)
@example([["\r \n", "\n", " "], ["\r", "\n", "\r\n"], ["\n", "\n", "\n"]], [("delete-between", 0.0, "")])
@example([["\r", "\n", " "], ["\r", "\n", "\r\n"], ["\n", "\n", "\n"]], [("lf-after-cr", 0.0, "")])
@example([["\n", "\n", " "], ["\r", "\n", "\r\n"], ["\n", "\n", "\n"]], [("cr-before-lf", 0.1, "")])
def test_every_fast_path_version_equals_a_full_check(
    seps: list[list[str]], steps: list[tuple[str, float, str]]
) -> None:
    _run(_text(seps), steps)


def test_the_fast_path_answers_the_line_break_joins() -> None:
    """The comparison above is about the fast path: it does answer these edits (it is not the full check)."""
    text = _text([["\r \n", "\r", "\n"], ["\n", "\n", "\n"], ["\n", " ", "\n"]])
    steps = [("delete-between", 0.0, ""), ("lf-after-cr", 0.0, ""), ("cr-before-lf", 0.5, ""), ("insert", 0.3, "\r")]
    assert _run(text, steps) == len(steps)


def test_edits_move_diagnostics_without_rebuilding_them_until_read() -> None:
    """A keystroke costs the same whatever the number of diagnostics: edits move arrays of positions, and the
    objects are rebuilt once when read — only those the edits moved (the others are the same objects)."""
    from toolsense.lsp.incremental import MovingDiagnostics

    def at(line: int) -> types.Diagnostic:
        return types.Diagnostic(types.Range(types.Position(line, 2), types.Position(line, 9)), f"d{line}", code="X")

    diagnostics = [at(line) for line in range(20_000)]
    moving = MovingDiagnostics(diagnostics, URI)
    for _ in range(100):  # a burst of keystrokes on line 15,000: a line break typed, then removed, 50 times
        moving.shift(types.Range(types.Position(15_000, 0), types.Position(15_000, 0)), "\n", "utf-16")
        moving.shift(types.Range(types.Position(15_000, 0), types.Position(15_001, 0)), "", "utf-16")
    moving.shift(types.Range(types.Position(15_000, 0), types.Position(15_000, 0)), "\r\n", "utf-16")
    current = moving.current()
    assert all(a is b for a, b in zip(current[:15_000], diagnostics[:15_000], strict=True))
    assert [d.range.start.line for d in current[15_000:]] == list(range(15_001, 20_001))
    assert moving.current() is current  # read again: nothing rebuilt
