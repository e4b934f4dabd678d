"""Every edit kind turned into text: exact results on LF/CRLF, spaces/tabs, comments, inline and empty objects."""

from __future__ import annotations

import itertools

import pytest
from fixing import assert_outside_unchanged, loads
from hypothesis import given, settings
from hypothesis import strategies as st

from toolsense.cli.diff import unified_diff
from toolsense.document.document import Document
from toolsense.engine.findings import (
    Fix,
    FixEdit,
    InsertMembers,
    RemoveMember,
    RenameKey,
    ReplaceInString,
    ReplaceValue,
)
from toolsense.fixes import Composed, TextEdit, apply_edits, choose_fix, edits_for_fix, json_string, snippet_escape
from toolsense.fixes.layout import detect_eol, detect_indent_unit
from toolsense.fixes.text import _plain


def edited(text: str, *edits: FixEdit, snippets: bool = False) -> str | None:
    document = Document.from_text("file:///x.json", text)
    found = edits_for_fix(document, Fix("t", tuple(edits)), snippets=snippets)
    if found is None:
        return None
    old = bytes(document.data)
    new = apply_edits(old, found)
    assert_outside_unchanged(old, new, found)
    if not snippets:
        loads(new)
    return new.decode("utf-8", "surrogatepass")


ABC = '{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}'
WINDOWS = '{\r\n\t"a": 1, // one\r\n\t// about c\r\n\t"c": 3 // three\r\n}'

REMOVE_CASES = [
    # multi-line: the member's whole line goes, with the right comma
    (ABC, ("a",), '{\n  "b": 2,\n  "c": 3\n}'),
    (ABC, ("b",), '{\n  "a": 1,\n  "c": 3\n}'),
    (ABC, ("c",), '{\n  "a": 1,\n  "b": 2\n}'),
    # CRLF, tabs and comments: the member's own trailing comment goes with it, other comments stay
    (WINDOWS, ("c",), '{\r\n\t"a": 1 // one\r\n\t// about c\r\n}'),
    (WINDOWS, ("a",), '{\r\n\t// about c\r\n\t"c": 3 // three\r\n}'),
    # inline
    ('{"a": 1, "b": 2, "c": 3}', ("a",), '{"b": 2, "c": 3}'),
    ('{"a": 1, "b": 2, "c": 3}', ("b",), '{"a": 1, "c": 3}'),
    ('{"a": 1, "b": 2, "c": 3}', ("c",), '{"a": 1, "b": 2}'),
    ('{"a":1,"b":2}', ("b",), '{"a":1}'),
    ('{"a": 1 /* keep */, "b": 2}', ("b",), '{"a": 1 /* keep */}'),
    # the only member: the object collapses to {}
    ('{"x": {"a": 1}}', ("x", "a"), '{"x": {}}'),
    ('{\n  "x": {\n    "a": 1\n  }\n}', ("x", "a"), '{\n  "x": {}\n}'),
    ('{\n  "x": {\n    // why\n    "a": 1\n  }\n}', ("x", "a"), '{\n  "x": {\n    // why\n  }\n}'),
    # arrays
    ('{"x": [1, 2, 3]}', ("x", 0), '{"x": [2, 3]}'),
    ('{"x": [1, 2, 3]}', ("x", 1), '{"x": [1, 3]}'),
    ('{"x": [1, 2, 3]}', ("x", 2), '{"x": [1, 2]}'),
    ('[\n  {"a": 1},\n  {"b": 2}\n]\n', (1,), '[\n  {"a": 1}\n]\n'),
    ('[\r\n\t{"a": 1},\r\n\t{"b": 2},\r\n\t{"c": 3}\r\n]', (1,), '[\r\n\t{"a": 1},\r\n\t{"c": 3}\r\n]'),
    # a multi-line member goes with all its lines
    (
        '{\n  "a": {\n    "deep": [1,\n      2]\n  },\n  "b": 2\n}',
        ("a",),
        '{\n  "b": 2\n}',
    ),
    # mixed: a member sharing its line with a sibling
    ('{\n  "a": 1, "b": 2,\n  "c": 3\n}', ("b",), '{\n  "a": 1,\n  "c": 3\n}'),
    ('{\n  "a": 1,\n  "b": 2}', ("b",), '{\n  "a": 1\n}'),
    # JSON Lines: the pointer's first part picks the line
    ('{"a": 1, "x": 2}\n{"a": 1, "x": 2}\n', (1, "x"), '{"a": 1, "x": 2}\n{"a": 1}\n'),
    # escaped keys are matched decoded
    ('{"a\\u0062": 1, "c": 2}', ("ab",), '{"c": 2}'),
]


