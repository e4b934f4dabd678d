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
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built when a configuration file is read

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
    model_config = ConfigDict(extra="allow", defer_build=True)

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

    model_config = ConfigDict(extra="allow", defer_build=True)

    servers: dict[str, VsCodeServer] = Field(description="The MCP servers, by name.")
    inputs: list[VsCodeInput] | None = Field(
        None, description="Values asked for when a server starts, referred to as `${input:id}` (e.g. API keys)."
    )


class ClaudeConfig(BaseModel):
    """MCP configuration with `mcpServers` (Claude Code `.mcp.json`, Claude Desktop, Cursor)."""

    model_config = ConfigDict(extra="allow", defer_build=True)

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


MAX_ENV_FILE_BYTES = 1 << 20
"""An `envFile` larger than this is not a .env file: refused rather than read into memory."""


def read_env_file(name: str, folder: Path) -> dict[str, str]:
    """VS Code's `envFile` of a stdio entry: KEY=VALUE lines (comments and blank lines skipped). Only a file
    inside the workspace `folder` is read — a repository names the file, so an absolute path, `../..` or a link
    that leads outside is refused (ValueError), whatever it holds; its values are secrets like `env`'s."""
    root = folder.resolve()
    path = Path(name.replace("${workspaceFolder}", str(folder)))
    path = (path if path.is_absolute() else folder / path).resolve()
    if not path.is_relative_to(root):
        raise ValueError(f"its envFile {name!r} is outside the workspace; toolsense reads no file outside it")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_ENV_FILE_BYTES + 1)
    except OSError:
        return {}
    if len(data) > MAX_ENV_FILE_BYTES:
        raise ValueError(f"its envFile {name!r} is larger than {MAX_ENV_FILE_BYTES >> 20} MB")
    values: dict[str, str] = {}
    for line in data.decode("utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        values[key.strip()] = value.strip().strip("'\"")
    return values


class _Expansion:
    """Fills in `${…}` variables, remembering the values taken from the environment: they are secrets."""

    def __init__(self, folder: Path, environment: dict[str, str]) -> None:
        self.folder = folder
        self.environment = environment
        self.taken: set[str] = set()

    def __call__(self, text: str) -> str:
        return _VARIABLE.sub(self._one, text)

    def _one(self, match: re.Match[str]) -> str:
        name = match.group(1)
        if name in ("workspaceFolder", "workspaceRoot"):
            return str(self.folder)
        if name == "userHome":
            return str(Path.home())
        if name == "pathSeparator" or name == "/":
            return os.sep
        if name.startswith("env:"):
            value = self.environment.get(name[4:], "")
            self.taken.add(value)
            return value
        raise Unresolved(f"${{{name}}} is filled in by the editor when it starts the server; toolsense cannot")


def entry_target(
    entry: dict[str, Any],
    folder: Path,
    environment: dict[str, str] | None = None,
    env_file: dict[str, str] | None = None,
) -> Target:
    """What to run or connect to for an entry (variables such as `${workspaceFolder}` and `${env:X}` filled in);
    raises ValueError (or `Unresolved`) when that cannot be known. `env_file` (the values of the entry's
    `envFile`) applies to a stdio entry only, as in VS Code: an HTTP entry's URL and headers never see it."""
    environment = dict(os.environ) if environment is None else environment
    transport = entry_transport(entry)
    if transport in ("http", "sse"):
        url = entry.get("url")
        if not isinstance(url, str):
            raise ValueError("the entry has no `url`")
        if transport == "sse":
            raise ValueError("the HTTP+SSE transport is not supported for live checks; use Streamable HTTP")
        headers = entry.get("headers") if isinstance(entry.get("headers"), dict) else {}
        expand = _Expansion(folder, environment)
        return HttpTarget(
            expand(url), {str(k): expand(str(v)) for k, v in (headers or {}).items()}, tuple(sorted(expand.taken))
        )
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        raise ValueError("the entry has no `command`")
    args = entry.get("args") if isinstance(entry.get("args"), list) else []
    env = entry.get("env") if isinstance(entry.get("env"), dict) else {}
    cwd = entry.get("cwd")
    expand = _Expansion(folder, {**environment, **(env_file or {})})
    return StdioTarget(
        expand(command),
        tuple(expand(str(a)) for a in args or []),
        {**(env_file or {}), **{str(k): expand("" if v is None else str(v)) for k, v in (env or {}).items()}},
        expand(cwd) if isinstance(cwd, str) else str(folder),
        tuple(sorted(expand.taken)),
    )
