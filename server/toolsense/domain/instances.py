"""Validating a JSON value (an input example, a tool call's input) against a tool's JSON Schema.

- jsonschema errors become `ValidationIssue`s in pydantic's vocabulary (`extra_forbidden`, `missing`,
  `int_type`, `enum`, …) so `structure.schema_findings` words and places them exactly as it does for models;
  `anyOf`/`oneOf` errors are narrowed to the branch the value was meant for (pydantic's `X | None`).
- No `$ref` is ever fetched: the registry's retrieve function refuses, and the check reports it was cut short.
- Patterns cannot hang the caller (`engine.regexes`): RE2 (linear time) for the common subset, the backtracking
  `regex` engine under a time budget (`limits.regex_timeout_ms`) for the rest; when the budget runs out the check
  reports that it was cut short. Every regex use of jsonschema's keyword code goes through it.
- Validators are built once per schema content (`functools.lru_cache` on the canonical JSON text).
"""

from __future__ import annotations

import functools
import importlib
import json
import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

import jsonschema_specifications  # type: ignore[import-untyped]
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.exceptions import UnknownType, ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend, validator_for
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable

from ..engine import regexes
from ..engine.schemas import certainly_valid
from ..models.errors import ValidationIssue
from .validation import schema_findings

_TYPE_ERROR_FOR = {
    "string": "string_type",
    "integer": "int_type",
    "number": "float_type",
    "boolean": "bool_type",
    "object": "dict_type",
    "array": "list_type",
    "null": "none_required",
}

T = TypeVar("T")

_CUT_SHORT: ContextVar[list[str] | None] = ContextVar("toolsense_cut_short", default=None)
_REGEX_BUDGET_MS: ContextVar[int] = ContextVar("toolsense_regex_budget", default=200)


def validator_class(schema: Any, dialect: str | None) -> type[Validator]:
    """`$schema` when present, else 2020-12 for MCP and draft-07 for the other dialects."""
    default: type[Validator] = Draft202012Validator if dialect == "mcp" else Draft7Validator
    if isinstance(schema, dict) and isinstance(schema.get("$schema"), str):
        found: type[Validator] = validator_for(schema, default=default)
        return found
    return default


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=True)


# --- no network, ever ------------------------------------------------------------------------------------


def _refuse(uri: str) -> Resource[Any]:
    raise NoSuchResource(uri)


@functools.lru_cache(maxsize=1)
def offline_registry() -> Registry[Any]:
    """A retrieve function that refuses everything. (jsonschema adds the bundled meta-schemas itself, for each
    validator it builds; combining them in here too would only make every build slower.)"""
    registry: Registry[Any] = Registry(retrieve=_refuse)  # type: ignore[call-arg]
    return registry


@functools.lru_cache(maxsize=1)
def meta_registry() -> Registry[Any]:
    """The bundled meta-schemas (offline), for reading them."""
    return offline_registry().combine(jsonschema_specifications.REGISTRY)


# --- patterns that cannot hang -------------------------------------------------------------------------


def risky_pattern(pattern: str) -> bool:
    """True when the pattern cannot run on the linear-time engine (back-references, lookaround, atomic groups…)
    and so is matched by the backtracking engine under the time budget."""
    return regexes.compiles(pattern) and not regexes.runs_in_linear_time(pattern)


def needs_budget(pattern: str, text: str) -> bool:
    """Whether matching runs under the time budget (the text's length does not matter: RE2 is linear in it)."""
    return risky_pattern(pattern)


def safe_search(pattern: str, text: str) -> bool | None:
    """`RegExp(pattern).test(text)` that never hangs: linear time on RE2, or the backtracking engine under the
    time budget (None when the budget ran out)."""
    return regexes.search(pattern, text, _REGEX_BUDGET_MS.get())


