"""Schema-driven completion: property names, enum values, literals, tool names and JSON Schema keywords.

Everything is computed from the cursor context (a token scan that survives half-typed JSON) and the site's
schema (`sites.py`). Candidates replace the partial token under the cursor, quotes included, so choosing one
is right whether the cursor is before a value, inside quotes or after a partial word.
"""

from __future__ import annotations

import json
import logging

from ..domain.validation import placeholder_for, snippet_for
from ..engine.equality import same_value_sets
from ..engine.schemas import (
    description_of,
    enum_values,
    json_types,
    properties_of,
    subschemas_at,
    type_label,
)
from ..jsonvalue import JsonValue
from ..models.base import ENUM_SCHEMAS, EnumSchema
from .jsonschema_vocab import FORMATS, KEYWORDS, SCHEMA_DIALECTS, TYPE_NAMES, schema_state
from .providers import PROVIDERS, CandidateKind, CompletionCandidate, CursorQuery
from .sites import Site, query_site

log = logging.getLogger(__name__)

_TOOL_NAME_FIELDS = {
    ("tool_call", "name"),
    ("automation", "tool"),
    ("automation", "source_tool"),
}


def replace_span(query: CursorQuery) -> tuple[int, int]:
    """The bytes a candidate replaces: the token at the cursor, quotes included.

    A string the user has not closed yet must not swallow the rest of the line: when the token has no closing
    quote, or what lies between the cursor and its "closing" quote looks like JSON structure (the quote then
    belongs to the next member), the span ends at the cursor (plus the word characters right after it).
    """
    context = query.cursor
    data = query.document.data
    start, end = context.replace_start, context.replace_end
    if context.in_string:
        raw = data[start:end]
        closed = len(raw) >= 2 and raw[-1] == 0x22
        tail = data[query.offset : end - 1 if closed else end]
        if not closed or any(byte in b",:{}[]" for byte in tail):
            end = query.offset
            while end < len(data) and (chr(data[end]).isalnum() or data[end] in b"_-."):
                end += 1
    return start, max(end, query.offset)


def complete(query: CursorQuery) -> list[CompletionCandidate]:
    """Extension providers first, then the built-in schema completion; labels deduplicated (first wins)."""
    seen: dict[str, CompletionCandidate] = {}
    for provider in [*PROVIDERS.completion_providers, schema_completion]:
        try:
            found = provider(query)
        except Exception:
            log.exception("completion provider %s failed", getattr(provider, "__name__", provider))
            continue
        for candidate in found or ():
            seen.setdefault(candidate.label, candidate)
    return list(seen.values())


def schema_completion(query: CursorQuery) -> list[CompletionCandidate] | None:
    context = query.cursor
    if query.unit is None or context.container == "none":
        return None
    if context.slot == "key":
        site = query_site(query, inside=True)
        if site.role == "json_schema":
            return _keyword_candidates(query, site)
        return _property_candidates(query, site)
    if context.slot == "value":
        site = query_site(query)
        if site.role == "json_schema":
            return _schema_value_candidates(query, site)
        candidates = _tool_name_candidates(query)
        candidates += _value_candidates(query, site)
        return candidates
    return None


# --- helpers ------------------------------------------------------------------------------------------------


def _next_significant(query: CursorQuery, start: int) -> int | None:
    data = query.document.data
    i = start
    end = min(len(data), start + 4096)
    while i < end and data[i] in b" \t\r\n":
        i += 1
    return data[i] if i < end else None


def _comma_after(query: CursorQuery) -> str:
    """A comma to add after the inserted member when another member follows without one."""
    following = _next_significant(query, replace_span(query)[1])
    return "," if following in (0x22, 0x7B, 0x5B) else ""


def _previous_needs_comma(query: CursorQuery) -> tuple[tuple[int, int, str], ...]:
    """When the previous member has no comma after it (the user is adding one), insert it."""
    data = query.document.data
    i = query.cursor.replace_start - 1
    floor = max(0, i - 4096)
    while i >= floor and data[i] in b" \t\r\n":
        i -= 1
    if i < floor or data[i] in b"{[,:":
        return ()
    if data[i] in b'"}]' or chr(data[i]).isalnum():
        return ((i + 1, i + 1, ","),)
    return ()


def _enum_registry_entry(values: list[JsonValue]) -> EnumSchema | None:
    for name in ENUM_SCHEMAS.names():
        entry = ENUM_SCHEMAS.get(name)
        if same_value_sets(entry.values, values):
            return entry
    return None


