"""`textDocument/codeAction`: quick fixes for diagnostics, "fix all" and "close every object schema".

A thin adapter: the fixes are the findings' `Fix` data (computed with the diagnostics of the current version),
turned into byte edits by `toolsense.fixes` — the same code `toolsense check --fix` runs — and here into a
`WorkspaceEdit` in the negotiated position encoding.

- `quickfix`: one action per fix of each diagnostic under the cursor (the diagnostic attached, the rule's
  preferred fix marked `isPreferred`). Snippet placeholders only for clients that accept snippet text edits.
- `source.fixAll.toolsense`: every safe fix of the file, re-checked to a fixed point (what `--fix` does).
- `source.toolsense.closeObjects`: `"additionalProperties": false` on every object schema of every tool.

The two source actions are returned without their edit when the client can resolve it later
(`codeAction/resolve`), so a cursor move never pays for a whole-file computation.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..config_files import config_link_reason
from ..document.document import Document
from ..engine.checker import Diagnostic, UnitCache, check_document
from ..engine.findings import Finding, Fix, Severity
from ..fixes import (
    CLOSE_OBJECTS_TITLE,
    TextEdit,
    close_objects_fix,
    edits_for_fix,
    fix_document,
)
from ..textsafety import escape_controls
from .convert import span_range, to_lsp_diagnostic
from .edit_support import EditSupport as EditSupport
from .edit_support import edit_support as edit_support

if TYPE_CHECKING:
    from .server import ToolsenseServer
    from .state import OpenDocument

log = logging.getLogger(__name__)

FIX_ALL = "source.fixAll.toolsense"
CLOSE_OBJECTS = "source.toolsense.closeObjects"
KINDS = [types.CodeActionKind.QuickFix, FIX_ALL, CLOSE_OBJECTS]
FIX_ALL_TITLE = "Fix all safe toolsense problems"


def wanted(only: Sequence[str] | None, kind: str) -> bool:
    """Whether `context.only` asks for this kind (a prefix like `source` or `source.fixAll` covers it)."""
    if only is None:
        return True
    asked = [str(getattr(want, "value", want)) for want in only]
    kind = str(getattr(kind, "value", kind))
    return any(kind == want or kind.startswith(want + ".") for want in asked)


def to_lsp_edits(document: Document, edits: list[TextEdit]) -> list[types.TextEdit | types.SnippetTextEdit]:
    result: list[types.TextEdit | types.SnippetTextEdit] = []
    for edit in edits:
        range_ = span_range(document, edit.start, edit.end)
        if edit.snippet:
            result.append(types.SnippetTextEdit(range_, types.StringValue(edit.text)))
        else:
            result.append(types.TextEdit(range_, edit.text))
    return result


def workspace_edit(
    document: Document, uri: str, version: int | None, edits: list[TextEdit], support: EditSupport
) -> types.WorkspaceEdit:
    """`documentChanges` with the document's version when the client takes them, else `changes`."""
    lsp_edits = to_lsp_edits(document, edits)
    if support.document_changes:
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(identifier, lsp_edits)])
    plain = [e if isinstance(e, types.TextEdit) else types.TextEdit(e.range, e.snippet.value) for e in lsp_edits]
    return types.WorkspaceEdit(changes={uri: plain})


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return p.line, p.character

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _same_diagnostic(ours: types.Diagnostic, theirs: types.Diagnostic) -> bool:
    return ours.range == theirs.range and str(ours.code) == str(theirs.code) and ours.message == theirs.message


def _matching(
    diagnostics: list[Diagnostic], converted: list[types.Diagnostic], params: types.CodeActionParams
) -> list[tuple[Diagnostic, types.Diagnostic]]:
    """The current version's diagnostics the request is about: those the client sent (matched by range, code
    and message, the client's object reused) and those under the requested range."""
    found: list[tuple[Diagnostic, types.Diagnostic]] = []
    for diagnostic, lsp in zip(diagnostics, converted, strict=True):
        theirs = next((d for d in params.context.diagnostics if _same_diagnostic(lsp, d)), None)
        if theirs is not None:
            found.append((diagnostic, theirs))
        elif _overlaps(lsp.range, params.range):
            found.append((diagnostic, lsp))
    return found


