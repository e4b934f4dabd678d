"""Which schema speaks for a place in a unit: the same schemas the rules validate with.

- the *envelope* of a tool, tool call or automation: the strict pydantic model of its dialect
  (`domain.validation.model_schema`), and for `trigger_config` the model of the automation's trigger type;
- an *instance* of a tool's input: `input_examples` items validate against the tool's own `input_schema`;
  a tool call's `input` / `arguments`, an action's `parameters` and a polling trigger's `tool_params` against
  the input schema of the tool they name, looked up in the workspace registry;
- a *JSON Schema* being written: inside `input_schema` / `inputSchema` / `parameters` / `outputSchema`, where
  the keys are JSON Schema keywords (`jsonschema_vocab`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from ..document.jsontree import Pointer
from ..domain.validation import model_schema
from ..engine.context import ToolInfo, ToolRegistry
from ..engine.schemas import subschemas_at
from ..engine.units import glob_match
from ..jsonvalue import JsonObject, JsonValue
from ..models.definitions import (
    CALL_MODELS,
    EXAMPLES_KEY,
    SCHEMA_KEY,
    TOOL_MODELS,
    TRIGGER_CONFIG_MODELS,
    Automation,
    schema_pointer,
)
from ..settings import Settings
from .providers import CursorQuery

Role = Literal["envelope", "instance", "json_schema", "none"]

_CALL_INPUT: dict[str, tuple[str, ...]] = {
    "anthropic-call": ("input",),
    "openai-call": ("function", "arguments"),
    "openai-flat-call": ("arguments",),
    "openai-responses-call": ("arguments",),
    "bedrock-call": ("toolUse", "input"),
    "mcp-call": ("arguments",),
    "input": (),
}
_CALL_NAME: dict[str, tuple[str, ...]] = {
    "anthropic-call": ("name",),
    "openai-call": ("function", "name"),
    "openai-flat-call": ("name",),
    "openai-responses-call": ("name",),
    "bedrock-call": ("toolUse", "name"),
    "mcp-call": ("name",),
}


@dataclass(frozen=True)
class Site:
    """A place seen through one schema: `pointer` is relative to what the schema describes."""

    role: Role
    schema: JsonObject | None
    pointer: Pointer
    base: Pointer = ()
    """Where, relative to the unit, the described value starts (`("input_examples", 0)`, `("input_schema",)`)."""
    subject: str = ""
    model: type[BaseModel] | None = None
    tool: ToolInfo | None = None

    def subschemas(self) -> list[JsonObject]:
        if self.schema is None:
            return []
        return subschemas_at(self.schema, self.pointer)


NO_SITE = Site("none", None, ())


def _get(value: JsonValue, pointer: Pointer) -> JsonValue:
    for part in pointer:
        if isinstance(value, dict) and isinstance(part, str):
            value = value.get(part)
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return None
    return value


def _starts(pointer: Pointer, prefix: Pointer) -> bool:
    return pointer[: len(prefix)] == prefix


def _envelope(model: type[BaseModel], pointer: Pointer, subject: str, base: Pointer = ()) -> Site:
    return Site("envelope", model_schema(model), pointer, base, subject, model)


def _instance(tool: ToolInfo | None, pointer: Pointer, base: Pointer, schema: JsonValue = None) -> Site:
    schema = schema if isinstance(schema, dict) else tool.input_schema if tool is not None else None
    if not isinstance(schema, dict):
        return NO_SITE
    name = tool.name if tool is not None else "this tool"
    return Site("instance", schema, pointer, base, f"input of {name}", None, tool)


def _schema_site(pointer: Pointer, base: Pointer, subject: str) -> Site:
    return Site("json_schema", None, pointer, base, subject)


def site_for(
    kind: str,
    dialect: str | None,
    value: JsonValue,
    pointer: Pointer,
    registry: ToolRegistry,
    settings: Settings,
    uri: str = "",
    *,
    inside: bool = False,
) -> Site:
    """The site of `pointer` (relative to the unit). `inside` is True when the place is *within* the value at
    pointer (a key position in that object) rather than the value itself."""
    if kind == "tool":
        return _tool_site(dialect, value, pointer, inside)
    if kind == "tool_call":
        return _call_site(dialect, value, pointer, registry, settings, uri, inside)
    if kind == "automation":
        return _automation_site(value, pointer, registry, inside)
    return NO_SITE


def _descends(pointer: Pointer, prefix: Pointer, inside: bool) -> bool:
    """Whether the place is inside the value at prefix (not the value itself)."""
    return _starts(pointer, prefix) and (len(pointer) > len(prefix) or inside)


def _tool_site(dialect: str | None, value: JsonValue, pointer: Pointer, inside: bool) -> Site:
    dialect = dialect if dialect in TOOL_MODELS else "anthropic"
    assert dialect is not None
    schema_key = schema_pointer(dialect, value) if dialect in SCHEMA_KEY else None  # server tools have none
    for key, subject in ((schema_key, "input schema"), (("outputSchema",), "output schema")):
        if key is not None and _descends(pointer, key, inside) and (key == schema_key or dialect == "mcp"):
            return _schema_site(pointer[len(key) :], key, subject)
    examples = EXAMPLES_KEY.get(dialect)
    if examples is not None and _starts(pointer, examples) and len(pointer) > len(examples):
        base = pointer[: len(examples) + 1]
        if isinstance(base[-1], int) and _descends(pointer, base, inside):
            schema = _get(value, schema_key) if schema_key is not None else None
            name = _get(value, ("name",))
            tool = None
            if isinstance(name, str) and isinstance(schema, dict):
                tool = ToolInfo(name, "", (), ("name",), dialect, schema)
            return _instance(tool, pointer[len(base) :], base, schema)
    model = TOOL_MODELS[dialect]
    return _envelope(model, pointer, model.__doc__ or "tool")


def call_tool_name(dialect: str | None, value: JsonValue, settings: Settings, uri: str) -> str | None:
    if dialect == "input":
        path = uri.split("://", 1)[-1]
        for pattern, tool in settings.tool_call_tool.items():
            if glob_match(path, pattern):
                return tool
        return None
    name = _get(value, _CALL_NAME.get(dialect or "", ("name",)))
    return name if isinstance(name, str) else None


def _call_site(
    dialect: str | None,
    value: JsonValue,
    pointer: Pointer,
    registry: ToolRegistry,
    settings: Settings,
    uri: str,
    inside: bool,
) -> Site:
    dialect = dialect or "anthropic-call"
    input_key = _CALL_INPUT.get(dialect)
    if input_key is not None and _descends(pointer, input_key, inside):
        name = call_tool_name(dialect, value, settings, uri)
        tool = registry.lookup(name) if name else None
        return _instance(tool, pointer[len(input_key) :], input_key)
    model = CALL_MODELS.get(dialect)
    if model is None:
        return NO_SITE
    return _envelope(model, pointer, "tool call")


def _automation_site(value: JsonValue, pointer: Pointer, registry: ToolRegistry, inside: bool) -> Site:
    if _descends(pointer, ("trigger_config",), inside):
        trigger = _get(value, ("trigger_type",))
        model = TRIGGER_CONFIG_MODELS.get(trigger) if isinstance(trigger, str) else None
        rest = pointer[1:]
        if model is not None:
            if trigger == "polling" and _descends(rest, ("tool_params",), inside):
                source = _get(value, ("trigger_config", "source_tool"))
                tool = registry.lookup(source) if isinstance(source, str) else None
                return _instance(tool, rest[1:], ("trigger_config", "tool_params"))
            return _envelope(model, rest, f"{trigger} trigger_config", ("trigger_config",))
        return NO_SITE
    in_action = len(pointer) >= 3 and pointer[0] == "actions" and isinstance(pointer[1], int)
    if in_action and pointer[2] == "parameters" and _descends(pointer, pointer[:3], inside):
        tool_name = _get(value, ("actions", pointer[1], "tool"))
        tool = registry.lookup(tool_name) if isinstance(tool_name, str) else None
        return _instance(tool, pointer[3:], pointer[:3])
    return _envelope(Automation, pointer, "automation")


def query_site(query: CursorQuery, pointer: Pointer | None = None, *, inside: bool = False) -> Site:
    """The site of a pointer (default: the cursor's) relative to the query's unit."""
    unit = query.unit
    if unit is None:
        return NO_SITE
    if pointer is None:
        pointer = query.relative
    return site_for(
        unit.kind, unit.dialect, unit.value, pointer, query.registry, query.settings, query.uri, inside=inside
    )
