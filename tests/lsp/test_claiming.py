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
