"""Diagnostics over LSP: push (with versions), pull (document and workspace), debounce, stale versions, close,
related information, files too large for live checking."""

from __future__ import annotations

import asyncio

from lspkit import Session, find, span
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from samples import WEATHER_TOOLS, automation


def _comma_to_bogus_end() -> tuple[int, int, int, int]:
    start = find(WEATHER_TOOLS, '}],\n    "bogus"', 2)
    end = find(WEATHER_TOOLS, '"bogus": 1', len('"bogus": 1'))
    return (*start, *end)


def _bogus(shift: int) -> tuple[int, int, int, int]:
    """An empty range `shift` characters into `"bogus"` (counted on its line: past the end is fine)."""
    line, character = find(WEATHER_TOOLS, '"bogus"')
    return line, character + shift, line, character + shift


def _summary(diagnostics: list[types.Diagnostic]) -> list[tuple[tuple[int, int, int, int], str | int | None]]:
    return [
        ((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), d.code)
        for d in diagnostics
    ]


async def test_push_diagnostics_exact_ranges_codes_messages_and_version(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    diagnostics = await session.diagnostics(uri, 1)
    by_code = {d.code: d for d in diagnostics}
    unknown = by_code["TS101"]
    assert unknown.range == span(WEATHER_TOOLS, '"bogus"')
    assert unknown.severity == types.DiagnosticSeverity.Warning  # the app's own key: an error only if sent as-is
    assert unknown.source == "toolsense"
    assert unknown.message == (
        "Unknown property 'bogus' in Anthropic tool 'get_weather'. Valid properties: name, input_schema, type, "
        "description, input_examples, cache_control, strict, defer_loading, allowed_callers, eager_input_streaming"
    )
    example = next(d for d in diagnostics if d.range == span(WEATHER_TOOLS, '"kelvin"'))
    assert '"kelvin"' in example.message
    assert session.published[-1].version == 1


async def test_edit_updates_diagnostics_for_the_new_version(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    await session.diagnostics(uri, 1)
    # Delete the line `    "bogus": 1` together with the comma before it.
    version = session.change(uri, (_comma_to_bogus_end(), ""))
    diagnostics = await session.diagnostics(uri, version)
    assert "TS101" not in {d.code for d in diagnostics}
    assert any(d.range == span(WEATHER_TOOLS, '"kelvin"') for d in diagnostics)  # still a wrong enum value


async def test_rapid_changes_publish_only_the_final_version(session: Session) -> None:
    await session.start("neovim", {"diagnostics": {"debounce_ms": 300}})
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    await session.diagnostics(uri, 1)
    before = len(session.published)
    versions = []
    for index in range(6):  # type "bogus" -> "bogusXXXXXX" one character at a time
        versions.append(session.change(uri, (_bogus(6 + index), "X")))
    final = await session.diagnostics(uri, versions[-1])
    await session.settle()  # the settle check after the keystroke check has run and found the same
    later = [p for p in session.published[before:] if p.uri == uri]
    assert [p.version for p in later] == [versions[-1]]
    assert "'bogusXXXXXX'" in next(d.message for d in final if d.code == "TS101")


async def test_debounce_zero_publishes_every_version_in_order(session: Session) -> None:
    await session.start("neovim", {"diagnostics": {"debounce_ms": 0}})
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    await session.diagnostics(uri, 1)
    v2 = session.change(uri, (_bogus(6), "X"))
    await session.diagnostics(uri, v2)
    v3 = session.change(uri, (_bogus(7), "Y"))
    await session.diagnostics(uri, v3)
    versions = [p.version for p in session.published if p.uri == uri]
    assert versions == sorted(versions)
    assert versions[-1] == v3


async def test_close_clears_diagnostics(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    assert await session.diagnostics(uri, 1)
    session.close(uri)
    await session.until(lambda: session.published[-1].uri == uri and not session.published[-1].diagnostics, "clear")


async def test_pull_diagnostics_full_then_unchanged(session: Session) -> None:
    await session.start("vscode")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    report = await session.pull(uri)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert {d.code for d in report.items} >= {"TS101"}
    assert report.result_id
    again = await session.pull(uri, report.result_id)
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert again.result_id == report.result_id
    # A pull client gets nothing pushed (it would show every problem twice), pending checks included.
    session.change(uri, (_bogus(6), "X"))
    await session.settle()
    assert not [p for p in session.published if p.uri == uri]


async def test_pull_after_edit_reports_the_new_text(session: Session) -> None:
    await session.start("vscode")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    first = await session.pull(uri)
    session.change(uri, (_comma_to_bogus_end(), ""))
    second = await session.pull(uri, first.result_id)
    assert isinstance(second, types.RelatedFullDocumentDiagnosticReport)
    assert "TS101" not in {d.code for d in second.items}


async def test_cancelled_pull_is_answered_as_cancelled(session: Session) -> None:
    await session.start("vscode", {"diagnostics": {"debounce_ms": 10_000}})
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    await session.pull(uri)
    session.change(uri, (_bogus(6), "X"))  # the pull now waits for the 10 s debounce
    pending = asyncio.ensure_future(
        session.client.protocol.send_request_async(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri)),
            msg_id="pull-to-cancel",
        )
    )
    request_id = "pull-to-cancel"
    # Requests are handled in order: once a later one is answered, the pull is known to be waiting.
    await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert not pending.done()
    session.client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=request_id))
    try:
        await asyncio.wait_for(pending, 8)  # less than the debounce: an uncancelled pull would time out here
    except JsonRpcRequestCancelled:
        pass
    else:
        raise AssertionError("the cancelled pull was answered")
    hover = await session.hover(uri, *find(WEATHER_TOOLS, '"name"', 1))  # the server carries on
    assert hover is not None


