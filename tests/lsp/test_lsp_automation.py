"""Automations through a real `toolsense serve` over stdio (pytest-lsp): diagnostics, completion, hover,
definition and references, with a workspace of tool definitions on disk (a fresh server per test)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import pytest_lsp
from automations import TOOLS
from lspkit import CONFIG
from lsprotocol import types
from lspstop import stop_server
from positions import lsp_position
from pytest_lsp import LanguageClient
from waiting import until_async

AUTOMATION = """{
  "name": "Sleep alert",
  "trigger_type": "polling",
  "trigger_config": {
    "source_tool": "oura_get_daily_sleep",
    "polling_interval_minutes": 60,
    "tool_params": {"start_date": "{{yesterday}}"}
  },
  "actions": [
    {
      "id": "classify",
      "tool": "llm_classify",
      "parameters": {"text": "{{trigger_data.score}}", "question": "Tired?", "options": ["YES", "NO"]},
      "output_as": "verdict"
    },
    {
      "id": "notify",
      "tool": "send_push_notificaton",
      "parameters": {"title": "😀 \\"{{event_data.day}}\\"", "body": "{{verdict.answer}} {{trigger_data.sleep_score}}"}
    }
  ]
}"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws")
    (root / "tools").mkdir()
    (root / "tools" / "registry.tools.json").write_text(json.dumps(TOOLS, indent=2), encoding="utf-8")
    (root / "automations").mkdir()
    (root / "automations" / "sleep.json").write_text(AUTOMATION, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, workspace: Path):  # type: ignore[no-untyped-def]
    params = types.InitializeParams(
        capabilities=types.ClientCapabilities(
            text_document=types.TextDocumentClientCapabilities(
                hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
                publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True),
            ),
            general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf16]),
        ),
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(workspace.as_uri(), "ws")],
    )
    await lsp_client.initialize_session(params)
    yield
    await stop_server(lsp_client)


def _uri(workspace: Path) -> str:
    return (workspace / "automations" / "sleep.json").as_uri()


async def _open(client: LanguageClient, workspace: Path, text: str = AUTOMATION) -> str:
    uri = _uri(workspace)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="json", version=1, text=text))
    )
    return uri


async def _diagnostics(client: LanguageClient, uri: str, codes: set[str]) -> list[types.Diagnostic]:
    """The document's diagnostics once they include every code (the tools on disk are indexed meanwhile)."""

    def found() -> list[types.Diagnostic] | None:
        published = client.diagnostics.get(uri, [])
        return published if codes <= {str(d.code) for d in published} else None

    return await until_async(found, f"diagnostics {codes} for {uri}")


async def _settle(client: LanguageClient) -> None:
    """The server has run every pending check and fed the registry (see `toolsense/settle`)."""
    await asyncio.wait_for(client.protocol.send_request_async("toolsense/settle", None), 60)


def _at(text: str, marker: str) -> types.Position:
    """Position (UTF-16) of the `|` in marker, found in text."""
    return types.Position(*lsp_position(text, text.index(marker.replace("|", "")) + marker.index("|")))


@pytest.mark.asyncio
async def test_diagnostics_ranges_and_messages(client: LanguageClient, workspace: Path) -> None:
    uri = await _open(client, workspace)
    found = await _diagnostics(client, uri, {"TS403", "TS502", "TS610"})
    shown = sorted((str(d.code), d.range.start.line, d.range.start.character, d.range.end.character) for d in found)
    # Line 18: the emoji counts two UTF-16 units, the escaped quote two characters of source.
    assert shown == [
        ("TS403", 17, 14, 37),
        ("TS502", 18, 36, 54),
        ("TS610", 18, 87, 115),
    ]
    unknown = next(d for d in found if d.code == "TS403")
    assert unknown.message == "Unknown tool 'send_push_notificaton'. Did you mean 'send_push_notification'?"


@pytest.mark.asyncio
async def test_preflight_after_the_tool_is_fixed(client: LanguageClient, workspace: Path) -> None:
    fixed = AUTOMATION.replace("send_push_notificaton", "send_push_notification")
    uri = await _open(client, workspace, fixed)
    found = await _diagnostics(client, uri, {"TS610"})
    preflight = next(d for d in found if d.code == "TS610")
    assert preflight.message == (
        "Path 'trigger_data.sleep_score' not found in oura_get_daily_sleep output. "
        "Available fields: score, day, timestamp, contributors"
    )
    assert (preflight.range.start.line, preflight.range.start.character, preflight.range.end.character) == (18, 87, 115)
    assert not any(d.code == "TS403" for d in found)


