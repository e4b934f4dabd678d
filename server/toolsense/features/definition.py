"""Go to definition and find references between tool calls / actions and the tools they name.

- on a tool name in a call (`name`, `function.name`) or an automation (`tool`, `source_tool`): the tool's
  definition (its `name`), wherever the registry found it;
- on a key inside a call's input or an action's parameters: that property in the tool's `input_schema`;
- references of a tool (cursor on its `name` in its definition): the calls and actions in open documents
  that name it (given to the server as `uses`, the units of open documents).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..document.jsontree import Pointer
from ..models.definitions import NAME_KEY
from .providers import PROVIDERS, CursorQuery, TargetLocation
from .sites import query_site

log = logging.getLogger(__name__)


def definition(query: CursorQuery) -> list[TargetLocation]:
    for provider in [*PROVIDERS.definition_providers, tool_definition]:
        try:
            found = provider(query)
        except Exception:
            log.exception("definition provider %s failed", getattr(provider, "__name__", provider))
            continue
        if found is not None:
            return found
    return []


def named_tool(query: CursorQuery, pointer: Pointer) -> str | None:
    """The tool name at pointer when that place names a tool (in a call or an automation)."""
    unit = query.unit
    if unit is None or not pointer or not isinstance(pointer[-1], str):
        return None
    if (unit.kind == "tool_call" and pointer in (("name",), ("function", "name"))) or (
        unit.kind == "automation"
        and (
            (len(pointer) == 3 and pointer[0] == "actions" and pointer[2] == "tool")
            or pointer == ("trigger_config", "source_tool")
        )
    ):
        pass
    else:
        return None
    name = query.token_text() if query.cursor.in_string else query.value_at(pointer)
    return name if isinstance(name, str) and name else None


def tool_definition(query: CursorQuery) -> list[TargetLocation] | None:
    context = query.cursor
    if query.unit is None or context.replace_start == context.replace_end:
        return None
    if context.slot == "value":
        name = named_tool(query, query.relative)
        if name is None:
            return None
        return [TargetLocation(t.uri, t.name_pointer, target="value") for t in query.registry.definitions(name)]
    if context.slot == "key":
        key = query.token_text()
        site = query_site(query, (*query.relative, key))
        tool = site.tool
        if site.role != "instance" or tool is None or not tool.uri or len(site.pointer) != 1:
            return None
        schema = tool.input_schema or {}
        properties = schema.get("properties")
        if not isinstance(properties, dict) or key not in properties:
            return None
        return [TargetLocation(tool.uri, (*tool.schema_pointer, "properties", key), target="key")]
    return None


@dataclass(frozen=True)
class ToolUse:
    """A place in an open document that names a tool."""

    uri: str
    pointer: Pointer
    name: str


def tool_uses(uri: str, kind: str, unit_pointer: Pointer, value: Any) -> Iterable[ToolUse]:
    """The tool names a unit uses (calls: the called tool; automations: actions' tools, the polled tool)."""
    if not isinstance(value, dict):
        return
    if kind == "tool_call":
        for pointer in (("name",), ("function", "name")):
            name: Any = value
            for part in pointer:
                name = name.get(part) if isinstance(name, dict) else None
            if isinstance(name, str):
                yield ToolUse(uri, (*unit_pointer, *pointer), name)
    elif kind == "automation":
        actions = value.get("actions")
        if isinstance(actions, list):
            for index, action in enumerate(actions):
                if isinstance(action, dict) and isinstance(action.get("tool"), str):
                    yield ToolUse(uri, (*unit_pointer, "actions", index, "tool"), action["tool"])
        config = value.get("trigger_config")
        if isinstance(config, dict) and isinstance(config.get("source_tool"), str):
            yield ToolUse(uri, (*unit_pointer, "trigger_config", "source_tool"), config["source_tool"])


def defined_tool_name(query: CursorQuery) -> str | None:
    """The tool name when the cursor is on the `name` of a tool definition."""
    unit = query.unit
    if unit is None or unit.kind != "tool" or query.cursor.slot != "value":
        return None
    if query.relative != NAME_KEY.get(unit.dialect or "anthropic", ("name",)):
        return None
    name = query.token_text()
    return name or None


def references(query: CursorQuery, include_declaration: bool, uses: Iterable[ToolUse]) -> list[TargetLocation]:
    found: list[TargetLocation] = []
    for provider in PROVIDERS.reference_providers:
        try:
            found.extend(provider(query, include_declaration) or ())
        except Exception:
            log.exception("reference provider %s failed", getattr(provider, "__name__", provider))
    name = defined_tool_name(query)
    if name is None:
        used = named_tool(query, query.relative) if query.cursor.slot == "value" else None
        name = used
    if name is None:
        return found
    if include_declaration:
        found.extend(TargetLocation(t.uri, t.name_pointer) for t in query.registry.definitions(name))
    found.extend(TargetLocation(use.uri, use.pointer) for use in uses if use.name == name)
    return found
