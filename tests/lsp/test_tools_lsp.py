"""End to end over stdio: registered models are loaded by the language server in the background (trusted
workspace), calls are then validated by the model, a broken registration is a diagnostic on its settings
entry, and the tool-help providers answer hover and completion."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from checking import MODEL_FIXTURES
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities
from waiting import until_async

TIMEOUT = 60.0


async def until(condition: Callable[[], Any], what: str) -> Any:
    return await until_async(condition, what, TIMEOUT)


WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Weather for a place.",
    "input_schema": {
        "type": "object",
        "properties": {"place": {"type": "object", "description": "Where", "additionalProperties": True}},
        "required": ["place"],
        "additionalProperties": False,
    },
}


@pytest.mark.timeout(180)
async def test_models_are_loaded_in_the_background_and_used(client: LanguageClient, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "tools").mkdir(parents=True)
    (root / "calls").mkdir()
    config = root / "toolsense.toml"
    config.write_text(
        f'python_path = ["{MODEL_FIXTURES}"]\n\n[models]\nget_weather = "tsfx_good:WeatherInput"\n'
        'broken_tool = "tsfx_raises:Model"\n',
        encoding="utf-8",
    )
    (root / "tools" / "weather.json").write_text(json.dumps(WEATHER_TOOL, indent=2), encoding="utf-8")
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim@v0.7.0"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), "ws")],
            initialization_options={"diagnostics": {"debounce_ms": 0}, "trusted": True},
        )
    )
    call = json.dumps(
        {"type": "tool_use", "id": "t", "name": "get_weather", "input": {"place": {"city": "Paris", "zip": "75001"}}},
        indent=2,
    )
    uri = (root / "calls" / "call.json").as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "json", 1, call)))
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]

    def model_diagnostics() -> list[types.Diagnostic] | None:
        for params in reversed(published):
            if params.uri == uri and any(d.code == "TS303" for d in params.diagnostics):
                return list(params.diagnostics)
        return None

    diagnostics = await until(model_diagnostics, "the call checked by the registered model")
    (unknown,) = [d for d in diagnostics if d.code == "TS303"]
    assert (
        unknown.message
        == "the input of 'get_weather', 'place': unknown property 'zip'. Valid properties: city, country"
    )
    line = call.splitlines().index('      "zip": "75001"')
    assert (unknown.range.start.line, unknown.range.start.character, unknown.range.end.character) == (line, 6, 11)

    config_uri = config.resolve().as_uri()

    def config_diagnostics() -> list[types.Diagnostic] | None:
        for params in reversed(published):
            if params.uri == config_uri and params.diagnostics:
                return list(params.diagnostics)
        return None

    (problem,) = await until(config_diagnostics, "the broken registration on its settings entry")
    assert problem.code == "TS801"
    assert (problem.range.start.line, problem.range.start.character, problem.range.end.character) == (4, 0, 11)
    assert problem.message == (
        "registered model 'broken_tool' (tsfx_raises:Model): cannot import 'tsfx_raises': RuntimeError: database not "
        "configured"
    )

    items = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), types.Position(line, 7))
    )
    labels = [i.label for i in (items.items if isinstance(items, types.CompletionList) else items or [])]
    assert "country" in labels

    tool_uri = (root / "tools" / "weather.json").as_uri()
    tool_text = json.dumps(WEATHER_TOOL, indent=2)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(tool_uri, "json", 1, tool_text))
    )
    name_line = tool_text.splitlines().index('  "name": "get_weather",')
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(tool_uri), types.Position(name_line, 14))
    )
    assert hover is not None
    contents = hover.contents
    text = contents.value if isinstance(contents, types.MarkupContent) else str(contents)
    assert text.startswith("**get_weather** — budget (limits as of ")
