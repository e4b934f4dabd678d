"""MCP client configuration files: each server entry as every client means it (`EntryView`: its transport, its
command line, environment, URL and headers, each with where it is), and as something `client.list_tools` can run.

Which client's file a value is comes from its path and content together (`engine.config_dialects`); the facts
about each client (where its servers are, what it calls each part of an entry) are in `models.mcp_clients`, the
shape of its entries in `models.mcp_entries`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.config_dialects import mcp_config_dialect
from ..models.mcp_clients import ANY, BY_DIALECT, ClientFile
from ..models.mcp_entries import CONFIG_MODELS as CONFIG_MODELS  # where the rules and features find them
from .client import HttpTarget, StdioTarget, Target

KNOWN_TYPES = ("stdio", "http", "sse")
_HTTP_TYPES = frozenset({"http", "streamable-http", "streamableHttp", "remote"})
Pointer = tuple[str | int, ...]


@dataclass(frozen=True)
class ServerEntry:
    name: str
    pointer: tuple[str, ...]
    value: dict[str, Any]


def client_file(dialect: str) -> ClientFile:
    return BY_DIALECT.get(dialect, BY_DIALECT["claude"])


def dialect_of(dialect: str | None, value: Any) -> str:
    """A configuration unit's dialect: the one its path and content gave, else what its content alone says."""
    return str(dialect) if dialect in BY_DIALECT else mcp_config_dialect(value)


def server_entries(value: Any, dialect: str) -> list[ServerEntry]:
    """Every server entry of a client's file, wherever its client keeps them (`projects.*.mcpServers`…)."""
    spec = BY_DIALECT.get(dialect)
    if spec is None or not isinstance(value, dict):
        return []
    found: list[ServerEntry] = []
    for path in spec.servers:
        for pointer, servers in _resolve(value, (), path):
            found.extend(ServerEntry(n, (*pointer, n), e) for n, e in servers.items() if isinstance(e, dict))
    return found


def _resolve(value: Any, at: tuple[str, ...], path: tuple[str, ...]) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    if not isinstance(value, dict):
        return []
    if not path:
        return [(at, value)]
    head, rest = path[0], path[1:]
    if head == ANY:
        return [found for key, child in value.items() for found in _resolve(child, (*at, key), rest)]
    return _resolve(value.get(head), (*at, head), rest)


@dataclass(frozen=True)
class EntryView:
    """One server entry in the terms every client shares. Pointers are relative to the entry."""

    transport: str | None
    """stdio, http or sse; None when the entry says neither a command nor a URL (or a type of its own)."""
    words: tuple[tuple[str, Pointer], ...]
    """The command line, program first: each word and where it is written."""
    env: dict[str, Any]
    env_pointer: Pointer
    url: str | None
    url_pointer: Pointer
    headers: dict[str, Any]
    headers_pointer: Pointer
    cwd: str | None
    deprecated_sse: Pointer | None
    """Where the entry chooses the deprecated HTTP+SSE transport, if it does."""
    has_command: bool
    """A `command` of any JSON type (a wrong type is reported as such)."""

    @property
    def command(self) -> str | None:
        return self.words[0][0] if self.words else None


def entry_view(entry: dict[str, Any], dialect: str = "vscode") -> EntryView:
    spec = client_file(dialect)
    words, env, env_pointer = _command_line(entry, spec)
    url_key = next((key for key in spec.url_keys if isinstance(entry.get(key), str)), None)
    url = entry.get(url_key) if url_key is not None else None
    headers = entry.get(spec.headers_key)
    kind = entry.get("type")
    sse: Pointer | None = None
    if isinstance(kind, str) and kind in spec.sse_types:
        sse = ("type",)
    elif entry.get("transport") == "sse" and dialect in ("vscode", "devcontainer"):
        sse = ("transport",)
    elif url_key is not None and url_key in spec.sse_url_keys and kind is None:
        sse = (url_key,)
    transport: str | None
    if sse is not None:
        transport = "sse"
    elif kind == "stdio" or kind == "local":
        transport = "stdio"
    elif isinstance(kind, str) and kind in _HTTP_TYPES:
        transport = "http"
    elif words:
        transport = "stdio"
    elif url_key is not None:
        transport = "sse" if dialect == "cline" and kind is None else "http"  # Cline: a bare `url` is SSE
    else:
        transport = None
    cwd = entry.get("cwd")
    return EntryView(
        transport,
        tuple(words),
        env,
        env_pointer,
        url if isinstance(url, str) else None,
        (url_key or spec.url_keys[0],),
        headers if isinstance(headers, dict) else {},
        (spec.headers_key,),
        cwd if isinstance(cwd, str) else None,
        sse,
        "command" in entry,
    )


