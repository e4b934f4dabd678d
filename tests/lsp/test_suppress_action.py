"""The quick fix "Suppress TS220 for this tool" over stdio: the edit it carries is applied as an editor would, and
the diagnostic is gone after it — a `// toolsense-ignore` comment where the file takes comments, the settings'
`ignore` table (a new or an existing toolsense.toml) for plain JSON."""

from __future__ import annotations

import json

import pytest
from lspkit import Session, neovim_capabilities
from lsprotocol import types

from toolsense.document.document import Document
from toolsense.document.lines import Position
from toolsense.fixes import TextEdit, apply_edits

pytestmark = pytest.mark.asyncio

TOOLS = [
    {
        "name": name,
        "description": f"Gets the {name[4:]} for a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string", "description": "The city."}}},
    }
    for name in ("get_weather", "get_time")
]


def _capabilities() -> types.ClientCapabilities:
    """Neovim's, with documentChanges and file creation (as VS Code has them), push diagnostics."""
    caps = neovim_capabilities()
    assert caps.workspace is not None
    caps.workspace.workspace_edit = types.WorkspaceEditClientCapabilities(
        document_changes=True, resource_operations=[types.ResourceOperationKind.Create]
    )
    return caps


def _applied(text: str, edits: list[types.TextEdit]) -> str:
    document = Document.from_text("file:///x.json", text)
    spans = [
        TextEdit(
            document.offset_at(Position(e.range.start.line, e.range.start.character)),
            document.offset_at(Position(e.range.end.line, e.range.end.character)),
            e.new_text,
        )
        for e in edits
    ]
    return apply_edits(document.data, spans).decode("utf-8")


def _edits(edit: types.WorkspaceEdit | None) -> list[types.TextDocumentEdit | types.CreateFile]:
    assert edit is not None and edit.changes is None and edit.document_changes is not None
    return [
        change for change in edit.document_changes if isinstance(change, (types.TextDocumentEdit, types.CreateFile))
    ]


async def _suppress_action(session: Session, uri: str, diagnostic: types.Diagnostic) -> types.CodeAction:
    result = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), diagnostic.range, types.CodeActionContext(diagnostics=[diagnostic])
        )
    )
    titles = [a.title for a in result or [] if isinstance(a, types.CodeAction)]
    action = next((a for a in result or [] if isinstance(a, types.CodeAction) and a.title.startswith("Suppress")), None)
    assert action is not None, titles
    assert action.title == "Suppress TS220 for this tool"
    return action


def _ts220_of(diagnostics: list[types.Diagnostic], line: int) -> types.Diagnostic:
    return next(d for d in diagnostics if d.code == "TS220" and d.range.start.line == line)


async def test_a_comment_above_the_tool_where_the_file_takes_comments(session: Session) -> None:
    await session.start(_capabilities())
    text = "// the weather tools\n" + json.dumps(TOOLS, indent=2) + "\n"
    uri = session.open("weather.tools.json", text, write=True)
    diagnostics = await session.diagnostics(uri, 1)
    assert sorted((d.code, d.range.start.line) for d in diagnostics) == [("TS220", 5), ("TS220", 18)]
    action = await _suppress_action(session, uri, _ts220_of(diagnostics, 18))
    (change,) = _edits(action.edit)
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri
    new_text = _applied(text, [e for e in change.edits if isinstance(e, types.TextEdit)])
    lines = new_text.split("\n")
    assert lines[15:17] == ["  // toolsense-ignore TS220", "  {"]  # above the second tool, indented like it
    version = session.change(uri, (None, new_text))
    after = await session.diagnostics(uri, version)
    assert [(d.code, d.range.start.line) for d in after] == [("TS220", 5)]  # the first tool's stays

    action = await _suppress_action(session, uri, _ts220_of(after, 5))
    (change,) = _edits(action.edit)
    assert isinstance(change, types.TextDocumentEdit)
    newer = _applied(new_text, [e for e in change.edits if isinstance(e, types.TextEdit)])
    assert newer.split("\n")[1:3] == ["[", "  // toolsense-ignore TS220"]
    version = session.change(uri, (None, newer))
    assert await session.diagnostics(uri, version) == []


