"""Every MCP client whose configuration file toolsense reads: where the file is, where its servers are, what each
entry calls its command, URL, environment and headers, which transport types it knows, whether it rejects keys it
does not know, and where each fact was read, and when. One row per file format; the entry models (the keys of an
entry) are in `mcp_entries`, named by the same dialect.

A file is a client's only when its name (and folder, where the client has one) AND its content agree: a
`settings.json` is Zed's only with a `context_servers` object, Gemini CLI's only in a `.gemini` folder with an
`mcpServers` object (`engine.config_dialects`). Everything else in a settings file is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

Pointer = tuple[str, ...]
ANY = "*"
"""In a servers pointer: every member of that object (`projects.*.mcpServers` of `~/.claude.json`)."""
READ_ON = "2026-12-07"
"""When the sources below were read (each row names its source)."""


@dataclass(frozen=True)
class ClientFile:
    dialect: str
    client: str
    """The client's name, as messages say it."""
    names: frozenset[str]
    """File names the client reads."""
    servers: tuple[Pointer, ...]
    """Where the maps of servers (name → entry) are; a file is this client's when one of them is an object."""
    source: str
    """Where the facts of this row and of the dialect's entry model were read (repository path @ commit, or the
    documentation page), on `READ_ON`."""
    folders: tuple[str, ...] = ()
    """The folders the file sits in (`.cursor`, `.kiro/settings`), when the name alone is not the client's."""
    strict: bool = False
    """The client rejects an entry key it does not know (VS Code validates with a closed schema, opencode's zod
    schemas are `.strict()`, Codex's serde `deny_unknown_fields`): every unknown key is reported. Elsewhere only
    a likely misspelling of a known key is (the client ignores the rest)."""
    types: tuple[str, ...] | None = None
    """The values `type` may take; None: the client's source lists none toolsense could confirm (not checked)."""
    url_keys: tuple[str, ...] = ("url",)
    """Keys that hold the server's URL, first the one for Streamable HTTP."""
    sse_url_keys: tuple[str, ...] = ()
    """URL keys that mean the deprecated HTTP+SSE transport whatever `type` says (Gemini CLI's `url`)."""
    env_key: str = "env"
    headers_key: str = "headers"
    inputs: Pointer | None = None
    """Where VS Code's `inputs` (what `${input:id}` names) are."""
    sse_types: tuple[str, ...] = ("sse",)
    """`type` values that select the deprecated HTTP+SSE transport."""
    complete_with: tuple[str, ...] = ()
    """Keys that make an entry complete without a command or URL (a Zed extension's server: its `settings`)."""
    toml: bool = False
    shared_names: frozenset[str] = frozenset()
    """Names of `names` that no one client owns (a bare `mcp.json`): such a file, or one claimed by its content
    alone, is checked against `SHARED_TYPES`, not this client's `types`."""


SHARED_TYPES = ("stdio", "http", "sse", "streamable-http")
"""The transport types of an `mcpServers` file that no one client owns by its name (a bare `mcp.json` outside
every client's folder, or a file of another name): Claude Code reads one only when given its path
(`--mcp-config`; its own project file is `.mcp.json`: stdio, http, sse); the MCP Inspector reads its servers from
an `mcp.json` (`--config`, `~/.mcp-inspector/mcp.json`) and takes stdio, sse and streamable-http, and http as
streamable-http (modelcontextprotocol/inspector core/mcp/config.ts getServerType, core/mcp/node/config.ts
@86d5f58ec8c369839b8237455ad8b1c17b15a984); an Agent Plugin's root `mcp.json` takes stdio, streamable-http and
sse (agent-plugins.org 1.0.0 as summarised by stbenjam/skillsaw docs/rules/agent-plugin-mcp-valid.md). Only a
type none of them knows is reported. Read on `READ_ON`."""
SHARED_READERS = "the programs that read such a file (Claude Code by --mcp-config, the MCP Inspector, Agent Plugins)"


VSCODE_SOURCE = (
    "microsoft/vscode src/vs/platform/mcp/common/mcpPlatformTypes.ts @01272b921e9c053b06b0751a032341c80e4c7241 "
    "(entry keys: type, command, args, env, envFile, cwd, sandboxEnabled, dev, version, gallery; url, headers, "
    "oauth.clientId, transport); src/vs/platform/mcp/common/mcpResourceScannerService.ts "
    "@20ba3e6cd351826a3f6f8f2850e902fe3b0db6e8 (the file: servers, inputs, sandbox); "
    "src/vs/workbench/contrib/mcp/common/mcpConfiguration.ts @0b37532c56dc57c42571502253aba19111d27fc0 (type "
    "enum stdio | http | sse, dev.watch, dev.debug)"
)

