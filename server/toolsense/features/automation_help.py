"""Editor help for automations, through the provider API (`features.providers.PROVIDERS`).

What the built-in, schema-driven features already give automations (tool names in `tool` / `source_tool`,
the tool's parameters required first with placeholders, enum values, `op` / `operator` in conditions the
envelope types, hover on a tool name, go to a tool's definition, references of a tool in open documents),
this module completes with what only the automation rules know — the same scope and data shapes the rules
check against (`domain.automation`, `domain.scope`, `domain.shapes`):

- completion of template variables right after `{{` and after `trigger_data.` / `<output_as>.` / `user.` /
  a variable (fields from the output schema or sample), of condition `path`s, and of `op` / `operator` and
  clause keys in a webhook's `filters` (a plain object in the envelope model);
- hover on a template variable or condition path: where the value comes from and its type;
- go to definition from a template variable / condition path to the action whose `output_as` defines it,
  the `variables` entry, or the field in the source tool's `outputSchema`;
- references from an `output_as` (or a `variables` key) to every template and condition path using it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tree_sitter import Node

from ..document.jsontree import Pointer
from ..domain.automation import AutomationView, Reference, Where, place_of, references
from ..domain.scope import Resolution, names_in_scope, resolve
from ..domain.shapes import OPEN, Env, FieldInfo
from ..domain.templates import BUILTIN_BY_NAME, TRIGGER_DATA, USER, USER_FIELDS, Segment, Token, parse_path, scan
from ..engine.placement import place
from ..engine.units import root_value
from ..models.base import ENUM_SCHEMAS
from ..models.definitions import ConditionOp
from . import markdown
from .providers import PROVIDERS, CompletionCandidate, CursorQuery, HoverAnswer, TargetLocation

_PATH_PREFIX = re.compile(r"[\w\-\[\].]*\Z")
_WORD = re.compile(rb"[\w\-]*")


@dataclass(frozen=True)
class _StringPlace:
    """The cursor inside a string that is template text or a condition path."""

    view: AutomationView
    env: Env
    where: Where
    kind: str
    pointer: Pointer
    """Unit-relative pointer of the string."""
    text: str
    """The whole decoded string."""
    index: int
    """The cursor's position in the decoded string."""
    string_start: int
    """Byte offset of the opening quote."""


def _env(query: CursorQuery) -> Env:
    """The rules' environment for this query (registered models when the server loaded them)."""
    return Env(query.settings, query.registry, query.models)


def _string_place(query: CursorQuery) -> _StringPlace | None:
    unit = query.unit
    context = query.cursor
    if unit is None or unit.kind != "automation" or context.slot != "value" or not context.in_string:
        return None
    if context.string_start is None:
        return None
    view = AutomationView.of(unit.value)
    if view is None:
        return None
    found = place_of(view, query.relative)
    if found is None:
        return None
    where, kind = found
    env = _env(query)
    return _StringPlace(
        view, env, where, kind, query.relative, query.token_text(), len(context.partial), context.string_start
    )


# --- completion -------------------------------------------------------------------------------------------


@PROVIDERS.completion
def automation_completion(query: CursorQuery) -> list[CompletionCandidate] | None:
    place = _string_place(query)
    if place is not None:
        return _path_candidates(query, place)
    return _filters_candidates(query)


def _typed_path(place: _StringPlace) -> str | None:
    """The path typed so far at the cursor: inside an open `{{`, or the condition path before the cursor."""
    before = place.text[: place.index]
    if place.kind == "path":
        return before.lstrip()
    opening = before.rfind("{{")
    if opening < 0 or "}}" in before[opening:]:
        return None
    typed = before[opening + 2 :].lstrip()
    if typed.startswith(("#", "/", ">", "!", "{", "&")):
        return None
    return typed


