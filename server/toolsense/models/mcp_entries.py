"""The shape of each MCP client's configuration file, as pydantic models whose JSON Schemas drive the TS93x checks,
completion and hover. One model per dialect of `mcp_clients.CLIENT_FILES`, whose row names the source of its keys.

A file model allows any key outside its servers (a settings file holds much else); an entry model forbids the keys
its client does not know, and the rule reports them all for a strict client, only likely misspellings for the
others.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

_EnvValue = str | int | float | bool | None
_OPEN = ConfigDict(extra="allow", defer_build=True)


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built when a configuration file is read

    type: str | None = Field(
        None,
        description='How to reach the server: "stdio" (start `command`), "http" (Streamable HTTP at `url`) or '
        '"sse" (the deprecated HTTP+SSE transport). Without it, `command` means stdio and `url` means HTTP.',
        json_schema_extra={"enum": ["stdio", "http", "sse"]},
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


_TOOL_LIST = list[str] | None


class VsCodeOAuth(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    clientId: str | None = Field(None, description="The OAuth client id to present (no dynamic registration).")


class VsCodeServer(_Entry):
    """A server of VS Code's `mcp.json`."""

    envFile: str | None = Field(
        None, description="stdio: a .env file whose variables are added to the server's environment."
    )
    dev: dict[str, Any] | None = Field(
        None, description="Development mode: `watch` (a glob; restart the server on change) and `debug`."
    )
    sandboxEnabled: bool | None = Field(
        None, description="stdio: run the server in VS Code's sandbox (the file's `sandbox` says what it may reach)."
    )
    version: str | None = Field(None, description="The version of the server installed from the gallery.")
    gallery: bool | str | None = Field(None, description="The server was installed from the MCP gallery (or its URL).")
    oauth: VsCodeOAuth | None = Field(None, description="http: OAuth settings (`clientId`).")
    transport: Literal["http", "sse"] | None = Field(None, description="http: Streamable HTTP or the deprecated SSE.")


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


