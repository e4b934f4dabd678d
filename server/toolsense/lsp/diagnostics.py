"""Pull diagnostics: `textDocument/diagnostic` and `workspace/diagnostic` (push is the server's `publish`).

A client that pulls gets no pushed diagnostics (it would show both). A document pull waits for the document's
pending debounce (so a burst of keystrokes is checked once, and a cancelled pull costs nothing), then answers
with the report of the current version. The workspace pull also covers files of ours that are not open, checked
from disk against the registry and cached until the file, the registry or the settings change.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types

from ..engine.checker import UnitCache, check_document
from ..engine.workspace import load_file, uri_to_path
from .convert import to_lsp_diagnostic
from .server import ToolsenseServer
from .state import OpenDocument

log = logging.getLogger(__name__)

IDENTIFIER = "toolsense"
GONE = "gone"
"""The result id of an empty report for a file that is no longer ours to report on."""


async def wait_for_debounce(server: ToolsenseServer, od: OpenDocument) -> None:
    """Sleep until the document's pending check is due (a newer keystroke may push it further)."""
    loop = asyncio.get_running_loop()
    while od.timer is not None and od.uri in server.documents:
        remaining = od.timer.when() - loop.time()
        if remaining <= 0:
            break
        await asyncio.sleep(remaining)


def _disk_report(server: ToolsenseServer, uri: str) -> tuple[str, list[types.Diagnostic]] | None:
    """Diagnostics of a file of ours that is not open, cached by (mtime, size, check context fingerprint)."""
    path = uri_to_path(uri)
    if path is None:
        return None
    try:
        stat = path.stat()
    except OSError:
        server.disk_reports.pop(uri, None)
        return None
    fingerprint = server.context_for(uri).fingerprint()
    key = (stat.st_mtime_ns, stat.st_size, fingerprint)
    cached = server.disk_reports.get(uri)
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    loaded = load_file(path, server.max_bytes())
    related = server.caps.related_information
    if loaded.document is None:
        diagnostics = [to_lsp_diagnostic(loaded.problem, False)] if loaded.problem is not None else []
    else:
        loaded.document.encoding = server.encoding
        report = check_document(
            loaded.document, server.context_for(uri), server.workspace_files.get(uri), UnitCache(), server.resolve_range
        )
        diagnostics = [to_lsp_diagnostic(d, related, server.client_uri) for d in report.diagnostics]
    result_id = f"disk:{stat.st_mtime_ns}:{stat.st_size}:{':'.join(map(str, fingerprint))}"
    server.disk_reports[uri] = (key, result_id, diagnostics)
    return result_id, diagnostics


def register(server: ToolsenseServer) -> None:
    options = types.DiagnosticOptions(identifier=IDENTIFIER, inter_file_dependencies=True, workspace_diagnostics=True)
    # Open files that are not ours but got a diagnostic (a TS007 note): once closed, the next workspace pull empties
    # them. (VS Code pulls a closed document once more and then forgets its result id: only the server can.)
    noted: set[str] = set()

    def note(od: OpenDocument) -> None:
        if od.report is not None and od.report.kind is None and od.diagnostics:
            noted.add(od.uri)

    @server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, options)
    @server.guard(lambda: types.RelatedFullDocumentDiagnosticReport(items=[]))
    async def document_diagnostic(params: types.DocumentDiagnosticParams) -> Any:
        od = server.documents.get(params.text_document.uri)
        if od is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        await wait_for_debounce(server, od)
        if server.documents.get(od.uri) is not od:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        await server.wait_checked(od)
        note(od)
        if params.previous_result_id is not None and params.previous_result_id == od.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=od.result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=od.diagnostics, result_id=od.result_id)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    @server.guard(lambda: types.WorkspaceDiagnosticReport(items=[]))
    async def workspace_diagnostic(params: types.WorkspaceDiagnosticParams) -> types.WorkspaceDiagnosticReport:
        previous = {item.uri: item.value for item in params.previous_result_ids}
        items: list[types.WorkspaceDocumentDiagnosticReport] = []
        for uri in list(server.documents):
            await asyncio.sleep(0)  # one file at a time: a cancellation or another request gets in between
            od = server.documents.get(uri)
            if od is None:
                continue
            await server.wait_checked(od)
            note(od)
            if previous.get(uri) == od.result_id:
                items.append(
                    types.WorkspaceUnchangedDocumentDiagnosticReport(
                        uri=uri, version=od.checked_version, result_id=od.result_id
                    )
                )
            else:
                items.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=uri, version=od.checked_version, items=od.diagnostics, result_id=od.result_id
                    )
                )
        for uri in list(server.workspace_files):
            if server.is_open(uri):
                continue
            await asyncio.sleep(0)
            found = _disk_report(server, uri)
            if found is None:
                continue
            result_id, diagnostics = found
            if previous.get(uri) == result_id:
                items.append(
                    types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=None, result_id=result_id)
                )
            else:
                items.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=uri, version=None, items=diagnostics, result_id=result_id
                    )
                )
        # A file the client may still hold problems for that is neither open nor ours (a closed file a folder glob
        # pointed at, with its TS007 note): emptied once, so no entry stays in Problems.
        reported = {item.uri for item in items}
        closed = {uri for uri in noted if uri not in server.documents}
        noted.difference_update(closed)
        gone = {uri for uri, result_id in previous.items() if result_id != GONE} | closed
        for uri in sorted(gone):
            if uri not in reported and uri not in server.documents and uri not in server.workspace_files:
                items.append(
                    types.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=None, items=[], result_id=GONE)
                )
        return types.WorkspaceDiagnosticReport(items=items)
