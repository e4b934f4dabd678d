"""Every MCP client's configuration file (models.mcp_clients): claimed only when its path and content agree, a valid
file gets nothing, a misspelt (or, for a strict client, unknown) key gets TS930 on the key, and a file of the same
name that holds something else is left alone."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from tests.support.checking import check

from toolsense.document.document import Document
from toolsense.engine.units import split


@dataclass(frozen=True)
class Client:
    dialect: str
    path: str
    valid: dict[str, Any]
    misspelt: dict[str, Any]
    key: str
    """The key TS930 must land on in `misspelt`."""
    message: str
    other: dict[str, Any]
    """Content of the same file name that is not an MCP configuration."""


CLIENTS = [
    Client(
        "vscode",
        ".vscode/mcp.json",
        {
            "inputs": [{"type": "promptString", "id": "token", "description": "Token", "password": True}],
            "servers": {
                "local": {
                    "type": "stdio",
                    "command": "node",
                    "args": ["server.js"],
                    "sandboxEnabled": True,
                    "version": "1.2.0",
                    "gallery": True,
                    "dev": {"watch": "src/**/*.ts", "debug": {"type": "node"}},
                },
                "remote": {
                    "type": "http",
                    "url": "https://example.com/mcp",
                    "headers": {"Authorization": "Bearer ${input:token}"},
                    "oauth": {"clientId": "my-app"},
                    "gallery": "https://api.mcp.github.com",
                },
            },
            "sandbox": {"network": {"allowedDomains": ["example.com"]}, "filesystem": {"allowWrite": ["/tmp"]}},
        },
        {"servers": {"local": {"command": "node", "autoApprove": ["read"]}}},
        "autoApprove",  # Cline's key: VS Code rejects every key it does not know
        "Unknown property 'autoApprove' at 'servers.local'. Valid properties: type, command, args, env, cwd, url, "
        "headers, envFile, dev, sandboxEnabled, version, gallery, …",
        {"$schema": "https://json.schemastore.org/package", "name": "mcp", "items": []},
    ),
    Client(
        "cursor",
        "proj/.cursor/mcp.json",
        {
            "mcpServers": {
                "local": {"command": "npx", "args": ["-y", "pkg@1.2.3"], "envFile": "${workspaceFolder}/.env"},
                "remote": {"url": "https://example.com/mcp", "headers": {"X-Key": "${env:KEY}"}},
            }
        },
        {"mcpServers": {"remote": {"url": "https://example.com/mcp", "hedaers": {}}}},
        "hedaers",
        "Unknown property 'hedaers' at 'mcpServers.remote'. Did you mean 'headers'?",
        {"rules": ["always"], "servers": []},
    ),
    Client(
        "windsurf",
        "home/.codeium/windsurf/mcp_config.json",
        {
            "mcpServers": {
                "remote": {"serverUrl": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${env:T}"}},
                "local": {"command": "uvx", "args": ["pkg==1.0"], "disabled": False, "disabledTools": ["rm"]},
            }
        },
        {"mcpServers": {"remote": {"serverUrl": "https://example.com/mcp", "disabledTool": ["rm"]}}},
        "disabledTool",
        "Unknown property 'disabledTool' at 'mcpServers.remote'. Did you mean 'disabledTools'?",
        {"config": {"mcp": True}},
    ),
    Client(
        "claude",
        "repo/.mcp.json",
        {
            "mcpServers": {
                "remote": {"type": "http", "url": "https://example.com/mcp", "headersHelper": "./auth.sh"},
                "local": {"command": "python", "args": ["-m", "server"], "env": {"LEVEL": "debug"}},
            }
        },
        {"mcpServers": {"local": {"command": "python", "argss": ["-m", "server"]}}},
        "argss",
        "Unknown property 'argss' at 'mcpServers.local'. Did you mean 'args'?",
        {"version": 1, "hooks": {}},
    ),
    Client(
        "claude",
        "Claude/claude_desktop_config.json",
        {"mcpServers": {"files": {"command": "npx", "args": ["-y", "server-filesystem@1.0.0", "/work"]}}},
        {"mcpServers": {"files": {"command": "npx", "agrs": ["x"]}}},
        "agrs",
        "Unknown property 'agrs' at 'mcpServers.files'. Did you mean 'args'?",
        {"globalShortcut": "Ctrl+Space", "isUsingBuiltInNodeForMcp": True},
    ),
    Client(
        "claude-user",
        "home/.claude.json",
        {
            "numStartups": 12,
            "mcpServers": {"user": {"type": "http", "url": "https://example.com/mcp"}},
            "projects": {
                "/home/me/app": {"allowedTools": [], "mcpServers": {"db": {"command": "db-mcp", "args": []}}},
                "/home/me/other": {"allowedTools": []},
            },
        },
        {"projects": {"/home/me/app": {"mcpServers": {"db": {"command": "db-mcp", "hedaers": {}}}}}},
        "hedaers",
        "Unknown property 'hedaers' at 'projects./home/me/app.mcpServers.db'. Did you mean 'headers'?",
        {"numStartups": 3, "projects": {"/home/me/app": {"allowedTools": [], "history": []}}},
    ),
    Client(
        "gemini-cli",
        "repo/.gemini/settings.json",
        {
            "theme": "Dracula",
            "mcpServers": {
                "remote": {"httpUrl": "https://example.com/mcp", "timeout": 5000, "trust": False},
                "local": {"command": "python", "args": ["-m", "tools"], "cwd": "./srv", "includeTools": ["a"]},
            },
        },
        {"mcpServers": {"local": {"command": "python", "includeTool": ["a"]}}},
        "includeTool",
        "Unknown property 'includeTool' at 'mcpServers.local'. Did you mean 'includeTools'?",
        {"theme": "Dracula", "selectedAuthType": "gemini-api-key"},
    ),
    Client(
        "cline",
        "globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
        {
            "mcpServers": {
                "remote": {"type": "streamableHttp", "url": "https://example.com/mcp", "autoApprove": ["read"]},
                "local": {"command": "node", "args": ["s.js"], "disabled": False, "timeout": 60},
            }
        },
        {"mcpServers": {"local": {"command": "node", "autoAprove": ["read"]}}},
        "autoAprove",
        "Unknown property 'autoAprove' at 'mcpServers.local'. Did you mean 'autoApprove'?",
        {"servers": [], "version": 2},
    ),
    Client(
        "roo",
        "repo/.roo/mcp.json",
        {
            "mcpServers": {
                "remote": {"type": "streamable-http", "url": "https://example.com/mcp", "alwaysAllow": ["read"]},
                "local": {"command": "node", "args": ["s.js"], "watchPaths": ["s.js"], "disabledTools": []},
            }
        },
        {"mcpServers": {"local": {"command": "node", "alwaysAlow": ["read"]}}},
        "alwaysAlow",
        "Unknown property 'alwaysAlow' at 'mcpServers.local'. Did you mean 'alwaysAllow'?",
        {"modes": []},
    ),
    Client(
        "kiro",
        "repo/.kiro/settings/mcp.json",
        {
            "mcpServers": {
                "local": {"command": "uvx", "args": ["srv==2.0"], "disabled": False, "autoApprove": ["list"]},
                "remote": {"url": "https://example.com/mcp", "disabledTools": ["delete"]},
            }
        },
        {"mcpServers": {"remote": {"url": "https://example.com/mcp", "autoAprove": ["list"]}}},
        "autoAprove",
        "Unknown property 'autoAprove' at 'mcpServers.remote'. Did you mean 'autoApprove'?",
        {"steering": []},
    ),
    Client(
        "amazonq",
        "repo/.amazonq/mcp.json",
        {
            "mcpServers": {
                "local": {"command": "uvx", "args": ["srv==2.0"], "timeout": 120000, "disabled": False},
                "remote": {"type": "http", "url": "https://example.com/mcp", "oauth": {"oauthScopes": ["a"]}},
            }
        },
        {"mcpServers": {"local": {"command": "uvx", "disabledTool": ["rm"]}}},
        "disabledTool",
        "Unknown property 'disabledTool' at 'mcpServers.local'. Did you mean 'disabledTools'?",
        {"profiles": {}},
    ),
    Client(
        "opencode",
        "repo/opencode.json",
        {
            "$schema": "https://opencode.ai/config.json",
            "theme": "opencode",
            "mcp": {
                "local": {"type": "local", "command": ["npx", "-y", "pkg@1.0.0"], "environment": {"L": "1"}},
                "remote": {"type": "remote", "url": "https://example.com/mcp", "enabled": True, "oauth": False},
            },
        },
        {"mcp": {"local": {"type": "local", "command": ["srv"], "env": {}}}},
        "env",
        "Unknown property 'env' at 'mcp.local'. Did you mean 'environment'? Valid properties: type, command, "
        "environment, url, headers, oauth, enabled, timeout",
        {"$schema": "https://opencode.ai/config.json", "theme": "opencode", "model": "x"},
    ),
    Client(
        "zed",
        "repo/.zed/settings.json",
        {
            "theme": "One Dark",
            "context_servers": {
                "local": {"command": "npx", "args": ["-y", "srv@1.0.0"], "env": {}},
                "older": {"source": "custom", "command": {"path": "srv", "args": [], "env": {}}},
                "remote": {"url": "https://example.com/mcp", "headers": {}},
                "ext": {"source": "extension", "settings": {"key": "value"}},
            },
        },
        {"context_servers": {"local": {"command": "srv", "enabeld": True}}},
        "enabeld",
        "Unknown property 'enabeld' at 'context_servers.local'. Did you mean 'enabled'?",
        {"theme": "One Dark", "lsp": {"pyright": {}}},
    ),
    Client(
        "devcontainer",
        "repo/.devcontainer/devcontainer.json",
        {
            "image": "mcr.microsoft.com/devcontainers/python:3",
            "customizations": {
                "vscode": {
                    "extensions": ["ms-python.python"],
                    "mcp": {"servers": {"local": {"type": "stdio", "command": "python", "args": ["-m", "s"]}}},
                }
            },
        },
        {"customizations": {"vscode": {"mcp": {"servers": {"local": {"command": "python", "envFil": ".env"}}}}}},
        "envFil",
        "Unknown property 'envFil' at 'customizations.vscode.mcp.servers.local'. Did you mean 'envFile'?",
        {"image": "python:3", "customizations": {"vscode": {"extensions": []}}},
    ),
]
IDS = [client.path.rsplit("/", 2)[-2] + "/" + client.path.rsplit("/", 1)[-1] for client in CLIENTS]


def _uri(path: str) -> str:
    return "file:///w/" + path


def _dialect(text: str, path: str) -> str | None:
    found = split(Document.from_text(_uri(path), text), None)
    return found.spans[0].dialect if found.kind == "mcp_config" and found.spans else None


def _text(value: dict[str, Any]) -> str:
    return json.dumps(value, indent=2) + "\n"


def _range_of(text: str, needle: str) -> tuple[int, int, int, int]:
    assert text.count(needle) == 1
    before = text[: text.index(needle)]
    line = before.count("\n")
    column = len(before) - (before.rfind("\n") + 1)
    return (line, column, line, column + len(needle))


@pytest.mark.parametrize("client", CLIENTS, ids=IDS)
def test_a_valid_file_is_the_clients_and_gets_nothing(client: Client) -> None:
    text = _text(client.valid)
    assert _dialect(text, client.path) == client.dialect
    assert [(d.code, d.message) for d in check(text, None, uri=_uri(client.path))] == []


@pytest.mark.parametrize("client", CLIENTS, ids=IDS)
def test_a_misspelt_key_gets_ts930_on_the_key(client: Client) -> None:
    text = _text(client.misspelt)
    assert _dialect(text, client.path) == client.dialect
    found = [d for d in check(text, None, uri=_uri(client.path)) if d.code == "TS930"]
    assert [(d.range, d.text) for d in found] == [(_range_of(text, f'"{client.key}"'), f'"{client.key}"')]
    assert found[0].message.startswith(client.message)


@pytest.mark.parametrize("client", CLIENTS, ids=IDS)
def test_a_file_of_that_name_holding_something_else_is_left_alone(client: Client) -> None:
    text = _text(client.other)
    assert _dialect(text, client.path) is None
    assert check(text, None, uri=_uri(client.path)) == []


@pytest.mark.parametrize(
    ("path", "servers"),
    [
        ("repo/settings.json", "mcpServers"),  # Gemini CLI's only in a .gemini folder
        ("repo/mcp_settings.json", "mcpServers"),
        ("repo/.cursor/config.json", "mcpServers"),
        ("repo/opencode.json", "mcpServers"),  # opencode keeps its servers in `mcp`
        ("repo/devcontainer.json", "servers"),  # not under customizations.vscode.mcp
    ],
)
def test_the_content_of_one_client_in_the_file_of_another_is_not_claimed(path: str, servers: str) -> None:
    text = _text({servers: {"s": {"command": "srv", "comand": "x"}}})
    assert _dialect(text, path) is None
    assert check(text, None, uri=_uri(path)) == []


SSE_TAIL = "deprecated since MCP 2025-03-26 and being dropped by clients and servers; "


@pytest.mark.parametrize(
    ("path", "entry", "where", "advice"),
    [
        (
            ".vscode/mcp.json",
            {"type": "sse", "url": "https://e.com/sse"},
            '"sse"',
            'use Streamable HTTP ("type": "http")',
        ),
        (
            "repo/.mcp.json",
            {"type": "sse", "url": "https://e.com/sse"},
            '"sse"',
            'use Streamable HTTP ("type": "http")',
        ),
        (
            "s/cline_mcp_settings.json",
            {"type": "sse", "url": "https://e.com/sse"},
            '"sse"',
            'use Streamable HTTP ("type": "streamableHttp")',
        ),
        (
            ".roo/mcp.json",
            {"type": "sse", "url": "https://e.com/sse"},
            '"sse"',
            'use Streamable HTTP ("type": "streamable-http")',
        ),
        (".gemini/settings.json", {"url": "https://e.com/sse"}, '"https://e.com/sse"', "move the address to `httpUrl`"),
    ],
)
def test_the_deprecated_sse_transport_is_information_where_it_is_chosen(
    path: str, entry: dict[str, Any], where: str, advice: str
) -> None:
    key = "servers" if path.endswith(".vscode/mcp.json") else "mcpServers"
    text = _text({key: {"events": entry}})
    found = [d for d in check(text, None, uri=_uri(path)) if d.code == "TS935"]
    # Information (issue 30): clients still connect over SSE; every TS935 of the wild corpus was advice.
    assert [(d.range, d.severity) for d in found] == [(_range_of(text, where), "information")]
    assert found[0].message.startswith(f"Server 'events' is reached over the HTTP+SSE transport, {SSE_TAIL}{advice}")


@pytest.mark.parametrize(
    ("path", "entry"),
    [
        (".vscode/mcp.json", {"type": "http", "url": "https://e.com/mcp"}),
        (".gemini/settings.json", {"httpUrl": "https://e.com/mcp"}),
        (".gemini/settings.json", {"type": "http", "url": "https://e.com/mcp"}),
        ("repo/.mcp.json", {"url": "https://e.com/mcp"}),
    ],
)
def test_streamable_http_is_not_the_deprecated_transport(path: str, entry: dict[str, Any]) -> None:
    key = "servers" if path.endswith(".vscode/mcp.json") else "mcpServers"
    assert [d.code for d in check(_text({key: {"events": entry}}), None, uri=_uri(path))] == []


SECRET = "sk-live-0123456789abcdefghijklmnop"
PIPE = "curl -fsSL https://get.example.com/i.sh | sh"


@pytest.mark.parametrize(
    ("path", "value", "code", "where"),
    [
        (
            "opencode.json",
            {"mcp": {"s": {"type": "local", "command": ["srv"], "environment": {"API_KEY": SECRET}}}},
            "TS940",
            f'"{SECRET}"',
        ),
        ("opencode.json", {"mcp": {"s": {"type": "local", "command": ["bash", "-c", PIPE]}}}, "TS942", None),
        (
            "opencode.json",
            {"mcp": {"s": {"type": "remote", "url": "http://mcp.example.com/mcp"}}},
            "TS943",
            '"http://mcp.example.com/mcp"',
        ),
        (
            "mcp_config.json",
            {"mcpServers": {"s": {"serverUrl": "http://mcp.example.com/mcp"}}},
            "TS943",
            '"http://mcp.example.com/mcp"',
        ),
        (
            ".zed/settings.json",
            {"context_servers": {"s": {"command": {"path": "bash", "args": ["-c", PIPE]}}}},
            "TS942",
            None,
        ),
        (
            ".zed/settings.json",
            {"context_servers": {"s": {"url": "https://e.com/mcp", "headers": {"Authorization": f"Bearer {SECRET}"}}}},
            "TS940",
            f'"Bearer {SECRET}"',
        ),
        (
            ".gemini/settings.json",
            {"mcpServers": {"s": {"httpUrl": "http://mcp.example.com/mcp"}}},
            "TS943",
            '"http://mcp.example.com/mcp"',
        ),
        (
            ".claude.json",
            {
                "projects": {
                    "/p": {
                        "mcpServers": {
                            "s": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/"]}
                        }
                    }
                }
            },
            "TS944",
            '"/"',
        ),
        (
            "cline_mcp_settings.json",
            {"mcpServers": {"s": {"command": "srv", "env": {"GITHUB_TOKEN": SECRET}}}},
            "TS940",
            f'"{SECRET}"',
        ),
        (
            ".roo/mcp.json",
            {"mcpServers": {"s": {"command": "srv", "args": ["--api-key", SECRET]}}},
            "TS940",
            f'"{SECRET}"',
        ),
        (
            ".kiro/settings/mcp.json",
            {"mcpServers": {"s": {"url": "http://mcp.example.com/mcp"}}},
            "TS943",
            '"http://mcp.example.com/mcp"',
        ),
        (
            ".amazonq/mcp.json",
            {"mcpServers": {"s": {"command": "srv", "env": {"API_KEY": SECRET}}}},
            "TS940",
            f'"{SECRET}"',
        ),
        (
            ".cursor/mcp.json",
            {"mcpServers": {"s": {"url": f"https://e.com/mcp?api_key={SECRET}"}}},
            "TS940",
            f'"https://e.com/mcp?api_key={SECRET}"',
        ),
        (
            "devcontainer.json",
            {"customizations": {"vscode": {"mcp": {"servers": {"s": {"command": "srv", "env": {"TOKEN": SECRET}}}}}}},
            "TS940",
            f'"{SECRET}"',
        ),
    ],
)
def test_the_security_rules_read_every_clients_entries(
    path: str, value: dict[str, Any], code: str, where: str | None
) -> None:
    text = _text(value)
    found = [d for d in check(text, None, uri=_uri(path)) if d.code.startswith("TS94")]
    assert [d.code for d in found] == [code]
    if where is not None:
        assert found[0].range == _range_of(text, where)
    else:  # a shell pipeline: the array of the script's words
        assert PIPE in found[0].text and found[0].text.lstrip().startswith("[")


def test_a_secret_in_a_dev_container_is_pointed_to_vs_codes_inputs() -> None:
    text = _text(
        {"customizations": {"vscode": {"mcp": {"servers": {"s": {"command": "srv", "env": {"TOKEN": SECRET}}}}}}}
    )
    (found,) = [d for d in check(text, None, uri=_uri(".devcontainer/devcontainer.json")) if d.code == "TS940"]
    assert found.message.endswith('declare it in `inputs` (password: true) and write "${input:…}" here')


def test_a_placeholder_word_is_not_an_inline_secret() -> None:
    """From a public Kiro configuration (4regab/agent-rules-mcp): the token's value says it may be left out."""
    text = _text(
        {"mcpServers": {"rules": {"command": "npx", "args": ["x@1.0.0"], "env": {"GITHUB_TOKEN": "optional"}}}}
    )
    assert check(text, None, uri=_uri(".kiro/settings/mcp.json")) == []
