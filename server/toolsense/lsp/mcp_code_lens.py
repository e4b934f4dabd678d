"""`textDocument/codeLens`: "Check this server's tools" above each server entry of an MCP configuration file
(`.vscode/mcp.json`, `mcp.json`, `.mcp.json`, `claude_desktop_config.json`), in trusted workspaces only.

A lens only offers the command (`mcp_check_command`); nothing runs until it is chosen."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from ..document.document import Document
from ..document.jsontree import LocateCache
from ..domain.live import pending_key
from ..engine.placement import place_bytes
from ..engine.toml_config import read_toml_config
from ..engine.units import root_value
from ..mcp_live.config import dialect_of, server_entries
from ..models.mcp_clients import BY_DIALECT
from .convert import to_lsp_range
from .server import ToolsenseServer

CHECK_COMMAND = "toolsense.mcp.checkServer"
LENS_TITLE = "Check this server's tools"
ACCEPT_COMMAND = "toolsense.mcp.acceptTools"
ACCEPT_TITLE = "Accept these tools"


def register(server: ToolsenseServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    @server.guard(lambda: None)
    async def code_lens(params: types.CodeLensParams) -> list[types.CodeLens] | None:
        await asyncio.sleep(0)
        uri = params.text_document.uri
        od = server.documents.get(uri)
        if od is None or od.document is None or not server.settings.trusted:
            return None
        server.ensure_checked(od)
        report = od.report
        if report is None or report.kind != "mcp_config" or not report.units:
            return None
        unit = report.units[0]
        return server_lenses(
            od.document,
            unit.value,
            dialect_of(unit.dialect, unit.value),
            uri,
            lambda name: accept_title(server.registry.live.get(pending_key(uri, name))),
        )


def accept_title(waiting: Any) -> str | None:
    """ "Accept these tools (breaking: 1 removed; additive: 2 tools added)": what accepting takes in, as `toolsense
    diff` sorts it (`mcp_check_command` keeps the label with the entry's pending tools); None: nothing waits."""
    if waiting is None:
        return None
    label = waiting.get("label") if isinstance(waiting, dict) else None
    return f"{ACCEPT_TITLE} ({label})" if isinstance(label, str) and label else ACCEPT_TITLE


def server_lenses(
    document: Document,
    value: Any,
    dialect: str,
    uri: str,
    pending: Callable[[str], str | None] = lambda name: None,
) -> list[types.CodeLens] | None:
    """One lens on the key of each server entry, placed in one pass: the entries are members of one object,
    indexed once (a search from the root per entry took a minute for 5,000 servers). An entry whose listed
    tools wait for acceptance gets the "Accept these tools" lens beside it, titled as `pending` says."""
    where = _key_places(document, dialect)
    if where is None:
        return None
    lenses = []
    entries = server_entries(value, dialect)
    names = Counter(entry.name for entry in entries)
    for entry in entries:
        range_ = to_lsp_range(document.range_of(*where(entry.pointer)))
        # A name used twice (two projects of ~/.claude.json): the entry's pointer says which one.
        arguments: list[Any] = [uri, entry.name] + ([list(entry.pointer)] if names[entry.name] > 1 else [])
        lenses.append(types.CodeLens(range_, types.Command(LENS_TITLE, CHECK_COMMAND, arguments=arguments)))
        title = pending(entry.name)
        if title is not None:
            accept = types.Command(title, ACCEPT_COMMAND, arguments=[uri, entry.name])
            lenses.append(types.CodeLens(range_, accept))
    return lenses


def _key_places(document: Document, dialect: str) -> Callable[[tuple[str, ...]], tuple[int, int]] | None:
    """Where a pointer's key is: from the JSON tree, or from Codex's TOML position map."""
    spec = BY_DIALECT.get(dialect)
    if spec is not None and spec.toml:
        places = read_toml_config(bytes(document.data), spec).places
        return lambda pointer: places.place(pointer, "key", None)
    root = root_value(document.outline)
    if root is None:
        return None
    cache = LocateCache()
    return lambda pointer: place_bytes(root, pointer, "key", None, cache)