@pytest.mark.parametrize(("text", "pointer", "expected"), REMOVE_CASES)
def test_remove(text: str, pointer: tuple[str | int, ...], expected: str) -> None:
    assert edited(text, RemoveMember(pointer)) == expected


INSERT = InsertMembers(("x",), (("b", '""'), ("c", "0")), (("b", '"$1"'), ("c", "${2:0}")))

INSERT_CASES = [
    # after the last member, indented like the siblings
    (
        '{\n  "x": {\n    "a": 1\n  },\n  "y": 2\n}',
        '{\n  "x": {\n    "a": 1,\n    "b": "",\n    "c": 0\n  },\n  "y": 2\n}',
    ),
    (
        '{\r\n\t"x": {\r\n\t\t"a": 1\r\n\t}\r\n}',
        '{\r\n\t"x": {\r\n\t\t"a": 1,\r\n\t\t"b": "",\r\n\t\t"c": 0\r\n\t}\r\n}',
    ),
    # a trailing comment stays on its member's line
    (
        '{\n  "x": {\n    "a": 1 // the a\n  }\n}',
        '{\n  "x": {\n    "a": 1, // the a\n    "b": "",\n    "c": 0\n  }\n}',
    ),
    # single-line objects stay single-line, spaced like the file
    ('{"x": {"a": 1}}', '{"x": {"a": 1, "b": "", "c": 0}}'),
    ('{"x":{"a":1}}', '{"x":{"a":1,"b":"","c":0}}'),
    ('{"x": { "a": 1 }}', '{"x": { "a": 1, "b": "", "c": 0 }}'),
    # empty objects: expanded when their holder is multi-line, else inline
    ('{\n  "x": {},\n  "y": 2\n}', '{\n  "x": {\n    "b": "",\n    "c": 0\n  },\n  "y": 2\n}'),
    ('{\n    "x": {}\n}', '{\n    "x": {\n        "b": "",\n        "c": 0\n    }\n}'),
    ('{"y": 1, "x": {}}', '{"y": 1, "x": {"b": "", "c": 0}}'),
    ('{"y": 1, "x": { }}', '{"y": 1, "x": { "b": "", "c": 0 }}'),
    ('{\n  "x": {\n  }\n}', '{\n  "x": {\n    "b": "",\n    "c": 0\n  }\n}'),
    ('{\n  "x": { // empty\n  }\n}', '{\n  "x": { // empty\n    "b": "",\n    "c": 0\n  }\n}'),
]


@pytest.mark.parametrize(("text", "expected"), INSERT_CASES)
def test_insert(text: str, expected: str) -> None:
    assert edited(text, INSERT) == expected


def test_insert_at_root_and_first_member() -> None:
    assert edited("{}", InsertMembers((), (("name", '""'),))) == '{\n  "name": ""\n}'
    assert edited("{\n}\n", InsertMembers((), (("name", '""'),))) == '{\n  "name": ""\n}\n'
    assert edited('{\n  "a": 1}', InsertMembers((), (("b", "0"),))) == '{\n  "a": 1,\n  "b": 0}'


def test_insert_into_a_missing_object_creates_it() -> None:
    edit = InsertMembers(("x", "y"), (("a", '""'), ("b", "0")), (("a", '"$1"'), ("b", "${2:0}")))
    assert (
        edited('{\n  "x": {\n    "z": 1\n  }\n}', edit)
        == '{\n  "x": {\n    "z": 1,\n    "y": {"a": "", "b": 0}\n  }\n}'
    )
    snippet = edited('{"x": {}}', edit, snippets=True)
    assert snippet == '{"x": {"y": {"a": "$1", "b": ${2:0}}}}'
    assert edited('{"x": 1}', edit) is None  # the parent is not an object


def test_insert_snippets_only_when_asked() -> None:
    text = '{\n  "x": {\n    "a": 1\n  }\n}'
    assert edited(text, INSERT, snippets=True) == '{\n  "x": {\n    "a": 1,\n    "b": "$1",\n    "c": ${2:0}\n  }\n}'
    # no snippet variant: plain placeholders even for a snippet client
    plain = InsertMembers(("x",), (("b", '""'),))
    assert edited(text, plain, snippets=True) == '{\n  "x": {\n    "a": 1,\n    "b": ""\n  }\n}'


