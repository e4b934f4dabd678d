"""`textDocument/definition` (tool name → its definition; call input key → the property in the tool's schema)
and `textDocument/references` (a tool → the calls and actions in open documents that name it)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from ..document.lines import Range
from ..features.definition import ToolUse, definition, references, tool_uses
from ..features.providers import TargetLocation
from .convert import to_lsp_range
from .server import ToolsenseServer


def _location(server: ToolsenseServer, target: TargetLocation) -> types.Location | None:
    range_: Range | None = target.range
    if range_ is None and target.pointer is not None:
        range_ = server.resolve_range(target.uri, target.pointer, target.target)
    if range_ is None:
        return None
    return types.Location(server.client_uri(target.uri), to_lsp_range(range_))


def open_uses(server: ToolsenseServer) -> list[ToolUse]:
    """Every place in an open document that names a tool, from the documents' last reports."""
    uses: list[ToolUse] = []
    for od in server.documents.values():
        if od.report is None:
            continue
        for unit in od.report.units:
            uses.extend(tool_uses(od.uri, unit.kind, unit.pointer, unit.value))
    return uses


def register(server: ToolsenseServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @server.guard(lambda: None)
    async def on_definition(params: types.DefinitionParams) -> list[types.Location] | None:
        await asyncio.sleep(0)
        query = server.query(params.text_document.uri, params.position, hover=True)
        if query is None:
            return None
        locations = [loc for target in definition(query) if (loc := _location(server, target)) is not None]
        return locations or None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @server.guard(lambda: None)
    async def on_references(params: types.ReferenceParams) -> list[types.Location] | None:
        await asyncio.sleep(0)
        query = server.query(params.text_document.uri, params.position, hover=True)
        if query is None:
            return None
        found = references(query, params.context.include_declaration, open_uses(server))
        locations = [loc for target in found if (loc := _location(server, target)) is not None]
        return locations or None
