"""Validating a JSON value (an input example, a tool call's input) against a tool's JSON Schema.

jsonschema errors become `ValidationIssue`s in pydantic's vocabulary (`extra_forbidden`, `missing`, `int_type`,
`enum`, …) so `validation.schema_findings` words and places them exactly as it does for models; `anyOf`/`oneOf`
errors are narrowed to the branch the value was meant for (pydantic's `X | None`). The validators themselves
(offline, bounded) are `validators`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.exceptions import UnknownType, ValidationError
from jsonschema.protocols import Validator
from referencing.exceptions import Unresolvable

from ..engine.findings import Finding
from ..engine.schemas import certainly_valid, resolve_local_ref
from ..jsonvalue import JsonObject, JsonValue, short_repr
from ..models.errors import ValidationIssue
from .validation import schema_findings
from .validators import (
    CUT_SHORT,
    REGEX_BUDGET_MS,
    build_validator,
    key_matches,
    validator_class,
    with_stack_room,
)

_TYPE_ERROR_FOR = {
    "string": "string_type",
    "integer": "int_type",
    "number": "float_type",
    "boolean": "bool_type",
    "object": "dict_type",
    "array": "list_type",
    "null": "none_required",
}

_QUICK_KEYWORDS: dict[type[Validator], frozenset[str]] = {
    cls: frozenset(cls.VALIDATORS) for cls in (Draft7Validator, Draft202012Validator)
}


@dataclass(frozen=True)
class InstanceResult:
    issues: list[ValidationIssue]
    cut_short: list[str]


def instance_issues(
    schema: JsonValue, dialect: str | None, instance: JsonValue, regex_budget_ms: int = 200, formats: bool = False
) -> InstanceResult:
    """All the ways `instance` breaks `schema`, as pydantic-style issues; plus why the check stopped early.

    The validation gets the same stack wherever it is asked for: when the caller's stack is too deep to leave
    room for `MAX_NESTING` (a language server's is deeper than the CLI's), it runs on a fresh thread, so both
    give the same findings."""
    return with_stack_room(lambda: _instance_issues(schema, dialect, instance, regex_budget_ms, formats))


def _instance_issues(
    schema: JsonValue, dialect: str | None, instance: JsonValue, regex_budget_ms: int, formats: bool
) -> InstanceResult:
    notes: list[str] = []
    if not isinstance(schema, (dict, bool)):
        return InstanceResult([], ["the schema is not a JSON Schema object"])
    quick = _QUICK_KEYWORDS.get(validator_class(schema, dialect))
    if quick is not None and certainly_valid(schema, instance, quick):
        return InstanceResult([], [])  # the common case, without building a validator
    try:
        validator = build_validator(schema, dialect, formats)
    except Exception as error:  # an unusable schema: its own rules report why
        return InstanceResult([], [f"the schema cannot be used ({type(error).__name__})"])
    token = CUT_SHORT.set(notes)
    budget = REGEX_BUDGET_MS.set(regex_budget_ms)
    errors: list[ValidationError] = []
    try:
        errors.extend(validator.iter_errors(instance))
    except Unresolvable as unresolvable:
        notes.append(f"a $ref was not resolved and is never fetched ({_unresolvable_ref(unresolvable)})")
    except UnknownType as unknown:
        notes.append(f"the schema uses the unknown type {unknown.type!r}")
    except RecursionError:  # before `Exception`, which it is (a `$ref` cycle: #/$defs/a → #/$defs/b → #/$defs/a)
        notes.append("the schema or the value nests too deeply (a $ref cycle?)")
    except re.error as bad_pattern:
        notes.append(f"a pattern does not compile ({bad_pattern})")
    except Exception as other:  # jsonschema wraps referencing errors in a private class
        if "Unresolvable" in type(other).__name__ or "Referencing" in type(other).__name__:
            notes.append(f"a $ref was not resolved and is never fetched ({_unresolvable_ref(other)})")
        else:  # an invalid schema (`"maximum": null`, `"minimum": "5"`): jsonschema fails on it; TS210 says why
            notes.append(f"the schema is not valid JSON Schema, so it cannot be applied ({type(other).__name__})")
    finally:
        CUT_SHORT.reset(token)
        REGEX_BUDGET_MS.reset(budget)
    issues: list[ValidationIssue] = []
    seen: set[tuple[tuple[int | str, ...], str, str]] = set()
    for issue in _issues(errors, schema):
        key = (issue.loc, issue.error_type, issue.message)
        if key not in seen:
            seen.add(key)
            issues.append(issue)
    return InstanceResult(issues, list(dict.fromkeys(notes)))


def _unresolvable_ref(error: Exception) -> str:
    ref = getattr(error, "ref", None)
    if ref is None:
        inner = getattr(error, "_wrapped", None)
        ref = getattr(inner, "ref", None)
    return f"'{ref}'" if ref else str(error)


def _issues(errors: Iterable[ValidationError], root: JsonValue) -> Iterator[ValidationIssue]:
    for error in errors:
        yield from _issue(error, root)


def _loc(error: ValidationError) -> tuple[int | str, ...]:
    return tuple(error.absolute_path)


def _issue(error: ValidationError, root: JsonValue) -> Iterator[ValidationIssue]:
    keyword = error.validator
    loc = _loc(error)
    instance = error.instance
    value = error.validator_value
    if keyword in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, dict):
        for key in _extra_keys(instance, error.schema if isinstance(error.schema, dict) else {}):
            yield ValidationIssue((*loc, key), "Extra inputs are not permitted", "extra_forbidden", instance[key])
        return
    if keyword == "required" and isinstance(instance, dict) and isinstance(value, list):
        for name in value:
            if isinstance(name, str) and name not in instance:
                yield ValidationIssue((*loc, name), "Field required", "missing")
        return
    if keyword == "type":
        expected = [value] if isinstance(value, str) else [v for v in _list(value) if isinstance(v, str)]
        for kind in expected or ["object"]:
            error_type = _TYPE_ERROR_FOR.get(kind, "type_error")
            yield ValidationIssue(loc, f"Input should be a valid {kind}", error_type, instance, kind)
        return
    if keyword in ("enum", "const"):
        allowed = value if keyword == "enum" and isinstance(value, list) else [value]
        shown = ", ".join(short_repr(v) for v in allowed[:20])
        yield ValidationIssue(loc, f"Input should be {shown}", "enum", instance)
        return
    if keyword in ("anyOf", "oneOf") and error.context:
        narrowed = _narrow(error, root)
        if narrowed is not None:
            yield from narrowed
            return
    yield ValidationIssue(loc, _constraint_message(error), f"jsonschema_{keyword}", instance)


def _narrow(error: ValidationError, root: JsonValue) -> list[ValidationIssue] | None:
    """The errors of the branch the value was meant for; a type error when it fits no branch's type."""
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        index = sub.schema_path[0] if sub.schema_path else 0
        if isinstance(index, int):
            branches.setdefault(index, []).append(sub)
    base = len(_loc(error))
    shape_fits: list[tuple[int, list[ValidationError]]] = []
    expected: list[str] = []
    allowed: list[Any] = []
    for index in sorted(branches):
        subs = branches[index]
        at_root = [s for s in subs if len(_loc(s)) == base]
        mismatched = [s for s in at_root if s.validator in ("type", "enum", "const")]
        if mismatched:
            for sub in mismatched:
                if sub.validator == "type":
                    kinds = (
                        [sub.validator_value] if isinstance(sub.validator_value, str) else _list(sub.validator_value)
                    )
                    expected.extend(k for k in kinds if isinstance(k, str) and k not in expected)
                elif sub.validator == "enum" and isinstance(sub.validator_value, list):
                    allowed.extend(sub.validator_value)
                else:
                    allowed.append(sub.validator_value)
            continue
        shape_fits.append((index, subs))
    if error.validator == "oneOf" and not branches:
        return None
    if shape_fits:
        branches_schema = error.validator_value if isinstance(error.validator_value, list) else []
        keys = list(error.instance) if isinstance(error.instance, dict) else []

        def rank(entry: tuple[int, list[ValidationError]]) -> tuple[int, float]:
            index, subs = entry
            branch = branches_schema[index] if index < len(branches_schema) else None
            return len(subs), -_key_likeness(keys, branch, root)

        best = min(shape_fits, key=rank)[1]
        return list(_issues(best, root))
    loc = _loc(error)
    if expected:
        return [
            ValidationIssue(
                loc, f"Input should be a valid {kind}", _TYPE_ERROR_FOR.get(kind, "type_error"), error.instance, kind
            )
            for kind in expected
        ]
    if allowed:
        shown = ", ".join(short_repr(v) for v in allowed[:20])
        return [ValidationIssue(loc, f"Input should be {shown}", "enum", error.instance)]
    return None