CLIENT_FILES: tuple[ClientFile, ...] = (
    ClientFile(
        "cursor",
        "Cursor",
        frozenset({"mcp.json"}),
        (("mcpServers",),),
        "cursor.com/docs/context/mcp (command, args, env, envFile, url, headers, auth; ~/.cursor/mcp.json and "
        ".cursor/mcp.json); microsoft/vscode mcpConfiguration.ts DiscoverySource cursor-workspace",
        folders=(".cursor",),
    ),
    ClientFile(
        "roo",
        "Roo Code",
        frozenset({"mcp.json"}),
        (("mcpServers",),),
        "RooCodeInc/Roo-Code src/services/mcp/McpHub.ts (BaseConfigSchema: disabled, timeout, alwaysAllow, "
        "watchPaths, disabledTools; stdio: type, command, args, cwd, env; sse / streamable-http: type, url, headers)",
        folders=(".roo",),
        types=("stdio", "sse", "streamable-http"),
    ),
    ClientFile(
        "kiro",
        "Kiro",
        frozenset({"mcp.json"}),
        (("mcpServers",),),
        "kiro.dev/docs/mcp/configuration (command, args, env, url, headers, disabled, autoApprove, disabledTools; "
        ".kiro/settings/mcp.json)",
        folders=(".kiro/settings",),
    ),
    ClientFile(
        "amazonq",
        "Amazon Q Developer",
        frozenset({"mcp.json"}),
        (("mcpServers",),),
        "aws/amazon-q-developer-cli crates/chat-cli/src/cli/chat/tools/custom_tool.rs CustomToolConfig (camelCase: "
        "type stdio | http | registry, url, headers, oauthScopes, oauth, command, args, env, timeout, disabled, "
        "disabledTools)",
        folders=(".amazonq", ".aws/amazonq"),
        types=("stdio", "http", "registry"),
    ),
    ClientFile(
        "vscode",
        "VS Code",
        frozenset({"mcp.json"}),
        (("servers",),),
        VSCODE_SOURCE,
        strict=True,
        types=("stdio", "http", "sse"),
        inputs=("inputs",),
    ),
    ClientFile(
        "claude",
        "Claude Code / Claude Desktop",
        frozenset({"mcp.json", ".mcp.json", "claude_desktop_config.json"}),
        (("mcpServers",),),
        "code.claude.com/docs/en/mcp (.mcp.json: type stdio | http | sse, command, args, env, url, headers, "
        "headersHelper, oauth); modelcontextprotocol.io quickstart (claude_desktop_config.json: command, args, env)",
        types=("stdio", "http", "sse"),
        shared_names=frozenset({"mcp.json"}),
    ),
    ClientFile(
        "claude-user",
        "Claude Code",
        frozenset({".claude.json"}),
        (("mcpServers",), ("projects", ANY, "mcpServers")),
        "code.claude.com/docs/en/mcp (local and user scopes live in ~/.claude.json: mcpServers, and "
        "projects.<path>.mcpServers)",
        types=("stdio", "http", "sse"),
    ),
    ClientFile(
        "windsurf",
        "Windsurf",
        frozenset({"mcp_config.json"}),
        (("mcpServers",),),
        "docs.windsurf.com/windsurf/cascade/mcp (~/.codeium/windsurf/mcp_config.json: command, args, env, "
        "serverUrl, headers; disabled, disabledTools)",
        url_keys=("serverUrl", "url"),
    ),
    ClientFile(
        "gemini-cli",
        "Gemini CLI",
        frozenset({"settings.json"}),
        (("mcpServers",),),
        "google-gemini/gemini-cli docs/tools/mcp-server.md @009b0d84de89b531703ad5bc9e7cda906ad3c6a1 and "
        "packages/core/src/config/config.ts MCPServerConfig (command, args, env, cwd, url = SSE, httpUrl, headers, "
        "tcp, timeout, trust, description, includeTools, excludeTools, extensionName, oauth, authProviderType, "
        "targetAudience, targetServiceAccount)",
        folders=(".gemini",),
        url_keys=("httpUrl", "url"),
        sse_url_keys=("url",),
    ),
    ClientFile(
        "cline",
        "Cline",
        frozenset({"cline_mcp_settings.json"}),
        (("mcpServers",),),
        "cline/cline src/services/mcp/schemas.ts @1a196376d185f7d204aa985c7ee494b70cfdbf44 (autoApprove, disabled, "
        "timeout; type stdio | sse | streamableHttp, transportType, command, args, cwd, env, url, headers)",
        types=("stdio", "sse", "streamableHttp"),
    ),
    ClientFile(
        "opencode",
        "opencode",
        frozenset({"opencode.json", "opencode.jsonc"}),
        (("mcp",),),
        "sst/opencode packages/opencode/src/config/config.ts McpLocal / McpRemote, both .strict() (local: type, "
        "command array, environment, enabled, timeout; remote: type, url, enabled, headers, oauth, timeout)",
        strict=True,
        types=("local", "remote"),
        env_key="environment",
    ),
    ClientFile(
        "zed",
        "Zed",
        frozenset({"settings.json"}),
        (("context_servers",),),
        "zed-industries/zed crates/settings/src/settings_content/project.rs ContextServerSettingsContent (stdio: "
        "enabled, remote, command, args, env, timeout; http: enabled, url, headers, timeout; extension: enabled, "
        "settings; the older `source` tag and `command: {path, args, env}`)",
        complete_with=("settings", "source"),
    ),
    ClientFile(
        "devcontainer",
        "Dev Containers (VS Code)",
        frozenset({"devcontainer.json", ".devcontainer.json"}),
        (("customizations", "vscode", "mcp", "servers"),),
        "containers.dev implementors' reference: customizations.vscode holds VS Code settings; its `mcp` is VS "
        "Code's mcp.json (" + VSCODE_SOURCE + ")",
        strict=True,
        types=("stdio", "http", "sse"),
        inputs=("customizations", "vscode", "mcp", "inputs"),
    ),
    ClientFile(
        "codex",
        "Codex",
        frozenset({"config.toml"}),
        (("mcp_servers",),),
        "openai/codex codex-rs/config/src/mcp_types.rs @00b17c2659c96ab3d0ae8de723b4ce2d686850b1 RawMcpServerConfig, "
        "deny_unknown_fields (command, args, env, env_vars, cwd, http_headers, env_http_headers, url, "
        "bearer_token_env_var, experimental_environment, startup_timeout_sec, startup_timeout_ms, tool_timeout_sec, "
        "enabled, required, supports_parallel_tool_calls, default_tools_approval_mode, enabled_tools, "
        "disabled_tools, scopes, oauth, oauth_resource, name, tools); ~/.codex/config.toml and .codex/config.toml",
        folders=(".codex",),
        strict=True,
        headers_key="http_headers",
        toml=True,
    ),
)
"""In the order a file is tried: a folder's own `mcp.json` (Cursor, Roo, Kiro, Amazon Q) before VS Code's and the
`mcpServers` file of the rest."""

