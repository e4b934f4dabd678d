"""Rules of the Anthropic family (the API, strict tool use, Claude Code, Copilot forwarding to Claude)."""

from __future__ import annotations

from collections.abc import Iterator

from ...settings import Settings
from ..providers import (
    ANTHROPIC_STRICT_FORMATS,
    ANTHROPIC_STRICT_UNSUPPORTED,
    over_limits,
    profile_limits,
    tool_budget,
)
from ..tool import ToolView, is_object_schema, types_of, walk_schema
from .meta import meta_errors
from .model import Hit, Message, Rule, Source
from .targets import ANTHROPIC_FAMILY, ANTHROPIC_STRICT_DOCS, ANTHROPIC_TOOL_DOCS, READ, TARGETS


def metaschema_errors(view: ToolView) -> Iterator[Hit]:
    """Each place the schema breaks the draft 2020-12 meta-schema (once per place), with jsonschema's words."""
    for where, message in meta_errors(view.schema):
        yield Hit((*view.schema_pointer, *where), {"error": message})


def _metaschema(view: ToolView, target: str) -> Iterator[Hit]:
    if isinstance(view.schema, dict):
        yield from metaschema_errors(view)


ANTHROPIC_METASCHEMA = Rule(
    "anthropic-draft-2020-12",
    ANTHROPIC_FAMILY,
    "rejected",
    "an input schema the draft 2020-12 meta-schema rejects (a draft-07 tuple `items: [...]`, a draft-04 boolean "
    "`exclusiveMinimum`, …)",
    (
        Message(
            "tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 "
            "(https://json-schema.org/draft/2020-12). Learn more about tool use at "
            "https://docs.anthropic.com/en/docs/tool-use.",
            "2025-07-09",
        ),
        Message(
            "tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 "
            "(https://json-schema.org/draft/2020-12). Learn more about tool use at "
            "https://docs.claude.com/en/docs/tool-use.",
            "2026-01-19",
        ),
        Message(
            "tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 "
            "(https://json-schema.org/draft/2020-12). Learn more about tool use at "
            "https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview.",
            "2026-08-13",
        ),
    ),
    (
        Source("https://github.com/mapbox/mcp-server/pull/23", "2025-07-09", "claude-code/tuple-items-mapbox"),
        Source("https://github.com/MarkusPfundstein/mcp-gsuite/issues/47", "2026-01-19"),
        Source("https://github.com/kintone/mcp-server/issues/547", "2026-08-13"),
        Source(
            "https://github.com/AlexGladkov/claude-in-mobile/pull/55",
            "2026-08-13",
            "claude-code/tuple-items-claude-in-mobile",
        ),
        Source(
            "https://github.com/AlexGladkov/claude-in-mobile/issues/57",
            "2026-08-15",
            "claude-code/tuple-items-claude-in-mobile-report",
        ),
        Source(
            "https://github.com/Dokploy/mcp/issues/74", "2026-08-16", "claude-code/boolean-exclusive-minimum-dokploy"
        ),
        Source("https://github.com/hyperdxio/hyperdx/pull/2925", "2026-08-17", "anthropic/tuple-items-hyperdx"),
        Source("https://github.com/microsoft/vscode/issues/264999", "2025-09-03"),
    ),
    _metaschema,
)

COMBINATORS = ("oneOf", "allOf", "anyOf")


def _top_level(view: ToolView, target: str) -> Iterator[Hit]:
    if isinstance(view.schema, dict):
        for keyword in COMBINATORS:
            if keyword in view.schema:
                yield Hit((*view.schema_pointer, keyword))
                return


ANTHROPIC_TOP_LEVEL = Rule(
    "anthropic-top-level-combinator",
    ANTHROPIC_FAMILY,
    "rejected",
    "`oneOf`, `allOf` or `anyOf` at the root of the input schema",
    (
        Message(
            "tools.{i}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level",
            "2025-08-14",
        ),
    ),
    (
        Source(
            "https://github.com/aliargun/mcp-server-gemini/issues/8",
            "2025-08-14",
            "claude-code/top-level-oneof-mcp-server-gemini",
        ),
        Source(ANTHROPIC_TOOL_DOCS, READ),
    ),
    _top_level,
)


def _strict(view: ToolView, target: str) -> bool:
    """Strict rules apply at a strict target, and at any Anthropic target to a tool that says `strict: true`."""
    return TARGETS[target].strict or (view.strict and view.dialect == "anthropic")


