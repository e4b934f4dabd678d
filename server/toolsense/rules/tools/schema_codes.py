"""The rules of the JSON Schema family, declared once for the modules that check them."""

from __future__ import annotations

from ...engine.findings import Severity
from ..catalog import CATALOG

FAMILY = "Tool definitions: JSON Schema"

INVALID = CATALOG.rule(
    "TS210",
    "invalid-json-schema",
    Severity.ERROR,
    "The input (or output) schema breaks its dialect's meta-schema (draft-07 by default, 2020-12 for MCP).",
    FAMILY,
    '`"false"` → `false`; a bare type name → `{"type": …}`',
)
ROOT = CATALOG.rule(
    "TS211",
    "schema-root-not-object",
    Severity.ERROR,
    'The schema\'s root is not `"type": "object"` (every provider requires an object of arguments).',
    FAMILY,
    'add `"type": "object"`',
)
REQUIRED = CATALOG.rule(
    "TS212",
    "required-not-defined",
    Severity.ERROR,
    "`required` names a property that `properties` does not define.",
    FAMILY,
    "rename to the closest defined property",
)
DUPLICATE_ENUM = CATALOG.rule(
    "TS213",
    "duplicate-enum-value",
    Severity.WARNING,
    "An `enum` lists the same value twice.",
    FAMILY,
    "remove the duplicate (safe)",
)
UNKNOWN_TYPE = CATALOG.rule(
    "TS214",
    "unknown-type-name",
    Severity.ERROR,
    'A `type` that JSON Schema does not have (`"dict"`, `"float"`, `"str"`…).',
    FAMILY,
    "the JSON Schema name (`dict`→`object`, `float`→`number`, `str`→`string`; safe)",
)
UNRESOLVED_REF = CATALOG.rule(
    "TS215",
    "unresolved-ref",
    Severity.ERROR,
    "A local `$ref` points at nothing in the schema.",
    FAMILY,
    "the closest `$defs` entry",
)
REMOTE_REF = CATALOG.rule(
    "TS216",
    "remote-ref-not-fetched",
    Severity.WARNING,
    "A network or file `$ref`: toolsense never fetches it, and providers may not either; inline it in `$defs`.",
    FAMILY,
)
TOO_COMPLEX = CATALOG.rule(
    "TS217",
    "schema-too-complex",
    Severity.WARNING,
    "The schema is deeper or larger than `limits.max_schema_depth` / `limits.max_subschemas`; checks were cut short.",
    FAMILY,
)
OWN_VALUE = CATALOG.rule(
    "TS219",
    "value-breaks-own-schema",
    Severity.ERROR,
    "A `default`, an `examples` item, a `const` or an `enum` member that its own (sub)schema rejects: a model "
    "told the default or shown the example sends it (a wrong type or a value outside the enum is an error; a "
    "broken range, length or pattern a warning).",
    FAMILY,
)
UNKNOWN_DIALECT = CATALOG.rule(
    "TS218",
    "unknown-schema-dialect",
    Severity.WARNING,
    "`$schema` names a JSON Schema dialect toolsense does not know; the schema is checked as draft-07.",
    FAMILY,
)

TYPE_ALIASES = {
    "dict": "object",
    "map": "object",
    "hash": "object",
    "struct": "object",
    "record": "object",
    "float": "number",
    "double": "number",
    "decimal": "number",
    "num": "number",
    "int": "integer",
    "long": "integer",
    "str": "string",
    "text": "string",
    "bool": "boolean",
    "list": "array",
    "tuple": "array",
    "none": "null",
    "nil": "null",
    "nonetype": "null",
}
