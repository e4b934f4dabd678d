"""MCP client configuration files: their shapes (pydantic models, whose JSON Schemas drive completion and hover),
and each server entry as something `client.list_tools` can run.

Two dialects, told apart by content (`engine.units.mcp_config_dialect`):
- `vscode` — VS Code's `.vscode/mcp.json` (and a user `mcp.json`): `servers`, plus `inputs` that `${input:id}`
  refers to; VS Code validates it with a schema of its own, so unknown keys are worth a warning;
- `claude` — `mcpServers`: Claude Code's `.mcp.json`, Claude Desktop's `claude_desktop_config.json`, Cursor's
  `mcp.json`. These clients ignore what they do not know (the desktop file holds other settings too), so an
  unknown key in an entry is reported only when it looks like a misspelt known one.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .client import HttpTarget, StdioTarget, Target

KNOWN_TYPES = ("stdio", "http", "sse")
SERVERS_KEY = {"vscode": "servers", "claude": "mcpServers"}

_EnvValue = str | int | float | bool | None


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: str | None = Field(
        None,
        description='How to reach the server: "stdio" (start `command`), "http" (Streamable HTTP at `url`) or '
        '"sse" (the older HTTP+SSE transport). Without it, `command` means stdio and `url` means HTTP.',
        json_schema_extra={"enum": list(KNOWN_TYPES)},
    )
    command: str | None = Field(None, description="stdio: the program to start (looked up on PATH).")
    args: list[str] | None = Field(None, description="stdio: the program's arguments, one string each.")
    env: dict[str, _EnvValue] | None = Field(
        None, description="stdio: environment variables for the server (values are secrets: never logged)."
    )
    cwd: str | None = Field(None, description="stdio: the working directory to start the server in.")
    url: str | None = Field(None, description="http/sse: the server's endpoint, e.g. https://example.com/mcp.")
    headers: dict[str, str] | None = Field(
        None, description="http/sse: HTTP headers sent with every request (e.g. Authorization)."
    )


class VsCodeServer(_Entry):
    """A server of VS Code's `mcp.json`."""

    envFile: str | None = Field(
        None, description="stdio: a .env file whose variables are added to the server's environment."
    )
    dev: dict[str, Any] | None = Field(
        None, description="Development mode: `watch` (a glob; restart the server on change) and `debug`."
    )


class ClaudeServer(_Entry):
    """A server of `mcpServers` (Claude Code, Claude Desktop, Cursor)."""


class VsCodeInput(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["promptString", "pickString", "command"] = Field(
        description="promptString: ask for text; pickString: choose one of `options`; command: run a command."
    )
    id: str = Field(description="The name `${input:id}` refers to.")
    description: str | None = Field(None, description="The prompt shown to the user.")
    password: bool | None = Field(None, description="promptString: hide what is typed (use it for secrets).")
    default: str | None = Field(None, description="The value proposed.")
    options: list[Any] | None = Field(None, description="pickString: the choices.")


class VsCodeConfig(BaseModel):
    """VS Code MCP configuration (`.vscode/mcp.json`)."""

    model_config = ConfigDict(extra="allow")

    servers: dict[str, VsCodeServer] = Field(description="The MCP servers, by name.")
    inputs: list[VsCodeInput] | None = Field(
        None, description="Values asked for when a server starts, referred to as `${input:id}` (e.g. API keys)."
    )


class ClaudeConfig(BaseModel):
    """MCP configuration with `mcpServers` (Claude Code `.mcp.json`, Claude Desktop, Cursor)."""

    model_config = ConfigDict(extra="allow")

    mcpServers: dict[str, ClaudeServer] = Field(description="The MCP servers, by name.")


CONFIG_MODELS: dict[str, type[BaseModel]] = {"vscode": VsCodeConfig, "claude": ClaudeConfig}


@dataclass(frozen=True)
class ServerEntry:
    name: str
    pointer: tuple[str, str]
    value: dict[str, Any]


def server_entries(value: Any, dialect: str) -> list[ServerEntry]:
    key = SERVERS_KEY.get(dialect)
    servers = value.get(key) if isinstance(value, dict) and key is not None else None
    if key is None or not isinstance(servers, dict):
        return []
    return [ServerEntry(name, (key, name), entry) for name, entry in servers.items() if isinstance(entry, dict)]


def entry_transport(entry: dict[str, Any]) -> str | None:
    """stdio, http, sse — or None when the entry says neither a command nor a URL."""
    kind = entry.get("type")
    if kind in KNOWN_TYPES:
        return str(kind)
    if isinstance(entry.get("command"), str):
        return "stdio"
    if isinstance(entry.get("url"), str):
        return "http"
    return None


_VARIABLE = re.compile(r"\$\{([^}]*)\}")


class Unresolved(ValueError):
    """A value needs something only the client knows (an `${input:…}` prompt, a VS Code command)."""


def _expand(text: str, folder: Path, environment: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in ("workspaceFolder", "workspaceRoot"):
            return str(folder)
        if name == "userHome":
            return str(Path.home())
        if name == "pathSeparator" or name == "/":
            return os.sep
        if name.startswith("env:"):
            return environment.get(name[4:], "")
        raise Unresolved(f"${{{name}}} is filled in by the editor when it starts the server; toolsense cannot")

    return _VARIABLE.sub(one, text)


def entry_target(entry: dict[str, Any], folder: Path, environment: dict[str, str] | None = None) -> Target:
    """What to run or connect to for an entry (variables such as `${workspaceFolder}` and `${env:X}` filled in);
    raises ValueError (or `Unresolved`) when that cannot be known."""
    environment = dict(os.environ) if environment is None else environment
    transport = entry_transport(entry)
    if transport in ("http", "sse"):
        url = entry.get("url")
        if not isinstance(url, str):
            raise ValueError("the entry has no `url`")
        if transport == "sse":
            raise ValueError("the HTTP+SSE transport is not supported for live checks; use Streamable HTTP")
        headers = entry.get("headers") if isinstance(entry.get("headers"), dict) else {}
        return HttpTarget(
            _expand(url, folder, environment),
            {str(k): _expand(str(v), folder, environment) for k, v in (headers or {}).items()},
        )
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        raise ValueError("the entry has no `command`")
    args = entry.get("args") if isinstance(entry.get("args"), list) else []
    env = entry.get("env") if isinstance(entry.get("env"), dict) else {}
    cwd = entry.get("cwd")
    return StdioTarget(
        _expand(command, folder, environment),
        tuple(_expand(str(a), folder, environment) for a in args or []),
        {str(k): _expand("" if v is None else str(v), folder, environment) for k, v in (env or {}).items()},
        _expand(cwd, folder, environment) if isinstance(cwd, str) else str(folder),
    )