def quick_fixes(
    document: Document,
    uri: str,
    version: int | None,
    diagnostics: list[Diagnostic],
    params: types.CodeActionParams,
    support: EditSupport,
    related: bool = False,
    converted: list[types.Diagnostic] | None = None,
) -> list[types.CodeAction]:
    """Quick fixes for the diagnostics the request is about; `converted` are the same diagnostics as the
    client has them (the server's published list), else they are converted here."""
    if (
        converted is None
        or len(converted) != len(diagnostics)
        or any(
            str(lsp.code) != d.code or lsp.message != escape_controls(d.message)
            for lsp, d in zip(converted, diagnostics, strict=True)
        )
    ):
        converted = [to_lsp_diagnostic(d, related) for d in diagnostics]
    actions: list[types.CodeAction] = []
    by_edits: dict[tuple[str, tuple[TextEdit, ...]], types.CodeAction] = {}
    for diagnostic, lsp in _matching(diagnostics, converted, params):
        finding: Finding | None = diagnostic.finding
        if finding is None:
            continue
        for fix in finding.fixes:
            edits = edits_for_fix(document, fix, snippets=support.snippets)
            if edits is None:
                continue
            same = by_edits.get((fix.title, tuple(edits)))
            if same is not None:  # one fix for several diagnostics (e.g. "make strict"): one action
                same.diagnostics = [*(same.diagnostics or []), lsp]
                continue
            action = types.CodeAction(
                title=fix.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                is_preferred=True if fix.preferred and support.preferred else None,
                edit=workspace_edit(document, uri, version, edits, support),
            )
            by_edits[(fix.title, tuple(edits))] = action
            actions.append(action)
    return actions


def fix_all_edits(
    document: Document, diagnostics: list[Diagnostic], check: Any, unsafe: bool = False
) -> list[TextEdit]:
    """The edits of every safe fix of the file, to a fixed point, as a few line-based hunks."""
    if not any(d.finding is not None and any(f.safe or unsafe for f in d.finding.fixes) for d in diagnostics):
        return []
    outcome = fix_document(document, check, unsafe, diagnostics)
    return outcome.edits


def close_objects_edits(document: Document, kind_hint: Any) -> list[TextEdit]:
    """`additionalProperties: false` on every open object schema (to a fixed point: nested objects too)."""
    first = close_objects_fix(document, kind_hint)
    if first is None:
        return []

    def pseudo(current: Document) -> list[Diagnostic]:
        fix = close_objects_fix(current, kind_hint)
        if fix is None:
            return []
        zero = current.range_of(0, 0)
        return [
            Diagnostic(zero, Severity.HINT, "", "", Finding("", "", fixes=(Fix(fix.title, (edit,), safe=True),)))
            for edit in fix.edits
        ]

    outcome = fix_document(document, pseudo, diagnostics=pseudo(document), choose=lambda d: _only_fix(d))
    return outcome.edits


def _only_fix(diagnostic: Diagnostic) -> Fix | None:
    return diagnostic.finding.fixes[0] if diagnostic.finding is not None and diagnostic.finding.fixes else None


# --- the server side -------------------------------------------------------------------------------------


def _checker(server: ToolsenseServer, od: OpenDocument) -> Any:
    """Re-checks of the fixed text reuse the findings of every unit whose bytes did not change (by content)."""
    cache = UnitCache(content=dict(od.cache.content))

    def check(document: Document) -> list[Diagnostic]:
        return check_document(document, server.context_for(od.uri), od.kind_hint, cache).diagnostics

    return check


def _source_edits(server: ToolsenseServer, od: OpenDocument, kind: str) -> list[TextEdit]:
    assert od.document is not None and od.report is not None
    if kind == FIX_ALL:
        return fix_all_edits(od.document, od.report.diagnostics, _checker(server, od))
    return close_objects_edits(od.document, od.kind_hint)


def _source_action(
    server: ToolsenseServer, od: OpenDocument, kind: str, support: EditSupport, lazy: bool
) -> types.CodeAction | None:
    assert od.document is not None and od.report is not None
    title = FIX_ALL_TITLE if kind == FIX_ALL else CLOSE_OBJECTS_TITLE
    if lazy:
        # Offer it only when there is something to do, cheaply: a safe fix reported, an open object schema.
        if kind == FIX_ALL and not any(
            d.finding is not None and any(f.safe for f in d.finding.fixes) for d in od.report.diagnostics
        ):
            return None
        if kind == CLOSE_OBJECTS and close_objects_fix(od.document, od.kind_hint, od.report.units) is None:
            return None
        return types.CodeAction(title=title, kind=kind, data={"uri": od.uri, "version": od.version, "kind": kind})
    edits = _source_edits(server, od, kind)
    if not edits:
        return None
    return types.CodeAction(
        title=title, kind=kind, edit=workspace_edit(od.document, od.uri, od.version, edits, support)
    )


