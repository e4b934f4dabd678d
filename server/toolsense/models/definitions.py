"""Strict models of tool definitions (per dialect), tool calls and automations.

These describe the *envelope* each provider accepts; the JSON Schema inside (`input_schema`, …) is checked by
the schema rules. The same models drive completion and hover, so the editor says what production says.
"""

from __future__ import annotations

from enum import Enum
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, Discriminator, Field, PositiveInt, Tag, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from .base import ENUM_SCHEMAS, StrictModel
from .dialects import (
    AnthropicServerTool,
    BedrockTool,
    BedrockToolUseBlock,
    Dialect,
    GeminiFunctionDeclaration,
    McpCallToolParams,
    OpenAIResponsesFunctionCall,
)

JsonObject = dict[str, Any]


# --- tool definitions ------------------------------------------------------------------------------------


class CacheControl(StrictModel):
    """Prompt-caching breakpoint."""

    type: Literal["ephemeral"] = Field(description="Cache type; only 'ephemeral' exists.")
    ttl: Literal["5m", "1h"] | None = Field(default=None, description="Cache lifetime.")


class AnthropicTool(StrictModel):
    """A tool for Anthropic's Messages API."""

    type: Literal["custom"] | None = Field(default=None, description="Client tool type (optional, 'custom').")
    name: str = Field(description="Tool name, 1–128 characters of [a-zA-Z0-9_-].")
    description: str | None = Field(default=None, description="What the tool does and when to use it.")
    input_schema: JsonObject = Field(description="JSON Schema of the tool's input; `type: object` at the root.")
    input_examples: list[JsonObject] | None = Field(
        default=None, description="Example inputs; each must be valid against input_schema."
    )
    cache_control: CacheControl | None = Field(default=None, description="Prompt-caching breakpoint.")
    strict: bool | None = Field(default=None, description="Grammar-constrained (strict) tool use.")
    defer_loading: bool | None = Field(default=None, description="Load the tool only when searched for.")
    allowed_callers: list[str] | None = Field(
        default=None, description="Who may call the tool (`direct`, a code execution tool's type)."
    )
    eager_input_streaming: bool | None = Field(default=None, description="Stream the input as it is generated.")


def _null_error(annotation: Any) -> PydanticCustomError:
    """The error pydantic gives for a wrong type, for a `null` where a member of this type is expected."""
    union = get_origin(annotation) in (Union, UnionType)
    kinds = [arg for arg in get_args(annotation) if arg is not type(None)] if union else [annotation]
    kind = kinds[0] if kinds else annotation
    if get_origin(kind) is Literal:
        allowed = " or ".join(repr(value) for value in get_args(kind))
        return PydanticCustomError("literal_error", "Input should be {expected}", {"expected": allowed})
    origin = get_origin(kind) or kind
    names = {str: "string_type", bool: "bool_type", dict: "dict_type", list: "list_type", int: "int_type"}
    if isinstance(origin, type) and issubclass(origin, BaseModel):
        return PydanticCustomError("model_type", "Input should be an object")
    return PydanticCustomError(names.get(origin, "dict_type"), "Input should not be null")


