"""How a client wants workspace edits, read from its capabilities: what the quick fixes (`code_actions`) and the
suppression actions (`suppress_action`) both build their edits for."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types


@dataclass(frozen=True)
class EditSupport:
    """How the client wants workspace edits (read from its capabilities at each request)."""

    document_changes: bool = False
    snippets: bool = False
    preferred: bool = True
    resolve_edit: bool = False
    data: bool = False
    literals: bool = True


def edit_support(capabilities: types.ClientCapabilities | None) -> EditSupport:
    if capabilities is None:
        return EditSupport()
    workspace_edit = capabilities.workspace.workspace_edit if capabilities.workspace is not None else None
    document_changes = bool(workspace_edit is not None and workspace_edit.document_changes)
    snippets = bool(document_changes and workspace_edit is not None and workspace_edit.snippet_edit_support)
    action = capabilities.text_document.code_action if capabilities.text_document is not None else None
    if action is None:
        return EditSupport(document_changes, snippets)
    resolve = action.resolve_support
    return EditSupport(
        document_changes=document_changes,
        snippets=snippets,
        preferred=bool(action.is_preferred_support),
        resolve_edit=bool(resolve is not None and "edit" in resolve.properties and action.data_support),
        data=bool(action.data_support),
        literals=action.code_action_literal_support is not None,
    )
