"""`textDocument/foldingRange`: objects and arrays that span lines, outermost first up to the client's limit; for
files of ours only (an editor's own JSON support folds the rest)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from ..engine.units import split
from ..features.symbols import folding_ranges
from .server import ToolsenseServer


def register(server: ToolsenseServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    @server.guard(lambda: None)
    async def folding_range(params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
        await asyncio.sleep(0)
        od = server.documents.get(params.text_document.uri)
        if od is None or od.document is None:
            return None
        document = od.document
        if od.kind_hint is None and split(document, None).kind is None:
            return None
        result = []
        for fold in folding_ranges(document, server.caps.folding_limit):
            start = document.position_at(fold.start)
            end = document.position_at(fold.end)
            kind = types.FoldingRangeKind.Comment if fold.comment else None
            if server.caps.line_folding_only:
                # Keep the closing bracket's line visible, as editors do for JSON.
                last = end.line if fold.comment else end.line - 1
                if last <= start.line:
                    continue
                result.append(types.FoldingRange(start_line=start.line, end_line=last, kind=kind))
            else:
                result.append(
                    types.FoldingRange(
                        start_line=start.line,
                        start_character=start.character,
                        end_line=end.line,
                        end_character=end.character,
                        kind=kind,
                    )
                )
        return result
