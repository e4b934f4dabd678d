"""`textDocument/documentSymbol`: tools with their parameters, automations with trigger and actions, tool calls.

Hierarchical `DocumentSymbol`s when the client supports them, flat `SymbolInformation` otherwise."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from ..document.document import Document
from ..features.symbols import Symbol, SymbolKind, document_symbols
from ..tokens import encoding, encoding_ready
from .convert import span_range
from .server import ToolsenseServer

SYMBOL_KINDS: dict[SymbolKind, types.SymbolKind] = {
    "tool": types.SymbolKind.Function,
    "parameter": types.SymbolKind.Property,
    "automation": types.SymbolKind.Module,
    "trigger": types.SymbolKind.Event,
    "action": types.SymbolKind.Method,
    "call": types.SymbolKind.Event,
    "unit": types.SymbolKind.Object,
}


def to_document_symbol(document: Document, symbol: Symbol) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=symbol.name or "(empty)",
        kind=SYMBOL_KINDS[symbol.kind],
        range=span_range(document, *symbol.span),
        selection_range=span_range(document, *symbol.selection),
        detail=symbol.detail,
        children=[to_document_symbol(document, child) for child in symbol.children] or None,
    )


def to_information(
    document: Document, symbol: Symbol, container: str | None, out: list[types.SymbolInformation]
) -> None:
    out.append(
        types.SymbolInformation(
            name=symbol.name or "(empty)",
            kind=SYMBOL_KINDS[symbol.kind],
            location=types.Location(document.uri, span_range(document, *symbol.span)),
            container_name=container,
        )
    )
    for child in symbol.children:
        to_information(document, child, symbol.name, out)


def register(server: ToolsenseServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @server.guard(lambda: None)
    async def document_symbol(
        params: types.DocumentSymbolParams,
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
        await asyncio.sleep(0)
        od = server.documents.get(params.text_document.uri)
        if od is None or od.document is None:
            return None
        is_tools = od.kind_hint == "tool" or (od.report is not None and od.report.kind == "tool")
        if is_tools and not encoding_ready():
            await asyncio.to_thread(encoding)  # the tokens the outline shows: built once, off the event loop
        symbols = document_symbols(od.document, od.kind_hint)
        if server.caps.hierarchical_symbols:
            return [to_document_symbol(od.document, symbol) for symbol in symbols]
        flat: list[types.SymbolInformation] = []
        for symbol in symbols:
            to_information(od.document, symbol, None, flat)
        return flat