class McpModel(StrictModel):
    """MCP's schema has no nullable members: an optional member is absent or of its type, never `null` (the
    official schema and the SDKs reject `"description": null`)."""

    @field_validator("*", mode="before")
    @classmethod
    def _not_null(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None and info.field_name is not None:
            raise _null_error(cls.model_fields[info.field_name].annotation)
        return value


class McpIcon(McpModel):
    """An icon for display in a client."""

    src: str = Field(description="URI of the icon (https: or data:).")
    mimeType: str | None = Field(default=None, description="MIME type of the icon.")
    sizes: list[str] | None = Field(default=None, description="Sizes, e.g. '48x48' or 'any'.")
    theme: Literal["light", "dark"] | None = Field(default=None, description="Theme the icon is designed for.")


class McpToolAnnotations(McpModel):
    """Hints about the tool's behaviour (never guarantees)."""

    title: str | None = Field(default=None, description="Human-readable title.")
    readOnlyHint: bool | None = Field(default=None, description="The tool does not modify its environment.")
    destructiveHint: bool | None = Field(
        default=None, description="The tool may perform destructive updates (meaningful when not read-only)."
    )
    idempotentHint: bool | None = Field(
        default=None, description="Repeated calls with the same arguments have no extra effect."
    )
    openWorldHint: bool | None = Field(default=None, description="The tool interacts with external entities.")


class McpExecution(McpModel):
    """Execution properties (MCP 2025-11-25 only)."""

    taskSupport: Literal["forbidden", "optional", "required"] | None = Field(
        default=None, description="Whether the tool may be run as a task."
    )


MCP_VERSIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
"""The MCP protocol versions toolsense knows, oldest first; the last is the default."""
LATEST_MCP_VERSION = MCP_VERSIONS[-1]


class McpTool20250618(McpModel):
    """An MCP `Tool` as listed by `tools/list` (protocol version 2025-06-18)."""

    name: str = Field(description="Tool name, unique within a server.")
    title: str | None = Field(default=None, description="Human-readable title for display.")
    description: str | None = Field(default=None, description="What the tool does.")
    inputSchema: JsonObject = Field(description="JSON Schema of the arguments; `type: object` at the root.")
    outputSchema: JsonObject | None = Field(
        default=None, description="JSON Schema of structuredContent in the result; `type: object` at the root."
    )
    annotations: McpToolAnnotations | None = Field(default=None, description="Behaviour hints.")
    meta: JsonObject | None = Field(default=None, alias="_meta", description="Reserved metadata.")


class McpTool20251125(McpTool20250618):
    """An MCP `Tool` as listed by `tools/list` (protocol version 2025-11-25)."""

    name: str = Field(description="Tool name, 1–128 characters of [A-Za-z0-9_.-] (SHOULD), unique within a server.")
    inputSchema: JsonObject = Field(description="JSON Schema (2020-12 by default) of the arguments.")
    icons: list[McpIcon] | None = Field(default=None, description="Icons for display.")
    execution: McpExecution | None = Field(default=None, description="Execution properties.")


class McpTool(McpTool20250618):
    """An MCP `Tool` as listed by `tools/list` (protocol version 2026-07-28, the latest)."""

    name: str = Field(description="Tool name, 1–128 characters of [A-Za-z0-9_.-] (SHOULD), unique within a server.")
    inputSchema: JsonObject = Field(
        description="JSON Schema (2020-12 by default) of the arguments; `type: object` at the root. Properties may "
        "carry `x-mcp-header`."
    )
    outputSchema: JsonObject | None = Field(
        default=None, description="Any JSON Schema (2020-12 by default) of structuredContent in the result."
    )
    icons: list[McpIcon] | None = Field(default=None, description="Icons for display.")


MCP_TOOL_MODELS: dict[str, type[StrictModel]] = {
    "2025-06-18": McpTool20250618,
    "2025-11-25": McpTool20251125,
    "2026-07-28": McpTool,
}

MCP_ADDED: dict[str, str] = {"icons": "2025-11-25", "execution": "2025-11-25"}
"""Tool keys added after the first known version: the version that added them."""
MCP_REMOVED: dict[str, str] = {"execution": "2026-07-28"}
"""Tool keys removed by a later version: the version that removed them."""


def mcp_version_known(version: str) -> bool:
    return version in MCP_VERSIONS


class OpenAIFunction(StrictModel):
    """The function of an OpenAI function tool."""

    name: str = Field(description="Function name, 1–64 characters of [a-zA-Z0-9_-].")
    description: str | None = Field(default=None, description="What the function does.")
    parameters: JsonObject | None = Field(default=None, description="JSON Schema of the arguments.")
    strict: bool | None = Field(default=None, description="Structured Outputs: follow the schema exactly.")


class OpenAITool(StrictModel):
    """An OpenAI Chat Completions tool: `{"type": "function", "function": {...}}`."""

    type: Literal["function"] = Field(description="Tool type; 'function'.")
    function: OpenAIFunction = Field(description="The function definition.")


class OpenAIResponsesTool(StrictModel):
    """An OpenAI function tool in the flat (Responses API / legacy `functions`) shape."""

    type: Literal["function"] | None = Field(default=None, description="Tool type; 'function'.")
    name: str = Field(description="Function name, 1–64 characters of [a-zA-Z0-9_-].")
    description: str | None = Field(default=None, description="What the function does.")
    parameters: JsonObject | None = Field(default=None, description="JSON Schema of the arguments.")
    strict: bool | None = Field(default=None, description="Structured Outputs: follow the schema exactly.")
    defer_loading: bool | None = Field(default=None, description="Load the function only when tool_search finds it.")
    allowed_callers: list[str] | None = Field(
        default=None, description="Who may call the function: 'direct', 'programmatic' (Responses)."
    )
    output_schema: JsonObject | None = Field(
        default=None, description="JSON Schema of the JSON value the function's string output encodes (Responses)."
    )


TOOL_MODELS: dict[str, type[StrictModel]] = {
    Dialect.ANTHROPIC: AnthropicTool,
    Dialect.ANTHROPIC_SERVER: AnthropicServerTool,
    Dialect.MCP: McpTool,
    Dialect.OPENAI: OpenAITool,
    Dialect.OPENAI_FLAT: OpenAIResponsesTool,
    Dialect.GEMINI: GeminiFunctionDeclaration,
    Dialect.BEDROCK: BedrockTool,
}

SCHEMA_KEY: dict[str, tuple[str, ...]] = {
    Dialect.ANTHROPIC: ("input_schema",),
    Dialect.MCP: ("inputSchema",),
    Dialect.OPENAI: ("function", "parameters"),
    Dialect.OPENAI_FLAT: ("parameters",),
    Dialect.GEMINI: ("parameters",),
    Dialect.BEDROCK: ("toolSpec", "inputSchema", "json"),
}
"""Where each function dialect keeps the input JSON Schema, as a pointer from the tool (see `schema_pointer`)."""

NAME_KEY: dict[str, tuple[str, ...]] = {
    Dialect.ANTHROPIC: ("name",),
    Dialect.MCP: ("name",),
    Dialect.OPENAI: ("function", "name"),
    Dialect.OPENAI_FLAT: ("name",),
    Dialect.GEMINI: ("name",),
    Dialect.BEDROCK: ("toolSpec", "name"),
}

DESCRIPTION_KEY: dict[str, tuple[str, ...]] = {
    Dialect.ANTHROPIC: ("description",),
    Dialect.MCP: ("description",),
    Dialect.OPENAI: ("function", "description"),
    Dialect.OPENAI_FLAT: ("description",),
    Dialect.GEMINI: ("description",),
    Dialect.BEDROCK: ("toolSpec", "description"),
}


def schema_pointer(dialect: str, value: Any) -> tuple[str, ...]:
    """Where this tool keeps its input schema: the dialect's place, or Gemini's `parametersJsonSchema`."""
    if dialect == Dialect.GEMINI and isinstance(value, dict) and "parameters" not in value:
        for key in ("parametersJsonSchema", "parameters_json_schema"):
            if key in value:
                return (key,)
    return SCHEMA_KEY[dialect]


EXAMPLES_KEY: dict[str, tuple[str, ...]] = {"anthropic": ("input_examples",)}


# --- tool calls ------------------------------------------------------------------------------------------


class AnthropicToolUse(StrictModel):
    """An Anthropic `tool_use` content block."""

    type: Literal["tool_use"] = Field(description="Block type; 'tool_use'.")
    id: str | None = Field(default=None, description="Tool-use id, referenced by the tool_result.")
    name: str = Field(description="Name of the tool called.")
    input: JsonObject = Field(description="The arguments, valid against the tool's input_schema.")
    cache_control: CacheControl | None = Field(default=None, description="Prompt-caching breakpoint.")


class OpenAIFunctionCall(StrictModel):
    """An OpenAI function call: `arguments` is a JSON string (or an object, when written by hand)."""

    name: str = Field(description="Name of the function called.")
    arguments: str | JsonObject = Field(description="The arguments: a JSON-encoded object.")


class OpenAIToolCall(StrictModel):
    """An entry of `tool_calls` in an OpenAI assistant message."""

    id: str | None = Field(default=None, description="Call id, referenced by the tool message.")
    type: Literal["function"] = Field(description="Call type; 'function'.")
    function: OpenAIFunctionCall = Field(description="The function called and its arguments.")


CALL_MODELS: dict[str, type[StrictModel]] = {
    Dialect.ANTHROPIC_CALL: AnthropicToolUse,
    Dialect.OPENAI_CALL: OpenAIToolCall,
    Dialect.OPENAI_FLAT_CALL: OpenAIFunctionCall,
    Dialect.OPENAI_RESPONSES_CALL: OpenAIResponsesFunctionCall,
    Dialect.BEDROCK_CALL: BedrockToolUseBlock,
    Dialect.MCP_CALL: McpCallToolParams,
}


# --- automations ---------------------------------------------------------------------------------------


class TriggerType(str, Enum):
    WEBHOOK = "webhook"
    POLLING = "polling"
    SCHEDULE_RECURRING = "schedule_recurring"
    SCHEDULE_ONCE = "schedule_once"
    MANUAL = "manual"


class ConditionOp(str, Enum):
    LT = "<"
    GT = ">"
    LE = "<="
    GE = ">="
    EQ = "=="
    NE = "!="
    EQ_WORD = "eq"
    NE_WORD = "neq"
    CONTAINS = "contains"
    NOT_CONTAINS = "not_contains"
    STARTS_WITH = "starts_with"
    ENDS_WITH = "ends_with"
    EXISTS = "exists"
    NOT_EXISTS = "not_exists"


class RecurringInterval(str, Enum):
    MIN_5 = "5min"
    MIN_15 = "15min"
    MIN_30 = "30min"
    HOUR_1 = "1hr"
    HOUR_6 = "6hr"
    DAILY = "daily"
    WEEKLY = "weekly"


ENUM_SCHEMAS.register(
    TriggerType,
    "What starts the automation.",
    meanings={
        "webhook": "An event pushed by a service (trigger_config: service, event_type).",
        "polling": "A tool polled on an interval (trigger_config: source_tool, polling_interval_minutes).",
        "schedule_recurring": "A recurring schedule (trigger_config: interval, time_of_day).",
        "schedule_once": "One run at a given time (trigger_config: run_at).",
        "manual": "Run by hand.",
    },
)
ENUM_SCHEMAS.register(
    ConditionOp,
    "Comparison operator of a condition clause.",
    meanings={
        "<": "less than",
        ">": "greater than",
        "<=": "less than or equal",
        ">=": "greater than or equal",
        "==": "equal",
        "!=": "not equal",
        "eq": "equal (word form)",
        "neq": "not equal (word form)",
        "contains": "string or list contains value",
        "not_contains": "does not contain value",
        "starts_with": "string starts with value",
        "ends_with": "string ends with value",
        "exists": "path is present (takes no value)",
        "not_exists": "path is absent (takes no value)",
    },
)
ENUM_SCHEMAS.register(RecurringInterval, "How often a recurring schedule runs.", default=RecurringInterval.DAILY)

NO_VALUE_OPS = frozenset({ConditionOp.EXISTS.value, ConditionOp.NOT_EXISTS.value})


class ConditionClause(StrictModel):
    """One comparison: `{path, op, value?, case_insensitive?}`."""

    path: str = Field(description="Dotted path into the data, like a template path (e.g. 'urgency.answer').")
    op: ConditionOp = Field(description=ENUM_SCHEMAS.get(ConditionOp).description)
    value: Any = Field(default=None, description="Value to compare with (not for exists/not_exists).")
    case_insensitive: bool | None = Field(default=None, description="Compare strings case-insensitively.")


class ConditionGroup(StrictModel):
    """Several clauses joined by AND / OR: `{operator, clauses}`."""

    operator: Literal["AND", "OR"] = Field(description="How the clauses combine: AND or OR.")
    clauses: list[Condition] = Field(min_length=1, description="Clauses or nested groups.")


def condition_form(value: Any) -> str:
    """Which form a condition was read as: a group when it has `clauses` or `operator`, else a clause."""
    if isinstance(value, dict) and ("clauses" in value or "operator" in value):
        return "group"
    return "clause"


Condition = Annotated[
    Annotated[ConditionClause, Tag("clause")] | Annotated[ConditionGroup, Tag("group")],
    Discriminator(condition_form),
]
ConditionGroup.model_rebuild()


class Action(StrictModel):
    """One step: call `tool` with `parameters`, optionally when `condition` holds."""

    id: str = Field(description="Unique id of the action within the automation.")
    tool: str = Field(description="Name of the tool to call.")
    parameters: JsonObject = Field(default_factory=dict, description="Arguments for the tool; templates allowed.")
    output_as: str | None = Field(default=None, description="Name under which later actions see the result.")
    condition: Condition | None = Field(default=None, description="Run the action only when this holds.")


class WebhookConfig(StrictModel):
    service: str = Field(description="Service that sends the event (e.g. 'Slack').")
    event_type: str = Field(description="Event type (e.g. 'message.channels').")
    filters: JsonObject | None = Field(default=None, description="Service-side event filters.")


class PollingConfig(StrictModel):
    source_tool: str = Field(description="Tool polled for new data.")
    polling_interval_minutes: PositiveInt = Field(description="Minutes between polls (a positive integer).")
    tool_params: JsonObject = Field(default_factory=dict, description="Arguments for the source tool.")
    filter: Condition | None = Field(default=None, description="Fire only for data matching this condition.")
    service: str | None = Field(default=None, description="Service name (informational).")
    event_type: str | None = Field(default=None, description="Event name (informational).")
    aggregation_mode: Literal["latest", "all", "per_item"] | None = Field(
        default=None,
        description=(
            "How polled items reach the actions: 'latest' (the newest item, fields at the top level), 'all' (the "
            "whole list as trigger_data) or 'per_item' (one run per item)."
        ),
    )


class RecurringConfig(StrictModel):
    interval: RecurringInterval = Field(description=ENUM_SCHEMAS.get(RecurringInterval).description)
    time_of_day: str | None = Field(
        default=None, pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="Time of day, HH:MM (24-hour)."
    )
    timezone: str | None = Field(default=None, description="IANA time zone, e.g. 'Europe/Paris'.")


class OnceConfig(StrictModel):
    interval: Literal["once"] | None = Field(default=None, description="Always 'once'.")
    run_at: str = Field(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$",
        description="When to run: an ISO 8601 timestamp.",
    )
    timezone: str | None = Field(default=None, description="IANA time zone.")


class ManualConfig(StrictModel):
    """Manual automations take no trigger configuration."""


TRIGGER_CONFIG_MODELS: dict[str, type[StrictModel]] = {
    TriggerType.WEBHOOK.value: WebhookConfig,
    TriggerType.POLLING.value: PollingConfig,
    TriggerType.SCHEDULE_RECURRING.value: RecurringConfig,
    TriggerType.SCHEDULE_ONCE.value: OnceConfig,
    TriggerType.MANUAL.value: ManualConfig,
}


class Automation(StrictModel):
    """A trigger plus the actions it runs."""

    name: str = Field(description="Name of the automation.")
    description: str | None = Field(default=None, description="What the automation does.")
    trigger_type: TriggerType = Field(description=ENUM_SCHEMAS.get(TriggerType).description)
    trigger_config: JsonObject = Field(
        default_factory=dict, description="Settings of the trigger; their shape depends on trigger_type."
    )
    actions: list[Action] = Field(min_length=1, description="The steps, in order (a non-empty array).")
    variables: JsonObject | None = Field(default=None, description="Constants available to templates.")
