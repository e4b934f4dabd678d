"""Strict models of the 2026 tool features that are not function tools: OpenAI Responses `namespace`, `custom`,
`tool_search` and hosted `mcp` tools; Anthropic's `mcp_toolset` tool and `mcp_servers` entries; the MCP Apps
`_meta.ui` of an MCP tool. The facts behind them (value lists, sources, dates) are in `feature_facts`.

Value lists a provider extends often (`allowed_callers`, connector ids) are plain strings here: the rules judge them
against the dated lists, with a suggestion, rather than a bare "Input should be …".
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from .base import StrictModel
from .definitions import CacheControl

JsonObject = dict[str, Any]


# --- OpenAI Responses ------------------------------------------------------------------------------------


class OpenAIGrammarFormat(StrictModel):
    """A custom tool's input grammar."""

    type: Literal["grammar"] = Field(description="Grammar format; 'grammar'.")
    syntax: Literal["lark", "regex"] = Field(description="The grammar's syntax: 'lark' or 'regex'.")
    definition: str = Field(description="The grammar: Lark (llguidance's dialect) or a regular expression.")


class OpenAITextFormat(StrictModel):
    """Unconstrained text input (the default)."""

    type: Literal["text"] = Field(description="Unconstrained text; 'text'.")


CustomFormat = Annotated[OpenAIGrammarFormat | OpenAITextFormat, Field(discriminator="type")]


class OpenAICustomTool(StrictModel):
    """An OpenAI `custom` tool: the model sends it free text, constrained by an optional grammar."""

    type: Literal["custom"] = Field(description="Tool type; 'custom'.")
    name: str = Field(description="The tool's name, used in tool calls.")
    description: str | None = Field(default=None, description="What the tool does.")
    format: CustomFormat | None = Field(
        default=None, description="The input format: {type: 'text'} or {type: 'grammar', syntax, definition}."
    )
    defer_loading: bool | None = Field(default=None, description="Load the tool only when tool_search finds it.")
    allowed_callers: list[str] | None = Field(default=None, description="Who may call it: 'direct', 'programmatic'.")


class OpenAINamespaceTool(StrictModel):
    """An OpenAI `namespace`: function and custom tools grouped under one name (each inner tool is checked as a
    tool of its own)."""

    type: Literal["namespace"] = Field(description="Tool type; 'namespace'.")
    name: str = Field(description="The namespace name used in tool calls (e.g. 'crm').")
    description: str = Field(description="A description of the namespace shown to the model.")
    tools: list[JsonObject] = Field(description="The function and custom tools of the namespace.")


class OpenAIToolSearchTool(StrictModel):
    """OpenAI's `tool_search`: loads deferred functions, namespaces and MCP servers when the model asks."""

    type: Literal["tool_search"] = Field(description="Tool type; 'tool_search'.")
    execution: Literal["server", "client"] | None = Field(default=None, description="Who runs the search.")
    description: str | None = Field(default=None, description="Shown to the model (client execution).")
    parameters: JsonObject | None = Field(default=None, description="The search's parameters (client execution).")


class OpenAIMcpToolFilter(StrictModel):
    read_only: bool | None = Field(default=None, description="Match tools annotated readOnlyHint.")
    tool_names: list[str] | None = Field(default=None, description="Tool names.")


class OpenAIMcpApprovalFilter(StrictModel):
    always: OpenAIMcpToolFilter | None = Field(default=None, description="Tools that always need approval.")
    never: OpenAIMcpToolFilter | None = Field(default=None, description="Tools that never need approval.")


def _object_or_other(value: Any) -> str:
    """Which branch of a union of an object model and something else a value is read as (one error, not both)."""
    return "object" if isinstance(value, dict) else "other"


ApprovalSetting = Annotated[
    Annotated[Literal["always", "never"], Tag("other")] | Annotated[OpenAIMcpApprovalFilter, Tag("object")],
    Discriminator(_object_or_other),
]
AllowedTools = Annotated[
    Annotated[list[str], Tag("other")] | Annotated[OpenAIMcpToolFilter, Tag("object")],
    Discriminator(_object_or_other),
]


class OpenAIMcpTool(StrictModel):
    """An OpenAI hosted `mcp` tool: a remote MCP server the API connects to."""

    type: Literal["mcp"] = Field(description="Tool type; 'mcp'.")
    server_label: str = Field(description="A label for the server, used in tool calls.")
    server_url: str | None = Field(default=None, description="The server's URL (or connector_id, or tunnel_id).")
    connector_id: str | None = Field(default=None, description="A service connector (connector_gmail, …).")
    tunnel_id: str | None = Field(default=None, description="A Secure MCP Tunnel id.")
    server_description: str | None = Field(default=None, description="What the server offers.")
    authorization: str | None = Field(default=None, description="An OAuth access token for the server.")
    headers: dict[str, str] | None = Field(default=None, description="HTTP headers sent to the server.")
    require_approval: ApprovalSetting | None = Field(
        default=None, description="Which of the server's tools need approval: 'always', 'never' or a filter."
    )
    allowed_tools: AllowedTools | None = Field(
        default=None, description="The server's tools the model may use: names or a filter."
    )
    defer_loading: bool | None = Field(default=None, description="Load the server's tools through tool_search.")
    allowed_callers: list[str] | None = Field(default=None, description="Who may call it: 'direct', 'programmatic'.")


