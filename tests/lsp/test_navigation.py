"""Hover, document symbols, folding ranges, go to definition and references over LSP."""

from __future__ import annotations

import json

from lspkit import Session, at, find, neovim_capabilities, span
from lsprotocol import types
from samples import SEND_TOOL, WEATHER_TOOLS, automation

from toolsense.features import markdown


def _markdown(hover: types.Hover | None) -> str:
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    return hover.contents.value


async def test_hover_on_an_envelope_key(session: Session) -> None:
    await session.start("vscode")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    hover = await session.hover(uri, *find(WEATHER_TOOLS, '"description"', 3))
    assert hover is not None and hover.range == span(WEATHER_TOOLS, '"description"')
    assert _markdown(hover) == (
        "**description** · `null | string` · optional\n\nWhat the tool does and when to use it.\n\n"
        "*A tool for Anthropic's Messages API.*"
    )


async def test_hover_inside_an_example_uses_the_tools_own_schema(session: Session) -> None:
    await session.start("vscode")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    example_key = find(WEATHER_TOOLS, '"unit": "kelvin"', 2)
    assert _markdown(await session.hover(uri, *example_key)) == (
        "**unit** · `string` · optional\n\nTemperature unit\n\n"
        'Allowed: `"celsius"`, `"fahrenheit"`\n\n*input of get_weather*'
    )


async def test_hover_on_an_enum_value_gives_its_meaning(session: Session) -> None:
    text = automation("send_message").replace('"manual"', '"polling"')
    await session.start("vscode")
    uri = session.open("automations/report.json", text)
    hover = await session.hover(uri, *find(text, '"polling"', 2))
    assert hover is not None and hover.range == span(text, '"polling"')
    value = _markdown(hover)
    assert value.startswith("**trigger_type** · `string` · required\n\nWhat starts the automation.")
    assert (
        '`"polling"`: A tool polled on an interval (trigger_config: source_tool, polling_interval_minutes).'
    ) in value


async def test_hover_plain_text_for_a_client_without_markdown(session: Session) -> None:
    caps = session_caps_without_markdown()
    await session.start(caps)
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    hover = await session.hover(uri, *find(WEATHER_TOOLS, '"input_schema"', 2))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.PlainText
    assert hover.contents.value.startswith("input_schema · object · required")


def session_caps_without_markdown() -> types.ClientCapabilities:
    caps = neovim_capabilities()
    assert caps.text_document is not None
    caps.text_document.hover = types.HoverClientCapabilities(content_format=[types.MarkupKind.PlainText])
    return caps


