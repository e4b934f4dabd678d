"""The workspace's tools: background indexing with $/progress, file watching (registered dynamically, then
didChangeWatchedFiles), open tool documents feeding the registry live, dependents re-checked."""

from __future__ import annotations

from lspkit import Session
from lsprotocol import types
from samples import SEND_TOOL, automation


def _codes(diagnostics: list[types.Diagnostic]) -> set[str]:
    return {str(d.code) for d in diagnostics}


async def test_indexing_reports_progress_and_finds_tools_on_disk(session: Session) -> None:
    session.write("tools/send.tool.json", SEND_TOOL)
    session.write("node_modules/x/tools/ignored.json", SEND_TOOL.replace("send_message", "ignored"))
    await session.start("vscode")
    reports = await session.until(
        lambda: next(
            (r for r in session.client.progress_reports.values() if r and isinstance(r[-1], types.WorkDoneProgressEnd)),
            None,
        ),
        "indexing to end",
    )
    assert isinstance(reports[0], types.WorkDoneProgressBegin)
    assert reports[0].title == "toolsense: indexing tool definitions"
    assert reports[-1].message == "1 tools in 1 files"
    uri = session.open("automations/report.json", automation("send_message"))
    report = await session.pull(uri)
    assert "TS403" not in _codes(list(report.items))


async def test_file_watchers_are_registered_dynamically(session: Session) -> None:
    await session.start("vscode")
    registrations = await session.until(lambda: session.client.registrations, "a registration")  # type: ignore[attr-defined]
    (registration,) = registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    globs = [w["globPattern"] for w in registration.register_options["watchers"]]
    assert "**/*.json" in globs


async def test_watched_file_change_rechecks_dependent_documents(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("automations/report.json", automation("send_message"))
    first = await session.diagnostics(uri, 1)
    assert not {"TS403", "TS409"}.isdisjoint(_codes(first))  # no such tool (or no tools at all) yet
    before = len(session.published)
    path = session.write("tools/send.tool.json", SEND_TOOL)
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(path.as_uri(), types.FileChangeType.Created)])
    )
    await session.until(
        lambda: any(
            p.uri == uri and not {"TS403", "TS409"} & _codes(list(p.diagnostics)) for p in session.published[before:]
        ),
        "the automation to be re-checked without the unknown-tool diagnostic",
    )
    # Deleting the file brings the problem back.
    path.unlink()
    before = len(session.published)
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(path.as_uri(), types.FileChangeType.Deleted)])
    )
    await session.until(
        lambda: any(
            p.uri == uri and {"TS403", "TS409"} & _codes(list(p.diagnostics)) for p in session.published[before:]
        ),
        "the unknown-tool diagnostic to come back",
    )


async def test_open_tool_document_feeds_the_registry_live(session: Session) -> None:
    await session.start("neovim")
    tool_uri = session.open("tools/send.tool.json", SEND_TOOL)
    await session.diagnostics(tool_uri, 1)
    uri = session.open("automations/report.json", automation("send_message"))
    assert not {"TS403", "TS409"} & _codes(await session.diagnostics(uri, 1))
    # Rename the tool in the (unsaved) tool document: the automation now names an unknown tool.
    line = SEND_TOOL.splitlines().index('  "name": "send_message",')
    before = len(session.published)
    session.change(tool_uri, ((line, 11, line, 23), "post_message"))
    await session.until(
        lambda: any(p.uri == uri and "TS403" in _codes(list(p.diagnostics)) for p in session.published[before:]),
        "the automation to see the rename",
    )
    # Closing the unsaved tool document: the file on disk (none here) speaks again.
    session.close(tool_uri)


async def test_close_of_a_modified_tool_file_restores_the_disk_version(session: Session) -> None:
    session.write("tools/send.tool.json", SEND_TOOL)
    await session.start("neovim")
    tool_uri = session.open("tools/send.tool.json", SEND_TOOL)
    await session.diagnostics(tool_uri, 1)
    uri = session.open("automations/report.json", automation("send_message"))
    await session.diagnostics(uri, 1)
    line = SEND_TOOL.splitlines().index('  "name": "send_message",')
    before = len(session.published)
    session.change(tool_uri, ((line, 11, line, 23), "post_message"))
    await session.until(
        lambda: any(p.uri == uri and "TS403" in _codes(list(p.diagnostics)) for p in session.published[before:]),
        "the rename to be seen",
    )
    before = len(session.published)
    session.close(tool_uri)
    await session.until(
        lambda: any(p.uri == uri and "TS403" not in _codes(list(p.diagnostics)) for p in session.published[before:]),
        "the saved tool to count again",
    )
