"""Rules of OpenAI's Chat Completions and Responses APIs, strict and not."""

from __future__ import annotations

from collections.abc import Iterator

from ...settings import Settings
from ..providers import OPENAI_STRICT_FORMATS, OPENAI_STRICT_UNSUPPORTED, over_limits, profile_limits, tool_budget
from ..tool import ToolView, is_object_schema, types_of, walk_schema
from .model import Hit, Message, Rule, Source
from .paths import python_tuple
from .rules_anthropic import metaschema_errors
from .targets import OPENAI_CHAT, OPENAI_FAMILY, OPENAI_RESPONSES, OPENAI_STRICT_DOCS, READ, TARGETS


def _metaschema(view: ToolView, target: str) -> Iterator[Hit]:
    if isinstance(view.schema, dict):
        for hit in metaschema_errors(view):
            yield Hit(hit.pointer, {**hit.fields, "name": view.name or ""})


OPENAI_METASCHEMA = Rule(
    "openai-meta-schema",
    OPENAI_FAMILY,
    "rejected",
    "parameters the JSON Schema meta-schema rejects (OpenAI validates with Python's jsonschema: its words)",
    (Message("Invalid schema for function '{name}': {error}.", "2024-07-17"),),
    (
        Source("https://github.com/yomorun/yomo/pull/860", "2024-07-17", "openai-chat/required-null-yomo"),
        Source(
            "https://github.com/FoundationAgents/OpenManus/issues/1162",
            "2025-06-11",
            "openai-chat/empty-array-schema-openmanus",
        ),
    ),
    _metaschema,
)


def _array_nodes(view: ToolView) -> Iterator[tuple[tuple[str | int, ...], bool]]:
    """Each array subschema (its pointer inside the schema) and whether it says what its items are."""
    for entry in walk_schema(view.schema).nodes:
        if "array" in types_of(entry.node):
            yield entry.pointer, "items" in entry.node or "prefixItems" in entry.node


def _array_items(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, has_items in _array_nodes(view):
        if not has_items:
            yield Hit((*view.schema_pointer, *pointer), {"name": view.name or "", "context": python_tuple(pointer)})


OPENAI_ARRAY_ITEMS = Rule(
    "openai-array-items",
    OPENAI_RESPONSES,
    "rejected",
    "an array schema without `items`",
    (Message("Invalid schema for function '{name}': In context={context}, array schema missing items.", "2026-04-14"),),
    (
        Source(
            "https://github.com/yangtaihong59/siyuan-plugins-mcp-sisyphus/issues/13",
            "2026-04-14",
            "openai-responses/array-missing-items-siyuan",
        ),
    ),
    _array_items,
)

OPENAI_CHAT_ARRAY_ITEMS = Rule(
    "openai-chat-array-items",
    OPENAI_CHAT,
    "unknown",
    "an array schema without `items`: the Responses API rejects it; no evidence for Chat Completions either way",
    (Message("no evidence whether Chat Completions accepts an array schema without `items`"),),
    OPENAI_ARRAY_ITEMS.sources,
    _array_items,
)


def _strict(view: ToolView, target: str) -> bool:
    return TARGETS[target].strict or (view.strict and view.dialect in ("openai", "openai-flat"))


def _strict_subset(view: ToolView, target: str) -> Iterator[Hit]:
    if not _strict(view, target):
        return
    for entry in walk_schema(view.schema).nodes:
        node = entry.node
        here = (*view.schema_pointer, *entry.pointer)
        for keyword in OPENAI_STRICT_UNSUPPORTED:
            if keyword in node:
                yield Hit((*here, keyword), {"what": f"'{keyword}'"})
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in OPENAI_STRICT_FORMATS:
            yield Hit((*here, "format"), {"what": f"format '{fmt}'"})
        if entry.conditional or not is_object_schema(node):
            continue
        if node.get("additionalProperties") is not False:
            yield Hit(here, {"what": "an object without `additionalProperties: false`"})
        props = node.get("properties")
        required = node.get("required")
        listed = required if isinstance(required, list) else []
        if isinstance(props, dict):
            for name in props:
                if name not in listed:
                    yield Hit((*here, "properties", name), {"what": f"a property left out of `required` ('{name}')"})


OPENAI_STRICT_SUBSET = Rule(
    "openai-strict-subset",
    OPENAI_FAMILY,
    "rejected",
    "what Structured Outputs documents as unsupported: `allOf`, `not`, `if`/`then`/`else`, `dependent*`, other "
    "formats, objects not closed, properties not all required",
    (Message("OpenAI strict mode does not support {what} (documented limit)", documented=True),),
    (Source(OPENAI_STRICT_DOCS, READ),),
    _strict_subset,
)


def _strict_budget(view: ToolView, target: str) -> Iterator[Hit]:
    if not _strict(view, target) or not isinstance(view.schema, dict):
        return
    for what, limit, count in over_limits(tool_budget(view.schema), profile_limits("openai-strict", Settings())):
        yield Hit(view.schema_pointer, {"what": what, "limit": str(limit), "count": str(count)})


OPENAI_STRICT_BUDGET = Rule(
    "openai-strict-budget",
    OPENAI_FAMILY,
    "rejected",
    "a strict schema over Structured Outputs' size limits (properties, nesting, enum values, characters)",
    (
        Message(
            "OpenAI strict mode allows at most {limit} {what}; this tool has {count} (documented limit)",
            documented=True,
        ),
    ),
    (Source(OPENAI_STRICT_DOCS, READ),),
    _strict_budget,
)

RULES = (OPENAI_METASCHEMA, OPENAI_ARRAY_ITEMS, OPENAI_CHAT_ARRAY_ITEMS, OPENAI_STRICT_SUBSET, OPENAI_STRICT_BUDGET)
