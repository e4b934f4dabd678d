"""Codex's `config.toml` (`[mcp_servers.<name>]`): read with tomllib, placed with tree-sitter-toml, so the same
rules land on the exact key or value in every TOML spelling (tables, sub-tables, inline tables, dotted keys)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.checking import check

from toolsense.cli.app import main

URI = "file:///home/me/.codex/config.toml"

VALID = """\
model = "o3"
approval_policy = "on-request"

[profiles.fast]
model = "o4-mini"

[mcp_servers.docs]
command = "npx"
args = ["-y", "@acme/docs-mcp@1.4.2"]
env_vars = ["DOCS_TOKEN"]
startup_timeout_sec = 20
enabled_tools = ["search"]

[mcp_servers.docs.env]
LOG_LEVEL = "debug"

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"
http_headers = { "X-Team" = "tools" }
oauth = { client_id = "codex-cli" }

[mcp_servers.remote.tools.search]
approval_mode = "approve"
"""


def _range_of(text: str, needle: str, nth: int = 0) -> tuple[int, int, int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    before = text[:start]
    line = before.count("\n")
    column = len(before) - (before.rfind("\n") + 1)
    return (line, column, line, column + len(needle))


def test_a_valid_codex_configuration_gets_nothing() -> None:
    assert [(d.code, d.message) for d in check(VALID, None, uri=URI)] == []


@pytest.mark.parametrize(
    "text",
    [
        '[mcp_servers.docs]\ncommand = "npx"\nstartup_timout_sec = 20\n',
        'mcp_servers.docs.command = "npx"\nmcp_servers.docs.startup_timout_sec = 20\n',
        '[mcp_servers]\ndocs = { command = "npx", startup_timout_sec = 20 }\n',
    ],
    ids=["table", "dotted keys", "inline table"],
)
def test_a_misspelt_key_gets_ts930_on_the_key_in_every_spelling(text: str) -> None:
    found = [d for d in check(text, None, uri=URI) if d.code == "TS930"]
    assert [(d.range, d.text) for d in found] == [(_range_of(text, "startup_timout_sec"), "startup_timout_sec")]
    assert found[0].message.startswith(
        "Unknown property 'startup_timout_sec' at 'mcp_servers.docs'. Did you mean 'startup_timeout_sec'?"
    )


def test_every_unknown_key_is_reported_codex_rejects_them() -> None:
    text = '[mcp_servers.remote]\nurl = "https://e.com/mcp"\nbearer_token = "${TOKEN}"\n'
    found = check(text, None, uri=URI)
    assert [(d.code, d.text) for d in found] == [("TS930", "bearer_token")]


def test_the_security_rules_land_on_toml_values() -> None:
    secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
    text = (
        "[mcp_servers.files]\n"
        'command = "npx"\n'
        'args = ["-y", "@modelcontextprotocol/server-filesystem@1.0.0", "/"]\n\n'
        "[mcp_servers.files.env]\n"
        f'GITHUB_TOKEN = "{secret}"\n\n'
        "[mcp_servers.remote]\n"
        'url = "http://mcp.example.com/mcp"\n'
    )
    found = [(d.code, d.range, d.text) for d in check(text, None, uri=URI)]
    assert found == [
        ("TS944", _range_of(text, '"/"'), '"/"'),
        ("TS940", _range_of(text, f'"{secret}"'), f'"{secret}"'),
        ("TS943", _range_of(text, '"http://mcp.example.com/mcp"'), '"http://mcp.example.com/mcp"'),
    ]
    (secret_finding,) = [d for d in check(text, None, uri=URI) if d.code == "TS940"]
    assert secret_finding.message.endswith(
        "name the variable instead: `env_vars` (stdio), `bearer_token_env_var` or `env_http_headers` (http)"
    )


def test_a_server_without_command_or_url_is_reported_on_its_table_name() -> None:
    text = "[mcp_servers.empty]\nenabled = true\n"
    found = check(text, None, uri=URI)
    assert [(d.code, d.text) for d in found] == [("TS932", "empty")]


def test_a_syntax_error_is_reported_where_tomllib_finds_it() -> None:
    text = '[mcp_servers.docs]\ncommand = "npx\n'
    found = check(text, None, uri=URI)
    assert [(d.code, d.range[:2]) for d in found] == [("TS001", (1, 14))]  # tomllib: at the end of the line
    assert found[0].message.startswith("Syntax error (TOML): ")


@pytest.mark.parametrize(
    ("uri", "text"),
    [
        ("file:///w/config.toml", '[mcp_servers.docs]\ncomand = "npx"\n'),  # not in a .codex folder
        (URI, 'model = "o3"\n[profiles.fast]\nmodel = "o4-mini"\n'),  # no servers
        (URI, 'model = "o3\n'),  # broken, but not about servers
    ],
)
def test_other_toml_files_are_left_alone(uri: str, text: str) -> None:
    assert check(text, None, uri=uri) == []


def test_the_cli_finds_the_codex_configuration_in_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "config.toml").write_text('[mcp_servers.docs]\ncomand = "npx"\n', encoding="utf-8")
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "x"\n', encoding="utf-8")
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "mcp.json").write_text('{"mcpServers": {"a": {"url": "http://mcp.example.com"}}}')
    monkeypatch.chdir(tmp_path)
    assert main(["check", "."]) == 1
    out = capsys.readouterr().out
    assert ".codex/config.toml:2:1: warning TS930 Unknown property 'comand' at 'mcp_servers.docs'." in out
    assert ".codex/config.toml:1:14: error TS932 Server 'docs' needs `command`" in out
    assert ".cursor/mcp.json:1:30: warning TS943 Server 'a' is reached over plain http" in out
    assert "Cargo.toml" not in out
    assert "Checked 2 files" in out


def test_the_live_check_sends_codexs_bearer_token_and_header_variables(tmp_path: Path) -> None:
    from toolsense.mcp_live.client import HttpTarget
    from toolsense.mcp_live.config import entry_target

    entry = {
        "url": "https://mcp.example.com/mcp",
        "bearer_token_env_var": "REMOTE_TOKEN",
        "env_http_headers": {"X-Team": "TEAM_ID"},
        "http_headers": {"X-Static": "1"},
    }
    environment = {"REMOTE_TOKEN": "tok-123456", "TEAM_ID": "tools"}
    target = entry_target(entry, tmp_path, environment, dialect="codex")
    assert isinstance(target, HttpTarget)
    assert target.headers == {"X-Static": "1", "X-Team": "tools", "Authorization": "Bearer tok-123456"}
    assert set(target.hidden) == {"tok-123456", "tools"}  # values from the environment are secrets: redacted