async def test_plain_json_gets_an_entry_in_a_new_toolsense_toml(session: Session) -> None:
    await session.start(_capabilities())
    text = json.dumps(TOOLS, indent=2) + "\n"
    uri = session.open("tools/weather.json", text, write=True)
    diagnostics = await session.diagnostics(uri, 1)
    action = await _suppress_action(session, uri, _ts220_of(diagnostics, 4))
    create, change = _edits(action.edit)
    config = session.root / "toolsense.toml"
    assert isinstance(create, types.CreateFile) and create.uri == config.as_uri()
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.uri == config.as_uri()
    written = _applied("", [e for e in change.edits if isinstance(e, types.TextEdit)])
    assert written == '[ignore."tools/weather.json"]\nget_weather = ["TS220"]\n'
    config.write_text(written, encoding="utf-8")
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(config.as_uri(), types.FileChangeType.Created)])
    )
    after = await session.diagnostics(uri, 1, predicate=lambda found: len(found) == 1)
    assert [(d.code, d.range.start.line) for d in after] == [("TS220", 17)]  # get_time's stays

    # Once the table is there, the other tool's entry goes into it.
    action = await _suppress_action(session, uri, _ts220_of(after, 17))
    (change,) = _edits(action.edit)
    assert isinstance(change, types.TextDocumentEdit)
    updated = _applied(written, [e for e in change.edits if isinstance(e, types.TextEdit)])
    assert updated == '[ignore."tools/weather.json"]\nget_time = ["TS220"]\nget_weather = ["TS220"]\n'


async def test_an_existing_entry_of_the_tool_gets_the_code_added(session: Session) -> None:
    settings = 'profiles = ["anthropic"]\n\n[ignore."tools/weather.json"]\nget_weather = ["TS241"]\n'
    config = session.write("toolsense.toml", settings)
    await session.start(_capabilities())
    text = json.dumps(TOOLS[:1], indent=2) + "\n"
    uri = session.open("tools/weather.json", text, write=True)
    diagnostics = await session.diagnostics(uri, 1)
    action = await _suppress_action(session, uri, _ts220_of(diagnostics, 4))
    (change,) = _edits(action.edit)
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.uri == config.as_uri()
    updated = _applied(config.read_text(encoding="utf-8"), [e for e in change.edits if isinstance(e, types.TextEdit)])
    assert updated == 'profiles = ["anthropic"]\n\n[ignore."tools/weather.json"]\nget_weather = ["TS241", "TS220"]\n'


async def test_a_keystroke_inside_a_tool_keeps_the_comment_above_it(session: Session) -> None:
    """The keystroke fast path checks the edited tool alone: the comment above it (outside its text) still counts."""
    await session.start(_capabilities())
    text = "[\n  // toolsense-ignore TS220\n" + json.dumps(TOOLS, indent=2)[2:] + "\n"
    uri = session.open("weather.tools.json", text, write=True)
    assert [(d.code, d.range.start.line) for d in await session.diagnostics(uri, 1)] == [("TS220", 18)]
    at = text.split("\n").index('      "type": "object",')  # inside the first tool's schema
    version = session.change(uri, ((at, 6, at, 6), '"title": "Weather", '))
    assert [(d.code, d.range.start.line) for d in await session.diagnostics(uri, version)] == [("TS220", 18)]


async def test_a_linked_configuration_is_refused_and_never_written_through(session: Session) -> None:
    """Issue 32 (F01, F21): the workspace's toolsense.toml is a link to a file outside (a secret in it): the
    server says it does not read it, shows nothing of it, and offers no suppress action (whose edit the editor
    would write through the link, out of the workspace)."""
    outside = session.root.parent / "credentials.toml"
    outside.write_text('[registry]\ntoken = "cio_TOPSECRET_4242"\n', encoding="utf-8")
    link = session.root / "toolsense.toml"
    link.symlink_to(outside)
    await session.start(_capabilities())
    (message,) = await session.until(lambda: session.client.messages, "a message")
    assert message.message == (
        f"toolsense: configuration: {link} is not read: it is a symbolic link (toolsense reads no configuration "
        "through a link, which could lead outside the project; name the file itself with --config, or copy it)"
    )
    uri = session.open("tools/weather.json", json.dumps(TOOLS, indent=2) + "\n", write=True)
    diagnostics = await session.diagnostics(uri, 1)
    diagnostic = _ts220_of(diagnostics, 4)
    result = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), diagnostic.range, types.CodeActionContext(diagnostics=[diagnostic])
        )
    )
    assert [a.title for a in result or [] if a.title.startswith("Suppress")] == []
    assert all("TOPSECRET" not in m.message for m in session.client.messages)
    assert outside.read_text(encoding="utf-8") == '[registry]\ntoken = "cio_TOPSECRET_4242"\n'
