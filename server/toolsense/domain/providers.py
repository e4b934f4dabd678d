"""Provider tables: each profile's name rule and dated limits (`AS_OF`), the schema keywords and formats the strict
subsets accept, and the budget maths (what a tool's schema costs against those limits).

Limits are dated defaults, each overridable in `[tool.toolsense.profile_limits.<profile>]`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..engine.schemas import resolve_local_ref
from ..jsonvalue import JsonValue
from ..settings import ProfileLimits, Settings
from .tool import ToolView, is_object_schema, walk_schema

AS_OF = "2026-11"


@dataclass(frozen=True)
class Profile:
    name: str
    provider: str
    strict: bool
    name_pattern: str
    name_rule: str
    name_max: int = 64
    """The longest name `name_pattern` allows."""
    limits: ProfileLimits = field(default_factory=ProfileLimits, kw_only=True)


PROFILES: dict[str, Profile] = {
    # The Messages API's own message gives the pattern: `^[a-zA-Z0-9_-]{1,64}$` until mid-2025
    # (https://github.com/apify/tester-mcp-client/issues/11, 2025-03-07), `^[a-zA-Z0-9_-]{1,128}$` since
    # (https://github.com/jedisct1/openapi-mcp/issues/9, 2025-06-29; modelcontextprotocol/modelcontextprotocol#1345,
    # 2025-08-14). tests/corpus/compat/ keeps those schemas and messages.
    "anthropic": Profile(
        "anthropic", "Anthropic", False, r"^[a-zA-Z0-9_-]{1,128}$", "1–128 characters of a-z A-Z 0-9 _ -", 128
    ),
    "anthropic-strict": Profile(
        "anthropic-strict",
        "Anthropic",
        True,
        r"^[a-zA-Z0-9_-]{1,128}$",
        "1–128 characters of a-z A-Z 0-9 _ -",
        128,
        limits=ProfileLimits(max_strict_tools=20, max_optional_parameters=24, max_union_parameters=16),
    ),
    "openai": Profile(
        "openai",
        "OpenAI",
        False,
        r"^[a-zA-Z0-9_-]{1,64}$",
        "1–64 characters of a-z A-Z 0-9 _ -",
        limits=ProfileLimits(max_tools=128),
    ),
    "openai-strict": Profile(
        "openai-strict",
        "OpenAI",
        True,
        r"^[a-zA-Z0-9_-]{1,64}$",
        "1–64 characters of a-z A-Z 0-9 _ -",
        limits=ProfileLimits(
            max_properties=5000,
            max_depth=10,
            max_enum_values=1000,
            max_total_chars=120_000,
            max_large_enum_chars=15_000,
            max_tools=128,
        ),
    ),
    "gemini": Profile(
        "gemini",
        "Gemini",
        False,
        r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
        "a letter or _ then up to 63 of a-z A-Z 0-9 _ . : -",
    ),
    "mcp": Profile("mcp", "MCP", False, r"^[A-Za-z0-9_.-]{1,128}$", "1–128 characters of A-Z a-z 0-9 _ . -", 128),
}

LARGE_ENUM = 250
"""OpenAI: a string enum with more values than this has a character budget of its own."""

OPENAI_STRICT_UNSUPPORTED = ("allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else")
OPENAI_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
ANTHROPIC_STRICT_UNSUPPORTED = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    # Not in the documented list, but refused: `tools.0.custom: For 'array' type, property 'maxItems' is not
    # supported` (https://github.com/experientiallabs/experiential/pull/804, 2026-09-05; also for structured
    # outputs, https://github.com/agentjido/req_llm/pull/707, 2026-05-19).
    "maxItems",
)
ANTHROPIC_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)
GEMINI_KEYWORDS = frozenset(
    {
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "items",
        "minItems",
        "maxItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "anyOf",
        "default",
        "minimum",
        "maximum",
        "propertyOrdering",
        "title",
        "example",
    }
)


VERTEX_EXTRA_KEYWORDS = frozenset({"additionalProperties", "ref", "defs"})
"""Keywords of `parameters` that Vertex AI's Schema accepts and the Gemini API's does not (google-genai's shared
`types.Schema` has them, from Vertex's REST Schema: `additional_properties`, `ref`, `defs`)."""
VERTEX_EXTRA_SOURCE = (
    "googleapis/python-genai google/genai/types.py @66807187f2123c6676175ac991f4e34eb09200d1 (2026-08-21) class "
    "Schema, read 2026-12-07"
)
JSON_SCHEMA_KEYS = frozenset({"parametersJsonSchema", "parameters_json_schema"})
"""Gemini's `parametersJsonSchema`: plain JSON Schema, not the `parameters` subset (google-genai FunctionDeclaration,
same source); Gemini CLI sends every MCP tool's inputSchema there (google-gemini/gemini-cli
packages/core/src/tools/mcp-tool.ts @6f9c4742032ed08f098f9a2933f024caa16f6e9d, DiscoveredMCPTool's `schema`:
`parametersJsonSchema: this.parameterSchemaJson`), read 2026-12-07."""


def profile_limits(name: str, settings: Settings) -> ProfileLimits:
    """The dated defaults with the settings' overrides on top."""
    base = PROFILES[name].limits if name in PROFILES else ProfileLimits()
    override = settings.profile_limits.get(name)
    if override is None:
        return base
    merged = base.model_dump()
    merged.update({k: v for k, v in override.model_dump().items() if v is not None})
    return ProfileLimits(**merged)


def enabled_profiles(settings: Settings) -> list[str]:
    return [name for name in settings.profiles if name in PROFILES]


def active_profiles(view: ToolView, settings: Settings) -> list[str]:
    """Profiles whose rules apply to this tool: the enabled ones, plus the strict subset a tool asks for."""
    names = enabled_profiles(settings)
    if view.strict:
        implied = "anthropic-strict" if view.dialect == "anthropic" else "openai-strict"
        if implied not in names:
            names.append(implied)
    return names


def strict_profiles(view: ToolView, settings: Settings) -> list[str]:
    return [name for name in active_profiles(view, settings) if PROFILES[name].strict]


# --- the budget ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """What a tool's schema costs against provider limits."""

    properties: int
    depth: int
    enum_values: int
    total_chars: int
    largest_enum: int
    largest_enum_chars: int
    optional_parameters: int
    union_parameters: int
    recursive: bool


def tool_budget(schema: JsonValue, max_depth: int = 64, max_nodes: int = 20_000) -> Budget:
    walk = walk_schema(schema, max_depth, max_nodes)
    properties = enum_values = chars = largest = largest_chars = optional = unions = 0
    for entry in walk.nodes:
        node = entry.node
        props = node.get("properties")
        found = node.get("required")
        required: list[Any] = found if isinstance(found, list) else []
        if isinstance(props, dict):
            properties += len(props)
            chars += sum(len(name) for name in props)
            for name, sub in props.items():
                if name not in required:
                    optional += 1
                if isinstance(sub, dict) and (isinstance(sub.get("anyOf"), list) or isinstance(sub.get("type"), list)):
                    unions += 1
        for key in ("$defs", "definitions"):
            if isinstance(defs := node.get(key), dict):
                chars += sum(len(name) for name in defs)
        values = node.get("enum")
        if isinstance(values, list):
            enum_values += len(values)
            size = sum(len(v) if isinstance(v, str) else len(json.dumps(v)) for v in values)
            chars += size
            if len(values) > largest:
                largest, largest_chars = len(values), size
        if "const" in node:
            enum_values += 1
            chars += len(node["const"]) if isinstance(node["const"], str) else len(json.dumps(node["const"]))
    depth, recursive = _object_depth(schema, max_depth)
    return Budget(properties, depth, enum_values, chars, largest, largest_chars, optional, unions, recursive)


def over_limits(budget: Budget, limits: ProfileLimits) -> list[tuple[str, int, int]]:
    """(what, limit, count) for each size limit of a strict subset that the tool's schema goes over: the one
    table the profile rule (TS263) and the compat oracle both judge by."""
    rows = (
        (budget.properties, limits.max_properties, "properties"),
        (budget.depth, limits.max_depth, "levels of object nesting"),
        (budget.enum_values, limits.max_enum_values, "enum values"),
        (budget.total_chars, limits.max_total_chars, "characters of property names and enum values"),
        (budget.optional_parameters, limits.max_optional_parameters, "optional parameters"),
        (budget.union_parameters, limits.max_union_parameters, "union (anyOf / type-array) parameters"),
    )
    return [(what, limit, count) for count, limit, what in rows if limit is not None and count > limit]


def _object_depth(schema: Any, limit: int) -> tuple[int, bool]:
    """Deepest nesting of object schemas, following local `$ref`s (each target measured once); and whether a
    `$ref` cycle exists."""
    recursive = False
    memo: dict[str, int] = {}

    def depth(node: Any, active: frozenset[str], level: int) -> int:
        nonlocal recursive
        if not isinstance(node, dict) or level > limit:
            return 0
        ref = node.get("$ref")
        own = 0
        if isinstance(ref, str) and ref.startswith("#"):
            if ref in active:
                recursive = True
            elif ref in memo:
                own = memo[ref]
            else:
                own = memo[ref] = depth(resolve_local_ref(schema, ref), active | {ref}, level + 1)
        here = 1 if is_object_schema(node) else 0
        children: list[Any] = []
        for key in ("properties", "patternProperties"):
            if isinstance(node.get(key), dict):
                children.extend(node[key].values())
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                children.append(node[key])
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            if isinstance(node.get(key), list):
                children.extend(node[key])
        deepest = max((depth(child, active, level + 1) for child in children), default=0)
        return max(own, here + deepest)

    return depth(schema, frozenset(), 0), recursive
