"""Hover: what a key or value means — the field's description, its expected type, an enum value's meaning.

Read from the same schemas as completion (`sites.py`): the strict models' field descriptions for envelopes,
the tool's own `input_schema` inside examples and calls, the JSON Schema vocabulary inside schemas, and the
registry for tool names.
"""

from __future__ import annotations

import json
import logging

from ..document.jsontree import Pointer
from ..engine.schemas import description_of, enum_values, json_types, properties_of, subschemas_at, type_label
from ..jsonvalue import JsonObject, JsonValue, loads
from . import markdown
from .completion import enum_meaning
from .jsonschema_vocab import FORMATS, KEYWORDS, TYPE_NAMES, schema_state
from .providers import PROVIDERS, CursorQuery, HoverAnswer
from .sites import Site, query_site

log = logging.getLogger(__name__)

_MAX_PARAMETERS_SHOWN = 12


def hover(query: CursorQuery) -> HoverAnswer | None:
    """Extension providers first; the first answer wins."""
    for provider in [*PROVIDERS.hover_providers, schema_hover]:
        try:
            answer = provider(query)
        except Exception:
            log.exception("hover provider %s failed", getattr(provider, "__name__", provider))
            continue
        if answer is not None:
            return answer
    return None


def hovered_pointer(query: CursorQuery) -> tuple[Pointer, str] | None:
    """The unit-relative pointer of the key or value under the cursor, and which one it is."""
    context = query.cursor
    if context.replace_start == context.replace_end or query.unit is None:
        return None
    if context.slot == "key":
        return (*query.relative, query.token_text()), "key"
    if context.slot == "value":
        return query.relative, "value"
    return None


def schema_hover(query: CursorQuery) -> HoverAnswer | None:
    found = hovered_pointer(query)
    if found is None:
        return None
    pointer, part = found
    span = (query.cursor.replace_start, query.cursor.replace_end)
    site = query_site(query, pointer)
    if site.role == "json_schema":
        text = _schema_text(query, site, part)
    elif site.role in ("envelope", "instance"):
        text = _field_text(query, site, pointer, part)
    else:
        text = None
    tool_text = _tool_name_text(query, pointer, part)
    if tool_text:
        text = f"{text}\n\n---\n\n{tool_text}" if text else tool_text
    return HoverAnswer(text, span) if text else None


def _code(value: JsonValue) -> str:
    return markdown.code(json.dumps(value, ensure_ascii=False))


def _field_text(query: CursorQuery, site: Site, pointer: Pointer, part: str) -> str | None:
    schemas = site.subschemas()
    if not schemas or not site.pointer:
        return None
    name = site.pointer[-1]
    parent = _parent_properties(site)
    required = parent.get(name) if isinstance(name, str) else None
    label = f"**{markdown.text(name)}**" if isinstance(name, str) else f"item {name}"
    header = f"{label} · {markdown.code(type_label(schemas))}"
    if required is not None:
        header += " · required" if required else " · optional"
    lines = [header]
    description = description_of(schemas)
    ours = site.role == "envelope"  # toolsense's own models' descriptions are Markdown; a file's are text
    if description:
        lines += ["", description if ours else markdown.text(description)]
    values = enum_values(schemas)
    if part == "value" and values:
        current = _token_value(query)
        if current in values:
            meaning = enum_meaning(values, current)
            shown = meaning if ours or not meaning else markdown.text(meaning)
            lines += ["", f"{_code(current)}" + (f": {shown}" if shown else "")]
    if values:
        lines += ["", "Allowed: " + ", ".join(_code(v) for v in values[:20]) + (", …" if len(values) > 20 else "")]
    lines += ["", f"*{markdown.text(site.subject)}*"]
    return "\n".join(lines)


def _token_value(query: CursorQuery) -> JsonValue:
    if query.cursor.in_string:
        return query.token_text()
    try:
        return loads(query.token_text())
    except ValueError:
        return None


def _parent_properties(site: Site) -> dict[str, bool]:
    """Property name -> required, for the object holding the hovered member."""
    if site.schema is None or not site.pointer:
        return {}
    parent = subschemas_at(site.schema, site.pointer[:-1])
    return {p.name: p.required for p in properties_of(parent)}


def _schema_text(query: CursorQuery, site: Site, part: str) -> str | None:
    state = schema_state(site.pointer)
    keyword = state.keyword
    if part == "key" and state.kind in ("keyword_value", "schema_map", "schemas", "schema") and keyword in KEYWORDS:
        info = KEYWORDS[keyword]
        return f"**{keyword}** · JSON Schema keyword\n\n{info.description}\n\n*{site.subject}*"
    if part == "value" and keyword == "type" and state.kind in ("keyword_value", "keyword_item"):
        value = query.token_text()
        if value in TYPE_NAMES:
            return f"`{value}` · JSON type\n\n{TYPE_NAMES[value]}"
    if part == "value" and keyword == "format" and state.kind == "keyword_value":
        value = query.token_text()
        if value in FORMATS:
            return f"`{value}` · format\n\n{FORMATS[value]}"
    if state.kind == "schema" and part == "key" and site.pointer and isinstance(site.pointer[-1], str):
        schema = query.value_at((*site.base, *site.pointer))
        if isinstance(schema, dict):
            return _property_summary(site.pointer[-1], schema)
    return None


def _property_summary(name: str, schema: JsonObject) -> str:
    kinds = json_types([schema])
    lines = [f"**{markdown.text(name)}** · {markdown.code(' | '.join(sorted(kinds)) or 'any')}"]
    description = schema.get("description")
    if isinstance(description, str) and description:
        lines += ["", markdown.text(description)]
    values = schema.get("enum")
    if isinstance(values, list) and values:
        lines += ["", "Allowed: " + ", ".join(_code(v) for v in values[:20])]
    return "\n".join(lines)


def _tool_name_text(query: CursorQuery, pointer: Pointer, part: str) -> str | None:
    """For a value that names a tool (a call's `name`, an action's `tool`): the tool, from the registry."""
    unit = query.unit
    if unit is None or part != "value" or not pointer or not isinstance(pointer[-1], str):
        return None
    field = pointer[-1]
    names_a_tool = (unit.kind == "tool_call" and pointer in (("name",), ("function", "name"))) or (
        unit.kind == "automation" and field in ("tool", "source_tool")
    )
    if not names_a_tool:
        return None
    name = query.value_at(pointer)
    if not isinstance(name, str):
        return None
    tool = query.registry.lookup(name)
    if tool is None:
        return f"No tool named {markdown.code(name)} in the workspace."
    lines = [f"**{markdown.text(tool.name)}** · tool ({tool.dialect})"]
    if tool.description:
        lines += ["", markdown.text(tool.description)]
    schema = tool.input_schema or {}
    props = properties_of([schema])
    if props:
        lines += ["", "Parameters:"]
        for prop in props[:_MAX_PARAMETERS_SHOWN]:
            kind = type_label([prop.schema]) if prop.schema else "any"
            lines.append(f"- {markdown.code(prop.name)}: {markdown.text(kind)}{' (required)' if prop.required else ''}")
        if len(props) > _MAX_PARAMETERS_SHOWN:
            lines.append(f"- … {len(props) - _MAX_PARAMETERS_SHOWN} more")
    return "\n".join(lines)