@pytest.mark.asyncio
async def test_completion_of_template_fields(client: LanguageClient, workspace: Path) -> None:
    text = AUTOMATION.replace("{{verdict.answer}}", "{{verdict.}}")
    uri = await _open(client, workspace, text)
    await _diagnostics(client, uri, {"TS403"})
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), _at(text, "{{verdict.|}}"))
    )
    items = result.items if isinstance(result, types.CompletionList) else result or []
    labels = [item.label for item in items]
    assert labels[:2] == ["answer", "confidence"]


@pytest.mark.asyncio
async def test_hover_definition_and_references(client: LanguageClient, workspace: Path) -> None:
    uri = await _open(client, workspace, AUTOMATION)
    await _diagnostics(client, uri, {"TS403"})
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), _at(AUTOMATION, "{{trigger_data.sc|ore}}"))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.startswith("**`trigger_data.score`** · `integer`")
    tool_hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), _at(AUTOMATION, '"llm_cl|assify"'))
    )
    assert tool_hover is not None and isinstance(tool_hover.contents, types.MarkupContent)
    assert "Classify a text into one of the given options with an LLM." in tool_hover.contents.value

    definition = await client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(uri), _at(AUTOMATION, "{{verd|ict.answer}}"))
    )
    assert isinstance(definition, list) and len(definition) == 1
    target = definition[0]
    assert isinstance(target, types.Location)
    assert target.uri == uri
    output_as = _at(AUTOMATION, '"output_as": |"verdict"')
    assert target.range.start == output_as

    tool_definition = await client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(uri), _at(AUTOMATION, '"llm_cl|assify"'))
    )
    assert isinstance(tool_definition, list) and len(tool_definition) == 1
    assert isinstance(tool_definition[0], types.Location)
    assert tool_definition[0].uri == (workspace / "tools" / "registry.tools.json").as_uri()

    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri),
            position=_at(AUTOMATION, '"output_as": "ver|dict"'),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert refs is not None
    starts = sorted((r.range.start.line, r.range.start.character) for r in refs)
    body = _at(AUTOMATION, '"body": "{{|verdict.answer}}')
    assert starts == [(body.line, body.character)]


@pytest.mark.asyncio
async def test_references_from_a_tool_definition_to_the_automations_using_it(
    client: LanguageClient, workspace: Path
) -> None:
    uri = await _open(client, workspace)
    await _diagnostics(client, uri, {"TS403"})
    tools_text = json.dumps(TOOLS, indent=2)
    tools_uri = (workspace / "tools" / "registry.tools.json").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=tools_uri, language_id="json", version=1, text=tools_text)
        )
    )
    await _settle(client)  # the opened tool file has fed the registry
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(tools_uri),
            position=_at(tools_text, '"name": "llm_cl|assify"'),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert refs is not None
    uses = [(r.uri, r.range.start.line, r.range.start.character) for r in refs]
    tool = _at(AUTOMATION, '"tool": |"llm_classify"')
    assert uses == [(uri, tool.line, tool.character)]


@pytest.mark.asyncio
async def test_open_automations_are_rechecked_when_a_tool_appears(client: LanguageClient, workspace: Path) -> None:
    uri = await _open(client, workspace)
    found = await _diagnostics(client, uri, {"TS403"})
    assert any(d.code == "TS403" for d in found)
    extra = {"tools": [{"name": "send_push_notificaton", "inputSchema": {"type": "object"}}]}
    extra_uri = (workspace / "tools" / "extra.tools.json").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=extra_uri, language_id="json", version=1, text=json.dumps(extra))
        )
    )
    await until_async(
        lambda: not any(d.code == "TS403" for d in client.diagnostics.get(uri, [])), "the automation re-checked"
    )
    await _settle(client)  # and no later check brings the finding back
    assert not any(d.code == "TS403" for d in client.diagnostics.get(uri, []))
