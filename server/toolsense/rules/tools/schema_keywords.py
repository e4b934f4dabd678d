"""A misspelt JSON Schema keyword (`proprties`, `requried`, `tpye`, `Required`, `ref` for `$ref`).

JSON Schema ignores keywords it does not know, so a misspelt one is silently dropped: the model is shown a schema
without the properties, the required list or the type the author wrote, and no validator complains. Only a key
one edit away from a keyword (two for long ones), or equal to it but for case or a missing `$`, is reported;
any other unknown key is the application's own annotation and is left alone. Keywords of every JSON Schema draft,
OpenAPI 3.0 (Gemini's subset) and the common editor extensions are known, so none of them is "misspelt".
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from ...domain.tool import ContentMemo, input_walk, tool_view, unit_key
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, RenameKey, Severity
from ...engine.units import Unit
from ...settings import LimitsSettings
from ..catalog import CATALOG

FAMILY = "Tool definitions: JSON Schema"

MISSPELT_KEYWORD = CATALOG.rule(
    "TS229",
    "misspelt-schema-keyword",
    Severity.ERROR,
    "A key of a schema that is a misspelt JSON Schema keyword (`proprties`, `requried`, `tpye`, `Required`, `ref`): "
    "JSON Schema ignores unknown keywords, so the model gets a schema without it. A misspelt annotation "
    "(`descripton`, `tilte`, `defualt`) is a warning.",
    FAMILY,
    "rename to the keyword",
)

ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "$comment"}
)
"""Keywords that describe rather than constrain: misspelt, the model loses a hint, not part of the contract."""

VALIDATION = frozenset(
    {
        # core and applicators (draft-04 … 2020-12)
        "$schema", "$id", "id", "$ref", "$defs", "definitions", "$anchor", "$dynamicRef", "$dynamicAnchor",
        "$recursiveRef", "$recursiveAnchor", "$vocabulary",
        "type", "enum", "const", "properties", "patternProperties", "additionalProperties", "required",
        "items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains",
        "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
        "dependencies", "dependentRequired", "dependentSchemas", "propertyNames",
        "unevaluatedProperties", "unevaluatedItems",
        # validation
        "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
        "maxProperties", "minProperties", "format",
        "contentEncoding", "contentMediaType", "contentSchema",
        # OpenAPI 3.0 (Gemini's `parameters`) and Gemini's own
        "nullable", "discriminator", "xml", "externalDocs", "propertyOrdering",
    }
)  # fmt: skip

EXTENSIONS = frozenset(
    {
        "enumDescriptions",
        "markdownDescription",
        "markdownEnumDescriptions",
        "enumNames",
        "errorMessage",
        "deprecationMessage",
        "doNotSuggest",
        "defaultSnippets",
        "allowComments",
        "allowTrailingCommas",
    }
)
"""Keys that editors and form libraries read (VS Code's JSON language service, react-jsonschema-form, ajv-errors):
known, never "misspelt"."""

KEYWORDS = VALIDATION | ANNOTATIONS
DOLLAR_LESS = {"ref": "$ref", "defs": "$defs"}
"""A keyword written without its `$`: taken for the keyword only where the name is unmistakable."""
_BY_LOWER = {keyword.lower(): keyword for keyword in KEYWORDS}
_FUZZY = {
    low: keyword
    for low, keyword in _BY_LOWER.items()
    if len(low) >= 4 and not low.startswith("$") and keyword not in ("then", "else")
}
"""The keywords a near miss is measured against: not `$`-keywords (`schema` is a word of its own; `ref` and
`defs` are handled by name), not the short words `then` and `else`."""


@CATALOG.unit_check("tool")
def misspelt_keywords(unit: Unit, ctx: CheckContext) -> tuple[Finding, ...]:
    view = tool_view(unit)
    if view is None or not isinstance(view.schema, dict):
        return ()
    limits = ctx.settings.limits
    return _MEMO.get((unit_key(unit), unit.dialect, limits), lambda: tuple(_findings(unit, limits)))


_MEMO: ContentMemo[tuple[Finding, ...]] = ContentMemo(4096)


def _findings(unit: Unit, limits: LimitsSettings) -> Iterator[Finding]:
    view = tool_view(unit)
    assert view is not None
    walk = input_walk(unit, limits.max_schema_depth, limits.max_subschemas)
    unknown = [key for key in walk.keys if key not in KEYWORDS and key not in EXTENSIONS]
    if not any(intended_keyword(key) for key in unknown):
        return  # the common case: every key of every subschema is a keyword or plainly the app's own
    for entry in walk.nodes:
        for key in entry.node:
            keyword = intended_keyword(key) if key not in KEYWORDS and key not in EXTENSIONS else None
            if keyword is None:
                continue
            pointer = (*view.schema_pointer, *entry.pointer, key)
            message = (
                f"'{key}' is not a JSON Schema keyword: did you mean '{keyword}'? An unknown keyword is ignored, "
                f"so this schema has no '{keyword}'"
            )
            fixes: tuple[Fix, ...] = ()
            if keyword not in entry.node:
                fixes = (Fix(f"Rename to '{keyword}'", (RenameKey(pointer, keyword),), preferred=True),)
            severity = Severity.WARNING if keyword in ANNOTATIONS else None
            yield Finding(MISSPELT_KEYWORD.code, message, pointer, "key", severity, fixes=fixes, data={"key": key})


@functools.lru_cache(maxsize=4096)
def intended_keyword(key: str) -> str | None:
    """The keyword `key` is a misspelling of, or None: equal but for case or a missing `$`, or one edit away
    (a transposition counts as one), two for keywords of nine letters or more. Keys shorter than four letters
    are too often words of their own."""
    if key in DOLLAR_LESS:
        return DOLLAR_LESS[key]
    if key.startswith(("x-", "ui:", "x_")):
        return None  # an extension by convention
    lowered = key.lower()
    if lowered in _BY_LOWER:
        return _BY_LOWER[lowered]
    if len(key) < 4:
        return None
    best: tuple[int, str] | None = None
    for low, keyword in _FUZZY.items():
        if abs(len(low) - len(lowered)) > 2:
            continue
        allowed = 2 if len(low) >= 9 else 1
        distance = _edit_distance(lowered, low, allowed)
        if distance <= allowed and (best is None or distance < best[0]):
            best = (distance, keyword)
    return best[1] if best is not None else None


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (insertions, deletions, substitutions, adjacent transpositions), cut
    off once it exceeds `limit` (the caller only asks whether it is within it)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]
