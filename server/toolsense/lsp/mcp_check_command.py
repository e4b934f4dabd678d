"""`workspace/executeCommand` `toolsense.mcp.checkServer [uri, name]`: run one server of an MCP configuration
file, list its tools, write the snapshot (`<workspace>/.toolsense/mcp/<server>.tools.json`), open it
(`window/showDocument`; its diagnostics come from the ordinary checks), and put a one-line summary on the entry
("3 tools, 2 errors, 5 warnings", TS924; a failure as TS920/TS921).

When a snapshot is already there (committed), the listing is compared with it first and nothing is written: the
drift (TS925–TS927, with the security review of changed tools) shows in the snapshot and as a TS927 summary on
the entry, and the code lens offers `toolsense.mcp.acceptTools [uri, name]` ("Accept these tools"), which writes
the new snapshot the run listed.

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
from ..domain.changes import summary_label
from ..domain.live import drift_key, entry_digest, pending_key, summary_key, tools_digest
from ..domain.surface import mcp_surfaces
from ..domain.surface_diff import compare_surfaces
from ..engine.checker import check_document
from ..engine.context import CheckContext
from ..engine.findings import Severity
from ..engine.workspace import uri_to_path
from ..mcp_live.client import SdkMissing, redact, secrets_of
from ..mcp_live.codes import SERVER_FAILED, SUMMARY, TOOL_CHANGED
from ..mcp_live.config import Unresolved, dialect_of, entry_target, entry_transport, read_env_file, server_entries
from ..mcp_live.run import SnapshotError, SnapshotFolder, check_server
from ..mcp_live.snapshot import read_snapshot_tools, snapshot_text
from ..rules import CATALOG
from ..safe_write import write_file_atomically
from .mcp_code_lens import ACCEPT_COMMAND, CHECK_COMMAND
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


Pending = dict[tuple[str, str], tuple[Path, str]]
"""The snapshot text a run listed for an entry whose committed snapshot differs, until it is accepted."""
DRIFT_CODES = frozenset({"TS925", "TS926", "TS927", "TS290", "TS292"})


def register(server: ToolsenseServer) -> None:
    running: set[tuple[str, str]] = set()
    pending: Pending = {}

    def remember(uri: str, name: str, entry: dict[str, Any], code: str, message: str, severity: Severity) -> None:
        value = {"code": code, "message": message, "severity": int(severity), "digest": entry_digest(entry)}
        server.registry.set_live(summary_key(uri, name), value)
        server.dependents_changed()
        _refresh_code_lenses(server)

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
        unit = report.units[0]
        dialect = dialect_of(unit.dialect, unit.value)
        pointer = list(arguments[2]) if len(arguments) > 2 and isinstance(arguments[2], list) else None
        entries = server_entries(unit.value, dialect)
        entry = next((e for e in entries if e.name == name and pointer in (None, list(e.pointer))), None)
        if entry is None:
            server.show(f"No server '{name}' in this file")
            return None
        key = (uri, name)
        if key in running:
            return {"refused": "running"}
        running.add(key)
        try:
            folder = workspace_folder(server, config)
            return await _run(server, uri, name, entry.value, folder, remember, pending, dialect)
        finally:
            running.discard(key)

    @server.command(ACCEPT_COMMAND)
    async def accept_server_tools(*arguments: Any) -> dict[str, Any] | None:
        if len(arguments) < 2 or not all(isinstance(a, str) for a in arguments[:2]):
            server.show(f"{ACCEPT_COMMAND} expects [document uri, server name]")
            return None
        key = (str(arguments[0]), str(arguments[1]))
        waiting = pending.pop(key, None)
        if waiting is None or not server.settings.trusted:
            server.show("Nothing to accept: run 'Check this server's tools' first")
            _refresh_code_lenses(server)  # the lens that was clicked is stale: let the client drop it
            return None
        # The lens follows the state from the moment the command is received: a lens request that arrives while
        # the snapshot is being written already gets no "Accept these tools" (it is restored if the write fails).
        accepted_digest = server.registry.live.get(pending_key(*key))
        server.registry.set_live(pending_key(*key), None)
        path, text = waiting
        # Atomically, and never through a link (a `.toolsense` or snapshot file that is a link is refused).
        try:
            await asyncio.to_thread(write_file_atomically, path, text.encode("utf-8"))
        except OSError as error:
            pending.setdefault(key, waiting)
            server.registry.set_live(pending_key(*key), accepted_digest)
            _refresh_code_lenses(server)
            server.show(f"toolsense: cannot write {path.name}: {error}; the snapshot is unchanged")
            return None
        snapshot_uri = path.resolve().as_uri()
        server.registry.set_live(drift_key(snapshot_uri), None)
        od = server.documents.get(key[0])
        entry = _entry(od.report.units[0], key[1]) if od is not None and od.report and od.report.units else None
        relative = "/".join((*SNAPSHOT_FOLDER, path.name))
        remember(
            key[0], key[1], entry or {}, SUMMARY.code, f"'{key[1]}': tools accepted ({relative})", Severity.INFORMATION
        )
        server.spawn(_refresh_when_settled(server), "code lens refresh after accept")
        return {"written": snapshot_uri}


SETTLED_REFRESH_LIMIT_S = 30.0


async def _refresh_when_settled(server: ToolsenseServer, limit_s: float = SETTLED_REFRESH_LIMIT_S) -> None:
    """Ask for code lenses again once the re-checks the accept caused are done.

    The first refresh goes out as soon as the state changed, but a client may drop it: VS Code debounces a refresh
    and cancels the pending fetch when the editor loses focus (codelensController: `onDidBlurEditorText` cancels
    its scheduler), so a panel opened right after the click left "Accept these tools" on screen. A refresh sent
    once the state has settled reaches a client in its new focus, and costs one request otherwise."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    while loop.time() < deadline and any(
        od.timer is not None or od.job is not None for od in list(server.documents.values())
    ):
        await asyncio.sleep(0.05)
    _refresh_code_lenses(server)


