"""Descriptions: a model chooses tools and fills parameters from them. A tool without one is a warning, a
parameter without one is information. A tool description longer than the limit is a warning: the limit is
`description.max_length` when the settings set it, else the provider's own limit for the tool's dialect or an
enabled profile (OpenAI: 1,024 characters); Anthropic, MCP and Gemini document none."""

from __future__ import annotations

from collections.abc import Iterator

from ...domain.tool import ContentMemo, has_path, input_walk, tool_view, unit_key
from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.schemas import resolve_local_ref
from ...engine.units import Unit
from ...jsonvalue import JsonValue
from ...settings import LimitsSettings, Settings
from ..catalog import CATALOG

FAMILY = "Tool definitions: descriptions"

# Information by default (issue 30): on the wild corpus every TS240 was advice on a valid file (a description is
# optional for every provider); docs/accuracy.md, "Warning precision per rule".
TOOL_DESCRIPTION = CATALOG.rule(
    "TS240",
    "missing-tool-description",
    Severity.INFORMATION,
    "The tool has no description (or an empty one): the model has only its name to go by.",
    FAMILY,
)
PARAMETER_DESCRIPTION = CATALOG.rule(
    "TS241",
    "missing-parameter-description",
    Severity.INFORMATION,
    "A parameter (a property of the input schema) has no description.",
    FAMILY,
)
TOO_LONG = CATALOG.rule(
    "TS242",
    "description-too-long",
    Severity.WARNING,
    "The tool description is longer than `description.max_length` when set, else than the provider's limit "
    "(OpenAI tools or the OpenAI profiles: 1,024 characters).",
    FAMILY,
)


def _described(node: JsonValue, root: JsonValue) -> bool:
    if not isinstance(node, dict):
        return True  # `true`/`false` schemas: nothing to describe
    text = node.get("description")
    if isinstance(text, str) and text.strip():
        return True
    ref = node.get("$ref")
    if isinstance(ref, str):
        target = resolve_local_ref(root, ref)
        if isinstance(target, dict) and isinstance(text := target.get("description"), str) and text.strip():
            return True
    return False


OPENAI_DESCRIPTION_LIMIT = 1024
"""OpenAI rejects a function description longer than this (as of 2026-11)."""
_OPENAI = frozenset({"openai", "openai-flat"})


def description_limit(dialect: str | None, settings: Settings) -> tuple[int, str] | None:
    """The longest tool description and whose limit it is; None when no limit applies."""
    if "max_length" in settings.description.model_fields_set:
        return settings.description.max_length, "description.max_length"
    if dialect in _OPENAI or {"openai", "openai-strict"} & set(settings.profiles):
        return OPENAI_DESCRIPTION_LIMIT, "OpenAI's limit"
    return None


@CATALOG.unit_check("tool")
def descriptions(unit: Unit, ctx: CheckContext) -> tuple[Finding, ...]:
    if tool_view(unit) is None:
        return ()
    limit, limits = description_limit(unit.dialect, ctx.settings), ctx.settings.limits
    key = (unit_key(unit), unit.dialect, limit, limits)
    return _MEMO.get(key, lambda: tuple(_find(unit, limit, limits)))


_MEMO: ContentMemo[tuple[Finding, ...]] = ContentMemo(4096)


def _find(unit: Unit, limit: tuple[int, str] | None, limits: LimitsSettings) -> Iterator[Finding]:
    view = tool_view(unit)
    assert view is not None
    text = view.description
    if not has_path(view.value, view.description_pointer):
        if view.name is not None:
            yield Finding(
                TOOL_DESCRIPTION.code,
                f"Tool '{view.name}' has no description: say what it does and when to use it",
                view.name_pointer,
                "key",
            )
    elif isinstance(text, str) and not text.strip():
        yield Finding(TOOL_DESCRIPTION.code, "The tool description is empty", view.description_pointer)
    elif isinstance(text, str) and limit is not None and len(text) > limit[0]:
        yield Finding(
            TOO_LONG.code,
            f"The tool description is {len(text)} characters long, more than {limit[1]} ({limit[0]})",
            view.description_pointer,
        )
    if not isinstance(view.schema, dict):
        return
    walk = input_walk(unit, limits.max_schema_depth, limits.max_subschemas)
    for entry in walk.nodes:
        name = entry.property_name
        if name is None or entry.conditional or _described(entry.node, view.schema):
            continue
        yield Finding(
            PARAMETER_DESCRIPTION.code,
            f"Parameter '{name}' has no description",
            (*view.schema_pointer, *entry.pointer),
            "key",
        )