class VsCodeSandbox(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    network: dict[str, list[str]] | None = Field(None, description="`allowedDomains` and `deniedDomains`.")
    filesystem: dict[str, list[str]] | None = Field(None, description="`denyRead`, `allowWrite` and `denyWrite`.")


class VsCodeConfig(BaseModel):
    """VS Code MCP configuration (`.vscode/mcp.json`)."""

    model_config = _OPEN

    servers: dict[str, VsCodeServer] = Field(description="The MCP servers, by name.")
    inputs: list[VsCodeInput] | None = Field(
        None, description="Values asked for when a server starts, referred to as `${input:id}` (e.g. API keys)."
    )
    sandbox: VsCodeSandbox | None = Field(
        None, description="What servers with `sandboxEnabled` may reach: `network` and `filesystem`."
    )


class ClaudeServer(_Entry):
    """A server of `mcpServers` (Claude Code, Claude Desktop)."""

    headersHelper: str | None = Field(None, description="http: a command whose output (JSON) gives the headers.")
    oauth: dict[str, Any] | None = Field(None, description="http: OAuth settings (`clientId`, `callbackPort`).")


class ClaudeConfig(BaseModel):
    """MCP configuration with `mcpServers` (Claude Code `.mcp.json`, Claude Desktop)."""

    model_config = _OPEN

    mcpServers: dict[str, ClaudeServer] = Field(description="The MCP servers, by name.")


class ClaudeProject(BaseModel):
    model_config = _OPEN

    mcpServers: dict[str, ClaudeServer] | None = Field(None, description="The project's local-scope MCP servers.")


class ClaudeUserConfig(BaseModel):
    """Claude Code's `~/.claude.json` (user-scope servers, and each project's local-scope ones)."""

    model_config = _OPEN

    mcpServers: dict[str, ClaudeServer] | None = Field(None, description="The user-scope MCP servers, by name.")
    projects: dict[str, ClaudeProject] | None = Field(None, description="Settings of each project, by its path.")


class CursorServer(_Entry):
    """A server of Cursor's `mcp.json`."""

    envFile: str | None = Field(None, description="stdio: a .env file whose variables are added to `env`.")
    auth: dict[str, Any] | None = Field(
        None, description="http: static OAuth (`CLIENT_ID`, `CLIENT_SECRET`, `scopes`)."
    )


class CursorConfig(BaseModel):
    """Cursor MCP configuration (`.cursor/mcp.json`, `~/.cursor/mcp.json`)."""

    model_config = _OPEN

    mcpServers: dict[str, CursorServer] = Field(description="The MCP servers, by name.")


class WindsurfServer(_Entry):
    """A server of Windsurf's `mcp_config.json`."""

    serverUrl: str | None = Field(None, description="http: the server's endpoint (Windsurf's name for the URL).")
    disabled: bool | None = Field(None, description="Do not start this server.")
    disabledTools: _TOOL_LIST = Field(None, description="Tools of this server Cascade does not use.")


class WindsurfConfig(BaseModel):
    """Windsurf MCP configuration (`~/.codeium/windsurf/mcp_config.json`)."""

    model_config = _OPEN

    mcpServers: dict[str, WindsurfServer] = Field(description="The MCP servers, by name.")


class GeminiServer(_Entry):
    """A server of Gemini CLI's `settings.json` `mcpServers`."""

    url: str | None = Field(None, description="The server's endpoint over the deprecated HTTP+SSE transport.")
    httpUrl: str | None = Field(None, description="The server's Streamable HTTP endpoint.")
    tcp: str | None = Field(None, description="A WebSocket address.")
    timeout: int | None = Field(None, description="Request timeout in milliseconds (default 600000).")
    trust: bool | None = Field(None, description="Skip every tool-call confirmation for this server.")
    description: str | None = Field(None, description="What the server is for.")
    includeTools: _TOOL_LIST = Field(None, description="Only these tools of the server are used.")
    excludeTools: _TOOL_LIST = Field(None, description="These tools of the server are not used.")
    extensionName: str | None = Field(None, description="The extension that contributed the server.")
    oauth: dict[str, Any] | None = Field(None, description="OAuth settings (`enabled`, `clientId`, `scopes`, …).")
    authProviderType: str | None = Field(None, description="dynamic_discovery, google_credentials, …")
    targetAudience: str | None = Field(None, description="Service-account auth: the OAuth client id.")
    targetServiceAccount: str | None = Field(None, description="Service-account auth: the account to impersonate.")


class GeminiConfig(BaseModel):
    """Gemini CLI settings (`.gemini/settings.json`): its `mcpServers`."""

    model_config = _OPEN

    mcpServers: dict[str, GeminiServer] = Field(description="The MCP servers, by name.")


class ClineServer(_Entry):
    """A server of Cline's `cline_mcp_settings.json`."""

    type: str | None = Field(
        None,
        description='How to reach the server: "stdio", "streamableHttp" or the deprecated "sse" (a bare `url`: sse).',
        json_schema_extra={"enum": ["stdio", "sse", "streamableHttp"]},
    )
    transportType: str | None = Field(None, description="The older name of `type`.")
    autoApprove: _TOOL_LIST = Field(None, description="Tools called without asking.")
    disabled: bool | None = Field(None, description="Do not start this server.")
    timeout: int | float | None = Field(None, description="Request timeout in seconds.")


class ClineConfig(BaseModel):
    """Cline MCP settings (`cline_mcp_settings.json`)."""

    model_config = _OPEN

    mcpServers: dict[str, ClineServer] = Field(description="The MCP servers, by name.")


class RooServer(_Entry):
    """A server of Roo Code's `.roo/mcp.json`."""

    type: str | None = Field(
        None,
        description='How to reach the server: "stdio", "streamable-http" or the deprecated "sse".',
        json_schema_extra={"enum": ["stdio", "sse", "streamable-http"]},
    )
    disabled: bool | None = Field(None, description="Do not start this server.")
    timeout: int | float | None = Field(None, description="Request timeout in seconds (1–3600).")
    alwaysAllow: _TOOL_LIST = Field(None, description="Tools called without asking.")
    watchPaths: _TOOL_LIST = Field(None, description="Paths whose change restarts the server.")
    disabledTools: _TOOL_LIST = Field(None, description="Tools of this server that are not used.")


class RooConfig(BaseModel):
    """Roo Code MCP configuration (`.roo/mcp.json`)."""

    model_config = _OPEN

    mcpServers: dict[str, RooServer] = Field(description="The MCP servers, by name.")


class KiroServer(_Entry):
    """A server of Kiro's `.kiro/settings/mcp.json`."""

    disabled: bool | None = Field(None, description="Do not start this server.")
    autoApprove: _TOOL_LIST = Field(None, description="Tools called without asking.")
    disabledTools: _TOOL_LIST = Field(None, description="Tools of this server that are not used.")


class KiroConfig(BaseModel):
    """Kiro MCP configuration (`.kiro/settings/mcp.json`)."""

    model_config = _OPEN

    mcpServers: dict[str, KiroServer] = Field(description="The MCP servers, by name.")


class AmazonQServer(_Entry):
    """A server of Amazon Q Developer's `mcp.json`."""

    type: str | None = Field(
        None,
        description='How to reach the server: "stdio", "http" or "registry".',
        json_schema_extra={"enum": ["stdio", "http", "registry"]},
    )
    timeout: int | None = Field(None, description="Timeout of each MCP request in milliseconds.")
    disabled: bool | None = Field(None, description="Do not start this server.")
    disabledTools: _TOOL_LIST = Field(None, description="Tools of this server that are not used.")
    oauthScopes: _TOOL_LIST = Field(None, description="OAuth scopes (older place; prefer `oauth.oauthScopes`).")
    oauth: dict[str, Any] | None = Field(None, description="OAuth settings (`redirectUri`, `oauthScopes`).")


class AmazonQConfig(BaseModel):
    """Amazon Q Developer MCP configuration (`.amazonq/mcp.json`, `~/.aws/amazonq/mcp.json`)."""

    model_config = _OPEN

    mcpServers: dict[str, AmazonQServer] = Field(description="The MCP servers, by name.")


class OpencodeServer(BaseModel):
    """A server of opencode's `mcp`."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    type: Literal["local", "remote"] = Field(description="local: start `command`; remote: connect to `url`.")
    command: list[str] | None = Field(None, description="local: the program and its arguments, one string each.")
    environment: dict[str, str] | None = Field(None, description="local: environment variables for the server.")
    url: str | None = Field(None, description="remote: the server's endpoint.")
    headers: dict[str, str] | None = Field(None, description="remote: HTTP headers sent with every request.")
    oauth: dict[str, Any] | Literal[False] | None = Field(None, description="remote: OAuth settings, or false.")
    enabled: bool | None = Field(None, description="Start the server (default true).")
    timeout: int | None = Field(None, description="Timeout in milliseconds.")


class OpencodeConfig(BaseModel):
    """opencode configuration (`opencode.json`): its `mcp`."""

    model_config = _OPEN

    mcp: dict[str, OpencodeServer] = Field(description="The MCP servers, by name.")


class ZedCommand(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    path: str = Field(description="The program to start.")
    args: list[str] | None = Field(None, description="Its arguments.")
    env: dict[str, str] | None = Field(None, description="Environment variables for it.")


class ZedServer(BaseModel):
    """A server of Zed's `context_servers`."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    source: Literal["custom", "extension"] | None = Field(None, description="Older settings: where it comes from.")
    enabled: bool | None = Field(None, description="Start the server (default true).")
    remote: bool | None = Field(None, description="Run it on the remote host in remote development.")
    command: str | ZedCommand | None = Field(None, description="The program to start (older settings: an object).")
    args: list[str] | None = Field(None, description="Its arguments.")
    env: dict[str, str] | None = Field(None, description="Environment variables for it.")
    timeout: int | None = Field(None, description="Timeout of tool calls in seconds.")
    url: str | None = Field(None, description="A remote server's endpoint.")
    headers: dict[str, str] | None = Field(None, description="HTTP headers sent with every request.")
    settings: dict[str, Any] | None = Field(None, description="An extension's server: its settings.")


class ZedConfig(BaseModel):
    """Zed settings (`settings.json`): its `context_servers`."""

    model_config = _OPEN

    context_servers: dict[str, ZedServer] = Field(description="The MCP (context) servers, by name.")


class DevcontainerVsCode(BaseModel):
    model_config = _OPEN

    mcp: VsCodeConfig | None = Field(None, description="VS Code's MCP configuration in the container.")


class DevcontainerCustomizations(BaseModel):
    model_config = _OPEN

    vscode: DevcontainerVsCode | None = Field(None, description="VS Code's settings.")


class DevcontainerConfig(BaseModel):
    """A dev container (`devcontainer.json`): `customizations.vscode.mcp`."""

    model_config = _OPEN

    customizations: DevcontainerCustomizations | None = Field(None, description="Tools' own settings.")


class CodexOAuth(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    client_id: str | None = Field(None, description="The OAuth client id to present.")


class CodexServer(BaseModel):
    """A server of Codex's `config.toml` (`[mcp_servers.<name>]`)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    command: str | None = Field(None, description="stdio: the program to start.")
    args: list[str] | None = Field(None, description="stdio: its arguments.")
    env: dict[str, str] | None = Field(None, description="stdio: environment variables for the server.")
    env_vars: list[Any] | None = Field(None, description="stdio: variables passed on from Codex's environment.")
    cwd: str | None = Field(None, description="stdio: the working directory.")
    url: str | None = Field(None, description="Streamable HTTP: the server's endpoint.")
    bearer_token_env_var: str | None = Field(None, description="http: the variable holding the bearer token.")
    http_headers: dict[str, str] | None = Field(None, description="http: headers sent with every request.")
    env_http_headers: dict[str, str] | None = Field(None, description="http: headers taken from variables.")
    experimental_environment: str | None = Field(None, description="Where Codex starts the server.")
    startup_timeout_sec: float | None = Field(None, description="Seconds to start and list tools (default 10).")
    startup_timeout_ms: int | None = Field(None, description="The same in milliseconds.")
    tool_timeout_sec: float | None = Field(None, description="Seconds a tool call may take (default 60).")
    enabled: bool | None = Field(None, description="Start the server (default true).")
    required: bool | None = Field(None, description="`codex exec` fails when the server does not start.")
    supports_parallel_tool_calls: bool | None = Field(None, description="Its tools may be called in parallel.")
    default_tools_approval_mode: Literal["auto", "prompt", "approve"] | None = Field(None, description="Approval.")
    enabled_tools: _TOOL_LIST = Field(None, description="Only these tools are used.")
    disabled_tools: _TOOL_LIST = Field(None, description="These tools are not used.")
    scopes: _TOOL_LIST = Field(None, description="OAuth scopes to ask for.")
    oauth: CodexOAuth | None = Field(None, description="OAuth settings (`client_id`).")
    oauth_resource: str | None = Field(None, description="The OAuth resource parameter (RFC 8707).")
    name: str | None = Field(None, description="An older display name.")
    tools: dict[str, dict[str, Any]] | None = Field(None, description="Per-tool settings (`approval_mode`).")


class CodexConfig(BaseModel):
    """Codex configuration (`config.toml`): its `[mcp_servers.<name>]` tables."""

    model_config = _OPEN

    mcp_servers: dict[str, CodexServer] = Field(description="The MCP servers, by name.")


CONFIG_MODELS: dict[str, type[BaseModel]] = {
    "vscode": VsCodeConfig,
    "claude": ClaudeConfig,
    "claude-user": ClaudeUserConfig,
    "cursor": CursorConfig,
    "windsurf": WindsurfConfig,
    "gemini-cli": GeminiConfig,
    "cline": ClineConfig,
    "roo": RooConfig,
    "kiro": KiroConfig,
    "amazonq": AmazonQConfig,
    "opencode": OpencodeConfig,
    "zed": ZedConfig,
    "devcontainer": DevcontainerConfig,
    "codex": CodexConfig,
}
