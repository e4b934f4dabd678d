"""`textDocument/completion`: candidates from `features.completion` as LSP items, each a TextEdit over the
partial token (snippets only for clients that support them)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from ..features.completion import complete, replace_span
from ..features.providers import CandidateKind, CompletionCandidate, CursorQuery
from .convert import span_range
from .server import ToolsenseServer

ITEM_KINDS: dict[CandidateKind, types.CompletionItemKind] = {
    "property": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.Value,
    "enum": types.CompletionItemKind.EnumMember,
    "keyword": types.CompletionItemKind.Keyword,
    "type": types.CompletionItemKind.TypeParameter,
    "tool": types.CompletionItemKind.Function,
    "snippet": types.CompletionItemKind.Snippet,
    "reference": types.CompletionItemKind.Reference,
    "text": types.CompletionItemKind.Text,
}

TRIGGER_CHARACTERS = ['"', ":"]


def to_item(server: ToolsenseServer, query: CursorQuery, candidate: CompletionCandidate) -> types.CompletionItem:
    document = query.document
    start, end = candidate.replace or replace_span(query)
    use_snippet = server.caps.snippets and candidate.snippet is not None
    text = candidate.snippet if use_snippet and candidate.snippet is not None else candidate.insert_text
    documentation: str | types.MarkupContent | None = None
    if candidate.documentation:
        if server.caps.markdown_completion:
            documentation = types.MarkupContent(types.MarkupKind.Markdown, candidate.documentation)
        else:
            documentation = candidate.documentation
    additional = [
        types.TextEdit(span_range(document, a, b), new_text) for a, b, new_text in candidate.additional_edits
    ] or None
    return types.CompletionItem(
        label=candidate.label,
        kind=ITEM_KINDS.get(candidate.kind, types.CompletionItemKind.Value),
        detail=candidate.detail,
        documentation=documentation,
        sort_text=candidate.sort_text,
        filter_text=candidate.filter_text,
        preselect=candidate.preselect or None,
        text_edit=types.TextEdit(span_range(document, start, end), text),
        insert_text_format=types.InsertTextFormat.Snippet if use_snippet else types.InsertTextFormat.PlainText,
        additional_text_edits=additional,
    )


def register(server: ToolsenseServer) -> None:
    options = types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS, resolve_provider=False)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, options)
    @server.guard(lambda: None)
    async def completion(params: types.CompletionParams) -> types.CompletionList | None:
        await asyncio.sleep(0)  # a request already cancelled by the client is dropped here
        query = server.query(params.text_document.uri, params.position)
        if query is None:
            return None
        candidates = complete(query)
        items = [to_item(server, query, c) for c in candidates]
        return types.CompletionList(is_incomplete=False, items=items)
