"""What the editor knows about JSON Schema itself: keywords, type names, formats — for help inside
`input_schema` / `inputSchema` / `parameters` / `outputSchema`.

`schema_state(pointer)` says what a place inside a schema is: a schema object (its keys are keywords), a map of
schemas (`properties`: keys are names the user chooses), an array of schemas (`anyOf`), or the value of a
keyword (`type`, `required`, …), so completion and hover know which list applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..document.jsontree import Pointer

ValueKind = Literal["schema", "schemas", "schema_map", "type", "string", "number", "integer", "boolean", "array", "any"]


@dataclass(frozen=True)
class Keyword:
    name: str
    value: ValueKind
    description: str
    placeholder: str
    snippet: str


def _kw(name: str, value: ValueKind, description: str, placeholder: str, snippet: str | None = None) -> Keyword:
    return Keyword(name, value, description, placeholder, snippet or placeholder)


KEYWORDS: dict[str, Keyword] = {
    k.name: k
    for k in (
        _kw("type", "type", "The JSON type(s) the value must have.", '"string"', '"${1|' + "string,number,integer,"
            "boolean,object,array,null|}\""),
        _kw("description", "string", "What the value means; the model reads it to decide what to send.", '""', '"$1"'),
        _kw("properties", "schema_map", "The schema of each named property of an object.", "{}", "{$1}"),
        _kw("required", "array", "Names of the properties that must be present.", "[]", "[$1]"),
        _kw("additionalProperties", "schema", "Whether (or how) properties not listed in `properties` are "
            "allowed; strict tool use needs `false`.", "false", "${1:false}"),
        _kw("items", "schema", "The schema of every element of an array.", "{}", "{$1}"),
        _kw("enum", "array", "The only values allowed.", "[]", "[$1]"),
        _kw("const", "any", "The one value allowed.", '""', '"$1"'),
        _kw("default", "any", "The value assumed when none is given (an annotation: not applied by validators).",
            '""', "$1"),
        _kw("title", "string", "A short title for the value.", '""', '"$1"'),
        _kw("examples", "array", "Example values (annotations).", "[]", "[$1]"),
        _kw("format", "string", "A semantic format of a string (`date-time`, `email`, `uri`, …).", '""', '"$1"'),
        _kw("pattern", "string", "A regular expression (ECMA 262) the string must match.", '""', '"$1"'),
        _kw("minLength", "integer", "Shortest allowed string length.", "0", "${1:0}"),
        _kw("maxLength", "integer", "Longest allowed string length.", "0", "${1:0}"),
        _kw("minimum", "number", "Smallest allowed number (inclusive).", "0", "${1:0}"),
        _kw("maximum", "number", "Largest allowed number (inclusive).", "0", "${1:0}"),
        _kw("exclusiveMinimum", "number", "Numbers must be greater than this.", "0", "${1:0}"),
        _kw("exclusiveMaximum", "number", "Numbers must be less than this.", "0", "${1:0}"),
        _kw("multipleOf", "number", "Numbers must be a multiple of this.", "1", "${1:1}"),
        _kw("minItems", "integer", "Fewest allowed array elements.", "0", "${1:0}"),
        _kw("maxItems", "integer", "Most allowed array elements.", "0", "${1:0}"),
        _kw("uniqueItems", "boolean", "Whether array elements must all differ.", "true", "${1:true}"),
        _kw("minProperties", "integer", "Fewest allowed object properties.", "0", "${1:0}"),
        _kw("maxProperties", "integer", "Most allowed object properties.", "0", "${1:0}"),
        _kw("anyOf", "schemas", "The value must be valid against at least one of these schemas.", "[]", "[$1]"),
        _kw("oneOf", "schemas", "The value must be valid against exactly one of these schemas.", "[]", "[$1]"),
        _kw("allOf", "schemas", "The value must be valid against all of these schemas.", "[]", "[$1]"),
        _kw("not", "schema", "The value must not be valid against this schema.", "{}", "{$1}"),
        _kw("if", "schema", "When the value is valid against this schema, `then` applies, else `else`.", "{}", "{$1}"),
        _kw("then", "schema", "Applies when `if` holds.", "{}", "{$1}"),
        _kw("else", "schema", "Applies when `if` does not hold.", "{}", "{$1}"),
        _kw("$ref", "string", "Use the schema at this reference (e.g. `#/$defs/Address`).", '""', '"#/$defs/$1"'),
        _kw("$defs", "schema_map", "Reusable schemas, referenced with `$ref: #/$defs/Name`.", "{}", "{$1}"),
        _kw("definitions", "schema_map", "Reusable schemas (draft-07 name of `$defs`).", "{}", "{$1}"),
        _kw("$schema", "string", "The JSON Schema dialect (draft) of this schema.", '""', '"$1"'),
        _kw("$id", "string", "The schema's base URI.", '""', '"$1"'),
        _kw("$comment", "string", "A comment for schema authors (ignored by validators).", '""', '"$1"'),
        _kw("patternProperties", "schema_map", "Schemas for properties whose names match a regular expression.",
            "{}", "{$1}"),
        _kw("propertyNames", "schema", "A schema every property name must satisfy.", "{}", "{$1}"),
        _kw("dependentRequired", "any", "Properties required when another property is present.", "{}", "{$1}"),
        _kw("dependentSchemas", "schema_map", "Schemas that apply when a property is present.", "{}", "{$1}"),
        _kw("prefixItems", "schemas", "Schemas of the first elements of an array, by position.", "[]", "[$1]"),
        _kw("contains", "schema", "At least one array element must be valid against this schema.", "{}", "{$1}"),
        _kw("nullable", "boolean", "OpenAPI 3.0 only: the value may be null (JSON Schema uses `type: [..., "
            '"null"]`).', "true", "${1:true}"),
        _kw("readOnly", "boolean", "The value is managed by the owner and should not be sent.", "true", "${1:true}"),
        _kw("writeOnly", "boolean", "The value is sent but never returned.", "true", "${1:true}"),
        _kw("deprecated", "boolean", "The value should no longer be used.", "true", "${1:true}"),
        _kw("unevaluatedProperties", "schema", "Properties not evaluated by any subschema.", "false", "${1:false}"),
    )
}  # fmt: skip

TYPE_NAMES: dict[str, str] = {
    "string": "A JSON string.",
    "number": "Any JSON number (integer or fraction).",
    "integer": "A JSON number without a fractional part.",
    "boolean": "`true` or `false`.",
    "object": "A JSON object; describe its members with `properties` and `required`.",
    "array": "A JSON array; describe its elements with `items`.",
    "null": "The JSON `null`.",
}

FORMATS: dict[str, str] = {
    "date-time": "RFC 3339 date and time, e.g. 2026-11-21T10:00:00Z.",
    "date": "RFC 3339 full date, e.g. 2026-11-21.",
    "time": "RFC 3339 time, e.g. 10:00:00Z.",
    "duration": "ISO 8601 duration, e.g. P3D.",
    "email": "An email address.",
    "hostname": "An internet host name.",
    "ipv4": "An IPv4 address.",
    "ipv6": "An IPv6 address.",
    "uri": "An absolute URI.",
    "uri-reference": "A URI or a relative reference.",
    "uuid": "A UUID.",
    "regex": "A regular expression (ECMA 262).",
}

SCHEMA_DIALECTS: dict[str, str] = {
    "https://json-schema.org/draft/2020-12/schema": "JSON Schema 2020-12 (the MCP default).",
    "http://json-schema.org/draft-07/schema#": "JSON Schema draft-07.",
}

_SCHEMA_VALUED = frozenset(k.name for k in KEYWORDS.values() if k.value == "schema")
_SCHEMAS_VALUED = frozenset(k.name for k in KEYWORDS.values() if k.value == "schemas")
_MAP_VALUED = frozenset(k.name for k in KEYWORDS.values() if k.value == "schema_map")


@dataclass(frozen=True)
class SchemaState:
    """What the JSON at a pointer inside a schema is."""

    kind: Literal["schema", "schema_map", "schemas", "keyword_value", "keyword_item", "data"]
    keyword: str | None = None
    schema_pointer: Pointer = ()
    """The pointer of the innermost schema object at or above this place (relative to the schema root)."""


def schema_state(pointer: Pointer) -> SchemaState:
    """Walk a pointer from the root of a JSON Schema and say what it lands on."""
    state = SchemaState("schema")
    for depth, part in enumerate(pointer):
        here = pointer[: depth + 1]
        if state.kind == "schema":
            name = str(part)
            if isinstance(part, int):
                # Only `items` (draft-07 tuple form) holds an array of schemas directly.
                state = SchemaState("schema", None, here) if state.keyword == "items" else SchemaState("data")
            elif name in _MAP_VALUED:
                state = SchemaState("schema_map", name, state.schema_pointer)
            elif name in _SCHEMAS_VALUED:
                state = SchemaState("schemas", name, state.schema_pointer)
            elif name in _SCHEMA_VALUED:
                state = SchemaState("schema", name, here)
            else:
                state = SchemaState("keyword_value", name, state.schema_pointer)
        elif state.kind == "schema_map":
            state = SchemaState("schema", None, here)
        elif state.kind == "schemas":
            state = SchemaState("schema", None, here) if isinstance(part, int) else SchemaState("data")
        elif state.kind == "keyword_value":
            keyword = state.keyword
            if isinstance(part, int):
                state = SchemaState("keyword_item", keyword, state.schema_pointer)
            else:
                state = SchemaState("data", keyword, state.schema_pointer)
        else:
            state = SchemaState("data", state.keyword, state.schema_pointer)
    return state
