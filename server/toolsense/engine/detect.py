"""What a JSON object is, from its top-level keys: a tool of which dialect, an automation, a tool call, a wrapper
of those (a request body, a `tools/list` result). Read from a decoded value or from a `skeleton` of a tree-sitter
node (a few keys deep), so detection never walks a whole file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node

from ..document.jsontree import Pointer, pair_key, pairs, string_value
from ..models.dialects import GEMINI_TYPES, SERVER_TOOL_TYPE, Dialect
from .ownership import foreign_tool, tool_verdict
from .unit_kinds import UnitKind

AUTOMATION_KEYS = frozenset({"trigger_type", "trigger_config"})
FUNCTION_KEYS = frozenset({"name", "description", "parameters", "strict"})
"""Keys of an OpenAI `function`: beside `function` they are misplaced, not an application's own keys."""
OPENAI_TOOL_TYPES = frozenset(
    {
        "file_search",
        "code_interpreter",
        "web_search",
        "web_search_preview",
        "computer",
        "computer_use",
        "computer_use_preview",
        "image_generation",
        "mcp",
        "local_shell",
        "shell",
        "apply_patch",
        "custom",
        "namespace",
        "tool_search",
    }
)
"""OpenAI Responses tool types besides `function` (hosted tools, custom grammar tools, namespaces of functions);
dated variants (`web_search_2025_08_26`, `web_search_preview_2025_03_11`) are matched by `BUILT_IN_PREFIXES`."""
BUILT_IN_PREFIXES = (
    "file_search",
    "code_interpreter",
    "web_search",
    "computer",
    "bash",
    "text_editor",
    "image_generation",
    "mcp",
    "local_shell",
    "memory",
    "tool_search",
    "web_fetch",
)
GEMINI_TOOL_KEYS = frozenset(
    {
        "googleSearch",
        "google_search",
        "googleSearchRetrieval",
        "google_search_retrieval",
        "codeExecution",
        "code_execution",
        "retrieval",
        "urlContext",
        "url_context",
        "googleMaps",
        "google_maps",
        "fileSearch",
        "file_search",
        "computerUse",
        "computer_use",
        "mcpServers",
        "enterpriseWebSearch",
    }
)
DECLARATIONS = ("functionDeclarations", "function_declarations")
REQUEST_KEYS = frozenset(
    {
        "messages",
        "input",
        "model",
        "contents",
        "system",
        "max_tokens",
        "maxTokens",
        "max_output_tokens",
        "tool_choice",
        "toolChoice",
        "temperature",
        "stream",
    }
)
LIST_RESULT_KEYS = frozenset({"tools", "nextCursor", "_meta", "ttlMs", "cacheScope", "resultType"})
_BARE_CALL_KEYS = frozenset({"name", "input", "id"})


@dataclass(frozen=True)
class Detected:
    """What one object is: its kind, its dialect (None for a provider's built-in tool that has no schema to
    check) and, for an application's record, the pointer of the tool inside it."""

    kind: UnitKind
    dialect: Dialect | None
    inner: Pointer = ()


def detect(value: Any, relaxed: bool = False) -> Detected | None:
    """The unit this object is, from its keys (a decoded value or a `skeleton`); None when it is none of ours.

    relaxed (a folder glob pointed at the file): a tool may lack its name.
    """
    if not isinstance(value, Mapping):
        return None
    kind = value.get("type")
    named = isinstance(value.get("name"), str)
    if AUTOMATION_KEYS & value.keys():
        return Detected("automation", Dialect.AUTOMATION)
    if kind == "tool_use" and (named or relaxed):
        return Detected("tool_call", Dialect.ANTHROPIC_CALL)
    if kind == "function_call" and (named or relaxed):
        return Detected("tool_call", Dialect.OPENAI_RESPONSES_CALL)
    if relaxed and named and isinstance(value.get("input"), Mapping) and value.keys() <= _BARE_CALL_KEYS:
        # A tool's input as the model sent it, without the content block's `type` (a log, a fixture): in a folder
        # of calls that is what it is.
        return Detected("tool_call", Dialect.ANTHROPIC_CALL)
    if isinstance(value.get("toolUse"), Mapping):
        return Detected("tool_call", Dialect.BEDROCK_CALL)
    function = value.get("function")
    if isinstance(function, Mapping) and "arguments" in function:
        return Detected("tool_call", Dialect.OPENAI_CALL)
    arguments = value.get("arguments")
    if isinstance(arguments, (str, Mapping)) and named and "parameters" not in value:
        return Detected("tool_call", Dialect.OPENAI_FLAT_CALL)
    if isinstance(value.get("toolSpec"), Mapping):
        return Detected("tool", Dialect.BEDROCK)
    if isinstance(value.get("inputSchema"), Mapping) and (named or relaxed):
        # An MCP Tool has no `type`; `type: "function"` beside `inputSchema` vetoes every reading (`ownership`).
        if foreign_tool(value) is not None:
            return None
        if _weighed(value, Dialect.MCP):
            return Detected("tool", Dialect.MCP)
    if isinstance(value.get("input_schema"), Mapping) and (named or relaxed) and _weighed(value, Dialect.ANTHROPIC):
        return Detected("tool", Dialect.ANTHROPIC)
    if isinstance(function, Mapping):
        own = set(value.keys()) - {"type", "function"} - FUNCTION_KEYS
        # `type: "function"` says the object is the Chat Completions tool itself: keys beside it are judged (as
        # warnings unless sent as-is); without it, keys beside `function` are an application's record around it.
        if (not own or kind == "function") and (kind == "function" or relaxed or isinstance(function.get("name"), str)):
            return Detected("tool", Dialect.OPENAI)
        if own and isinstance(function.get("name"), str) and {"parameters", "description"} & function.keys():
            return Detected("tool", Dialect.OPENAI_FLAT, ("function",))  # an application's record
    if ("parametersJsonSchema" in value or "parameters_json_schema" in value) and (named or relaxed):
        return Detected("tool", Dialect.GEMINI)  # no other program spells these keys: nothing to weigh
    parameters = value.get("parameters")
    schema_like = isinstance(parameters, Mapping) and (not parameters or {"type", "properties"} & parameters.keys())
    if isinstance(parameters, Mapping) and (named or (relaxed and schema_like)) and not isinstance(arguments, list):
        dialect = Dialect.GEMINI if upper_type(parameters) else Dialect.OPENAI_FLAT
        if _weighed(value, dialect):
            return Detected("tool", dialect)
    if kind == "function" and named:
        return Detected("tool", Dialect.OPENAI_FLAT)
    if isinstance(kind, str) and named and SERVER_TOOL_TYPE.fullmatch(kind):
        return Detected("tool", Dialect.ANTHROPIC_SERVER)
    if isinstance(kind, str) and (kind in OPENAI_TOOL_TYPES or kind.startswith(BUILT_IN_PREFIXES)):
        return Detected("tool", None)
    return None


