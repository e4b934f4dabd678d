"""In the editor, a JSON file that is not ours gets nothing at all; one a folder glob points at gets one note."""

from __future__ import annotations

from lspkit import Session
from lsprotocol import types


async def test_a_json_file_that_is_not_ours_gets_nothing(session: Session) -> None:
    await session.start("neovim")
    broken = session.open("config/settings.json", '{"compilerOptions": {"strict": tru')  # broken, and not ours
    catalogue = session.open("tools/catalogue.json", '[{"name": "CycloneDX Core", "publisher": "CycloneDX"}]')
    assert await session.diagnostics(broken, 1) == []
    (note,) = await session.diagnostics(catalogue, 1)
    assert (note.code, note.severity) == ("TS007", types.DiagnosticSeverity.Information)
    assert note.range == types.Range(types.Position(0, 0), types.Position(0, 1))
    assert note.message.startswith("Not checked: the file's path suggests tool definitions")


def test_a_keystroke_in_a_name_keyed_map_is_checked_with_its_key() -> None:
    import asyncio

    from toolsense.lsp.app import create_server

    text = '{"get_weather": {"description": "Weather.", "parameters": {"type": "object", "properties": {}}}}\n'

    async def run() -> None:
        server = create_server()
        server.text_document_publish_diagnostics = lambda params: None  # type: ignore[method-assign,assignment]
        od = server.open("file:///tmp/claiming/map.json", text, 1, "json")
        server.check(od, "open")
        at = text.index("Weather.") + 1
        change = types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(0, at), types.Position(0, at)), text="x"
        )
        server.change(od, 2, [change])
        server.check(od, "edit")
        # The map's tool says no name (its key does): checked alone it would lack one, so the whole file is checked.
        assert "TS102" not in {d.code for d in od.diagnostics}
        if od.timer is not None:
            od.timer.cancel()

    asyncio.run(run())


async def test_a_json_file_that_is_not_ours_gets_no_answer_to_any_request(session: Session) -> None:
    """The editor hands every JSON document to the server (content decides): for one that is not ours, hover,
    completion, outline, folding, code actions and lenses answer nothing, so VS Code's own JSON support is alone."""
    await session.start("vscode")
    text = '{\n  "name": "demo",\n  "scripts": {\n    "build": "tsc"\n  },\n  "private": \n}\n'
    uri = session.open("package.json", text)
    doc = types.TextDocumentIdentifier(uri)
    client = session.client
    at = types.Position(1, 4)
    assert await client.text_document_hover_async(types.HoverParams(doc, at)) is None
    completion = await client.text_document_completion_async(types.CompletionParams(doc, types.Position(5, 13)))
    items = completion.items if isinstance(completion, types.CompletionList) else (completion or [])
    assert list(items) == []
    assert not await client.text_document_document_symbol_async(types.DocumentSymbolParams(doc))
    assert not await client.text_document_folding_range_async(types.FoldingRangeParams(doc))
    assert not await client.text_document_code_lens_async(types.CodeLensParams(doc))
    context = types.CodeActionContext(diagnostics=[])
    whole = types.Range(types.Position(0, 0), types.Position(6, 1))
    assert not await client.text_document_code_action_async(types.CodeActionParams(doc, whole, context))


async def test_a_broken_file_is_ours_only_by_its_own_clean_history(session: Session) -> None:
    """Text that does not parse is never claimed through error recovery: a pasted transcript gets one note, while
    a file of ours half typed in the editor (it parsed cleanly and was claimed before) keeps its syntax errors."""
    await session.start("neovim")
    transcript = (
        "User: which tools?\nAssistant:\n"
        '{"tools": [{"name": "get_weather", "input_schema": {"type": "object", "extra": 1}}]}\n'
    )
    pasted = session.open("notes/chat.json", transcript)
    (note,) = await session.diagnostics(pasted, 1)
    assert (note.code, note.severity) == ("TS007", types.DiagnosticSeverity.Information)
    clean = (
        '{"tools": [{"name": "a", "description": "Does a.", "input_schema": '
        '{"type": "object", "properties": {}, "additionalProperties": false}}]}'
    )
    ours = session.open("notes/tools.json", clean)
    assert await session.diagnostics(ours, 1) == []
    at = clean.index("]}")
    version = session.change(ours, ((0, at, 0, at), ', {"name": "b", "description": "'))
    broken = await session.diagnostics(ours, version)
    assert "TS001" in {d.code for d in broken}
    version = session.change(ours, (None, '{"tools": [{"name": "a", "input_schema": {'))  # the whole text replaced
    assert "TS001" in {d.code for d in await session.diagnostics(ours, version)}
