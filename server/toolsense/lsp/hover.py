"""`textDocument/hover`: field description, expected type, enum value meaning (`features.hover`)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from ..features import markdown as markdown_text
from ..features.hover import hover
from ..tokens import encoding, encoding_ready
from .convert import span_range
from .server import ToolsenseServer


def register(server: ToolsenseServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @server.guard(lambda: None)
    async def on_hover(params: types.HoverParams) -> types.Hover | None:
        await asyncio.sleep(0)
        query = server.query(params.text_document.uri, params.position, hover=True)
        if query is None:
            return None
        if query.kind == "tool" and not encoding_ready():
            await asyncio.to_thread(encoding)  # a tool name's hover shows its tokens: built once, off the loop
        answer = hover(query)
        if answer is None:
            return None
        range_ = span_range(query.document, *answer.span) if answer.span is not None else None
        if server.caps.markdown_hover:
            contents = types.MarkupContent(types.MarkupKind.Markdown, answer.markdown)
        else:
            contents = types.MarkupContent(types.MarkupKind.PlainText, plain(answer.markdown))
        return types.Hover(contents=contents, range=range_)


def plain(markdown: str) -> str:
    """The hover text for a client without markdown: emphasis and code marks dropped, escapes undone."""
    return markdown_text.plain(markdown)
