"""The targets the oracle speaks for, and for each the documented contract that lets it say "accepted".

A target with a contract accepts a tool that none of its rules rejects or changes: the contract is the documented
statement that the rest is accepted (Anthropic: any draft 2020-12 schema with an object at the root). A target
without one (Copilot forwarding to a model family, Cursor) says "unknown" for such a tool: the evidence covers the
failures seen so far, not the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Source

ANTHROPIC_TOOL_DOCS = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools"
ANTHROPIC_STRICT_DOCS = (
    "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations"
)
OPENAI_FUNCTION_DOCS = "https://platform.openai.com/docs/guides/function-calling"
OPENAI_STRICT_DOCS = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"
GEMINI_SCHEMA_DOCS = "https://ai.google.dev/api/caching#Schema"
VERTEX_SCHEMA_DOCS = "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration"
GEMINI_CLI_SOURCE = (
    "https://github.com/google-gemini/gemini-cli/blob/5411f113cafae26161b4969b0237b8e1e024e2c2/"
    "packages/core/src/tools/mcp-client.ts"
)
GEMINI_CLI_NAMES = (
    "https://github.com/google-gemini/gemini-cli/blob/5411f113cafae26161b4969b0237b8e1e024e2c2/"
    "packages/core/src/tools/mcp-tool.ts"
)
VSCODE_MCP_SOURCE = (
    "https://github.com/microsoft/vscode/blob/0052d689f910e056718b44fdecc7a5e1ad2c3b66/"
    "src/vs/workbench/contrib/mcp/common/mcpServer.ts"
)
READ = "2026-12-07"
"""The day the documentation pages and source files above were read (issues carry their own dates)."""


@dataclass(frozen=True)
class Target:
    id: str
    label: str
    what: str
    contract: Source | None
    """The documented contract behind "accepted"; None: a tool no rule fires on is "unknown"."""
    strict: bool = False
    """Tools are sent with `strict: true` (the strict subset applies whatever the tool says)."""
    family: str = ""
    """The API family whose rules a client forwards to (`anthropic`, `gemini`): shared rules name the family."""


TARGETS: dict[str, Target] = {
    target.id: target
    for target in (
        Target(
            "anthropic",
            "Anthropic API",
            "Messages API, a tool as written (strict only when it says `strict: true`)",
            Source(ANTHROPIC_TOOL_DOCS, READ),
            family="anthropic",
        ),
        Target(
            "anthropic-strict",
            "Anthropic API, strict",
            "Messages API with `strict: true` (grammar-constrained tool use)",
            Source(ANTHROPIC_STRICT_DOCS, READ),
            strict=True,
            family="anthropic",
        ),
        Target(
            "claude-code",
            "Claude Code",
            "an MCP server's tools as Claude Code sends them to the Messages API (`mcp__server__tool`)",
            Source(ANTHROPIC_TOOL_DOCS, READ),
            family="anthropic",
        ),
        Target(
            "openai-chat",
            "OpenAI Chat Completions",
            "`tools[].function`, as written",
            Source(OPENAI_FUNCTION_DOCS, READ),
            family="openai",
        ),
        Target(
            "openai-chat-strict",
            "OpenAI Chat Completions, strict",
            "`tools[].function` with `strict: true` (Structured Outputs)",
            Source(OPENAI_STRICT_DOCS, READ),
            strict=True,
            family="openai",
        ),
        Target(
            "openai-responses",
            "OpenAI Responses",
            "`tools[]` function tools, as written",
            Source(OPENAI_FUNCTION_DOCS, READ),
            family="openai",
        ),
        Target(
            "openai-responses-strict",
            "OpenAI Responses, strict",
            "function tools with `strict: true` (Structured Outputs)",
            Source(OPENAI_STRICT_DOCS, READ),
            strict=True,
            family="openai",
        ),
        Target(
            "gemini-api",
            "Gemini API",
            "`functionDeclarations[].parameters` (an OpenAPI 3.0 subset)",
            Source(GEMINI_SCHEMA_DOCS, READ),
            family="gemini",
        ),
        Target(
            "vertex-ai",
            "Vertex AI",
            "`functionDeclarations[].parameters` on Vertex AI",
            Source(VERTEX_SCHEMA_DOCS, READ),
            family="gemini",
        ),
        Target(
            "gemini-cli",
            "Gemini CLI",
            "an MCP server's tools as Gemini CLI sends them (`parametersJsonSchema`, names `mcp_server_tool`)",
            Source(GEMINI_CLI_SOURCE, READ),
        ),
        Target(
            "copilot-claude",
            "Copilot → Claude",
            "GitHub Copilot (CLI, VS Code) forwarding MCP tools to a Claude model",
            None,
            family="anthropic",
        ),
        Target(
            "copilot-gemini",
            "Copilot → Gemini",
            "GitHub Copilot (CLI, VS Code) forwarding MCP tools to a Gemini model",
            None,
        ),
        Target(
            "copilot-gpt",
            "Copilot → GPT",
            "GitHub Copilot (CLI, VS Code) forwarding MCP tools to a GPT model",
            None,
        ),
        Target("cursor", "Cursor", "Cursor's MCP client", None),
        Target(
            "vscode-mcp",
            "VS Code MCP",
            "VS Code's MCP client and agent mode, before any model sees the tool",
            Source(VSCODE_MCP_SOURCE, READ),
        ),
    )
}

TARGET_IDS: tuple[str, ...] = tuple(TARGETS)

ANTHROPIC_FAMILY = frozenset({"anthropic", "anthropic-strict", "claude-code", "copilot-claude"})
OPENAI_CHAT = frozenset({"openai-chat", "openai-chat-strict"})
OPENAI_RESPONSES = frozenset({"openai-responses", "openai-responses-strict"})
OPENAI_FAMILY = OPENAI_CHAT | OPENAI_RESPONSES
GEMINI_PARAMETERS = frozenset({"gemini-api", "vertex-ai"})