async def test_workspace_pull_covers_open_and_unopened_files(session: Session) -> None:
    session.write("tools/weather.tools.json", WEATHER_TOOLS)
    session.write("automations/report.json", automation("no_such_tool"))
    await session.start("vscode")
    uri = session.open("tools/other.tools.json", WEATHER_TOOLS.replace("get_weather", "get_forecast"))
    await session.settle()  # indexing runs in the background
    report = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams([]))
    assert len(report.items) >= 3
    by_uri = {item.uri: item for item in report.items}
    assert by_uri[uri].version == 1
    assert "TS101" in {d.code for d in by_uri[uri].items}
    on_disk = by_uri[session.uri("automations/report.json")]
    assert on_disk.version is None
    assert "TS403" in {d.code for d in on_disk.items}
    again = await session.client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams([types.PreviousResultId(i.uri, i.result_id) for i in report.items])
    )
    assert all(isinstance(i, types.WorkspaceUnchangedDocumentDiagnosticReport) for i in again.items)


async def test_related_information_points_into_the_other_file(session: Session) -> None:
    # another get_weather (a verbatim copy would be no ambiguity: TS203 is for different tools of one name)
    other = session.write("tools/first.tools.json", WEATHER_TOOLS.replace('["city"]', '["city", "unit"]'))
    await session.start("neovim")
    uri = session.open("tools/second.tools.json", WEATHER_TOOLS)
    duplicate = await session.until(
        lambda: [d for d in session.client.diagnostics.get(uri, []) if d.related_information],
        "a diagnostic with related information (once the other file is indexed)",
    )
    related = duplicate[0].related_information
    assert related is not None
    assert related[0].location.uri == other.as_uri()
    assert related[0].location.range == span(WEATHER_TOOLS, '"get_weather"')
    assert "also defined here" in related[0].message


async def test_file_too_large_gets_one_diagnostic_and_no_parsing(session: Session) -> None:
    await session.start("neovim", {"diagnostics": {"debounce_ms": 0}, "limits": {"max_file_mb": 0.0001}})
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    diagnostics = await session.diagnostics(uri, 1)
    assert len(diagnostics) == 1
    (only,) = diagnostics
    assert only.code == "TS003"
    assert only.severity == types.DiagnosticSeverity.Warning
    assert only.range == types.Range(types.Position(0, 0), types.Position(0, 0))
    assert only.message == (
        "File too large for live checking (0.0 MB > 0.0 MB limit, setting limits.max_file_mb); "
        "`toolsense check` still checks it"
    )
    assert await session.completion(uri, *find(WEATHER_TOOLS, '"kelvin"', 1)) == []
    # Shrinking it below the limit brings live checking back.
    version = session.change(uri, (None, "[]"))
    assert await session.diagnostics(uri, version) == []


async def test_syntax_error_and_recovery(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", WEATHER_TOOLS)
    await session.diagnostics(uri, 1)
    line, character = find(WEATHER_TOOLS, '"get_weather",', len('"get_weather"'))
    version = session.change(uri, ((line, character, line, character + 1), ""))  # drop the comma
    diagnostics = await session.diagnostics(uri, version)
    assert "TS001" in {d.code for d in diagnostics}
    version = session.change(uri, ((line, character, line, character), ","))
    diagnostics = await session.diagnostics(uri, version)
    assert "TS001" not in {d.code for d in diagnostics}
    assert "TS101" in {d.code for d in diagnostics}


async def test_a_closed_file_that_is_not_ours_leaves_nothing_in_the_workspace_pull(session: Session) -> None:
    """Its TS007 note is for while it is open: the next workspace pull empties it, once."""
    catalog = '{"tools": [{"name": "ripgrep", "url": "https://example.org/rg", "license": "MIT"}]}\n'
    await session.start("vscode")
    uri = session.open("tools/catalog.json", catalog, write=True)
    pulled = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri))
    )
    assert [d.code for d in pulled.items] == ["TS007"]  # while open: why a file in a tools folder is not checked
    session.close(uri)
    await session.settle()
    # VS Code pulls a closed document once more, then forgets its result id: the workspace pull gets none for it.
    report = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams([]))
    (emptied,) = [item for item in report.items if item.uri == uri]
    assert isinstance(emptied, types.WorkspaceFullDocumentDiagnosticReport)
    assert list(emptied.items) == []
    again = await session.client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams([types.PreviousResultId(uri, emptied.result_id)])
    )
    assert [item for item in again.items if item.uri == uri] == []
