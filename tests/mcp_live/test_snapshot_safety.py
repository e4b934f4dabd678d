"""Snapshots are written only to regular files inside the snapshot folder, never through a link, and a hostile
place for them (a link, a folder where the file goes, a file where the folder goes, a committed file nested
100,000 deep) is a message and exit 2 in the CLI, a diagnostic in the editor, never a traceback. A snapshot
named after a URL uses its host and path only (issue 26: M1, M7, M8)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from clirun import run_cli
from livekit import SERVERS, server_command
from lspkit import Session, neovim_capabilities
from lsprotocol import types

from toolsense.mcp_live.client import HttpTarget, Listing, StdioTarget
from toolsense.mcp_live.run import SnapshotError, SnapshotFolder, check_listing
from toolsense.mcp_live.snapshot import server_file_name
from toolsense.rules import CATALOG
from toolsense.settings import Settings

TOOL = {"name": "echo", "description": "Echo the text back.", "inputSchema": {"type": "object"}}


def _listing(name: str | None = "fake") -> Listing:
    return Listing(StdioTarget("server"), server_name=name, protocol_version="2025-06-18", tools=[dict(TOOL)])


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.txt"
    victim.write_text("precious, not JSON\n")
    return victim


def test_a_committed_link_to_a_file_outside_is_neither_read_nor_written(tmp_path: Path) -> None:
    victim = _outside(tmp_path)
    (tmp_path / "snap").mkdir()
    (tmp_path / "snap" / "fake.tools.json").symlink_to(victim)
    for update in (False, True):
        with pytest.raises(SnapshotError, match=r"fake\.tools\.json: it is a symbolic link"):
            check_listing(_listing(), SnapshotFolder(tmp_path, ("snap",)), Settings(), catalog=CATALOG, update=update)
    assert victim.read_text() == "precious, not JSON\n"


def test_a_dangling_link_creates_nothing(tmp_path: Path) -> None:
    (tmp_path / "snap").mkdir()
    (tmp_path / "snap" / "fake.tools.json").symlink_to(tmp_path / "created.json")
    with pytest.raises(SnapshotError, match="symbolic link"):
        check_listing(_listing(), SnapshotFolder(tmp_path, ("snap",)), Settings(), catalog=CATALOG)
    assert not (tmp_path / "created.json").exists()


def test_a_snapshot_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".toolsense").symlink_to(elsewhere)
    with pytest.raises(SnapshotError, match=r"\.toolsense: it is a symbolic link"):
        check_listing(
            _listing(), SnapshotFolder(workspace, (".toolsense", "mcp")), Settings(), catalog=CATALOG, compare=False
        )
    assert list(elsewhere.iterdir()) == []


def test_a_new_snapshot_is_a_regular_file_in_real_folders(tmp_path: Path) -> None:
    outcome = check_listing(_listing(), SnapshotFolder(tmp_path, (".toolsense", "mcp")), Settings(), catalog=CATALOG)
    path = tmp_path / ".toolsense" / "mcp" / "fake.tools.json"
    assert outcome.written and outcome.snapshot == path
    assert json.loads(path.read_text())["tools"][0]["name"] == "echo"
    assert sorted(p.name for p in path.parent.iterdir()) == ["fake.tools.json"]  # no temporary file left


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("deep", "snap/fake.tools.json is not a snapshot: it is nested too deeply to read"),
        ("folder", "cannot use the snapshot snap/fake.tools.json: it is a folder"),
        ("file", "cannot use the snapshot snap/fake.tools.json: snap: it is a file, not a folder"),
    ],
)
def test_hostile_places_are_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    if case == "deep":
        (tmp_path / "snap").mkdir()
        (tmp_path / "snap" / "fake.tools.json").write_text('{"tools": ' + "[" * 100_000 + "]" * 100_000 + "}")
    elif case == "folder":
        (tmp_path / "snap" / "fake.tools.json").mkdir(parents=True)
    else:
        (tmp_path / "snap").write_text("")
    with pytest.raises(SnapshotError) as raised:
        check_listing(_listing(), SnapshotFolder(Path(), ("snap",)), Settings(), catalog=CATALOG)
    assert str(raised.value).startswith(message)


def test_a_url_names_the_snapshot_by_host_and_path_only() -> None:
    url = "http://user:hunter2secret@127.0.0.1:8123/mcp/v1?api_key=KEY0123456789#frag"
    listing = Listing(HttpTarget(url), server_name="")
    assert server_file_name(listing) == "127.0.0.1-mcp-v1.tools.json"


@pytest.mark.parametrize("case", ["link", "deep", "folder", "file"])
def test_the_cli_says_what_is_wrong_and_exits_2(tmp_path: Path, case: str) -> None:
    snap = tmp_path / "snap"
    victim = _outside(tmp_path)
    target = snap / "paged-demo.tools.json"
    if case == "file":
        snap.write_text("")
    else:
        snap.mkdir()
    if case == "link":
        target.symlink_to(victim)
    elif case == "deep":
        target.write_text('{"tools": ' + "[" * 100_000 + "]" * 100_000 + "}")
    elif case == "folder":
        target.mkdir()
    result = run_cli(["check", "--mcp-server", server_command("paged_server.py"), "--snapshot", "snap"], cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("toolsense: ") and "Traceback" not in result.stderr
    assert "snap" in result.stderr
    assert victim.read_text() == "precious, not JSON\n"


async def _check_in_editor(session: Session) -> tuple[dict[str, object], str]:
    await session.start(neovim_capabilities(), {"diagnostics": {"debounce_ms": 0}})
    entry = {"type": "stdio", "command": sys.executable, "args": [str(SERVERS / "paged_server.py")]}
    uri = session.open(".vscode/mcp.json", json.dumps({"servers": {"demo": entry}}), write=True)
    await session.diagnostics(uri)
    result = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams("toolsense.mcp.checkServer", [uri, "demo"])
    )
    return result, uri


async def test_the_editor_never_writes_through_a_linked_toolsense_folder(session: Session, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (session.root / ".toolsense").symlink_to(elsewhere)
    result, uri = await _check_in_editor(session)
    assert "it is a symbolic link" in str(result["error"])
    assert list(elsewhere.iterdir()) == []
    (failed,) = await session.diagnostics(uri, predicate=lambda ds: any(d.code == "TS920" for d in ds))
    assert failed.message.startswith("Cannot check 'demo': cannot use the snapshot ")


async def test_the_editor_reports_a_file_where_the_folder_goes(session: Session) -> None:
    (session.root / ".toolsense").write_text("not a folder")
    result, uri = await _check_in_editor(session)
    assert str(result["error"]).endswith(".toolsense: it is a file, not a folder")
    (failed,) = await session.diagnostics(uri, predicate=lambda ds: any(d.code == "TS920" for d in ds))
    assert failed.severity == types.DiagnosticSeverity.Error
