"""The compat oracle in the editor, over stdio: `targets` makes a rejection an error at the keyword (TS264) with
its make-portable quick fix, the tool name's hover has a Targets row, and an unknown target is a settings message."""

from __future__ import annotations

import json

from lspkit import Session, find, span
from lsprotocol import types

NOTES = json.dumps(
    {
        "tools": [
            {
                "name": "search_notes",
                "description": "Search the notes by text.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"mode": {"const": "fast", "description": "How to search"}},
                    "required": ["mode"],
                },
            }
        ]
    },
    indent=2,
)


async def test_a_chosen_target_rejects_at_the_keyword_with_a_fix(session: Session) -> None:
    await session.start("neovim", {"diagnostics": {"debounce_ms": 0}, "targets": ["gemini-api", "claude-code"]})
    uri = session.open("tools/notes.tools.json", NOTES)
    diagnostics = [d for d in await session.diagnostics(uri, 1) if d.code == "TS264"]
    (rejected,) = diagnostics
    assert rejected.severity == types.DiagnosticSeverity.Error
    assert rejected.range == span(NOTES, '"const"')
    assert rejected.message == (
        'Gemini API rejects this: Invalid JSON payload received. Unknown name "const" at '
        "'tools[0].function_declarations[N].parameters.properties[0].value': Cannot find field. "
        "(evidence: https://github.com/zed-extensions/mcp-server-brave-search/issues/12, 2025-11-20)"
    )
    actions = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=rejected.range,
            context=types.CodeActionContext(diagnostics=[rejected]),
        )
    )
    portable = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.title.startswith("Make portable")]
    (action,) = portable
    assert action.title == "Make portable for gemini-api, claude-code"
    assert action.edit is not None
    edits = [e for change in (action.edit.document_changes or []) for e in change.edits]  # type: ignore[union-attr]
    if not edits and action.edit.changes:
        edits = list(action.edit.changes[uri])
    assert sorted(e.new_text for e in edits) == ["", ',\n            "type": "string",\n            "enum": ["fast"]']


async def test_the_tool_name_hover_has_a_targets_row(session: Session) -> None:
    await session.start("neovim", {"diagnostics": {"debounce_ms": 0}, "targets": ["gemini-api", "claude-code"]})
    uri = session.open("tools/notes.tools.json", NOTES)
    await session.diagnostics(uri, 1)
    line, character = find(NOTES, '"search_notes"', 3)
    hover = await session.hover(uri, line, character)
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert (
        "Targets (docs/compat.md): rejected by `gemini-api` at `properties/mode/const`; accepted by `claude-code`."
        in hover.contents.value
    )


async def test_an_unknown_target_is_a_settings_message(session: Session) -> None:
    await session.start("neovim", {"targets": ["gemni-api"]})
    (message,) = await session.until(lambda: session.client.messages, "a message")
    assert message.type == types.MessageType.Warning
    assert message.message.startswith(
        "toolsense: invalid setting 'targets.0' in initializationOptions: expected one of "
    )
    assert "'gemini-api'" in message.message and "'gemni-api'" not in message.message
    assert message.message.endswith("(found string). Using the default.")