BY_DIALECT: dict[str, ClientFile] = {spec.dialect: spec for spec in CLIENT_FILES}
FILE_NAMES: frozenset[str] = frozenset(name for spec in CLIENT_FILES for name in spec.names)
SERVER_KEYS: frozenset[str] = frozenset(spec.servers[0][-1] for spec in CLIENT_FILES)
"""The key that holds a file's servers, for a cheap look at a file's first bytes (the VS Code extension's)."""
SSE_DEPRECATION = (
    "modelcontextprotocol.io/specification/2025-03-26/basic/transports: Streamable HTTP replaces the HTTP+SSE "
    "transport of protocol version 2024-11-05"
)


def reader_types(spec: ClientFile, path: str) -> tuple[tuple[str, ...] | None, str]:
    """The `type` values the reader of a file knows, and who that reader is (as messages name it): the client's,
    unless the file's name is not one the client owns alone (`shared_names`), when it is `SHARED_TYPES`."""
    name = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    if spec.shared_names and name not in spec.names - spec.shared_names:
        return SHARED_TYPES, SHARED_READERS
    return spec.types, spec.client


def path_matches(spec: ClientFile, path: str) -> bool:
    """Whether a file's path (posix, any prefix) is one this client reads: its name, in its folder if it has one."""
    parts = path.replace("\\", "/").rstrip("/").split("/")
    if parts[-1] not in spec.names:
        return False
    if not spec.folders:
        return True
    return any(parts[-1 - len(folder) : -1] == folder for folder in (f.split("/") for f in spec.folders))