OPENAI_HOSTED_MODELS: dict[str, type[StrictModel]] = {
    "custom": OpenAICustomTool,
    "namespace": OpenAINamespaceTool,
    "tool_search": OpenAIToolSearchTool,
    "mcp": OpenAIMcpTool,
}
"""The OpenAI tool types (beside `function`) whose members toolsense checks, by `type`."""


# --- Anthropic -------------------------------------------------------------------------------------------


class AnthropicMcpToolConfig(StrictModel):
    enabled: bool | None = Field(default=None, description="Whether the tool is offered.")
    defer_loading: bool | None = Field(default=None, description="Load the tool only when searched for.")


class AnthropicMcpToolset(StrictModel):
    """Anthropic's `mcp_toolset` tool: the tools of one of the request's `mcp_servers`."""

    type: Literal["mcp_toolset"] = Field(description="Tool type; 'mcp_toolset'.")
    mcp_server_name: str = Field(description="The `name` of an entry of the request's `mcp_servers`.")
    default_config: AnthropicMcpToolConfig | None = Field(default=None, description="Applies to every tool.")
    configs: dict[str, AnthropicMcpToolConfig] | None = Field(default=None, description="Per-tool overrides.")
    cache_control: CacheControl | None = Field(default=None, description="Prompt-caching breakpoint.")


class AnthropicMcpServerToolConfiguration(StrictModel):
    allowed_tools: list[str] | None = Field(default=None, description="The server's tools Claude may use.")
    enabled: bool | None = Field(default=None, description="Whether the server's tools are offered.")


class AnthropicMcpServer(StrictModel):
    """An entry of an Anthropic request's `mcp_servers` (the MCP connector)."""

    type: Literal["url"] = Field(description="Server type; 'url'.")
    name: str = Field(description="The server's name, named by an mcp_toolset's mcp_server_name.")
    url: str = Field(description="The server's URL (Streamable HTTP or SSE).")
    authorization_token: str | None = Field(default=None, description="An OAuth access token for the server.")
    tool_configuration: AnthropicMcpServerToolConfiguration | None = Field(default=None, description="Tool filter.")


HOSTED_MODELS: dict[str, type[StrictModel]] = {**OPENAI_HOSTED_MODELS, "mcp_toolset": AnthropicMcpToolset}
"""Every tool without a function schema whose members toolsense checks, by `type`."""


def hosted_model(value: Any) -> type[StrictModel] | None:
    """The model of a provider's tool that has no function schema (`namespace`, `custom`, `mcp`, …), by `type`."""
    kind = value.get("type") if isinstance(value, dict) else None
    return HOSTED_MODELS.get(kind) if isinstance(kind, str) else None


# --- MCP Apps --------------------------------------------------------------------------------------------


class McpUiCsp(StrictModel):
    connectDomains: list[str] | None = Field(default=None, description="Origins for fetch/XHR/WebSocket.")
    resourceDomains: list[str] | None = Field(default=None, description="Origins for scripts, images, styles.")
    wasmUnsafeEval: bool | None = Field(default=None, description="Allow WebAssembly compilation.")
    frameDomains: list[str] | None = Field(default=None, description="Origins for nested iframes.")
    baseUriDomains: list[str] | None = Field(default=None, description="Allowed base URIs.")


class McpUiPermissions(StrictModel):
    camera: JsonObject | None = Field(default=None, description="Request camera access ({}).")
    microphone: JsonObject | None = Field(default=None, description="Request microphone access ({}).")
    geolocation: JsonObject | None = Field(default=None, description="Request geolocation access ({}).")
    clipboardWrite: JsonObject | None = Field(default=None, description="Request clipboard write access ({}).")


class McpUiToolMeta(StrictModel):
    """An MCP tool's `_meta.ui` (MCP Apps): the UI resource its results render in, and who may call it. `csp`,
    `permissions`, `domain` and `prefersBorder` belong to the UI resource's `_meta.ui`; on a tool they are read as
    the resource's (and reported as misplaced by the rule)."""

    resourceUri: str | None = Field(default=None, description="The UI resource (a ui:// URI).")
    visibility: list[Literal["model", "app"]] | None = Field(default=None, description="'model', 'app' or both.")
    csp: McpUiCsp | None = Field(default=None, description="Belongs on the UI resource's _meta.ui.")
    permissions: McpUiPermissions | None = Field(default=None, description="Belongs on the UI resource's _meta.ui.")
    domain: str | None = Field(default=None, description="Belongs on the UI resource's _meta.ui.")
    prefersBorder: bool | None = Field(default=None, description="Belongs on the UI resource's _meta.ui.")
