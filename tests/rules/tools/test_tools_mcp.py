"""TS250–TS252: MCP annotations and titles."""

from __future__ import annotations

import json

from checking import check, codes, one
from positions import span

from toolsense.engine.findings import RemoveMember

SCHEMA = {"type": "object", "additionalProperties": False}


def mcp(**extra: object) -> str:
    return json.dumps({"name": "m", "description": "d", "inputSchema": SCHEMA, **extra}, indent=2)


def test_hints_that_cannot_apply_to_a_read_only_tool() -> None:
    text = mcp(annotations={"readOnlyHint": True, "idempotentHint": False})
    d = one(check(text), "TS250")
    assert d.severity == "hint" and d.range == span(text, '"idempotentHint"')
    assert d.message == "idempotentHint has no meaning when readOnlyHint is true"
    assert d.fixes[0].safe and d.fixes[0].edits == (RemoveMember(("annotations", "idempotentHint")),)


def test_read_only_and_destructive_contradict() -> None:
    text = mcp(annotations={"readOnlyHint": True, "destructiveHint": True})
    diags = check(text)
    assert codes(diags) == ["TS251"]
    assert diags[0].severity == "warning"
    assert diags[0].text == '"destructiveHint": true'
    assert (
        diags[0].message
        == "destructiveHint is true but readOnlyHint is true: a read-only tool does not modify anything"
    )


def test_consistent_hints_are_fine() -> None:
    assert check(mcp(annotations={"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False})) == []


def test_title_and_annotation_title_that_differ() -> None:
    text = mcp(title="Read file", annotations={"title": "Read a file", "readOnlyHint": True})
    d = one(check(text), "TS252")
    assert d.severity == "information" and d.text == '"Read a file"'
    assert d.message == 'annotations.title "Read a file" differs from title "Read file"; clients show title'