def _path_candidates(query: CursorQuery, place: _StringPlace) -> list[CompletionCandidate] | None:
    typed = _typed_path(place)
    if typed is None or not _PATH_PREFIX.match(typed):
        return None
    normalized = re.sub(r"\[(-?\d+)\]", r".\1", typed)
    *parents, partial = normalized.split(".")
    start = query.offset - len(partial.encode("utf-8"))
    data = query.document.data
    word = _WORD.match(bytes(data[query.offset : query.offset + 256]))
    end = query.offset + (word.end() if word else 0)
    after = place.text[place.index :]
    close = place.kind == "template" and not _closed_later(after)
    if not parents:
        fields = _root_fields(place)
    else:
        segments = tuple(Segment(text, 0, 0) for text in parents)
        if any(not s.text for s in segments):
            return None
        resolution = resolve(place.view, place.env, place.where, segments)
        if resolution.status != "ok" or resolution.shape is OPEN:
            return None
        fields = [(f, _field_detail(f, resolution)) for f in resolution.shape.fields() or []]
    result = []
    for rank, (info, detail) in enumerate(fields):
        text = info.name + ("}}" if close and info.primitive else "")
        result.append(
            CompletionCandidate(
                label=info.name,
                insert_text=text,
                kind="reference",
                detail=detail,
                documentation=info.description,
                replace=(start, end),
                sort_text=f"{rank:04d}",
                filter_text=info.name,
            )
        )
    return result


def _closed_later(after: str) -> bool:
    close = after.find("}}")
    opening = after.find("{{")
    return close >= 0 and (opening < 0 or close < opening)


def _root_fields(place: _StringPlace) -> list[tuple[FieldInfo, str]]:
    view, where = place.view, place.where
    result: list[tuple[FieldInfo, str]] = []
    names = names_in_scope(view, where)
    trigger = place.env.trigger_shape(view)
    if where.area == "filter":
        for info in (trigger.fields() or []) if trigger is not None else []:
            result.append((info, f"{info.type} · trigger data"))
        result.append((FieldInfo(TRIGGER_DATA, "object", "The trigger data (the prefix is optional here).", False), ""))
        return result
    for name, kind in names.items():
        if kind == "output":
            action = view.outputs_before(where.action or 0)[name]
            tool = action.tool or "?"
            info = FieldInfo(name, "output", f"Output of action {action.label} (`{tool}`).", False)
            result.append((info, f"output of action {action.label} · {tool}"))
    for name, kind in names.items():
        if kind == "variable":
            value = view.variables[name]
            result.append((FieldInfo(name, "variable", f"Variable: `{json.dumps(value)[:80]}`"), "variable"))
    if where.area not in ("tool_params",) and trigger is not None:
        result.append(
            (FieldInfo(TRIGGER_DATA, "object", "The data of the event that started the automation.", False), "trigger")
        )
        for info in trigger.fields() or []:
            if info.name not in names:
                result.append((info, f"{info.type} · trigger data field (shorthand for trigger_data.{info.name})"))
    result.append((FieldInfo(USER, "object", "The automation owner's profile: id, email, name, phone.", False), "user"))
    if where.area != "condition":
        for builtin in BUILTIN_BY_NAME.values():
            result.append((FieldInfo(builtin.name, builtin.type, builtin.description), f"built-in · {builtin.type}"))
    return result


def _field_detail(info: FieldInfo, resolution: Resolution) -> str:
    origin = resolution.shape.origin or resolution.detail
    via = f" · copied from {info.via}" if info.via else ""
    return f"{info.type}{via} · {origin}" if origin else info.type + via


def _filters_candidates(query: CursorQuery) -> list[CompletionCandidate] | None:
    """`op` / `operator` values and clause keys inside a webhook's `filters` (typed as a plain object)."""
    unit = query.unit
    if unit is None or unit.kind != "automation":
        return None
    view = AutomationView.of(unit.value)
    relative = query.relative
    if view is None or len(relative) < 2 or relative[0] != "trigger_config" or relative[1] != "filters":
        return None
    if view.trigger_type != "webhook":
        return None
    context = query.cursor
    if context.slot == "value" and relative[-1] == "op":
        entry = ENUM_SCHEMAS.get(ConditionOp)
        return [_literal(query, op.value, entry.meanings.get(op.value), rank) for rank, op in enumerate(ConditionOp)]
    if context.slot == "value" and relative[-1] == "operator":
        return [
            _literal(query, "AND", "every clause holds", 0),
            _literal(query, "OR", "at least one clause holds", 1),
        ]
    if context.slot == "key":
        existing = context.existing_keys
        keys = [("path", '""'), ("op", '"=="'), ("value", '""'), ("case_insensitive", "true")]
        if not existing & {"path", "op", "value"}:
            keys += [("operator", '"AND"'), ("clauses", "[]")]
        result = []
        for rank, (key, placeholder) in enumerate(keys):
            if key in existing:
                continue
            quoted = json.dumps(key)
            result.append(
                CompletionCandidate(
                    label=key,
                    insert_text=f"{quoted}: {placeholder}",
                    kind="property",
                    detail="condition clause" if rank < 4 else "condition group",
                    sort_text=f"{rank:02d}",
                    filter_text=quoted if context.in_string else key,
                )
            )
        return result
    return None


