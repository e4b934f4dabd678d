"""Rules of Google's targets: the Gemini API's and Vertex AI's `parameters` (an OpenAPI 3.0 subset read as a proto),
and Gemini CLI's `parametersJsonSchema` path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import NamedTuple

from ...document.jsontree import Pointer
from ...engine.schemas import resolve_local_ref
from ...jsonvalue import JsonObject, JsonValue
from ..providers import GEMINI_KEYWORDS
from ..tool import ToolView, types_of, walk_schema
from .model import Hit, Message, Rule, Source
from .paths import dotted_path, json_path, name_path, proto_path
from .targets import GEMINI_CLI_SOURCE, GEMINI_PARAMETERS, GEMINI_SCHEMA_DOCS, READ, VERTEX_SCHEMA_DOCS

ANNOTATIONS = frozenset({"$schema", "$comment", "$id", "examples", "deprecated", "readOnly", "writeOnly"})
"""Keywords that constrain nothing: dropping them changes no call (the portable rewrite drops them exactly)."""


class ProtoNode(NamedTuple):
    pointer: Pointer
    """Inside the schema."""
    node: JsonObject


def proto_nodes(schema: JsonValue) -> Iterator[ProtoNode]:
    """The subschemas the Gemini proto reads: the root, `properties` values, `items`, `anyOf` branches. Anything
    under an unknown keyword is never parsed (the unknown keyword is the error)."""
    stack: list[ProtoNode] = [ProtoNode((), schema)] if isinstance(schema, dict) else []
    while stack:
        entry = stack.pop()
        yield entry
        node, here = entry.node, entry.pointer
        children: list[ProtoNode] = []
        props = node.get("properties")
        if isinstance(props, dict):
            children += [ProtoNode((*here, "properties", k), v) for k, v in props.items() if isinstance(v, dict)]
        items = node.get("items")
        if isinstance(items, dict):
            children.append(ProtoNode((*here, "items"), items))
        branches = node.get("anyOf")
        if isinstance(branches, list):
            children += [ProtoNode((*here, "anyOf", i), b) for i, b in enumerate(branches) if isinstance(b, dict)]
        stack.extend(reversed(children))


def _where(view: ToolView, pointer: Pointer) -> dict[str, str]:
    return {"path": proto_path(view.schema, pointer), "names": name_path(pointer), "dots": dotted_path(pointer)}


def _unknown_keywords(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        for keyword in node:
            if keyword in GEMINI_KEYWORDS or (target == "vertex-ai" and keyword in VERTEX_UNSETTLED):
                continue
            yield Hit((*view.schema_pointer, *pointer, keyword), {"keyword": keyword, **_where(view, pointer)})


VERTEX_UNSETTLED = frozenset({"additionalProperties"})
"""Keywords Vertex AI's recent messages no longer name while the Gemini API's still do: no verdict either way."""

UNKNOWN_KEYWORD = Rule(
    "gemini-unknown-keyword",
    GEMINI_PARAMETERS,
    "rejected",
    "a keyword outside the `parameters` subset (`const`, `additionalProperties`, `$schema`, `propertyNames`, …)",
    (
        Message(
            'Invalid JSON payload received. Unknown name "{keyword}" at '
            "'tools[0].function_declarations[{i}].parameters{path}': Cannot find field.",
            "2024-09-26",
        ),
    ),
    (
        Source(GEMINI_SCHEMA_DOCS, READ),
        Source(
            "https://github.com/zed-extensions/mcp-server-brave-search/issues/12",
            "2025-11-20",
            "gemini-api/const-in-anyof-brave-search",
        ),
        Source("https://github.com/elastic/kibana/issues/284647", "2026-08-12", "vertex-ai/property-names-kibana"),
        Source("https://github.com/datastax/astra-assistants-api/issues/73", "2024-09-26"),
    ),
    _unknown_keywords,
)


def _vertex_unsettled(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        for keyword in VERTEX_UNSETTLED & set(node):
            yield Hit((*view.schema_pointer, *pointer, keyword), {"keyword": keyword})


VERTEX_ADDITIONAL_PROPERTIES = Rule(
    "vertex-additional-properties",
    frozenset({"vertex-ai"}),
    "unknown",
    "`additionalProperties` on Vertex AI: the Gemini API rejects it; Vertex AI's messages of 2026 list its "
    "neighbours but not it",
    (Message("no settled evidence whether Vertex AI accepts '{keyword}'"),),
    (Source("https://github.com/elastic/kibana/issues/284647", "2026-08-12", "vertex-ai/property-names-kibana"),),
    _vertex_unsettled,
)


def _type_list(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        if isinstance(node.get("type"), list):
            yield Hit((*view.schema_pointer, *pointer, "type"), _where(view, pointer))


TYPE_LIST = Rule(
    "gemini-type-list",
    GEMINI_PARAMETERS,
    "rejected",
    'a `type` that is a list (`["string", "null"]`): the proto field holds one type',
    (
        Message(
            'Invalid JSON payload received. Unknown name "type" at '
            "'tools[0].function_declarations[{i}].parameters{path}': Proto field is not repeating, cannot start list.",
            "2025-04-26",
        ),
    ),
    (
        Source("https://github.com/nanbingxyz/5ire/issues/218", "2025-04-26", "gemini-api/type-list-5ire"),
        Source(GEMINI_SCHEMA_DOCS, READ),
    ),
    _type_list,
)


def _items_list(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        if isinstance(node.get("items"), list):
            yield Hit((*view.schema_pointer, *pointer, "items"), _where(view, pointer))


ITEMS_LIST = Rule(
    "gemini-items-list",
    GEMINI_PARAMETERS,
    "rejected",
    "`items` as a list of schemas (draft-07's tuple): the subset's `items` is one Schema",
    (
        Message(
            "`items` must be one Schema in the Gemini API's `parameters`, not a list (documented: Schema.items)",
            documented=True,
        ),
    ),
    (Source(GEMINI_SCHEMA_DOCS, READ), Source(VERTEX_SCHEMA_DOCS, READ)),
    _items_list,
)


def _enum_values(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        values = node.get("enum")
        if not isinstance(values, list):
            continue
        for index, value in enumerate(values):
            if not isinstance(value, str):
                where = (*view.schema_pointer, *pointer, "enum", index)
                yield Hit(where, {**_where(view, pointer), "k": str(index), "value": json.dumps(value)})


ENUM_NOT_STRING = Rule(
    "gemini-enum-not-string",
    frozenset({"gemini-api"}),
    "rejected",
    "an enum value that is not a string (`0`, `true`): the proto's enum holds strings",
    (
        Message(
            "Invalid value at 'tools[0].function_declarations[{i}].parameters{path}.enum[{k}]' (TYPE_STRING), {value}",
            "2026-08-14",
        ),
    ),
    (
        Source("https://github.com/cuplivo/cuplivo/issues/425", "2026-08-14", "gemini-api/boolean-enum-value-cuplivo"),
        Source("https://github.com/router-for-me/CLIProxyAPI/issues/1075", "2026-01-17"),
    ),
    _enum_values,
)


def _empty_enum(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        values = node.get("enum")
        if isinstance(values, list):
            for index, value in enumerate(values):
                if value == "":
                    where = (*view.schema_pointer, *pointer, "enum", index)
                    yield Hit(where, {**_where(view, pointer), "k": str(index)})


EMPTY_ENUM = Rule(
    "gemini-empty-enum-value",
    frozenset({"gemini-api"}),
    "rejected",
    'an empty string among enum values (`""`)',
    (
        Message(
            "GenerateContentRequest.tools[0].function_declarations[{i}].parameters{names}.enum[{k}]: cannot be empty",
            "2026-04-24",
        ),
    ),
    (
        Source(
            "https://github.com/sbroenne/mcp-server-excel/issues/607",
            "2026-04-24",
            "gemini-api/empty-enum-value-mcp-server-excel",
        ),
    ),
    _empty_enum,
)


def _array_items(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        if "array" in types_of(node) and "items" not in node:
            yield Hit((*view.schema_pointer, *pointer), _where(view, pointer))


ARRAY_ITEMS = Rule(
    "gemini-array-items",
    frozenset({"gemini-api"}),
    "rejected",
    "an array schema without `items`",
    (
        Message(
            "GenerateContentRequest.tools[0].function_declarations[{i}].parameters{names}.items: missing field.",
            "2025-11-07",
        ),
    ),
    (
        Source("https://github.com/cline/cline/issues/7339", "2025-11-07"),
        Source(
            "https://github.com/NousResearch/hermes-agent/pull/69924",
            "2026-07-23",
            "gemini-api/array-missing-items-hermes",
        ),
    ),
    _array_items,
)

VERTEX_LEARN_MORE = "Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling"


def _any_of_with_type(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        if pointer and "anyOf" in node and "type" in node:
            yield Hit((*view.schema_pointer, *pointer, "anyOf"), {"name": view.name or "", **_where(view, pointer)})


VERTEX_ANY_OF_SIBLINGS = Rule(
    "vertex-any-of-siblings",
    frozenset({"vertex-ai"}),
    "rejected",
    "`anyOf` beside a `type` in the same subschema",
    (
        Message(
            "Unable to submit request because `{name}` functionDeclaration `parameters{dots}` schema specified other "
            "fields alongside any_of. When using any_of, it must be the only field set.",
            "2026-07-05",
        ),
    ),
    (
        Source(
            "https://github.com/lambda-alpha-labs/Graphenium/issues/37",
            "2026-07-05",
            "vertex-ai/anyof-with-siblings-graphenium",
        ),
    ),
    _any_of_with_type,
)


def _any_of_default_no_type(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        if pointer and "anyOf" in node and "type" not in node and "default" in node:
            yield Hit((*view.schema_pointer, *pointer), {"name": view.name or "", **_where(view, pointer)})


VERTEX_MISSING_TYPE = Rule(
    "vertex-missing-type",
    frozenset({"vertex-ai"}),
    "rejected",
    "`anyOf` with a `default` and no `type` (pydantic's `Optional[...] = None`)",
    (
        Message(
            "Unable to submit request because `{name}` functionDeclaration `parameters{dots}` schema didn't specify "
            f"the schema type field. {VERTEX_LEARN_MORE}",
            "2025-12-22",
        ),
    ),
    (
        Source(
            "https://github.com/ivnvxd/mcp-server-odoo/issues/27", "2025-12-22", "vertex-ai/anyof-without-type-odoo"
        ),
        Source("https://github.com/awslabs/mcp/issues/3328", "2026-04-30"),
    ),
    _any_of_default_no_type,
)


def _enum_on_container(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer, node in proto_nodes(view.schema):
        if "enum" in node and {"array", "object"} & set(types_of(node)):
            yield Hit((*view.schema_pointer, *pointer, "enum"), {"name": view.name or "", **_where(view, pointer)})


VERTEX_ENUM_ON_CONTAINER = Rule(
    "vertex-enum-on-container",
    frozenset({"vertex-ai"}),
    "rejected",
    "`enum` on an array or object schema",
    (
        Message(
            "Unable to submit request because {name} functionDeclaration parameters{dots} schema specified incorrect "
            f"schema type field. For schema with enum values, schema type should not be OBJECT or ARRAY. "
            f"{VERTEX_LEARN_MORE}",
            "2025-07-30",
        ),
    ),
    (
        Source(
            "https://github.com/reportportal/reportportal-mcp-server/issues/25",
            "2025-07-30",
            "vertex-ai/enum-on-array-reportportal",
        ),
        Source(VERTEX_SCHEMA_DOCS, READ),
    ),
    _enum_on_container,
)


def _nullable_rewrite(view: ToolView, target: str) -> Iterator[Hit]:
    for entry in walk_schema(view.schema).nodes:
        kind = entry.node.get("type")
        if isinstance(kind, list) and len(kind) == 2 and "null" in kind:
            other = kind[1 - kind.index("null")]
            if isinstance(other, str):
                change = f'`type: {json.dumps(kind)}` is sent as `type: "{other}"` with `nullable: true`'
                yield Hit((*view.schema_pointer, *entry.pointer, "type"), change=change)


GEMINI_CLI_NULLABLE = Rule(
    "gemini-cli-nullable",
    frozenset({"gemini-cli"}),
    "changed",
    'a two-type list with `"null"`, which Gemini CLI rewrites as one type plus `nullable: true`',
    (Message("(silent: Gemini CLI rewrites the schema before sending it)", documented=True),),
    (Source(GEMINI_CLI_SOURCE, READ),),
    _nullable_rewrite,
)


def _undefined_ref(view: ToolView, target: str) -> Iterator[Hit]:
    for entry in walk_schema(view.schema).nodes:
        ref = entry.node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#") and resolve_local_ref(view.schema, ref) is None:
            yield Hit((*view.schema_pointer, *entry.pointer, "$ref"), {"at": json_path(entry.pointer)})


GEMINI_CLI_REF = Rule(
    "gemini-json-schema-ref",
    frozenset({"gemini-cli"}),
    "rejected",
    "a local `$ref` that resolves to nothing",
    (Message("reference to undefined schema at {at}", "2025-11-21"),),
    (Source("https://github.com/agent-infra/sandbox/issues/83", "2025-11-21"),),
    _undefined_ref,
)

RULES = (
    UNKNOWN_KEYWORD,
    VERTEX_ADDITIONAL_PROPERTIES,
    TYPE_LIST,
    ITEMS_LIST,
    ENUM_NOT_STRING,
    EMPTY_ENUM,
    ARRAY_ITEMS,
    VERTEX_ANY_OF_SIBLINGS,
    VERTEX_MISSING_TYPE,
    VERTEX_ENUM_ON_CONTAINER,
    GEMINI_CLI_NULLABLE,
    GEMINI_CLI_REF,
)
