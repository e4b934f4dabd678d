"""`toolsense mcp` end to end: the MCP SDK's own client (stdio_client + ClientSession) starts the server in a
project folder and calls every tool; the server's tool definitions pass toolsense's own checks with the
`mcp-quality` and `mcp-security` profiles."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clirun import run_cli

import toolsense

pytest.importorskip("mcp")

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

SOURCES = str(Path(toolsense.__file__).resolve().parents[1])
"""The toolsense under test (a worktree's sources come first on the child's path)."""

BAD_TOOL = {
    "name": "get_weather",
    "description": "Get the weather for a city.",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "String", "description": "The city."}, "when": {"type": "strin"}},
    },
}
MODEL_MODULE = '''
from pydantic import BaseModel, Field


class Forecast(BaseModel):
    """Get the forecast for a city."""

    city: str = Field(description="The city's name.")
    days: int = Field(default=1, description="How many days ahead.")
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "toolsense.toml").write_text(
        'python_path = ["."]\n[models]\nforecast = "forecasts:Forecast"\n', encoding="utf-8"
    )
    (tmp_path / "forecasts.py").write_text(MODEL_MODULE, encoding="utf-8")
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "weather.tools.json").write_text(json.dumps([BAD_TOOL], indent=2) + "\n", encoding="utf-8")
    return tmp_path


def _server(cwd: Path, *options: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "toolsense", "mcp", *options], cwd=str(cwd), env={"PYTHONPATH": SOURCES}
    )


async def _call(session: ClientSession, name: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    result = await session.call_tool(name, arguments)
    if result.is_error:
        return True, result.content[0].text  # type: ignore[union-attr]
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    return False, result.structured_content


async def test_every_tool_through_the_sdk_client(project: Path) -> None:
    cli = run_cli(["check", "--format", "json", "tools"], cwd=project, env={"PYTHONPATH": SOURCES})
    cli_findings = json.loads(cli.stdout)
    assert cli_findings, cli.stderr
    async with stdio_client(_server(project)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        assert [tool.name for tool in listed.tools] == ["check", "fix", "explain_rule", "schema_for_model"]

        failed, checked = await _call(session, "check", {"paths": ["tools"]})
        assert not failed
        assert checked["findings"] == cli_findings  # the same codes, messages and ranges as the CLI
        assert checked["summary"]["files"] == 1

        inline = json.dumps([BAD_TOOL], indent=2) + "\n"
        failed, checked_text = await _call(session, "check", {"text": inline, "file_name": "tools/weather.tools.json"})
        assert not failed
        assert checked_text["findings"] == cli_findings
        failed, by_content = await _call(session, "check", {"text": inline})  # no name: the content decides
        assert not failed
        assert [f["code"] for f in by_content["findings"]] == [f["code"] for f in cli_findings]
        assert {f["path"] for f in by_content["findings"]} == {"input.json"}

        failed, fixed = await _call(session, "fix", {"path": "tools/weather.tools.json"})
        assert not failed
        assert fixed["changed"] and fixed["applied"] >= 1
        assert json.loads(fixed["text"])[0]["input_schema"]["properties"]["city"]["type"] == "string"
        assert len(fixed["remaining"]) < len(cli_findings)
        assert (project / "tools" / "weather.tools.json").read_text(encoding="utf-8") == inline  # nothing written

        failed, rule = await _call(session, "explain_rule", {"code": "ts220"})
        assert not failed
        assert rule["code"] == "TS220" and rule["project_severity"] == rule["severity"]
        assert rule["docs"] == "https://github.com/toolsense/toolsense/blob/main/docs/rules/TS220.md"

        failed, schema = await _call(session, "schema_for_model", {"model": "forecast"})
        assert not failed
        assert schema["model"] == "forecasts:Forecast"
        assert schema["schema"]["additionalProperties"] is False
        assert schema["schema"]["required"] == ["city"]
        failed, tool = await _call(
            session, "schema_for_model", {"model": "forecasts:Forecast", "tool_name": "forecast", "dialect": "mcp"}
        )
        assert not failed and tool["schema"]["name"] == "forecast" and "inputSchema" in tool["schema"]

        failed, absolute = await _call(session, "check", {"paths": [str(project / "tools")]})
        assert not failed and absolute["findings"] == cli_findings  # absolute, inside the project: as relative
        failed, message = await _call(session, "check", {"paths": ["../outside"]})
        assert failed and message.startswith("invalid arguments: paths/0: ")
        failed, message = await _call(session, "check", {"paths": [str(project.parent)]})
        assert failed and message == f"{str(project.parent)!r} is outside the project root {project.resolve()}"
        failed, message = await _call(session, "schema_for_model", {"model": "os:path"})
        assert failed and "not a model registered" in message
        failed, message = await _call(session, "explain_rule", {"code": "TS22"})
        assert failed and message.startswith("no rule 'TS22'")
        failed, message = await _call(session, "fix", {})
        assert failed and message == "give either 'path' (a file in the project) or 'text' (the JSON to fix)"


def test_its_own_tool_definitions_pass_the_mcp_profiles(tmp_path: Path) -> None:
    """toolsense checks the server's live `tools/list` answer (read raw off the wire) with both opt-in profiles."""
    (tmp_path / "toolsense.toml").write_text('profiles = ["mcp", "mcp-quality", "mcp-security"]\n', encoding="utf-8")
    command = f"{sys.executable} -m toolsense mcp"
    result = run_cli(
        ["check", "--mcp-server", command, "--mcp-env", f"PYTHONPATH={SOURCES}", "--snapshot", "snaps"],
        cwd=tmp_path,
        env={"PYTHONPATH": SOURCES},
    )
    assert "(4 tools)" in result.stderr, result.stderr
    assert result.stdout.splitlines()[-1] == "Checked 1 file: no problems", result.stdout
    assert result.returncode == 0