def enum_meaning(values: list[JsonValue], value: JsonValue) -> str | None:
    entry = _enum_registry_entry(values)
    if entry is None:
        return None
    return entry.meanings.get(value)


def _filter_text(query: CursorQuery, text: str) -> str:
    """What the client matches the typed text against: quoted when the typed token starts with a quote."""
    return text if query.cursor.in_string or not text.startswith('"') else text[1:-1] if len(text) > 1 else text


# --- object keys --------------------------------------------------------------------------------------------


def _property_candidates(query: CursorQuery, site: Site) -> list[CompletionCandidate]:
    if site.schema is None:
        return []
    schemas = site.subschemas()
    existing = query.cursor.existing_keys
    has_colon = _next_significant(query, replace_span(query)[1]) == 0x3A
    trailing = "" if has_colon else _comma_after(query)
    before = () if has_colon else _previous_needs_comma(query)
    result: list[CompletionCandidate] = []
    for order, prop in enumerate(properties_of(schemas)):
        if prop.name in existing:
            continue
        sub = subschemas_at(site.schema, (*site.pointer, prop.name))
        key = json.dumps(prop.name, ensure_ascii=False)
        if has_colon:
            text, snippet = key, None
        else:
            text = f"{key}: {placeholder_for(sub)}{trailing}"
            snippet = f"{key}: {snippet_for(sub, 1)}{trailing}"
        description = description_of(sub) or ""
        label_type = type_label(sub)
        documentation = description
        values = enum_values(sub)
        if values:
            documentation += (
                ("\n\n" if documentation else "")
                + "Allowed: "
                + ", ".join(f"`{json.dumps(v, ensure_ascii=False)}`" for v in values[:20])
            )
        result.append(
            CompletionCandidate(
                label=prop.name,
                insert_text=text,
                kind="property",
                snippet=snippet,
                detail=f"{label_type} · {'required' if prop.required else 'optional'} · {site.subject}",
                documentation=documentation or None,
                sort_text=f"{0 if prop.required else 1}{order:04d}",
                filter_text=key if query.cursor.in_string else prop.name,
                additional_edits=before,
            )
        )
    return result


def _keyword_candidates(query: CursorQuery, site: Site) -> list[CompletionCandidate]:
    state = schema_state(site.pointer)
    if state.kind != "schema":
        return []
    existing = query.cursor.existing_keys
    has_colon = _next_significant(query, replace_span(query)[1]) == 0x3A
    trailing = "" if has_colon else _comma_after(query)
    before = () if has_colon else _previous_needs_comma(query)
    preferred = ("type", "description", "properties", "required", "enum", "items", "additionalProperties")
    result = []
    for name, keyword in KEYWORDS.items():
        if name in existing:
            continue
        key = json.dumps(name)
        text = key if has_colon else f"{key}: {keyword.placeholder}{trailing}"
        snippet = None if has_colon else f"{key}: {keyword.snippet}{trailing}"
        rank = preferred.index(name) if name in preferred else len(preferred)
        result.append(
            CompletionCandidate(
                label=name,
                insert_text=text,
                kind="keyword",
                snippet=snippet,
                detail=f"JSON Schema keyword · {site.subject}",
                documentation=keyword.description,
                sort_text=f"{rank:02d}{name}",
                filter_text=key if query.cursor.in_string else name,
                additional_edits=before,
            )
        )
    return result


# --- values -------------------------------------------------------------------------------------------------


def _literal(
    query: CursorQuery, value: JsonValue, detail: str | None, documentation: str | None, rank: int, kind: CandidateKind
) -> CompletionCandidate:
    text = json.dumps(value, ensure_ascii=False)
    return CompletionCandidate(
        label=text,
        insert_text=text + _value_comma(query),
        kind=kind,
        detail=detail,
        documentation=documentation,
        sort_text=f"{rank:04d}",
        filter_text=_filter_text(query, text),
    )


def _value_comma(query: CursorQuery) -> str:
    """A comma after an inserted value when the object goes on with another key and no comma."""
    if query.cursor.container != "object":
        return ""
    return "," if _next_significant(query, replace_span(query)[1]) == 0x22 else ""


