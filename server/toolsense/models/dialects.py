"""Which provider's shape a unit has (`Dialect`), and the strict models of the dialects beyond the first three:
Google Gemini function declarations, Amazon Bedrock Converse tool specs, Anthropic server (built-in) tools and
OpenAI Responses function calls.

A `Dialect` is a `str` enum: its value is the stable identifier used in settings and caches ("openai-flat"), its
`label` the word used in messages ("OpenAI function").
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, Literal

from pydantic import AliasChoices, ConfigDict, Field

from .base import StrictModel

JsonObject = dict[str, Any]


class Dialect(str, Enum):
    """A unit's dialect. Compares equal to its value, so `unit.dialect == "openai"` keeps working."""

    OPENAI = "openai"
    """OpenAI Chat Completions tool: `{"type": "function", "function": {name, description, parameters, strict}}`."""
    OPENAI_FLAT = "openai-flat"
    """OpenAI flat function: Responses / Realtime `{type: "function", name, parameters}`, legacy `functions`."""
    ANTHROPIC = "anthropic"
    """Anthropic Messages tool: `{name, description, input_schema}`."""
    ANTHROPIC_SERVER = "anthropic-server"
    """Anthropic server or built-in tool tagged by a versioned `type` (`web_search_20250305`, `bash_20250124`)."""
    MCP = "mcp"
    """MCP `Tool`: `{name, title, description, inputSchema, outputSchema, annotations}`."""
    GEMINI = "gemini"
    """Google Gemini function declaration: `{name, description, parameters | parametersJsonSchema}`."""
    BEDROCK = "bedrock"
    """Amazon Bedrock Converse tool: `{"toolSpec": {name, description, inputSchema: {json}}}`."""
    ANTHROPIC_CALL = "anthropic-call"
    OPENAI_CALL = "openai-call"
    OPENAI_FLAT_CALL = "openai-flat-call"
    OPENAI_RESPONSES_CALL = "openai-responses-call"
    BEDROCK_CALL = "bedrock-call"
    MCP_CALL = "mcp-call"
    """The `params` of an MCP `tools/call` request: `{name, arguments, _meta}`."""
    INPUT = "input"
    """A bare tool input (its tool named by the `tool_call_tool` setting)."""
    AUTOMATION = "automation"

    # Formatting gives the value on every Python version (3.11 changed `format()` of mixed-in enums).
    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def label(self) -> str:
        """The word for a unit of this dialect in messages."""
        return _LABELS[self]


_LABELS: dict[Dialect, str] = {
    Dialect.OPENAI: "OpenAI tool",
    Dialect.OPENAI_FLAT: "OpenAI function",
    Dialect.ANTHROPIC: "Anthropic tool",
    Dialect.ANTHROPIC_SERVER: "Anthropic server tool",
    Dialect.MCP: "MCP tool",
    Dialect.GEMINI: "Gemini function declaration",
    Dialect.BEDROCK: "Bedrock tool spec",
    Dialect.ANTHROPIC_CALL: "Anthropic tool_use block",
    Dialect.OPENAI_CALL: "OpenAI tool call",
    Dialect.OPENAI_FLAT_CALL: "OpenAI function call",
    Dialect.OPENAI_RESPONSES_CALL: "OpenAI function_call item",
    Dialect.BEDROCK_CALL: "Bedrock toolUse block",
    Dialect.MCP_CALL: "MCP tools/call request",
    Dialect.INPUT: "tool input",
    Dialect.AUTOMATION: "automation",
}

TOOL_DIALECTS = frozenset(
    {
        Dialect.OPENAI,
        Dialect.OPENAI_FLAT,
        Dialect.ANTHROPIC,
        Dialect.ANTHROPIC_SERVER,
        Dialect.MCP,
        Dialect.GEMINI,
        Dialect.BEDROCK,
    }
)
FUNCTION_DIALECTS = TOOL_DIALECTS - {Dialect.ANTHROPIC_SERVER}
"""Tools with a name and an input schema (server tools have neither schema nor description)."""


def as_dialect(value: str | None) -> Dialect | None:
    try:
        return Dialect(value) if value is not None else None
    except ValueError:
        return None


# --- Anthropic server tools ------------------------------------------------------------------------------

SERVER_TOOL_TYPE = re.compile(r"[a-z][a-z0-9_]*_20\d{6}")
"""The versioned `type` of Anthropic server and built-in tools: `web_search_20250305`, `text_editor_20250728`,
`computer_20250124`, `code_execution_20250825`, `memory_20250818`, … (the family grows; the shape does not)."""


