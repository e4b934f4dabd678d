"""Code actions end to end over stdio (pytest-lsp): request, apply the WorkspaceEdit client-side, re-check.

Four client profiles: VS Code 1.65 (documentChanges, resolve), VS Code with snippet text edits, Neovim 0.10
(`changes` only) and Emacs 29 (documentChanges, no resolve, no data).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from fixing import WORKSPACE, loads
from lspkit import CONFIG
from lsprotocol import types
from lspstop import stop_server
from pytest_lsp import LanguageClient, client_capabilities
from waiting import until_async

from toolsense.document.document import Document
from toolsense.document.lines import Position
from toolsense.fixes import TextEdit, apply_edits
from toolsense.fixes.text import _plain

PROFILES = {
    "vscode": "visual-studio-code",
    "vscode-snippets": "visual-studio-code",
    "neovim": "neovim",
    "emacs": "emacs",
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lsp") / "ws"
    shutil.copytree(WORKSPACE, folder)
    return folder


pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(
    config=CONFIG,
    params=list(PROFILES),
    scope="module",
    loop_scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest, root: Path) -> Any:
    capabilities = client_capabilities(PROFILES[request.param])
    if request.param == "vscode-snippets":
        assert capabilities.workspace is not None and capabilities.workspace.workspace_edit is not None
        capabilities.workspace.workspace_edit.snippet_edit_support = True
    lsp_client.profile = request.param  # type: ignore[attr-defined]

    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), "ws")],
            initialization_options={"diagnostics": {"debounce_ms": 0}},
        )
    )
    encoding = str(getattr(result.capabilities.position_encoding, "value", result.capabilities.position_encoding))
    lsp_client.encoding = encoding or "utf-16"  # type: ignore[attr-defined]
    # Wait for the background indexing of the workspace's tools (reported with $/progress).

    def indexed() -> bool:
        reports = [r for token, r in lsp_client.progress_reports.items() if str(token).startswith("toolsense-index")]
        return any(isinstance(report, types.WorkDoneProgressEnd) for r in reports for report in r)

    await until_async(indexed, "the workspace indexed")
    yield
    await stop_server(lsp_client)


# --- a tiny client-side editor ------------------------------------------------------------------------------


class Open:
    """A document open in the test client: its text and version, kept in step with the server."""

    def __init__(self, client: LanguageClient, path: Path, text: str) -> None:
        self.client, self.uri, self.text, self.version = client, path.as_uri(), text, 1

    async def diagnostics(self) -> list[types.Diagnostic]:
        """The diagnostics of the current version: pulled when the client pulls, else as published."""
        text_caps = self.client.capabilities.text_document if self.client.capabilities else None
        if text_caps is not None and text_caps.diagnostic is not None:
            report = await self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(self.uri))
            )
            assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
            return list(report.items)
        while True:
            published = self.client.diagnostics.get(self.uri)
            versions = self.client.diagnostic_versions  # type: ignore[attr-defined]
            if published is not None and versions.get(self.uri) == self.version:
                return list(published)
            await self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    async def actions(self, range_: types.Range, diagnostics: list[types.Diagnostic], only: list[str] | None = None):  # type: ignore[no-untyped-def]
        result = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(self.uri),
                range=range_,
                context=types.CodeActionContext(diagnostics=diagnostics, only=only),
            )
        )
        return [a for a in result or [] if isinstance(a, types.CodeAction)]

    async def apply(self, edit: types.WorkspaceEdit) -> None:
        """Apply a WorkspaceEdit the way an editor does, then send the new text."""
        document = Document.from_text(self.uri, self.text, encoding=self.client.encoding)  # type: ignore[attr-defined]
        edits: list[TextEdit] = []
        if edit.document_changes is not None:
            assert edit.changes is None
            for change in edit.document_changes:
                assert isinstance(change, types.TextDocumentEdit)
                assert change.text_document.uri == self.uri
                assert change.text_document.version == self.version
                for item in change.edits:
                    start = document.offset_at(Position(item.range.start.line, item.range.start.character))
                    end = document.offset_at(Position(item.range.end.line, item.range.end.character))
                    if isinstance(item, types.SnippetTextEdit):
                        edits.append(TextEdit(start, end, item.snippet.value, snippet=True))
                    else:
                        assert isinstance(item, types.TextEdit)
                        edits.append(TextEdit(start, end, item.new_text))
        else:
            assert edit.changes is not None and list(edit.changes) == [self.uri]
            for item in edit.changes[self.uri]:
                start = document.offset_at(Position(item.range.start.line, item.range.start.character))
                end = document.offset_at(Position(item.range.end.line, item.range.end.character))
                edits.append(TextEdit(start, end, item.new_text))
        # Snippets are inserted as the editor would once the user accepts the placeholders.
        plain = [TextEdit(e.start, e.end, _plain(e)) for e in edits]
        self.text = apply_edits(document.data, plain).decode("utf-8")
        self.version += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(version=self.version, uri=self.uri),
                content_changes=[types.TextDocumentContentChangeWholeDocument(self.text)],
            )
        )
        self.last_edits = edits


async def open_file(client: LanguageClient, path: Path, text: str | None = None) -> Open:
    text = path.read_text(encoding="utf-8") if text is None else text
    opened = Open(client, path, text)
    client.opened.append(opened.uri)  # type: ignore[attr-defined]
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(opened.uri, "json", opened.version, text))
    )
    return opened


@pytest.fixture(autouse=True)
def _each_test(client: LanguageClient) -> Any:
    """Close what the test opened (one server serves every test of a profile)."""
    client.opened = []  # type: ignore[attr-defined]
    yield
    for uri in client.opened:  # type: ignore[attr-defined]
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
        client.diagnostics.pop(uri, None)
        client.diagnostic_versions.pop(uri, None)  # type: ignore[attr-defined]


def by_code(diagnostics: list[types.Diagnostic], code: str) -> types.Diagnostic:
    found = [d for d in diagnostics if d.code == code]
    assert found, [(d.code, d.message) for d in diagnostics]
    return found[0]


def codes(diagnostics: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


# --- tests ----------------------------------------------------------------------------------------------------


async def test_rename_unknown_key(client: LanguageClient, root: Path) -> None:
    doc = await open_file(client, root / "wrong" / "typos.tool.json")
    before = await doc.diagnostics()
    target = by_code(before, "TS101")
    actions = await doc.actions(target.range, [target])
    titles = [a.title for a in actions]
    assert titles[:2] == ["Rename to 'description'", "Remove property 'descripton'"], titles
    rename = actions[0]
    assert rename.kind == types.CodeActionKind.QuickFix
    assert list(rename.diagnostics or []) == [target]
    assert rename.is_preferred is True
    assert not actions[1].is_preferred
    assert rename.edit is not None
    await doc.apply(rename.edit)
    assert doc.text == (root / "wrong" / "typos.tool.json").read_text().replace('"descripton"', '"description"')
    after = await doc.diagnostics()
    assert "TS101" not in codes(after)
    assert set(codes(after)) <= set(codes(before))


async def test_remove_property_keeps_the_json_valid(client: LanguageClient, root: Path) -> None:
    path = root / "wrong" / "typos.tool.json"
    text = path.read_text().replace("\n", "\r\n").replace("  ", "\t")
    doc = await open_file(client, path, text)
    target = by_code(await doc.diagnostics(), "TS101")
    remove = next(a for a in await doc.actions(target.range, [target]) if a.title.startswith("Remove"))
    assert remove.edit is not None
    await doc.apply(remove.edit)
    assert doc.text == text.replace('\t"descripton": "Create a support ticket.",\r\n', "")
    loads(doc.text)
    assert "TS101" not in codes(await doc.diagnostics())


async def test_event_data_in_a_template(client: LanguageClient, root: Path) -> None:
    """A replacement inside a string, with an emoji before it on the line (UTF-16 columns)."""
    path = root / "wrong" / "broken.automation.json"
    text = path.read_text().replace('"text": "{{event_data.text}}"', '"text": "😀 {{event_data.text}} 😀"')
    doc = await open_file(client, path, text)
    target = by_code(await doc.diagnostics(), "TS502")
    actions = await doc.actions(target.range, [target])
    fix = next(a for a in actions if "trigger_data" in a.title)
    assert fix.edit is not None
    await doc.apply(fix.edit)
    assert doc.text == text.replace("{{event_data.text}}", "{{trigger_data.text}}")
    assert "TS502" not in codes(await doc.diagnostics())


async def test_insert_missing_property_with_or_without_snippets(client: LanguageClient, root: Path) -> None:
    path = root / "automations" / "missing-id.automation.json"
    text = (
        '{\n  "name": "No id",\n  "trigger_type": "manual",\n  "trigger_config": {},\n  "actions": [\n'
        '    {\n      "tool": "send_push_notification",\n      "parameters": {"title": "Hi", "body": "There"}\n'
        "    }\n  ]\n}\n"
    )
    doc = await open_file(client, path, text)
    target = by_code(await doc.diagnostics(), "TS102")
    add = next(a for a in await doc.actions(target.range, [target]) if a.title.startswith("Add missing"))
    assert add.edit is not None
    snippets = client.profile == "vscode-snippets"  # type: ignore[attr-defined]
    await doc.apply(add.edit)
    assert any(e.snippet for e in doc.last_edits) == snippets
    if snippets:
        assert any(re.search(r'"id": "\$1"', e.text) for e in doc.last_edits)
    expected = text.replace(
        '"parameters": {"title": "Hi", "body": "There"}\n',
        '"parameters": {"title": "Hi", "body": "There"},\n      "id": ""\n',
    )
    assert doc.text == expected
    assert "TS102" not in codes(await doc.diagnostics())


async def test_only_filters_kinds(client: LanguageClient, root: Path) -> None:
    doc = await open_file(client, root / "wrong" / "typos.tool.json")
    diagnostics = await doc.diagnostics()
    whole = types.Range(types.Position(0, 0), types.Position(99, 0))
    quick = await doc.actions(whole, diagnostics, only=[types.CodeActionKind.QuickFix])
    assert quick and all(a.kind == types.CodeActionKind.QuickFix for a in quick)
    source = await doc.actions(whole, diagnostics, only=[types.CodeActionKind.Source])
    assert {a.kind for a in source} == {"source.fixAll.toolsense"}
    assert await doc.actions(whole, diagnostics, only=[types.CodeActionKind.Refactor]) == []


async def test_fix_all_on_request(client: LanguageClient, root: Path) -> None:
    path = root / "wrong" / "broken.automation.json"
    original = path.read_text()
    doc = await open_file(client, path)
    diagnostics = await doc.diagnostics()
    [fix_all] = await doc.actions(types.Range(types.Position(0, 0), types.Position(0, 0)), [], only=["source.fixAll"])
    assert fix_all.kind == "source.fixAll.toolsense" and fix_all.edit is not None
    await doc.apply(fix_all.edit)
    assert doc.text == original.replace("{{event_data.text}}", "{{trigger_data.text}}")  # the safe fix only
    after = await doc.diagnostics()
    assert "TS502" not in codes(after) and "TS104" in codes(after)
    assert len(after) == len(diagnostics) - 1


async def test_fix_all_resolved_lazily(client: LanguageClient, root: Path) -> None:
    doc = await open_file(client, root / "wrong" / "typos.tool.json")
    diagnostics = await doc.diagnostics()
    actions = await doc.actions(types.Range(types.Position(12, 0), types.Position(12, 0)), diagnostics)
    fix_all = next(a for a in actions if a.kind == "source.fixAll.toolsense")
    if client.profile in ("vscode", "vscode-snippets", "neovim"):  # type: ignore[attr-defined]
        assert fix_all.edit is None and fix_all.data is not None
        fix_all = await client.code_action_resolve_async(fix_all)
    assert fix_all.edit is not None
    await doc.apply(fix_all.edit)
    assert '"strict": true' in doc.text
    assert "TS105" not in codes(await doc.diagnostics())


async def test_close_every_object_schema(client: LanguageClient, root: Path) -> None:
    path = root / "tools" / "open.tools.json"
    text = (
        '{\n  "tools": [\n    {\n      "name": "plan_trip",\n'
        '      "description": "Plan a trip between two places and return the itinerary.",\n'
        '      "input_schema": {\n        "type": "object",\n        "properties": {\n'
        '          "from": {"type": "object", "description": "Start", "properties": {"city": {"type": "string", '
        '"description": "City"}}},\n'
        '          "stops": {"type": "array", "description": "Stops", "items": {"type": "object", '
        '"properties": {"city": {"type": "string", "description": "City"}}}}\n'
        "        }\n      }\n    }\n  ]\n}\n"
    )
    doc = await open_file(client, path, text)
    before = await doc.diagnostics()
    assert "TS220" in codes(before)
    [close] = await doc.actions(
        types.Range(types.Position(0, 0), types.Position(0, 0)), [], only=["source.toolsense.closeObjects"]
    )
    assert close.edit is not None
    await doc.apply(close.edit)
    value = loads(doc.text)
    schema = value["tools"][0]["input_schema"]  # type: ignore[index]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["from"]["additionalProperties"] is False
    assert schema["properties"]["stops"]["items"]["additionalProperties"] is False
    assert (
        '"properties": {"city": {"type": "string", "description": "City"}}, "additionalProperties": false}' in doc.text
    )
    after = await doc.diagnostics()
    assert "TS220" not in codes(after)
    assert set(codes(after)) <= set(codes(before))


async def test_no_fixes_while_the_file_has_a_syntax_error(client: LanguageClient, root: Path) -> None:
    path = root / "wrong" / "typos.tool.json"
    text = path.read_text().replace('"required": ["title"],', '"required": ["title"],,')
    doc = await open_file(client, path, text)
    diagnostics = await doc.diagnostics()
    assert "TS001" in codes(diagnostics)
    whole = types.Range(types.Position(0, 0), types.Position(99, 0))
    assert [a for a in await doc.actions(whole, diagnostics) if a.edit is not None] == []


MISPLACED = """[
  {
    "type": "function",
    "function": {
      "name": "create_event",
      "description": "Create an event.",
      "parameters": {
        "type": "object",
        "properties": {"title": {"type": "string", "description": "Title"}},
        "additionalProperties": false
      },
      "required": ["title"]
    }
  }
]
"""


async def test_move_a_misplaced_required_into_the_schema(client: LanguageClient, root: Path) -> None:
    doc = await open_file(client, root / "tools" / "misplaced.tools.json", MISPLACED)
    target = by_code(await doc.diagnostics(), "TS101")
    assert (
        target.message
        == "'required' belongs inside 'parameters': beside it, it is not part of the schema the model sees"
    )
    [move] = [a for a in await doc.actions(target.range, [target]) if a.title.startswith("Move")]
    assert move.title == "Move 'required' into 'parameters'" and move.is_preferred is True
    assert move.edit is not None
    await doc.apply(move.edit)
    assert doc.text == MISPLACED.replace(
        '"additionalProperties": false\n      },\n      "required": ["title"]\n',
        '"additionalProperties": false,\n        "required": ["title"]\n      }\n',
    )
    assert "TS101" not in codes(await doc.diagnostics())