def test_an_invalid_configuration_stops_it_before_serving(tmp_path: Path) -> None:
    (tmp_path / "toolsense.toml").write_text("[tokens]\nmax_tool_tokens = 0\n", encoding="utf-8")
    result = run_cli(["mcp"], cwd=tmp_path, env={"PYTHONPATH": SOURCES}, timeout=60)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "toolsense: invalid configuration: toolsense.toml: setting 'tokens.max_tool_tokens': " in result.stderr


def test_without_the_sdk_it_says_which_extra_to_install(tmp_path: Path) -> None:
    blocked = "import sys; sys.modules['mcp'] = None; from toolsense.cli import main; raise SystemExit(main(['mcp']))"
    result = subprocess.run(
        [sys.executable, "-c", blocked],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": SOURCES},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr == (
        "toolsense: `toolsense mcp` needs the MCP Python SDK: pip install 'toolsense[mcp]' (or: pip install mcp)\n"
    )


async def test_a_linked_configuration_never_moves_the_project_root(tmp_path: Path) -> None:
    """Issue 32, F20: the repository's toolsense.toml is a link to an empty file in the home folder (an empty
    file is a valid configuration). It is refused, the project stays the repository, and `fix` cannot read the
    home folder's files."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("KEYMATERIAL_7f3a\n", encoding="utf-8")
    (home / ".sudo_as_admin_successful").write_text("", encoding="utf-8")
    repo = home / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "toolsense.toml").symlink_to("../.sudo_as_admin_successful")
    (repo / "tools").mkdir()
    (repo / "tools" / "weather.tools.json").write_text(json.dumps([BAD_TOOL]), encoding="utf-8")
    async with stdio_client(_server(repo)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        failed, message = await _call(session, "fix", {"path": ".ssh/id_rsa"})
        assert failed and message == "no such file or directory in the project: '.ssh/id_rsa'"
        failed, checked = await _call(session, "check", {"paths": ["tools"]})
        assert not failed and {f["path"] for f in checked["findings"]} == {"tools/weather.tools.json"}


async def test_untrusted_it_imports_none_of_the_projects_code(project: Path) -> None:
    """Issue 32, F10: `--untrusted` imports no registered model, not even for inline text."""
    (project / "forecasts.py").write_text(
        "import pathlib\npathlib.Path(__file__).with_name('PWNED').write_text('ran')\n" + MODEL_MODULE, encoding="utf-8"
    )
    call = {"type": "tool_use", "id": "toolu_1", "name": "forecast", "input": {"city": "Paris"}}
    async with stdio_client(_server(project, "--untrusted")) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        failed, checked = await _call(session, "check", {"text": json.dumps(call), "file_name": "calls/c.json"})
        assert not failed
        assert checked["notes"] == ["registered models are not imported: toolsense mcp --untrusted"]
        failed, message = await _call(session, "schema_for_model", {"model": "forecast"})
        assert failed and message == "registered models are not imported: toolsense mcp --untrusted"
    assert not (project / "PWNED").exists()


async def test_config_elsewhere_keeps_the_project_where_it_started(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Issue 32, F10: `--config` names the user's own settings (here `trusted = false`, the untrusted recipe) and
    the project stays the folder the agent started the server in."""
    mine = tmp_path_factory.mktemp("mine") / "toolsense.toml"
    mine.write_text("trusted = false\n", encoding="utf-8")
    async with (
        stdio_client(_server(project, "--config", str(mine))) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        failed, checked = await _call(session, "check", {"paths": ["tools/weather.tools.json"]})
        assert not failed and checked["findings"] and checked["summary"]["files"] == 1
        failed, checked = await _call(session, "check", {"paths": ["."]})
        assert not failed and {f["path"] for f in checked["findings"]} == {"tools/weather.tools.json"}


async def test_a_nul_in_a_path_is_an_error_result(project: Path) -> None:
    """Issue 32, F16: a NUL (which the input schema's pattern admits) is an error the agent reads, not a
    protocol error."""
    async with stdio_client(_server(project)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        failed, message = await _call(session, "check", {"paths": ["tools/weather.tools.json\u0000"]})
        assert failed and message == "expected a path without NUL characters, got 'tools/weather.tools.json\\x00'"
        failed, message = await _call(session, "fix", {"path": "tools/weather.tools.json\u0000"})
        assert failed and message == "expected a path without NUL characters, got 'tools/weather.tools.json\\x00'"
        failed, message = await _call(session, "fix", {"text": "[]", "file_name": "a\u0000.json"})
        assert failed and message == "expected a file name without NUL characters, got 'a\\x00.json'"


async def test_an_unexpected_failure_is_an_error_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32, F16: whatever a tool raises (a bug), the agent gets an `isError` result it can read, not a
    JSON-RPC error; the traceback goes to stderr."""
    from mcp import Client

    from toolsense.mcp_server import server
    from toolsense.mcp_server.service import Project
    from toolsense.settings import Settings

    def broken(*args: object) -> dict[str, Any]:
        raise RuntimeError("something inside")

    monkeypatch.setattr(server, "call", broken)
    async with Client(server.build(Project(Settings(), tmp_path))) as client:
        result = await client.call_tool("explain_rule", {"code": "TS220"})
    assert result.is_error
    assert [content.text for content in result.content] == [  # type: ignore[union-attr]
        "toolsense failed on this request (RuntimeError; a bug in toolsense)"
    ]
