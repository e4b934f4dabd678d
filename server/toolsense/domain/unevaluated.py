"""`unevaluatedProperties` with toolsense's pattern matching.

jsonschema's keyword finds the keys `patternProperties` evaluated with Python's `re` directly, in its own module;
toolsense does not re-point `re` there (that would change every other user of jsonschema in the process). So
this is jsonschema 4.26's `find_evaluated_property_keys_by_schema` and `unevaluatedProperties` (MIT licence,
Copyright (c) 2013 Julian Berman), with one change: a key matches a pattern as ECMA-262 says (`key_matches`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from jsonschema._utils import extras_msg
from jsonschema.exceptions import ValidationError

from ..jsonvalue import JsonValue

KeyMatches = Callable[[str, str], bool]


def _valid(errors: Iterator[ValidationError]) -> bool:
    return next(errors, None) is None


def evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any, key_matches: KeyMatches) -> list[str]:
    """The keys of instance that the schema's keywords evaluate (properties, patternProperties, the in-place
    applicators that pass, `$ref` and `$dynamicRef` targets…)."""
    if validator.is_type(schema, "boolean"):
        return []
    found: list[str] = []
    for keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(keyword)
        if ref is not None:
            resolved = validator._resolver.lookup(ref)
            inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            found.extend(evaluated_keys(inner, instance, resolved.contents, key_matches))
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        found += properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if (subschema := schema.get(keyword)) is not None:
            found += (key for key, value in instance.items() if _valid(validator.descend(value, subschema)))
    patterns = schema.get("patternProperties")
    if isinstance(patterns, dict):
        found += (key for key in instance for pattern in patterns if key_matches(pattern, key))
    dependent = schema.get("dependentSchemas")
    if isinstance(dependent, dict):
        for name, subschema in dependent.items():
            if name in instance:
                found += evaluated_keys(validator, instance, subschema, key_matches)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if _valid(validator.descend(instance, subschema)):
                found += evaluated_keys(validator, instance, subschema, key_matches)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            found += evaluated_keys(validator, instance, schema["if"], key_matches)
            if "then" in schema:
                found += evaluated_keys(validator, instance, schema["then"], key_matches)
        elif "else" in schema:
            found += evaluated_keys(validator, instance, schema["else"], key_matches)
    return found


def unevaluated_properties(key_matches: KeyMatches) -> Callable[..., Iterator[ValidationError]]:
    """The `unevaluatedProperties` keyword, matching `patternProperties` with key_matches."""

    def keyword(validator: Any, unevaluated: JsonValue, instance: JsonValue, schema: Any) -> Iterator[ValidationError]:
        if not isinstance(instance, dict):
            return
        evaluated = set(evaluated_keys(validator, instance, schema, key_matches))
        rejected = [
            key
            for key in instance
            if key not in evaluated
            and not _valid(validator.descend(instance[key], unevaluated, path=key, schema_path=key))
        ]
        if rejected and unevaluated is False:
            listed, verb = extras_msg(sorted(rejected, key=str))
            yield ValidationError(f"Unevaluated properties are not allowed ({listed} {verb} unexpected)")
        elif rejected:
            listed, verb = extras_msg(rejected)
            yield ValidationError(
                f"Unevaluated properties are not valid under the given schema ({listed} {verb} unevaluated and invalid)"
            )

    return keyword
