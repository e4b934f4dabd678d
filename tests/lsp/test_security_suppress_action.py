"""A security finding in the editor (campaign 3, F04): a `toolsense-ignore` comment in the file does not hide it,
on open or on a keystroke inside the tool, and its quick fix "Suppress TS290 for this tool" writes the user's
settings even where the file takes comments."""

from __future__ import annotations

import json

import pytest
from lspkit import Session, neovim_capabilities
from lsprotocol import types

from toolsense.document.document import Document
from toolsense.document.lines import Position
from toolsense.fixes import TextEdit, apply_edits

pytestmark = pytest.mark.asyncio

TOOL = {
    "name": "get_weather",
    "description": "Gets the\u200b weather for a city.",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city."}},
        "additionalProperties": False,
    },
}


def _capabilities() -> types.ClientCapabilities:
    caps = neovim_capabilities()
    assert caps.workspace is not None
    caps.workspace.workspace_edit = types.WorkspaceEditClientCapabilities(
        document_changes=True, resource_operations=[types.ResourceOperationKind.Create]
    )
    return caps


def _applied(text: str, edits: list[types.TextEdit]) -> str:
    document = Document.from_text("file:///x.toml", text)
    spans = [
        TextEdit(
            document.offset_at(Position(e.range.start.line, e.range.start.character)),
            document.offset_at(Position(e.range.end.line, e.range.end.character)),
            e.new_text,
        )
        for e in edits
    ]
    return apply_edits(document.data, spans).decode("utf-8")


async def test_a_comment_does_not_hide_a_security_finding_and_the_fix_writes_the_settings(session: Session) -> None:
    await session.start(_capabilities())
    text = "[\n  // toolsense-ignore TS290\n" + json.dumps(TOOL, indent=2, ensure_ascii=False) + "\n]\n"
    uri = session.open("weather.tools.json", text, write=True)
    diagnostics = await session.diagnostics(uri, 1)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("TS290", 4)]

    # The keystroke fast path checks the edited tool alone, then applies the file's comments: not to TS290.
    at = text.split("\n").index('    "type": "object",')
    version = session.change(uri, ((at, 4, at, 4), '"title": "Weather", '))
    after = await session.diagnostics(uri, version)
    assert [(d.code, d.range.start.line) for d in after] == [("TS290", 4)]

    result = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), after[0].range, types.CodeActionContext(diagnostics=[after[0]])
        )
    )
    [action] = [a for a in result or [] if isinstance(a, types.CodeAction) and a.title.startswith("Suppress")]
    assert action.title == "Suppress TS290 for this tool"
    assert action.edit is not None and action.edit.document_changes is not None
    create, change = action.edit.document_changes
    config = session.root / "toolsense.toml"
    assert isinstance(create, types.CreateFile) and create.uri == config.as_uri()
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.uri == config.as_uri()
    written = _applied("", [e for e in change.edits if isinstance(e, types.TextEdit)])
    assert written == '[ignore."weather.tools.json"]\nget_weather = ["TS290"]\n'