def test_snippet_keys_are_escaped() -> None:
    edit = InsertMembers((), (("$ref}", '""'),), (("$ref}", '"$1"'),))
    document = Document.from_text("file:///x.json", '{"a": 1}')
    edits = edits_for_fix(document, Fix("t", (edit,)), snippets=True)
    assert edits == [TextEdit(7, 7, ', "\\$ref\\}": "$1"', snippet=True)]
    assert _plain(edits[0]) == ', "$ref}": ""'


def test_insert_refuses_existing_member() -> None:
    assert edited('{"x": {"b": 1}}', INSERT) is None


def test_rename_keeps_quotes_and_escapes() -> None:
    assert edited('{"descripton": "x"}', RenameKey(("descripton",), "description")) == '{"description": "x"}'
    assert edited('{"k\\"ey": 1}', RenameKey(('k"ey',), 'n"ew é')) == '{"n\\"ew é": 1}'
    assert edited('{"a": 1}', RenameKey(("a",), "tab\there\ud800")) == '{"tab\\there\\ud800": 1}'
    assert edited("[1]", RenameKey((0,), "x")) is None  # not a member


def test_replace_value() -> None:
    assert edited('{"strict": "true"}', ReplaceValue(("strict",), "true")) == '{"strict": true}'
    assert (
        edited('{\r\n\t"k": 1\r\n}', ReplaceValue(("k",), '{\n  "z": 1\n}'))
        == '{\r\n\t"k": {\r\n\t  "z": 1\r\n\t}\r\n}'
    )
    assert edited('{"a": 1}\n{"a": 2}\n', ReplaceValue((1, "a"), "3")) == '{"a": 1}\n{"a": 3}\n'
    assert edited('{"a": 1}', ReplaceValue(("b",), "3")) is None  # pointer gone


def test_replace_in_string_escapes() -> None:
    text = '{"k": "a\\"b {{event_data.x}} \\u00e9"}'
    # decoded: a"b {{event_data.x}} é — "event_data" is characters [6, 16)
    assert edited(text, ReplaceInString(("k",), 6, 16, "trigger_data")) == '{"k": "a\\"b {{trigger_data.x}} \\u00e9"}'
    assert edited('{"k": "xy"}', ReplaceInString(("k",), 1, 1, 'q"\n')) == '{"k": "xq\\"\\ny"}'
    assert edited('{"k": "😀x"}', ReplaceInString(("k",), 1, 2, "é")) == '{"k": "😀é"}'
    assert edited('{"k": 1}', ReplaceInString(("k",), 0, 1, "x")) is None  # not a string


def test_overlapping_edits_in_one_fix_are_refused() -> None:
    assert edited('{"a": 1}', ReplaceValue(("a",), "2"), ReplaceValue(("a",), "3")) is None


def test_syntax_error_outside_the_edit_blocks_every_fix() -> None:
    assert edited('{"a": "true", "b": }', ReplaceValue(("a",), "true")) is None
    assert edited('{"a": 1,}', ReplaceValue(("a",), "3")) is None
    assert edited('{"a": "true", "b": 1} // fine', ReplaceValue(("a",), "true")) == '{"a": true, "b": 1} // fine'


def test_result_must_parse() -> None:
    assert edited('{"a": 1}', ReplaceValue(("a",), "{")) is None


def test_detect_indentation_and_line_ends() -> None:
    assert detect_indent_unit(Document.from_text("u", '{\n    "a": {\n        "b": 1\n    }\n}')) == "    "
    assert detect_indent_unit(Document.from_text("u", '{\n\t"a": 1\n}')) == "\t"
    assert detect_indent_unit(Document.from_text("u", '{"a": 1}')) == "  "
    assert detect_eol(Document.from_text("u", '{\r\n"a": 1\r\n}')) == "\r\n"
    assert detect_eol(Document.from_text("u", '{"a": 1}')) == "\n"


def test_choose_fix() -> None:
    safe = Fix("safe", (), safe=True)
    best = Fix("best", (), preferred=True)
    other = Fix("other", ())
    assert choose_fix([safe, best, other], unsafe=False) is safe
    assert choose_fix([best, other], unsafe=False) is None
    assert choose_fix([best, other], unsafe=True) is best
    assert choose_fix([other], unsafe=True) is other
    assert choose_fix([other, Fix("again", ())], unsafe=True) is None  # several candidates, none preferred