def _key_likeness(keys: list[str], branch: Any, root: Any) -> float:
    """How well an object's keys fit a branch's properties (exact names 1, similar names their ratio)."""
    for _ in range(8):
        if isinstance(branch, dict) and isinstance(branch.get("$ref"), str) and "properties" not in branch:
            branch = resolve_local_ref(root, branch["$ref"])
        else:
            break
    properties = branch.get("properties") if isinstance(branch, dict) else None
    if not isinstance(properties, dict) or not keys:
        return 0.0
    score = 0.0
    for key in keys:
        if key in properties:
            score += 1.0
        else:
            score += max((difflib.SequenceMatcher(None, key, name).ratio() for name in properties), default=0.0)
    return score


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _extra_keys(instance: JsonObject, schema: JsonObject) -> list[str]:
    found = schema.get("properties")
    properties: JsonObject = found if isinstance(found, dict) else {}
    found = schema.get("patternProperties")
    patterns: JsonObject = found if isinstance(found, dict) else {}
    extras = []
    for key in instance:
        if key in properties:
            continue
        if any(isinstance(p, str) and key_matches(p, key) for p in patterns):
            continue
        extras.append(key)
    return extras


def _plural(count: Any, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _constraint_message(error: ValidationError) -> str:
    """pydantic's wording for the common constraints; jsonschema's otherwise."""
    keyword = error.validator
    value = error.validator_value
    messages: dict[str, Callable[[], str]] = {
        "minimum": lambda: f"Input should be greater than or equal to {short_repr(value)}",
        "exclusiveMinimum": lambda: f"Input should be greater than {short_repr(value)}",
        "maximum": lambda: f"Input should be less than or equal to {short_repr(value)}",
        "exclusiveMaximum": lambda: f"Input should be less than {short_repr(value)}",
        "multipleOf": lambda: f"Input should be a multiple of {short_repr(value)}",
        "minLength": lambda: f"String should have at least {_plural(value, 'character')}",
        "maxLength": lambda: f"String should have at most {_plural(value, 'character')}",
        "pattern": lambda: f"String should match pattern {short_repr(value)}",
        "minItems": lambda: f"List should have at least {_plural(value, 'item')}",
        "maxItems": lambda: f"List should have at most {_plural(value, 'item')}",
        "uniqueItems": lambda: "List items should be unique",
        "minProperties": lambda: f"Object should have at least {_plural(value, 'property')}".replace(
            "propertys", "properties"
        ),
        "maxProperties": lambda: f"Object should have at most {_plural(value, 'property')}".replace(
            "propertys", "properties"
        ),
        "format": lambda: f"Input should be a valid {value}",
        "not": lambda: "Input should not match the schema under 'not'",
        "oneOf": lambda: "Input should match exactly one of the allowed forms",
        "anyOf": lambda: "Input should match one of the allowed forms",
        "contains": lambda: "List should contain an item matching 'contains'",
        "dependentRequired": lambda: str(error.message),
        "false": lambda: "No value is allowed here (the schema is false)",
    }
    maker = messages.get(str(keyword))
    if maker is not None:
        made: str = maker()
        return made
    return error.message if len(error.message) <= 160 else error.message[:159] + "…"


# --- issues → findings, in a family's own codes ----------------------------------------------------------

STRUCTURE_KINDS = {
    "TS101": "unknown",
    "TS102": "missing",
    "TS103": "type",
    "TS104": "enum",
    "TS105": "coercible",
    "TS106": "constraint",
    "TS107": "format",
}


def recode(findings: Iterable[Finding], codes: dict[str, str]) -> list[Finding]:
    """The structure rules' findings (TS101–TS106) under another family's codes (`codes`: kind → code)."""
    result = []
    for finding in findings:
        kind = STRUCTURE_KINDS.get(finding.code)
        result.append(replace(finding, code=codes[kind]) if kind in codes else finding)
    return result


def value_findings(
    schema: JsonValue,
    dialect: str | None,
    value: JsonValue,
    subject: str,
    codes: dict[str, str],
    regex_budget_ms: int,
    formats: bool = False,
) -> tuple[list[Finding], list[str]]:
    """Findings (pointers relative to value) for every way value breaks schema; plus cut-short notes.
    formats: assert the formats of `engine.formats` (values a model is shown or sends)."""
    result = instance_issues(schema, dialect, value, regex_budget_ms, formats)
    root = schema if isinstance(schema, dict) else {}
    findings = list(schema_findings(result.issues, value, root, subject))
    return recode(findings, codes), result.cut_short