class _BoundedRe:
    """What jsonschema's keyword modules see as `re`: their own `re.search` calls (`patternProperties`,
    `additionalProperties` next to `patternProperties`, `unevaluatedProperties`, and `pattern` in validators
    built anywhere in toolsense) go through `safe_search`. A match cut short counts as a match (nothing is
    reported that was not checked) and is noted as cut short."""

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    @staticmethod
    def search(pattern: Any, string: Any, flags: int = 0) -> Any:
        if flags or not isinstance(pattern, str) or not isinstance(string, str):
            return re.search(pattern, string, flags)
        found = safe_search(pattern, string)
        if found is None:
            notes = _CUT_SHORT.get()
            if notes is not None:
                notes.append(f"matching pattern {_short(pattern)} took longer than the regex time budget")
            return True
        return True if found else None


def _bound_jsonschema_regexes() -> None:
    for name in ("jsonschema._keywords", "jsonschema._utils", "jsonschema._legacy_keywords"):
        try:
            module = importlib.import_module(name)
        except ImportError:  # pragma: no cover - another jsonschema layout: `pattern` is still guarded below
            continue
        if getattr(module, "re", None) is re:
            module.re = _BoundedRe()  # type: ignore[attr-defined]


_bound_jsonschema_regexes()


def _pattern(validator: Validator, pattern: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not isinstance(instance, str) or not isinstance(pattern, str):
        return
    found = safe_search(pattern, instance)
    if found is None:
        notes = _CUT_SHORT.get()
        if notes is not None:
            notes.append(f"matching pattern {_short(pattern)} took longer than the regex time budget")
        return
    if not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _key_matches(pattern: str, key: str) -> bool:
    """`re.search(pattern, key)` for patternProperties, with the same time budget (cut short → a match)."""
    found = safe_search(pattern, key)
    if found is None:
        notes = _CUT_SHORT.get()
        if notes is not None:
            notes.append(f"matching property names against {_short(pattern)} took longer than the regex time budget")
        return True
    return found


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not isinstance(instance, dict) or not isinstance(patterns, dict):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if isinstance(pattern, str) and _key_matches(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not isinstance(instance, dict) or not isinstance(schema, dict):
        return
    found = schema.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    found = schema.get("patternProperties")
    patterns: dict[str, Any] = found if isinstance(found, dict) else {}
    extras = [
        key
        for key in instance
        if key not in properties and not any(isinstance(p, str) and _key_matches(p, key) for p in patterns)
    ]
    if isinstance(extra, dict):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif extra is False and extras:
        yield ValidationError(f"Additional properties are not allowed ({', '.join(map(repr, extras))} unexpected)")


MAX_NESTING = 150
"""The deepest a validation nests subschema applications (`$ref`, `not`, `properties`…; ~4 Python frames
each). A fixed budget, reached well before Python's recursion limit wherever the validation starts: a `$ref`
cycle that never moves into the value (`{"not": {"$ref": "#/properties/x"}}`) then stops the same way in the
CLI and in the language server, whose stack is deeper — never inside the Rust `referencing` internals, where a
RecursionError becomes a panic printed to stderr."""

_APPLICATORS = frozenset(
    {
        "$ref", "$dynamicRef", "$recursiveRef", "not", "allOf", "anyOf", "oneOf", "if", "then", "else",
        "properties", "patternProperties", "additionalProperties", "items", "prefixItems", "additionalItems",
        "contains", "dependentSchemas", "dependencies", "propertyNames", "unevaluatedItems",
        "unevaluatedProperties", "extends",
    }
)  # fmt: skip

_NESTING: ContextVar[list[int] | None] = ContextVar("toolsense_nesting", default=None)


class NestingTooDeep(RecursionError):
    """A validation nested deeper than `MAX_NESTING` (a RecursionError: callers treat both alike)."""


def _nested(keyword: Callable[..., Any]) -> Callable[..., Iterator[ValidationError]]:
    """A keyword that counts how deeply applications nest while it runs (its errors are produced lazily, so
    the count is held around each step, not around the call)."""

    @functools.wraps(keyword)
    def counted(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        depth = _NESTING.get()
        if depth is None:
            depth = [0]
            _NESTING.set(depth)
        depth[0] += 1
        try:
            if depth[0] > MAX_NESTING:
                raise NestingTooDeep(f"subschemas nest more than {MAX_NESTING} deep")
            errors = iter(keyword(validator, value, instance, schema) or ())
        finally:
            depth[0] -= 1
        while True:
            depth[0] += 1
            try:
                if depth[0] > MAX_NESTING:
                    raise NestingTooDeep(f"subschemas nest more than {MAX_NESTING} deep")
                error = next(errors, None)
            finally:
                depth[0] -= 1
            if error is None:
                return
            yield error

    return counted


@functools.lru_cache(maxsize=16)
def _guarded_class(cls: type[Validator]) -> type[Validator]:
    """The dialect's validator with every regex use under the time budget (`pattern`, `patternProperties` and
    the pattern matching inside `additionalProperties`) and subschema nesting bounded (`MAX_NESTING`)."""
    keywords: dict[str, Callable[..., Any]] = {"pattern": _pattern, "patternProperties": _pattern_properties}
    if "additionalProperties" in cls.VALIDATORS:
        keywords["additionalProperties"] = _additional_properties
    for name, keyword in cls.VALIDATORS.items():
        if name in _APPLICATORS:
            keywords[name] = _nested(keywords.get(name) or keyword)
    guarded: type[Validator] = extend(cls, keywords)  # type: ignore[no-untyped-call]
    return guarded


@functools.lru_cache(maxsize=512)
def _validator(text: str, dialect: str | None) -> Validator:
    schema = json.loads(text)
    cls = validator_class(schema, dialect)
    return _guarded_class(cls)(schema, registry=offline_registry())


def build_validator(schema: Any, dialect: str | None) -> Validator:
    return _validator(canonical(schema), dialect)


# --- errors → issues -------------------------------------------------------------------------------------


_QUICK_KEYWORDS: dict[type[Validator], frozenset[str]] = {
    cls: frozenset(cls.VALIDATORS) for cls in (Draft7Validator, Draft202012Validator)
}


@dataclass(frozen=True)
class InstanceResult:
    issues: list[ValidationIssue]
    cut_short: list[str]


_FRAMES_PER_NESTING = 5
_STACK_NEEDED = MAX_NESTING * _FRAMES_PER_NESTING + 200
"""Python frames a validation may use: its nesting budget, and what the rest of it calls."""


def instance_issues(schema: Any, dialect: str | None, instance: Any, regex_budget_ms: int = 200) -> InstanceResult:
    """All the ways `instance` breaks `schema`, as pydantic-style issues; plus why the check stopped early.

    The validation gets the same stack wherever it is asked for: when the caller's stack is too deep to leave
    room for `MAX_NESTING` (a language server's is deeper than the CLI's), it runs on a fresh thread, so both
    give the same findings."""
    return with_stack_room(lambda: _instance_issues(schema, dialect, instance, regex_budget_ms))


def with_stack_room(work: Callable[[], T]) -> T:
    """`work()` here when the stack leaves room for a validation (`_STACK_NEEDED` frames), else on a fresh
    thread: a validation behaves the same however deep its caller's stack is."""
    if _stack_depth() + _STACK_NEEDED <= sys.getrecursionlimit():
        return work()
    results: list[T] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            results.append(work())
        except BaseException as error:  # handed to the caller, as if it had run here
            failures.append(error)

    worker = threading.Thread(target=run, name="toolsense-validate", daemon=True)
    worker.start()
    worker.join()
    if failures:
        raise failures[0]
    return results[0]


def _stack_depth() -> int:
    depth = 0
    frame: Any = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


def _instance_issues(schema: Any, dialect: str | None, instance: Any, regex_budget_ms: int) -> InstanceResult:
    notes: list[str] = []
    if not isinstance(schema, (dict, bool)):
        return InstanceResult([], ["the schema is not a JSON Schema object"])
    quick = _QUICK_KEYWORDS.get(validator_class(schema, dialect))
    if quick is not None and certainly_valid(schema, instance, quick):
        return InstanceResult([], [])  # the common case, without building a validator
    try:
        validator = build_validator(schema, dialect)
    except Exception as error:  # an unusable schema: its own rules report why
        return InstanceResult([], [f"the schema cannot be used ({type(error).__name__})"])
    token = _CUT_SHORT.set(notes)
    budget = _REGEX_BUDGET_MS.set(regex_budget_ms)
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
        _CUT_SHORT.reset(token)
        _REGEX_BUDGET_MS.reset(budget)
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


def _issues(errors: Iterable[ValidationError], root: Any) -> Iterator[ValidationIssue]:
    for error in errors:
        yield from _issue(error, root)


def _loc(error: ValidationError) -> tuple[int | str, ...]:
    return tuple(error.absolute_path)


def _issue(error: ValidationError, root: Any) -> Iterator[ValidationIssue]:
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
        shown = ", ".join(_short(v) for v in allowed[:20])
        yield ValidationIssue(loc, f"Input should be {shown}", "enum", instance)
        return
    if keyword in ("anyOf", "oneOf") and error.context:
        narrowed = _narrow(error, root)
        if narrowed is not None:
            yield from narrowed
            return
    yield ValidationIssue(loc, _constraint_message(error), f"jsonschema_{keyword}", instance)


def _narrow(error: ValidationError, root: Any) -> list[ValidationIssue] | None:
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
        shown = ", ".join(_short(v) for v in allowed[:20])
        return [ValidationIssue(loc, f"Input should be {shown}", "enum", error.instance)]
    return None


def _key_likeness(keys: list[str], branch: Any, root: Any) -> float:
    """How well an object's keys fit a branch's properties (exact names 1, similar names their ratio)."""
    import difflib

    from ..engine.schemas import resolve_local_ref

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


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _extra_keys(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    found = schema.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    found = schema.get("patternProperties")
    patterns: dict[str, Any] = found if isinstance(found, dict) else {}
    extras = []
    for key in instance:
        if key in properties:
            continue
        if any(isinstance(p, str) and _key_matches(p, key) for p in patterns):
            continue
        extras.append(key)
    return extras


def _short(value: Any, limit: int = 60) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plural(count: Any, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _constraint_message(error: ValidationError) -> str:
    """pydantic's wording for the common constraints (seed 002); jsonschema's otherwise."""
    keyword = error.validator
    value = error.validator_value
    messages: dict[str, Callable[[], str]] = {
        "minimum": lambda: f"Input should be greater than or equal to {_short(value)}",
        "exclusiveMinimum": lambda: f"Input should be greater than {_short(value)}",
        "maximum": lambda: f"Input should be less than or equal to {_short(value)}",
        "exclusiveMaximum": lambda: f"Input should be less than {_short(value)}",
        "multipleOf": lambda: f"Input should be a multiple of {_short(value)}",
        "minLength": lambda: f"String should have at least {_plural(value, 'character')}",
        "maxLength": lambda: f"String should have at most {_plural(value, 'character')}",
        "pattern": lambda: f"String should match pattern {_short(value)}",
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
}


def recode(findings: Iterable[Any], codes: dict[str, str]) -> list[Any]:
    """The structure rules' findings (TS101–TS106) under another family's codes (`codes`: kind → code)."""
    from dataclasses import replace

    result = []
    for finding in findings:
        kind = STRUCTURE_KINDS.get(finding.code)
        result.append(replace(finding, code=codes[kind]) if kind in codes else finding)
    return result


def value_findings(
    schema: Any,
    dialect: str | None,
    value: Any,
    subject: str,
    codes: dict[str, str],
    regex_budget_ms: int,
) -> tuple[list[Any], list[str]]:
    """Findings (pointers relative to value) for every way value breaks schema; plus cut-short notes."""
    result = instance_issues(schema, dialect, value, regex_budget_ms)
    root = schema if isinstance(schema, dict) else {}
    findings = list(schema_findings(result.issues, value, root, subject))
    return recode(findings, codes), result.cut_short
