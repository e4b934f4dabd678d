"""An MCP entry's `envFile`: read only inside the workspace, only for stdio entries (as VS Code does), and its
values never appear in a diagnostic (issue 26, M2)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from lspkit import Session, find, neovim_capabilities
from lsprotocol import types

from toolsense.mcp_live.client import HttpTarget, StdioTarget, redact, secrets_of
from toolsense.mcp_live.config import entry_target, read_env_file

SECRET = "outside-secret-7f3a9c"
URL = "http://127.0.0.1:9/mcp?k="


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with its own `.env`, next to a folder outside it holding a secret."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / ".env").write_text(f"TOOLSENSE_M2_TOKEN={SECRET}\n")
    folder = tmp_path / "ws"
    folder.mkdir(exist_ok=True)  # the LSP session's root, when a test asks for both
    (folder / ".env").write_text("# local\nexport LOCAL_TOKEN='inside-value-123'\n\nnot a pair\n")
    return folder


def test_an_env_file_inside_the_workspace_is_read(workspace: Path) -> None:
    assert read_env_file(".env", workspace) == {"LOCAL_TOKEN": "inside-value-123"}
    assert read_env_file("${workspaceFolder}/.env", workspace) == {"LOCAL_TOKEN": "inside-value-123"}
    assert read_env_file("missing.env", workspace) == {}


@pytest.mark.parametrize("name", ["../outside/.env", "{outside}/.env", "sub/../../outside/.env", "link.env"])
def test_an_env_file_outside_the_workspace_is_refused(workspace: Path, name: str) -> None:
    outside = workspace.parent / "outside"
    (workspace / "link.env").symlink_to(outside / ".env")
    with pytest.raises(ValueError) as refused:
        read_env_file(name.format(outside=outside), workspace)
    assert str(refused.value).endswith("is outside the workspace; toolsense reads no file outside it")


def test_env_file_values_go_to_a_stdio_server_only_and_are_secrets(workspace: Path) -> None:
    from_file = {"API_TOKEN": "file-token-42"}
    http = {"type": "http", "url": "http://127.0.0.1:9/mcp?k=${env:API_TOKEN}", "headers": {"X": "${env:API_TOKEN}"}}
    target = entry_target(http, workspace, {}, from_file)
    assert isinstance(target, HttpTarget)
    assert target.url == "http://127.0.0.1:9/mcp?k=" and target.headers == {"X": ""}
    stdio = {"command": "server", "args": ["--key=${env:API_TOKEN}"], "env": {"OTHER": "x"}}
    local = entry_target(stdio, workspace, {}, from_file)
    assert isinstance(local, StdioTarget)
    assert local.env == {"API_TOKEN": "file-token-42", "OTHER": "x"}
    assert local.args == ("--key=file-token-42",)
    assert redact(f"failed: {local.label()}", secrets_of(local)) == "failed: server --key=***"


def test_environment_values_filled_into_a_url_are_redacted(workspace: Path) -> None:
    entry = {"type": "http", "url": "http://127.0.0.1:9/mcp?k=${env:USER_TOKEN}"}
    target = entry_target(entry, workspace, {"USER_TOKEN": "user-token-99"})
    assert redact(f"Cannot connect to {target.label()}", secrets_of(target)) == (
        "Cannot connect to http://127.0.0.1:9/mcp?k=***"
    )


async def test_the_command_reads_no_env_file_outside_the_workspace(session: Session, workspace: Path) -> None:
    caps = neovim_capabilities()
    await session.start(caps, {"diagnostics": {"debounce_ms": 0}})
    assert session.root == workspace
    marker = workspace / "started"
    script = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('x')"
    servers = {
        "docs": {"type": "http", "url": URL + "${env:TOOLSENSE_M2_TOKEN}", "envFile": "../outside/.env"},
        "local": {"command": "python3", "args": ["-c", script], "envFile": str(workspace.parent / "outside/.env")},
    }
    text = json.dumps({"servers": servers}, indent=2)
    uri = session.open(".vscode/mcp.json", text, write=True)
    await session.diagnostics(uri)
    answers = []
    for name in ("docs", "local"):
        params = types.ExecuteCommandParams("toolsense.mcp.checkServer", [uri, name])
        answers.append(await session.client.workspace_execute_command_async(params))
    assert answers[0]["error"] == "Cannot connect to http://127.0.0.1:9/mcp?k=: All connection attempts failed"
    outside = workspace.parent / "outside" / ".env"
    assert answers[1] == {
        "error": f"Cannot run 'local': its envFile {str(outside)!r} is outside the workspace; toolsense reads no "
        "file outside it"
    }
    assert not marker.exists()

    def both(diagnostics: Sequence[types.Diagnostic]) -> bool:
        return sum(d.code == "TS920" for d in diagnostics) == 2

    failed = await session.diagnostics(uri, predicate=both)
    assert sorted((d.range.start.line, d.range.start.character) for d in failed) == sorted(
        [find(text, '"docs"'), find(text, '"local"')]
    )
    assert SECRET not in json.dumps([d.message for d in failed] + answers)
