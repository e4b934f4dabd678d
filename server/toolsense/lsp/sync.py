"""Document synchronisation: didOpen / didChange (incremental, applied to toolsense's own `Document`) / didClose."""

from __future__ import annotations

from lsprotocol import types

from .indexing import reindex_file
from .server import ToolsenseServer


def register(server: ToolsenseServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @server.guard(lambda: None)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        od = server.open(item.uri, item.text, item.version, item.language_id)
        # The first check is not debounced: the user is looking at the file now.
        server.schedule_check(od, 0, "open")

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @server.guard(lambda: None)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        od = server.documents.get(params.text_document.uri)
        if od is None:
            return
        server.change(od, params.text_document.version, params.content_changes)
        server.schedule_check(od)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @server.guard(lambda: None)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        od = server.close(uri)
        if od is None:
            return
        if not server.caps.pull_diagnostics:
            server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))
        if od.defines_tools or uri in server.registry.by_uri:
            # The file on disk speaks for this uri again (it may differ from the unsaved text).
            server.spawn(reindex_file(server, uri), f"reindex {uri}")
