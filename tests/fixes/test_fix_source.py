"""The whole-file actions in process: "fix all" (safe fixes to a fixed point) and "close every object schema"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from checking import EXAMPLES
from fixing import WORKSPACE, assert_outside_unchanged, check_in_workspace, checker, loads

from toolsense.document.document import Document
from toolsense.engine.checker import Diagnostic
from toolsense.fixes import apply_edits, edits_for_fix, open_object_schemas
from toolsense.lsp.code_actions import close_objects_edits, fix_all_edits

CASES = Path(__file__).parent / "cases"
ALL = [(WORKSPACE, p.name, p) for p in sorted(CASES.glob("*.json"))] + [
    (EXAMPLES, p.relative_to(EXAMPLES).as_posix(), p) for p in sorted(EXAMPLES.rglob("*.json"))
]
TOOL_FILES = [entry for entry in ALL if ".tool" in entry[1] or entry[1].startswith("tools/")]


def _safe_fix_left(document: Document, diagnostics: list[Diagnostic]) -> list[str]:
    return [
        f"{d.code} {d.message}"
        for d in diagnostics
        if d.finding is not None and any(f.safe and edits_for_fix(document, f) for f in d.finding.fixes)
    ]


@pytest.mark.parametrize(("root", "name", "path"), ALL, ids=[e[1] for e in ALL])
def test_fix_all_leaves_no_safe_fix(root: Path, name: str, path: Path) -> None:
    document, diagnostics = check_in_workspace(path.read_bytes(), name, root)
    edits = fix_all_edits(document, diagnostics, checker(name, root))
    new = apply_edits(document.data, edits)
    assert_outside_unchanged(bytes(document.data), new, edits)
    loads(new)
    fixed, after = check_in_workspace(new, name, root)
    assert not _safe_fix_left(fixed, after)
    if not any(d.finding is not None and any(f.safe for f in d.finding.fixes) for d in diagnostics):
        assert edits == []


@pytest.mark.parametrize(("root", "name", "path"), TOOL_FILES, ids=[e[1] for e in TOOL_FILES])
def test_close_objects_agrees_with_the_rules(root: Path, name: str, path: Path) -> None:
    """After the source action no rule asks for `additionalProperties: false` (TS220, TS263), and nothing
    else appears."""
    for text in (path.read_text(encoding="utf-8"), path.read_text(encoding="utf-8").replace("\n", "\r\n")):
        document, before = check_in_workspace(text, name, root)
        edits = close_objects_edits(document, None)
        new = apply_edits(document.data, edits)
        assert_outside_unchanged(bytes(document.data), new, edits)
        loads(new)
        _, after = check_in_workspace(new, name, root)
        # Left alone: an object that says `additionalProperties: true` (a choice, not an omission) and a
        # free-form object that lists no properties (closing it would allow only `{}`).
        left = [d for d in after if d.code in ("TS220", "TS263")]
        assert all(", found" in d.message or "declares no properties" in d.message for d in left), left
        assert {d.code for d in after} <= {d.code for d in before}
        if not [d for d in before if d.code in ("TS220", "TS263")]:
            continue
        assert edits


def test_close_objects_skips_all_of_and_refs() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"x": {"type": "string"}}},
            "b": {"$ref": "#/$defs/B"},
            "c": {"allOf": [{"type": "object", "properties": {"y": {"type": "integer"}}}]},
            "d": {"type": "array", "items": {"properties": {"z": {}}}},
            "e": {"type": ["object", "null"], "additionalProperties": {"type": "string"}},
            "f": {"type": "object", "description": "free-form"},
        },
        "$defs": {"B": {"type": "object", "properties": {}}},
    }
    assert list(open_object_schemas(schema)) == [
        (),
        ("properties", "a"),
        ("properties", "d", "items"),
        ("$defs", "B"),
    ]


def test_close_objects_never_closes_what_branches_define() -> None:
    one_of = {
        "type": "object",
        "oneOf": [{"properties": {"id": {"type": "string"}}}, {"properties": {"name": {"type": "string"}}}],
    }
    # The root lists no properties of its own: closing it would reject every argument; each branch may close.
    assert list(open_object_schemas(one_of)) == [("oneOf", 0), ("oneOf", 1)]
    beside = {"type": "object", "properties": {"kind": {}}, "anyOf": [{"properties": {"a": {}}}]}
    # Own properties beside the branches: closing either side would reject the other's keys.
    assert list(open_object_schemas(beside)) == []


def test_close_objects_on_crlf_tabs_keeps_the_layout() -> None:
    text = (
        '{\r\n\t"name": "t",\r\n\t"description": "A tool with an open nested object for this test.",\r\n'
        '\t"input_schema": {\r\n\t\t"type": "object",\r\n\t\t"properties": {\r\n'
        '\t\t\t"p": {"type": "object", "description": "P", "properties": {}}\r\n\t\t}\r\n\t}\r\n}\r\n'
    )
    document, _ = check_in_workspace(text, "t.tool.json")
    new = apply_edits(document.data, close_objects_edits(document, None)).decode()
    assert new == text.replace(
        '"properties": {}}\r\n\t\t}\r\n\t}',
        '"properties": {}, "additionalProperties": false}\r\n\t\t},\r\n\t\t"additionalProperties": false\r\n\t}',
    )
    assert json.loads(new)["input_schema"]["additionalProperties"] is False