def _literal(query: CursorQuery, value: str, meaning: str | None, rank: int) -> CompletionCandidate:
    text = json.dumps(value)
    return CompletionCandidate(
        label=text,
        insert_text=text,
        kind="enum",
        detail=meaning,
        sort_text=f"{rank:02d}",
        filter_text=text,
    )


# --- the path under the cursor ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _PathAt:
    place: _StringPlace
    token: Token | None
    segments: tuple[Segment, ...]
    """The segments up to and including the one under the cursor."""
    resolution: Resolution
    span: tuple[int, int]
    """Decoded span (in the string) of the hovered token or path."""


def _path_at(query: CursorQuery) -> _PathAt | None:
    place = _string_place(query)
    if place is None:
        return None
    index = place.index
    token: Token | None = None
    if place.kind == "template":
        for candidate in scan(place.text):
            if candidate.kind in ("path", "raw") and candidate.start <= index <= candidate.end:
                token = candidate
                break
        if token is None or not token.segments:
            return None
        segments = token.segments
        span = (token.start, token.end)
    else:
        stripped = place.text.strip()
        parsed = parse_path(stripped, len(place.text) - len(place.text.lstrip()))
        if parsed is None:
            return None
        segments = parsed
        span = (0, len(place.text))
    upto = [s for s in segments if s.start <= index]
    chosen = tuple(upto) if upto else segments[:1]
    if index > chosen[-1].end and len(chosen) < len(segments):
        chosen = segments[: len(chosen) + 1]
    resolution = resolve(place.view, place.env, place.where, chosen)
    return _PathAt(place, token, chosen, resolution, span)


def _byte_span(query: CursorQuery, string_start: int, start: int, end: int) -> tuple[int, int]:
    """Byte offsets in the document of decoded characters [start, end) of the string opening at string_start."""
    data = query.document.data
    i = string_start + 1
    chars = 0
    first = last = None
    limit = len(data)
    while i < limit and data[i] != 0x22:
        if chars == start and first is None:
            first = i
        if chars == end:
            last = i
            break
        if data[i] == 0x5C and i + 1 < limit:
            width = 6 if data[i + 1] == 0x75 else 2
            if width == 6 and data[i + 6 : i + 8] == b"\\u":
                code = int(bytes(data[i + 2 : i + 6]), 16) if _hex(data[i + 2 : i + 6]) else 0
                if 0xD800 <= code < 0xDC00:
                    width = 12
            i += width
        else:
            lead = data[i]
            i += 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        chars += 1
    if first is None:
        first = i
    if last is None:
        last = i
    return first, last


def _hex(raw: bytes | bytearray) -> bool:
    return len(raw) == 4 and all(c in b"0123456789abcdefABCDEF" for c in raw)


# --- hover ------------------------------------------------------------------------------------------------


@PROVIDERS.hover
def automation_hover(query: CursorQuery) -> HoverAnswer | None:
    found = _path_at(query)
    if found is None:
        return None
    res = found.resolution
    path = ".".join(s.text for s in found.segments)
    span = _byte_span(query, found.place.string_start, found.segments[0].start, found.segments[-1].end)
    if res.status != "ok":
        return HoverAnswer(f"{markdown.code(path)} · not resolved here (see the diagnostic)", span)
    shape = res.shape
    type_text = shape.type if shape is not OPEN else "unknown shape"
    lines = [f"**{markdown.code(path)}** · {markdown.code(type_text)}"]
    description = shape.description
    if description:
        lines += ["", markdown.text(description)]  # file text: shown, never rendered
    lines += ["", f"*{_origin(found.place, res)}*"]
    fields = shape.fields() if shape is not OPEN else None
    if fields:
        shown = ", ".join(markdown.code(f.name) for f in fields[:12]) + (", …" if len(fields) > 12 else "")
        lines += ["", f"Fields: {shown}"]
    return HoverAnswer("\n".join(lines), span)