async def test_hover_on_json_schema_keyword_and_type(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    keyword = await session.hover(uri, *find(WEATHER_TOOLS, '"additionalProperties"', 1))
    assert _markdown(keyword) == (
        "**additionalProperties** · JSON Schema keyword\n\nWhether (or how) properties not listed in `properties` "
        "are allowed; strict tool use needs `false`.\n\n*input schema*"
    )
    type_value = await session.hover(uri, *find(WEATHER_TOOLS, '"string"', 1))
    assert _markdown(type_value) == "`string` · JSON type\n\nA JSON string."


async def test_hover_on_a_tool_name_in_an_action(session: Session) -> None:
    await session.start("neovim")
    session.open("tools/send.tool.json", SEND_TOOL)
    text = automation("send_message")
    uri = session.open("automations/report.json", text)
    await session.diagnostics(uri, 1)
    value = _markdown(await session.hover(uri, *find(text, '"send_message"', 1)))
    assert "**send_message** · tool (anthropic)\n\nSend a chat message to a channel." in value
    assert "- `channel`: string (required)\n- `priority`: string" in value


async def test_no_hover_on_whitespace_or_unknown_documents(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    assert await session.hover(uri, 0, 0) is None  # "[" has no documentation
    assert await session.hover(session.uri("nowhere.json"), 0, 0) is None
    assert await session.hover(uri, 500, 3) is None  # past the end: clamped, nothing there


async def test_document_symbols_hierarchical(session: Session) -> None:
    await session.start("vscode")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert symbols is not None
    (tool,) = symbols
    assert isinstance(tool, types.DocumentSymbol)
    assert tool.name == "get_weather"
    assert tool.kind == types.SymbolKind.Function
    assert tool.selection_range == span(WEATHER_TOOLS, '"get_weather"')
    assert tool.range.start == types.Position(1, 2)
    assert tool.detail is not None and tool.detail.startswith("anthropic · ≈")  # the tool's tokens, an estimate
    assert tool.detail.endswith(" tokens (o200k_base estimate)")
    assert [(c.name, c.detail) for c in tool.children or []] == [("city", "string · required"), ("unit", "string")]
    assert (tool.children or [])[0].selection_range == span(WEATHER_TOOLS, '"city"')


async def test_document_symbols_flat_for_automation(session: Session) -> None:
    caps = session_caps_without_markdown()
    assert caps.text_document is not None
    caps.text_document.document_symbol = types.DocumentSymbolClientCapabilities(
        hierarchical_document_symbol_support=False
    )
    await session.start(caps)
    text = automation("send_message")
    uri = session.open("automations/report.json", text)
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert symbols is not None
    assert [(s.name, s.kind, getattr(s, "container_name", None)) for s in symbols] == [
        ("Morning report", types.SymbolKind.Module, None),
        ("manual", types.SymbolKind.Event, "Morning report"),
        ("send", types.SymbolKind.Method, "Morning report"),
    ]


async def test_folding_ranges(session: Session) -> None:
    await session.start("vscode")  # lineFoldingOnly: the closing line stays visible
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    folds = await session.client.text_document_folding_range_async(
        types.FoldingRangeParams(types.TextDocumentIdentifier(uri))
    )
    assert folds is not None
    assert [(f.start_line, f.end_line) for f in folds] == [(0, 15), (1, 14), (4, 11), (6, 8)]


async def test_folding_ranges_with_characters(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    folds = await session.client.text_document_folding_range_async(
        types.FoldingRangeParams(types.TextDocumentIdentifier(uri))
    )
    assert folds is not None
    first = folds[2]
    assert (first.start_line, first.start_character, first.end_line, first.end_character) == (4, 20, 12, 4)


async def test_definition_from_an_action_to_the_tool(session: Session) -> None:
    tool_path = session.write("tools/send.tool.json", SEND_TOOL)
    await session.start("neovim")
    text = automation("send_message")
    uri = session.open("automations/report.json", text)
    locations = None
    for _ in range(200):  # the tool comes from background indexing
        locations = await session.client.text_document_definition_async(
            types.DefinitionParams(types.TextDocumentIdentifier(uri), types.Position(*find(text, "send_message", 2)))
        )
        if locations:
            break
        await session.until(lambda: True, "tick")
    assert locations == [types.Location(tool_path.as_uri(), span(SEND_TOOL, '"send_message"'))]


async def test_definition_from_a_parameter_to_the_schema_property(session: Session) -> None:
    await session.start("neovim")
    tool_uri = session.open("tools/send.tool.json", SEND_TOOL)
    await session.diagnostics(tool_uri, 1)
    text = automation("send_message")
    uri = session.open("automations/report.json", text)
    locations = await session.client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(uri), types.Position(*find(text, '"channel"', 2)))
    )
    assert locations == [types.Location(tool_uri, span(SEND_TOOL, '"channel"'))]


async def test_references_of_a_tool(session: Session) -> None:
    await session.start("neovim")
    tool_uri = session.open("tools/send.tool.json", SEND_TOOL)
    text = automation("send_message")
    uri = session.open("automations/report.json", text)
    await session.diagnostics(uri, 1)
    line, character = find(SEND_TOOL, "send_message", 1)
    locations = await session.client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(tool_uri),
            position=types.Position(line, character),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert locations is not None
    assert types.Location(tool_uri, span(SEND_TOOL, '"send_message"')) in locations
    assert types.Location(uri, span(text, '"send_message"')) in locations


async def test_definition_in_a_half_typed_call(session: Session) -> None:
    await session.start("neovim")
    tool_uri = session.open("tools/send.tool.json", SEND_TOOL)
    await session.diagnostics(tool_uri, 1)
    text, line, character = at('{"type": "tool_use", "name": "send_m|essage", "input": {"channel": "x", ')
    # Half typed: the document parsed (and was claimed as a call) before the edit broke it. A file that never
    # parsed is claimed only by settings or `$schema` (issue 30), so it gets no navigation.
    uri = session.open("calls/broken.json", '{"type": "tool_use", "name": "send_message", "input": {}}')
    await session.diagnostics(uri)
    session.change(uri, (None, text))
    locations = await session.client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(uri), types.Position(line, character))
    )
    assert locations == [types.Location(tool_uri, span(SEND_TOOL, '"send_message"'))]


BEACON_TOOLS = json.dumps(
    [
        {
            "name": "get_weather",
            "description": "Weather.\n# toolsense: no problems [details](https://attacker.example/)",
            "input_schema": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City. ![](https://attacker.example/beacon.png?opened=1)"}
                },
                "additionalProperties": False,
            },
            "input_examples": [{"city": "Oslo"}],
        }
    ]
)


async def test_hover_shows_a_files_markdown_as_text_never_renders_it(session: Session) -> None:
    # A description's image was put in the hover's Markdown as it was: the editor fetched it on hover (a beacon),
    # and a heading or link could pass for toolsense's own verdict (the third campaign, F19).
    await session.start("vscode")
    uri = session.open("tools/weather.tools.json", BEACON_TOOLS)
    example = await session.hover(uri, *find(BEACON_TOOLS, '"city": "Oslo"', 2))
    assert _markdown(example) == (
        "**city** · `string` · optional\n\n"
        "City. \\!\\[\\]\\(https\\://attacker.example/beacon.png?opened=1\\)\n\n*input of get_weather*"
    )
    calls = '[{"type": "tool_use", "id": "x", "name": "get_weather", "input": {"city": "Oslo"}}]'
    call_uri = session.open("calls/c.json", calls)
    tool = _markdown(await session.hover(call_uri, *find(calls, '"get_weather"', 2)))
    assert "Weather.\n\\# toolsense: no problems \\[details\\]\\(https\\://attacker.example/\\)" in tool


def test_markdown_text_and_code_cannot_make_markup() -> None:
    heading = "Weather.\n# toolsense: no problems [details](https://x.example/)\n- merge\n1. it\n==\n<img src=x>"
    assert markdown.text(heading) == (
        "Weather.\n\\# toolsense: no problems \\[details\\]\\(https\\://x.example/\\)\n\\- merge\n1\\. it\n\\==\n"
        "\\<img src=x\\>"
    )
    assert markdown.text("get_weather _x_ *y* www.x.com") == "get_weather \\_x\\_ \\*y\\* www\\.x.com"
    assert markdown.code("a``b") == "```a``b```" and markdown.code("`x") == "`` `x ``"
    assert markdown.plain(markdown.text(heading) + " **b** `c`") == heading + " b c"