def _refresh_code_lenses(server: ToolsenseServer) -> None:
    """Ask the client to ask for code lenses again: "Accept these tools" comes with a drift and goes once the tools
    are accepted, and a client re-asks only when told (or when the file is shown again)."""
    workspace = server.client_capabilities.workspace
    code_lens = workspace.code_lens if workspace is not None else None
    if code_lens is None or not code_lens.refresh_support:
        return
    try:
        server.workspace_code_lens_refresh(None)
    except Exception:  # the client left: nothing to refresh
        log.debug("workspace/codeLens/refresh failed", exc_info=True)


def _entry(unit: Any, name: str) -> dict[str, Any] | None:
    entries = server_entries(unit.value, dialect_of(unit.dialect, unit.value))
    return next((e.value for e in entries if e.name == name), None)


async def _run(
    server: ToolsenseServer,
    uri: str,
    name: str,
    entry: dict[str, Any],
    folder: Path,
    remember: Any,
    pending: Pending,
    dialect: str = "vscode",
) -> dict[str, Any]:
    try:
        env_file = entry.get("envFile")
        # VS Code reads `envFile` for stdio servers only; for an HTTP entry it is not read at all.
        from_file = (
            read_env_file(env_file, folder)
            if isinstance(env_file, str) and entry_transport(entry, dialect) == "stdio"
            else {}
        )
        target = entry_target(entry, folder, dict(os.environ), from_file, dialect)
    except (Unresolved, ValueError) as error:
        message = f"Cannot run '{name}': {error}"
        remember(uri, name, entry, SERVER_FAILED.code, message, Severity.ERROR)
        return {"error": message}
    # Inside the workspace folder, through real folders only: a `.toolsense` that is a link is refused.
    snapshots = SnapshotFolder(folder, SNAPSHOT_FOLDER)
    settings = server.settings
    try:
        outcome = await asyncio.to_thread(
            check_server, target, snapshots, settings, catalog=CATALOG, timeout=TIME_LIMIT_S, update=False, compare=True
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
    drift = [d for d in outcome.diagnostics if d.code in DRIFT_CODES and d.finding is not None]
    if outcome.compared and drift:
        return await _drifted(server, uri, name, entry, snapshot, listing, drift, remember, pending)
    pending.pop((uri, name), None)
    server.registry.set_live(pending_key(uri, name), None)
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
    await _show(server, snapshot_uri)
    return {"tools": tools, "errors": errors, "warnings": warnings, "snapshot": snapshot_uri, "summary": summary}


async def _show(server: ToolsenseServer, uri: str) -> None:
    if server.client_capabilities.window is not None and server.client_capabilities.window.show_document:
        try:
            await server.window_show_document_async(types.ShowDocumentParams(uri, take_focus=True))
        except Exception:
            log.warning("window/showDocument failed", exc_info=True)


async def _drifted(
    server: ToolsenseServer,
    uri: str,
    name: str,
    entry: dict[str, Any],
    snapshot: Path,
    listing: Any,
    drift: list[Any],
    remember: Any,
    pending: Pending,
) -> dict[str, Any]:
    """The server's tools differ from the committed snapshot: show it (in the snapshot, on the entry), keep the new
    listing for "Accept these tools", write nothing."""
    snapshot_uri = snapshot.resolve().as_uri()
    committed = read_snapshot_tools(snapshot) or []
    # What accepting takes in, sorted as `toolsense diff` sorts it: on the entry, and in the accept lens's title.
    sorted_changes = compare_surfaces(mcp_surfaces(committed), mcp_surfaces(listing.tools))
    findings = [
        {
            "code": d.code,
            "message": d.message,
            "pointer": list(d.finding.pointer),
            "target": d.finding.target,
            "severity": int(d.severity),
        }
        for d in drift
    ]
    server.registry.set_live(drift_key(snapshot_uri), {"digest": tools_digest(committed), "findings": findings})
    pending[(uri, name)] = (snapshot, snapshot_text(listing))
    lens_label = summary_label(sorted_changes, kinds_shown=2)
    server.registry.set_live(pending_key(uri, name), {"digest": entry_digest(entry), "label": lens_label})
    relative = "/".join((*SNAPSHOT_FOLDER, snapshot.name))
    changes = len([d for d in drift if d.code in ("TS925", "TS926", "TS927")])
    review = len(drift) - changes
    message = (
        f"'{name}': the server's tools differ from the committed snapshot "
        f"({summary_label(sorted_changes) or _plural(changes, 'change')}"
        + (f"; {_plural(review, 'security finding')} in the new version" if review else "")
        + f"; see {relative}): review them, then 'Accept these tools' writes the new snapshot"
    )
    severity = Severity.ERROR if review else Severity.WARNING
    remember(uri, name, entry, TOOL_CHANGED.code, message, severity)
    await _show(server, snapshot_uri)
    return {"drift": changes, "review": review, "snapshot": snapshot_uri}