class AnthropicServerTool(StrictModel):
    """An Anthropic server or built-in tool. Each type has its own options (`max_uses`, `allowed_domains`,
    `display_width_px`, …): they are the provider's to validate, so only the tag and the name are checked."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(pattern=SERVER_TOOL_TYPE.pattern, description="Tool type with its version date.")
    name: str = Field(description="The tool's fixed name (web_search, bash, str_replace_based_edit_tool, …).")


# --- Google Gemini ---------------------------------------------------------------------------------------


class GeminiFunctionDeclaration(StrictModel):
    """A Gemini `FunctionDeclaration` (proto JSON: lowerCamelCase, snake_case also accepted)."""

    name: str = Field(
        description="Function name: starts with a letter or _, then a-z, A-Z, 0-9, _, ., : or -; at most 64."
    )
    description: str | None = Field(default=None, description="What the function does.")
    parameters: JsonObject | None = Field(
        default=None, description="OpenAPI 3.0 subset schema of the arguments (`type` OBJECT, STRING, …)."
    )
    parametersJsonSchema: Any = Field(
        default=None,
        validation_alias=AliasChoices("parametersJsonSchema", "parameters_json_schema"),
        description="The arguments as a JSON Schema (instead of `parameters`).",
    )
    response: JsonObject | None = Field(default=None, description="OpenAPI 3.0 subset schema of the result.")
    responseJsonSchema: Any = Field(
        default=None,
        validation_alias=AliasChoices("responseJsonSchema", "response_json_schema"),
        description="The result as a JSON Schema.",
    )
    behavior: Literal["UNSPECIFIED", "BLOCKING", "NON_BLOCKING"] | None = Field(
        default=None, description="Whether the model waits for the result (Live API)."
    )


GEMINI_TYPES = frozenset({"TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"})


def lower_types(schema: Any, budget: int = 20_000) -> Any:
    """A Gemini (OpenAPI 3.0 subset) schema with upper-case `type` names in lower case, as JSON Schema spells
    them; everything else (pointers included) unchanged. Bounded: past `budget` nodes the rest is kept as is."""
    if not _has_upper_type(schema, budget):
        return schema
    count = 0

    def convert(node: Any) -> Any:
        nonlocal count
        count += 1
        if count > budget:
            return node
        if isinstance(node, dict):
            out = {key: (value if key in _LITERAL_KEYS else convert(value)) for key, value in node.items()}
            kind = node.get("type")
            if isinstance(kind, str) and kind in GEMINI_TYPES:
                out["type"] = kind.lower()
            elif isinstance(kind, list):
                out["type"] = [k.lower() if isinstance(k, str) and k in GEMINI_TYPES else k for k in kind]
            return out
        if isinstance(node, list):
            return [convert(item) for item in node]
        return node

    return convert(schema)


_LITERAL_KEYS = frozenset({"enum", "const", "default", "example", "examples", "required", "propertyOrdering"})


def _has_upper_type(schema: Any, budget: int) -> bool:
    stack = [schema]
    seen = 0
    while stack and seen < budget:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            kind = node.get("type")
            if isinstance(kind, str) and kind in GEMINI_TYPES:
                return True
            stack.extend(value for key, value in node.items() if key not in _LITERAL_KEYS)
        elif isinstance(node, list):
            stack.extend(node)
    return False


# --- Amazon Bedrock Converse -----------------------------------------------------------------------------


class BedrockInputSchema(StrictModel):
    """Bedrock wraps the JSON Schema in `json`."""

    json_: JsonObject = Field(alias="json", description="The JSON Schema of the tool's input.")


class BedrockToolSpecification(StrictModel):
    name: str = Field(description="Tool name, 1–64 characters of [a-zA-Z0-9_-].")
    description: str | None = Field(default=None, description="What the tool does.")
    inputSchema: BedrockInputSchema = Field(description="`{json: <JSON Schema>}`.")
    strict: bool | None = Field(default=None, description="Structured tool use.")


class BedrockTool(StrictModel):
    """An entry of `toolConfig.tools` with a `toolSpec` (the other kind, `cachePoint`, is not a function)."""

    toolSpec: BedrockToolSpecification = Field(description="The tool's specification.")


class BedrockToolUse(StrictModel):
    toolUseId: str = Field(description="Id referenced by the toolResult.")
    name: str = Field(description="Name of the tool called.")
    input: JsonObject = Field(description="The arguments.")


class BedrockToolUseBlock(StrictModel):
    """A `toolUse` content block of an assistant message in a Converse request."""

    toolUse: BedrockToolUse = Field(description="The tool call.")


# --- MCP ------------------------------------------------------------------------------------------------


class McpCallToolParams(StrictModel):
    """The `params` of an MCP `tools/call` request."""

    name: str = Field(description="Name of the tool to call.")
    arguments: JsonObject | None = Field(default=None, description="The arguments, valid against its inputSchema.")
    meta: JsonObject | None = Field(default=None, alias="_meta", description="Reserved metadata.")
    task: JsonObject | None = Field(default=None, description="Run the call as a task (MCP 2025-11-25).")


# --- OpenAI Responses ------------------------------------------------------------------------------------


class OpenAIResponsesFunctionCall(StrictModel):
    """A `function_call` item of a Responses API `input`."""

    type: Literal["function_call"] = Field(description="Item type; 'function_call'.")
    id: str | None = Field(default=None, description="Item id.")
    call_id: str = Field(description="Call id, referenced by the function_call_output.")
    name: str = Field(description="Name of the function called.")
    arguments: str = Field(description="The arguments: a JSON-encoded object.")
    status: Literal["in_progress", "completed", "incomplete"] | None = Field(default=None, description="Status.")