def _origin(place: _StringPlace, res: Resolution) -> str:
    if res.kind == "builtin":
        return "Built-in variable"
    if res.kind == "user":
        return "The automation owner's profile (`user`)"
    if res.kind == "variable":
        return f"Variable {markdown.code(res.root)} of this automation (`variables`)"
    if res.kind == "output" and res.action is not None:
        action = res.action
        tool, root = markdown.code(action.tool or ""), markdown.code(res.root)
        return f"Output of action {markdown.text(action.label)} (#{action.index + 1}, tool {tool}), stored as {root}"
    if res.kind in ("trigger_data", "trigger_field"):
        text = markdown.text(res.detail) if res.detail else "Trigger data"
        if res.kind == "trigger_field" and place.where.area != "filter":
            text += f" (shorthand for {markdown.code('trigger_data.' + res.root)})"
        return text
    return markdown.text(res.detail or "")


# --- definition -------------------------------------------------------------------------------------------


@PROVIDERS.definition
def automation_definition(query: CursorQuery) -> list[TargetLocation] | None:
    found = _path_at(query)
    if found is None or query.unit is None:
        return None
    res = found.resolution
    base = query.unit.pointer
    if res.status in ("ok", "later_output", "own_output") and res.kind == "output" and res.action is not None:
        return [TargetLocation(query.uri, (*base, "actions", res.action.index, "output_as"), target="value")]
    if res.status == "ok" and res.kind == "variable":
        return [TargetLocation(query.uri, (*base, "variables", res.root), target="key")]
    if res.kind in ("trigger_data", "trigger_field") and found.place.view.source_tool:
        tool = found.place.env.tool(found.place.view.source_tool)
        if tool is None or tool.output_schema is None:
            return None
        parts = [s.text for s in found.segments]
        if parts[0] == TRIGGER_DATA:
            parts = parts[1:]
        pointer: Pointer = (*tool.pointer, "outputSchema")
        schema = tool.output_schema
        for part in parts:
            properties = schema.get("properties") if isinstance(schema, dict) else None
            if not isinstance(properties, dict) or part not in properties:
                break
            pointer = (*pointer, "properties", part)
            schema = properties[part]
        return [TargetLocation(tool.uri, pointer, target="key" if pointer[-1] != "outputSchema" else "member")]
    if res.kind in ("builtin", "user") or res.root in USER_FIELDS:
        return []
    return None


# --- references -------------------------------------------------------------------------------------------


@PROVIDERS.references
def automation_references(query: CursorQuery, include_declaration: bool) -> list[TargetLocation] | None:
    unit = query.unit
    if unit is None or unit.kind != "automation":
        return None
    view = AutomationView.of(unit.value)
    if view is None:
        return None
    relative = query.relative
    context = query.cursor
    name: str | None = None
    declaration: TargetLocation | None = None
    definer: int | None = None
    if (
        context.slot == "value"
        and len(relative) == 3
        and relative[0] == "actions"
        and relative[2] == "output_as"
        and isinstance(relative[1], int)
    ):
        name = query.token_text()
        definer = relative[1]
        declaration = TargetLocation(query.uri, (*unit.pointer, *relative), target="value")
    elif context.slot == "key" and relative == ("variables",):
        name = query.token_text()
        declaration = TargetLocation(query.uri, (*unit.pointer, "variables", name), target="key")
    if not name:
        return None
    env = _env(query)
    root = root_value(query.document.outline)
    found: list[TargetLocation] = [declaration] if include_declaration and declaration is not None else []
    for ref in references(view):
        if ref.segments[0].text != name:
            continue
        res = resolve(view, env, ref.where, ref.segments[:1])
        matches = (
            res.kind == "output" and res.action is not None and res.action.index == definer
            if definer is not None
            else res.kind == "variable"
        )
        if not matches:
            continue
        found.append(_reference_location(query, root, unit.pointer, ref))
    return found


def _reference_location(query: CursorQuery, root: Node | None, base: Pointer, ref: Reference) -> TargetLocation:
    pointer = (*base, *ref.pointer)
    if root is None or ref.token is None:
        return TargetLocation(query.uri, pointer, target="value")
    range_ = place(query.document, root, pointer, "value", (ref.segments[0].start, ref.segments[-1].end))
    return TargetLocation(query.uri, range=range_)


__all__ = ["automation_completion", "automation_definition", "automation_hover", "automation_references"]
