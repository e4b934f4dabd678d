"""In the editor, a dataset line's `tools` JSON string is checked as in the CLI, with ranges inside the string;
a keystroke inside the string re-checks it, and the editor's features stay out of the string."""

from __future__ import annotations

import json

from checking import check
from lspkit import Session
from lsprotocol import types
from positions import lsp_position

TOOL = {"name": "get_weather", "description": "Wé ☀ now", "parameters": {"type": "dict", "properties": {}}}
LINE = json.dumps({"messages": [{"role": "user", "content": "😀"}], "tools": json.dumps([TOOL])}, ensure_ascii=False)
TEXT = LINE + "\n" + LINE + "\n"


def _ranges(diagnostics: list[types.Diagnostic]) -> list[tuple[str | int | None, int, int, int]]:
    return [(d.code, d.range.start.line, d.range.start.character, d.range.end.character) for d in diagnostics]


async def test_a_dataset_tools_string_in_the_editor(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("data/train.jsonl", TEXT)
    published = await session.diagnostics(uri)
    expected = [(d.code, *d.range[:2], d.range[3]) for d in check(TEXT, None, uri=uri)]
    dict_at = TEXT.index('\\"dict\\"')
    assert ("TS214", *lsp_position(TEXT, dict_at), lsp_position(TEXT, dict_at + 8)[1]) in expected
    assert sorted(_ranges(published), key=str) == sorted(expected, key=str)

    line, character = lsp_position(TEXT, dict_at + 3)
    # Inside the string: no completion or hover would write or read its escaped text as JSON.
    assert await session.hover(uri, line, character) is None
    assert await session.completion(uri, line, character) == []
    await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    await session.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            types.Range(types.Position(line, character), types.Position(line, character)),
            types.CodeActionContext(diagnostics=[d for d in published if d.range.start.line == line]),
        )
    )

    # "dict" → "object" inside the string on the first line: its TS214 goes, the second line's stays.
    start = lsp_position(TEXT, TEXT.index("dict"))
    session.change(uri, ((*start, line, start[1] + 4), "object"))
    edited = TEXT.replace("dict", "object", 1)
    after = await session.diagnostics(uri)
    assert sorted(_ranges(after), key=str) == sorted(
        ((d.code, *d.range[:2], d.range[3]) for d in check(edited, None, uri=uri)), key=str
    )
    assert [d.range.start.line for d in after if d.code == "TS214"] == [1]