def test_composed_passes_round_trip() -> None:
    old = b'{\r\n\t"a": 1,\r\n\t"b": 2\r\n}\r\n'
    first = [TextEdit(5, 6, "aa"), TextEdit(8, 9, "10")]
    middle = apply_edits(old, first)
    second = [TextEdit(middle.index(b"2"), middle.index(b"2") + 1, '2,\r\n\t"c": 3'), TextEdit(5, 7, "z")]
    new = apply_edits(middle, second)
    composed = Composed()
    composed.add(first)
    composed.add(sorted(second))
    edits = composed.edits(new)
    assert apply_edits(old, edits) == new
    assert [(e.start, e.end) for e in edits] == [(5, 6), (8, 9), (old.index(b"2"), old.index(b"2") + 1)]


@st.composite
def passes(draw: st.DrawFn) -> tuple[bytes, list[list[TextEdit]]]:
    text = draw(st.text(alphabet="ab\n{}é", min_size=0, max_size=40)).encode()
    rounds: list[list[TextEdit]] = []
    current = text
    for _ in range(draw(st.integers(1, 4))):
        cuts = sorted(draw(st.lists(st.integers(0, len(current)), max_size=6)))
        edits: list[TextEdit] = []
        for start, end in zip(cuts[::2], cuts[1::2], strict=False):
            if edits and start <= edits[-1].start:
                continue
            if not _boundary(current, start) or not _boundary(current, end):
                continue
            edits.append(TextEdit(start, end, draw(st.text(alphabet="xy\n😀", max_size=4))))
        rounds.append(edits)
        current = apply_edits(current, edits)
    return text, rounds


def _boundary(data: bytes, offset: int) -> bool:
    return offset >= len(data) or (data[offset] & 0xC0) != 0x80


@given(passes())
@settings(max_examples=300, deadline=None)
def test_composed_edits_reproduce_every_pass(case: tuple[bytes, list[list[TextEdit]]]) -> None:
    text, rounds = case
    composed = Composed()
    current = text
    for edits in rounds:
        composed.add(edits)
        current = apply_edits(current, edits)
    edits = composed.edits(current)
    assert apply_edits(text, edits) == current
    assert all(a.end < b.start or (a.end <= b.start and a.start < b.start) for a, b in itertools.pairwise(edits))


def _patch(old: str, diff: str) -> str:
    """Apply a unified diff (the test's own tiny `patch`)."""
    lines = old.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    body = diff.splitlines(keepends=True)[2:]
    for line in body:
        if line.startswith("@@"):
            start = int(line.split()[1].split(",")[0][1:])
            count = line.split()[1].split(",")
            first = start - 1 if len(count) == 1 or count[1] != "0" else start
            out.extend(lines[at:first])
            at = first
        elif line.startswith(" "):
            out.append(lines[at])
            at += 1
        elif line.startswith("-"):
            at += 1
        elif line.startswith("+"):
            out.append(line[1:])
        elif line.startswith("\\"):
            out[-1] = out[-1].rstrip("\n") if out and not body[body.index(line) - 1].startswith("-") else out[-1]
    out.extend(lines[at:])
    return "".join(out)


@given(passes())
@settings(max_examples=200, deadline=None)
def test_unified_diff_from_edits_applies(case: tuple[bytes, list[list[TextEdit]]]) -> None:
    text, rounds = case
    composed = Composed()
    current = text
    for edits in rounds:
        composed.add(edits)
        current = apply_edits(current, edits)
    diff = unified_diff(text, current, "x.json", composed.edits(current))
    if text == current:
        assert diff == ""
        return
    assert diff.startswith("--- a/x.json\n+++ b/x.json\n")
    if b"\r" not in text + current and text.endswith(b"\n") and current.endswith(b"\n"):
        assert _patch(text.decode(), diff) == current.decode()
        assert diff == unified_diff(text, current, "x.json")


def test_unified_diff() -> None:
    diff = unified_diff(b'{"a": "1"}', b'{"a": 1}', "x.json")
    assert diff.startswith("--- a/x.json\n+++ b/x.json\n")
    assert '-{"a": "1"}\n\\ No newline at end of file\n+{"a": 1}\n\\ No newline at end of file\n' in diff


def test_text_helpers() -> None:
    assert json_string("a\u2028b") == '"a\u2028b"'
    assert snippet_escape("${a}\\") == "\\${a\\}\\\\"