def _value_candidates(query: CursorQuery, site: Site) -> list[CompletionCandidate]:
    if site.schema is None:
        return []
    schemas = site.subschemas()
    if not schemas:
        return []
    result: list[CompletionCandidate] = []
    values = enum_values(schemas)
    description = description_of(schemas)
    entry = _enum_registry_entry(values) if values else None
    for rank, value in enumerate(values):
        meaning = entry.meanings.get(value) if entry is not None else None
        docs = "\n\n".join(part for part in (meaning, description) if part) or None
        result.append(_literal(query, value, meaning or description or type_label(schemas), docs, rank, "enum"))
    kinds = json_types(schemas)
    rank = len(values)
    if "boolean" in kinds:
        for literal in (True, False):
            if literal not in values:
                result.append(_literal(query, literal, "boolean", description, rank, "keyword"))
                rank += 1
    if "null" in kinds and None not in values:
        result.append(_literal(query, None, "null", description, rank, "keyword"))
    return result


def _tool_name_candidates(query: CursorQuery) -> list[CompletionCandidate]:
    unit = query.unit
    relative = query.relative
    if unit is None or not relative or not isinstance(relative[-1], str):
        return []
    field = relative[-1]
    if (unit.kind, field) not in _TOOL_NAME_FIELDS:
        return []
    if unit.kind == "tool_call" and relative not in (("name",), ("function", "name")):
        return []
    result = []
    for rank, name in enumerate(query.registry.names()):
        tool = query.registry.lookup(name)
        description = tool.description if tool is not None else None
        result.append(
            CompletionCandidate(
                label=json.dumps(name),
                insert_text=json.dumps(name) + _value_comma(query),
                kind="tool",
                detail=f"tool · {tool.dialect}" if tool is not None else "tool",
                documentation=description,
                sort_text=f"{rank:05d}",
                filter_text=_filter_text(query, json.dumps(name)),
            )
        )
    return result


def _schema_value_candidates(query: CursorQuery, site: Site) -> list[CompletionCandidate]:
    state = schema_state(site.pointer)
    keyword = state.keyword
    result: list[CompletionCandidate] = []
    if state.kind in ("keyword_value", "keyword_item") and keyword == "type":
        for rank, (name, meaning) in enumerate(TYPE_NAMES.items()):
            result.append(_literal(query, name, "JSON type", meaning, rank, "type"))
    elif state.kind == "keyword_item" and keyword == "required":
        properties = query.value_at((*site.base, *state.schema_pointer, "properties"))
        listed = query.value_at((*site.base, *state.schema_pointer, "required"))
        taken = set(listed) if isinstance(listed, list) else set()
        if isinstance(properties, dict):
            for rank, name in enumerate(properties):
                if name not in taken or name == query.token_text():
                    result.append(_literal(query, name, "property of this schema", None, rank, "property"))
    elif state.kind == "keyword_value" and keyword in KEYWORDS and KEYWORDS[keyword].value == "boolean":
        for rank, literal in enumerate((True, False)):
            result.append(_literal(query, literal, "boolean", KEYWORDS[keyword].description, rank, "keyword"))
    elif state.kind == "schema" and state.keyword in ("additionalProperties", "unevaluatedProperties"):
        for rank, literal in enumerate((False, True)):
            result.append(_literal(query, literal, "boolean", KEYWORDS[state.keyword].description, rank, "keyword"))
    elif state.kind == "keyword_value" and keyword == "format":
        for rank, (name, meaning) in enumerate(FORMATS.items()):
            result.append(_literal(query, name, "format", meaning, rank, "enum"))
    elif state.kind == "keyword_value" and keyword == "$schema":
        for rank, (uri, meaning) in enumerate(SCHEMA_DIALECTS.items()):
            result.append(_literal(query, uri, "JSON Schema dialect", meaning, rank, "enum"))
    elif state.kind == "schema" and not query.cursor.partial:
        result.extend(_schema_templates(query))
    return result


def _schema_templates(query: CursorQuery) -> list[CompletionCandidate]:
    """A new property's schema: `{"type": "string", "description": ""}` and friends."""
    comma = _value_comma(query)
    result = []
    for rank, name in enumerate(("string", "integer", "number", "boolean", "object", "array")):
        extra = {"object": ', "properties": {}', "array": ', "items": {}'}.get(name, "")
        text = f'{{"type": "{name}", "description": ""{extra}}}'
        extra_snippet = {"object": ', "properties": {$2}', "array": ', "items": {$2}'}.get(name, "")
        snippet = f'{{"type": "{name}", "description": "$1"{extra_snippet}}}'
        result.append(
            CompletionCandidate(
                label=f"{{type: {name}}}",
                insert_text=text + comma,
                kind="snippet",
                snippet=snippet + comma,
                detail="new property schema",
                documentation=TYPE_NAMES[name],
                sort_text=f"{rank:02d}",
                filter_text="{",
            )
        )
    return result


__all__ = ["complete", "enum_meaning", "schema_completion"]