def _weighed(value: Mapping[str, Any], dialect: Dialect) -> bool:
    """Whether the evidence for reading `value` as a tool of `dialect` outweighs the evidence against it
    (`ownership.tool_verdict`: a `type` naming something else vetoes it)."""
    return tool_verdict(value, dialect).claimed


TOOL_LIKE_KEYS = frozenset(
    {"name", "description", "title", "type", "strict", "annotations", "cache_control", "defer_loading", "_meta"}
)
"""Keys a function tool may have besides its schema: an element with a name and only these is a tool that lacks
its schema (reported), not another program's record."""
AUTOMATION_LIKE_KEYS = frozenset({"name", "description", "trigger_type", "trigger_config", "actions", "variables"})


def loose_member(value: Mapping[str, Any], kind: UnitKind) -> bool:
    """Whether an element of a wrapper or array of `kind` units is one of them although its own keys do not say
    which dialect it is: it has a dialect's shape with the lower bar (a unit may lack its name), or it is a
    named unit with none but the unit's own keys (`{name, description}` beside tools, `{name, actions}` beside
    automations). `{name, schedule, model, prompt}` in an `automations` array is none of ours."""
    found = detect(value, relaxed=True)
    if found is not None:
        return found.kind == kind
    named = isinstance(value.get("name"), str)
    if kind == "tool":
        return named and value.keys() <= TOOL_LIKE_KEYS and value.get("type") in (None, "function")
    if kind == "automation":
        return isinstance(value.get("actions"), list) or (named and value.keys() <= AUTOMATION_LIKE_KEYS)
    return False


def hosted_type(value: Mapping[str, Any]) -> str | None:
    """The `type` of a provider-hosted tool (`web_search`, `web_search_20250305`, `tool_search`, …) known or not:
    a string other than `function`/`custom` on an object with none of a function tool's schema keys."""
    kind = value.get("type")
    if not isinstance(kind, str) or kind in ("function", "custom") or _SCHEMA_KEYS & value.keys():
        return None
    return kind


def known_hosted_type(kind: str) -> bool:
    """Whether a provider documents this hosted tool type (OpenAI's, or Anthropic's dated server tools)."""
    return kind in OPENAI_TOOL_TYPES or kind.startswith(BUILT_IN_PREFIXES) or bool(SERVER_TOOL_TYPE.fullmatch(kind))


_SCHEMA_KEYS = frozenset({"input_schema", "inputSchema", "parameters", "function", "toolSpec"})


def upper_type(schema: Mapping[str, Any]) -> bool:
    """Gemini's OpenAPI-subset spelling at the root of a schema: `"type": "OBJECT"`."""
    kind = schema.get("type")
    return isinstance(kind, str) and kind != kind.lower() and kind in GEMINI_TYPES


def neutral(value: Any) -> bool:
    """An entry of a tools list that is a provider's non-function tool with nothing to check (Gemini
    `{"googleSearch": {}}`, Bedrock `{"cachePoint": …}`): it neither claims a file nor counts against it."""
    return isinstance(value, Mapping) and bool(value) and value.keys() <= (GEMINI_TOOL_KEYS | {"cachePoint"})


# --- skeletons of tree-sitter nodes ----------------------------------------------------------------------

_DECODED = frozenset({"type", "name", "role", "$schema", "method", "object"})
_EXPANDED = frozenset({"function", "toolSpec", "parameters", "toolUse"})


def skeleton(obj: Node, depth: int = 0) -> dict[str, Any]:
    """The object's keys with just enough of their values for `detect`: the strings `type`, `name` and `role`,
    the kind of every other value, and the keys of the few members detection looks into."""
    out: dict[str, Any] = {}
    for pair in pairs(obj):
        key = pair_key(pair)
        value = pair.child_by_field_name("value")
        if key is None or value is None:
            continue
        kind = value.type
        if kind == "object":
            out[key] = skeleton(value, depth + 1) if depth < 3 and key in _EXPANDED else {"": None}
        elif kind == "array":
            out[key] = [value] if key in DECLARATIONS or key in ("tools", "messages") else []
        elif kind == "string":
            out[key] = string_value(value) if key in _DECODED else ""
        elif kind in ("true", "false"):
            out[key] = kind == "true"
        elif kind == "number":
            out[key] = 0
        else:
            out[key] = None
    return out


def member_node(obj: Node, key: str) -> Node | None:
    found = None
    for pair in pairs(obj):
        if pair_key(pair) == key:
            found = pair.child_by_field_name("value")
    return found