def _max_items(view: ToolView, target: str) -> Iterator[Hit]:
    if not _strict(view, target):
        return
    for entry in walk_schema(view.schema).nodes:
        if "maxItems" in entry.node:
            kind = (types_of(entry.node) or ["array"])[0]
            yield Hit((*view.schema_pointer, *entry.pointer, "maxItems"), {"type": kind, "keyword": "maxItems"})


ANTHROPIC_STRICT_MAX_ITEMS = Rule(
    "anthropic-strict-max-items",
    frozenset({"anthropic", "anthropic-strict"}),
    "rejected",
    "`maxItems` in a strict tool",
    (Message("tools.{i}.custom: For '{type}' type, property '{keyword}' is not supported", "2026-09-05"),),
    (
        Source(
            "https://github.com/experientiallabs/experiential/pull/804",
            "2026-09-05",
            "anthropic-strict/maxitems-experiential",
        ),
        Source("https://github.com/agentjido/req_llm/pull/707", "2026-05-19"),
    ),
    _max_items,
)


def _strict_subset(view: ToolView, target: str) -> Iterator[Hit]:
    if not _strict(view, target):
        return
    for entry in walk_schema(view.schema).nodes:
        node = entry.node
        here = (*view.schema_pointer, *entry.pointer)
        for keyword in ANTHROPIC_STRICT_UNSUPPORTED:
            if keyword in node and keyword != "maxItems":
                yield Hit((*here, keyword), {"what": f"'{keyword}'"})
        min_items = node.get("minItems")
        if isinstance(min_items, int) and min_items not in (0, 1):
            yield Hit((*here, "minItems"), {"what": f"minItems {min_items} (only 0 or 1)"})
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in ANTHROPIC_STRICT_FORMATS:
            yield Hit((*here, "format"), {"what": f"format '{fmt}'"})
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            yield Hit((*here, "$ref"), {"what": "an external $ref"})
        values = node.get("enum")
        if isinstance(values, list) and any(isinstance(v, (dict, list)) for v in values):
            yield Hit((*here, "enum"), {"what": "enum values that are not primitives"})
        if is_object_schema(node) and not entry.conditional and node.get("additionalProperties") is not False:
            yield Hit(here, {"what": "an object without `additionalProperties: false`"})
    if isinstance(view.schema, dict) and tool_budget(view.schema).recursive:
        yield Hit(view.schema_pointer, {"what": "a recursive schema"})


ANTHROPIC_STRICT_SUBSET = Rule(
    "anthropic-strict-subset",
    frozenset({"anthropic", "anthropic-strict"}),
    "rejected",
    "what strict tool use documents as unsupported: numeric and length bounds, `minItems` over 1, other formats, "
    "external `$ref`, recursion, non-primitive enum values, objects not closed",
    (Message("Anthropic strict tool use does not support {what} (documented limit)", documented=True),),
    (Source(ANTHROPIC_STRICT_DOCS, READ),),
    _strict_subset,
)


def _strict_budget(view: ToolView, target: str) -> Iterator[Hit]:
    if not _strict(view, target) or not isinstance(view.schema, dict):
        return
    for what, limit, count in over_limits(tool_budget(view.schema), profile_limits("anthropic-strict", Settings())):
        yield Hit(view.schema_pointer, {"what": what, "limit": str(limit), "count": str(count)})


ANTHROPIC_STRICT_BUDGET = Rule(
    "anthropic-strict-budget",
    frozenset({"anthropic", "anthropic-strict"}),
    "rejected",
    "more optional or union parameters than all strict tools of a request may have together (this tool alone)",
    (
        Message(
            "Anthropic strict tools may have at most {limit} {what} per request; this tool alone has {count} "
            "(documented limit)",
            documented=True,
        ),
    ),
    (
        Source(ANTHROPIC_STRICT_DOCS, READ),
        Source("https://github.com/mozilla/bugbug/pull/6129", "2026-06-04"),
    ),
    _strict_budget,
)

RULES = (
    ANTHROPIC_METASCHEMA,
    ANTHROPIC_TOP_LEVEL,
    ANTHROPIC_STRICT_MAX_ITEMS,
    ANTHROPIC_STRICT_SUBSET,
    ANTHROPIC_STRICT_BUDGET,
)