def _command_line(entry: dict[str, Any], spec: ClientFile) -> tuple[list[tuple[str, Pointer]], dict[str, Any], Pointer]:
    """The words of the command line with their places; the environment and its place."""
    command = entry.get("command")
    args: Any = entry.get("args")
    args_at: Pointer = ("args",)
    env: Any = entry.get(spec.env_key)
    env_at: Pointer = (spec.env_key,)
    words: list[tuple[str, Pointer]] = []
    if isinstance(command, list):  # opencode: the program and its arguments in one array
        words = [(word, ("command", index)) for index, word in enumerate(command) if isinstance(word, str)]
        args = None
    elif isinstance(command, dict):  # Zed's older settings: {"path", "args", "env"}
        path = command.get("path")
        words = [(path, ("command", "path"))] if isinstance(path, str) else []
        args, args_at = command.get("args"), ("command", "args")
        env, env_at = command.get("env"), ("command", "env")
    elif isinstance(command, str) and command.strip():
        split = command.split() if " " in command.strip() else [command]
        words = [(word, ("command",)) for word in split]
    if words and isinstance(args, list):
        words += [(arg, (*args_at, index)) for index, arg in enumerate(args) if isinstance(arg, str)]
    return words, env if isinstance(env, dict) else {}, env_at


def entry_transport(entry: dict[str, Any], dialect: str = "vscode") -> str | None:
    """stdio, http, sse — or None when the entry says neither a command nor a URL."""
    return entry_view(entry, dialect).transport


def _headers_from_variables(entry: dict[str, Any], dialect: str, expand: _Expansion) -> dict[str, str]:
    """Codex names variables instead of values: `bearer_token_env_var` and `env_http_headers` (header → variable)."""
    if dialect != "codex":
        return {}
    named = entry.get("env_http_headers")
    found = {str(k): expand(f"${{env:{v}}}") for k, v in named.items()} if isinstance(named, dict) else {}
    token = entry.get("bearer_token_env_var")
    if isinstance(token, str) and token:
        found["Authorization"] = expand(f"Bearer ${{env:{token}}}")
    return found


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
    dialect: str = "vscode",
) -> Target:
    """What to run or connect to for an entry of a `dialect` file (variables such as `${workspaceFolder}` and
    `${env:X}` filled in); raises ValueError (or `Unresolved`) when that cannot be known. `env_file` (the values of
    the entry's `envFile`) applies to a stdio entry only, as in VS Code: an HTTP entry's URL and headers never see
    it."""
    environment = dict(os.environ) if environment is None else environment
    view = entry_view(entry, dialect)
    if view.transport in ("http", "sse"):
        if view.url is None:
            raise ValueError(f"the entry has no `{view.url_pointer[0]}`")
        if view.transport == "sse":
            raise ValueError("the HTTP+SSE transport is not supported for live checks; use Streamable HTTP")
        expand = _Expansion(folder, environment)
        headers = {str(k): expand(str(v)) for k, v in view.headers.items()}
        headers.update(_headers_from_variables(entry, dialect, expand))
        return HttpTarget(expand(view.url), headers, tuple(sorted(expand.taken)))
    command = entry.get("command")
    if isinstance(command, str) and command:
        args = [a for a in entry.get("args") or [] if isinstance(a, str)] if isinstance(entry.get("args"), list) else []
    elif view.words:
        command, args = view.words[0][0], [word for word, _ in view.words[1:]]
    else:
        raise ValueError("the entry has no `command`")
    expand = _Expansion(folder, {**environment, **(env_file or {})})
    return StdioTarget(
        expand(command),
        tuple(expand(str(a)) for a in args),
        {**(env_file or {}), **{str(k): expand("" if v is None else str(v)) for k, v in view.env.items()}},
        expand(view.cwd) if view.cwd is not None else str(folder),
        tuple(sorted(expand.taken)),
    )