def code_actions(server: ToolsenseServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    od = server.documents.get(params.text_document.uri)
    if od is None or od.document is None:
        return None
    support = edit_support(server.client_capabilities)
    if not support.literals:
        return None
    server.ensure_checked(od)
    if od.report is None:
        return None
    only = params.context.only
    actions: list[types.CodeAction] = []
    if wanted(only, types.CodeActionKind.QuickFix):
        actions.extend(
            quick_fixes(
                od.document,
                od.uri,
                od.version,
                od.report.diagnostics,
                params,
                support,
                server.caps.related_information,
                od.diagnostics,
            )
        )
        actions.extend(suppress_quick_fixes(server, od, params, support))
    for kind in (FIX_ALL, CLOSE_OBJECTS):
        if not wanted(only, kind):
            continue
        # The lightbulb (no `only`) gets them lazily; an explicit request (e.g. fix-all on save) right away.
        action = _source_action(server, od, kind, support, lazy=support.resolve_edit and only is None)
        if action is not None:
            actions.append(action)
    return actions


def resolve(server: ToolsenseServer, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, dict) else None
    if data is None or action.edit is not None:
        return action
    od = server.documents.get(str(data.get("uri")))
    kind = data.get("kind")
    if od is None or od.document is None or kind not in (FIX_ALL, CLOSE_OBJECTS):
        return action
    server.ensure_checked(od)
    if od.report is None or od.version != data.get("version"):
        return action  # the text changed since: no edit (the client asks again)
    edits = _source_edits(server, od, str(kind))
    support = edit_support(server.client_capabilities)
    action.edit = workspace_edit(od.document, od.uri, od.version, edits, support)
    return action


def suppress_quick_fixes(
    server: ToolsenseServer, od: OpenDocument, params: types.CodeActionParams, support: EditSupport
) -> list[types.CodeAction]:
    """ "Suppress TS220 for this tool" for each code under the cursor in a named tool (`suppress_action`)."""
    from ..engine.workspace import uri_to_path
    from ..rules import CATALOG
    from . import suppress_action as suppress

    assert od.document is not None and od.report is not None
    if od.document.has_error:
        return []  # as for the fixes: nothing is written while the text does not parse
    diagnostics = od.report.diagnostics
    converted = od.diagnostics  # as published; converted again only when they are not these diagnostics
    if len(converted) != len(diagnostics) or any(
        str(lsp.code) != d.code or lsp.message != d.message for lsp, d in zip(converted, diagnostics, strict=True)
    ):
        converted = [to_lsp_diagnostic(d, server.caps.related_information) for d in diagnostics]
    actions: list[types.CodeAction] = []
    done: set[tuple[str, str]] = set()
    comments: bool | None = None
    for diagnostic, lsp in _matching(diagnostics, converted, params):
        subject = diagnostic.subject
        if subject is None or not subject.name or (subject.name, diagnostic.code) in done:
            continue
        done.add((subject.name, diagnostic.code))
        comments = suppress.takes_comments(od.document, od.uri) if comments is None else comments
        edit: types.WorkspaceEdit | None = None
        if comments and diagnostic.code not in CATALOG.security_codes:  # a file never waives its own security rules
            found = suppress.comment_edit(od.document, diagnostic)
            if found is not None:
                edit = workspace_edit(od.document, od.uri, od.version, [TextEdit(*found)], support)
        elif (path := uri_to_path(od.uri)) is not None and (config := _settings_file(server)) is not None:
            relative = suppress.literal_glob(path, config.parent)
            toml = suppress.settings_edit(config, relative, subject.name, diagnostic.code) if relative else None
            edit = suppress.toml_workspace_edit(toml, support, _creates_files(server)) if toml else None
        if edit is not None:
            title = suppress.title(diagnostic.code)
            actions.append(types.CodeAction(title, kind=types.CodeActionKind.QuickFix, diagnostics=[lsp], edit=edit))
    return actions


def _settings_file(server: ToolsenseServer) -> Path | None:
    """The configuration file the server reads, else a new toolsense.toml at the workspace root; None when that
    file is a symbolic link or resolves elsewhere (the editor would write through it, maybe out of the
    workspace): the server read no configuration from it, and nothing is written into it."""
    if server.config_path is not None and server.config_path.name in ("toolsense.toml", "pyproject.toml"):
        config = server.config_path
    elif server.roots:
        config = server.roots[0].resolve() / "toolsense.toml"
    else:
        return None
    return config if config_link_reason(config) is None else None


def _creates_files(server: ToolsenseServer) -> bool:
    capabilities = server.client_capabilities
    workspace = capabilities.workspace if capabilities is not None else None
    edits = workspace.workspace_edit if workspace is not None else None
    operations = edits.resource_operations if edits is not None else None
    return bool(operations) and types.ResourceOperationKind.Create in (operations or [])


def register(server: ToolsenseServer) -> None:
    options = types.CodeActionOptions(code_action_kinds=KINDS, resolve_provider=True)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)
    @server.guard(lambda: None)
    def on_code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        return code_actions(server, params)

    @server.feature(types.CODE_ACTION_RESOLVE)
    def on_resolve(action: types.CodeAction) -> types.CodeAction:
        try:
            return resolve(server, action)
        except Exception:
            log.exception("codeAction/resolve failed")
            return action
