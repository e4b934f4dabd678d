"""`workspace/executeCommand` `toolsense.mcp.checkServer [uri, name]`: run one server of an MCP configuration
file, list its tools, write the snapshot (`<workspace>/.toolsense/mcp/<server>.tools.json`), open it
(`window/showDocument`; its diagnostics come from the ordinary checks), and put a one-line summary on the entry
("3 tools, 2 errors, 5 warnings", TS924; a failure as TS920/TS921).

Only when asked (never on open), only in a trusted workspace, one run per entry at a time, within
`TIME_LIMIT_S`; the SDK stops the server after listing. `env` and `headers` values are redacted from every
message and never logged.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from lsprotocol import types

from ..document.document import Document
from ..domain.live import entry_digest, summary_key
from ..engine.checker import check_document
from ..engine.context import CheckContext
from ..engine.findings import Severity
from ..engine.units import mcp_config_dialect
from ..engine.workspace import uri_to_path
from ..mcp_live.client import SdkMissing, redact, secrets_of
from ..mcp_live.codes import SERVER_FAILED, SUMMARY
from ..mcp_live.config import Unresolved, entry_target, entry_transport, read_env_file, server_entries
from ..mcp_live.run import SnapshotError, SnapshotFolder, check_server
from ..rules import CATALOG
from .mcp_code_lens import CHECK_COMMAND
from .server import ToolsenseServer

log = logging.getLogger(__name__)

TIME_LIMIT_S = 20.0
SNAPSHOT_FOLDER = (".toolsense", "mcp")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def workspace_folder(server: ToolsenseServer, config: Path) -> Path:
    """The workspace folder holding the configuration file (else the folder `${workspaceFolder}` means for it)."""
    resolved = config.resolve()
    for root in server.roots:
        try:
            resolved.relative_to(root.resolve())
        except (OSError, ValueError):
            continue
        return root
    return config.parent.parent if config.parent.name == ".vscode" else config.parent


def register(server: ToolsenseServer) -> None:
    running: set[tuple[str, str]] = set()

    def remember(uri: str, name: str, entry: dict[str, Any], code: str, message: str, severity: Severity) -> None:
        value = {"code": code, "message": message, "severity": int(severity), "digest": entry_digest(entry)}
        server.registry.set_live(summary_key(uri, name), value)
        server.dependents_changed()

    @server.command(CHECK_COMMAND)
    async def check_server_tools(*arguments: Any) -> dict[str, Any] | None:
        if len(arguments) < 2 or not all(isinstance(a, str) for a in arguments[:2]):
            server.show(f"{CHECK_COMMAND} expects [document uri, server name]")
            return None
        uri, name = str(arguments[0]), str(arguments[1])
        if not server.settings.trusted:
            server.show("toolsense starts MCP servers only in a trusted workspace")
            return {"refused": "untrusted"}
        od = server.documents.get(uri)
        config = uri_to_path(uri)
        if od is None or config is None:
            server.show("Open the MCP configuration file first")
            return None
        server.ensure_checked(od)
        report = od.report
        if report is None or report.kind != "mcp_config" or not report.units:
            return None
        value = report.units[0].value
        entry = next((e for e in server_entries(value, mcp_config_dialect(value)) if e.name == name), None)
        if entry is None:
            server.show(f"No server '{name}' in this file")
            return None
        key = (uri, name)
        if key in running:
            return {"refused": "running"}
        running.add(key)
        try:
            return await _run(server, uri, name, entry.value, workspace_folder(server, config), remember)
        finally:
            running.discard(key)


async def _run(
    server: ToolsenseServer, uri: str, name: str, entry: dict[str, Any], folder: Path, remember: Any
) -> dict[str, Any]:
    try:
        env_file = entry.get("envFile")
        # VS Code reads `envFile` for stdio servers only; for an HTTP entry it is not read at all.
        from_file = (
            read_env_file(env_file, folder) if isinstance(env_file, str) and entry_transport(entry) == "stdio" else {}
        )
        target = entry_target(entry, folder, dict(os.environ), from_file)
    except (Unresolved, ValueError) as error:
        message = f"Cannot run '{name}': {error}"
        remember(uri, name, entry, SERVER_FAILED.code, message, Severity.ERROR)
        return {"error": message}
    # Inside the workspace folder, through real folders only: a `.toolsense` that is a link is refused.
    snapshots = SnapshotFolder(folder, SNAPSHOT_FOLDER)
    settings = server.settings
    try:
        outcome = await asyncio.to_thread(
            check_server, target, snapshots, settings, timeout=TIME_LIMIT_S, update=True, compare=False
        )
    except SnapshotError as error:
        message = f"Cannot check '{name}': {error}"
        remember(uri, name, entry, SERVER_FAILED.code, message, Severity.ERROR)
        return {"error": message}
    except SdkMissing as error:
        # On the entry as well as in a message: the message goes away, the entry's problem stays until a new run.
        message = (
            f"Cannot check '{name}': {error}; in VS Code, 'toolsense: Reinstall Bundled Server' sets up the bundled "
            "server with it"
        )
        remember(uri, name, entry, SERVER_FAILED.code, message, Severity.ERROR)
        server.show(f"toolsense: {error}")
        return {"error": str(error)}
    listing = outcome.listing
    secrets = secrets_of(target)
    if listing.problem is not None or outcome.snapshot is None:
        problem = listing.problem
        code = problem.code if problem is not None else SERVER_FAILED.code
        message = redact(problem.message if problem is not None else "no snapshot written", secrets)
        remember(uri, name, entry, code, f"'{name}': {message}", Severity.ERROR)
        return {"error": message}
    snapshot = outcome.snapshot
    snapshot_uri = snapshot.resolve().as_uri()
    data = bytearray(snapshot.read_bytes())
    document = Document(snapshot_uri, data, None, server.encoding)
    context = CheckContext(settings, server.registry, snapshot_uri, settings.trusted, server.models, catalog=CATALOG)
    checked = await asyncio.to_thread(check_document, document, context, None)
    diagnostics = checked.diagnostics + outcome.diagnostics
    errors = sum(1 for d in diagnostics if d.severity == Severity.ERROR)
    warnings = sum(1 for d in diagnostics if d.severity == Severity.WARNING)
    tools = len(listing.tools)
    summary = f"{_plural(tools, 'tool')}, {_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
    relative = "/".join((*SNAPSHOT_FOLDER, snapshot.name))
    notes = "; ".join(n.message for n in listing.notes)
    message = f"'{name}': {summary} (snapshot {relative})" + (f"; {notes}" if notes else "")
    severity = Severity.WARNING if listing.notes else Severity.INFORMATION
    remember(uri, name, entry, SUMMARY.code, redact(message, secrets), severity)
    if server.client_capabilities.window is not None and server.client_capabilities.window.show_document:
        try:
            await server.window_show_document_async(types.ShowDocumentParams(snapshot_uri, take_focus=True))
        except Exception:
            log.warning("window/showDocument failed", exc_info=True)
    return {"tools": tools, "errors": errors, "warnings": warnings, "snapshot": snapshot_uri, "summary": summary}
