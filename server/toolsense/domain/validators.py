"""JSON Schema validators that are safe to run on anything an editor holds.

- No `$ref` is ever fetched: the registry's retrieve function refuses, and the check reports it was cut short.
- Patterns are ECMA-262 and cannot hang the caller (`engine.regexes`): RE2 (linear time) for the common subset,
  the backtracking `regex` engine under a time budget (`limits.regex_timeout_ms`) for the rest; when the budget
  runs out, or no engine can run the pattern, the check reports that it was cut short. Every keyword that matches
  a pattern (`pattern`, `patternProperties`, `additionalProperties`, `unevaluatedProperties`, the `regex`
  format) is toolsense's own in these validators only: jsonschema's modules are left as they are, so other users
  of jsonschema in the process keep its behaviour.
- `format` is asserted only when asked (`formats=True`: values a model is shown or sends), for the subset in
  `engine.formats`.
- Nesting is bounded (`MAX_NESTING`) and a validation gets the same stack however deep its caller's is.
- Validators are built once per schema content (`functools.lru_cache` on the canonical JSON text).
"""

from __future__ import annotations

import contextvars
import functools
import json
import sys
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

import jsonschema_specifications  # type: ignore[import-untyped]
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker
from jsonschema import _keywords as jsonschema_keywords
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend, validator_for
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource

from ..engine import regexes
from ..engine.formats import ASSERTED, conforms
from ..jsonvalue import JsonObject, JsonValue, short_repr
from .unevaluated import unevaluated_properties

T = TypeVar("T")

CUT_SHORT: ContextVar[list[str] | None] = ContextVar("toolsense_cut_short", default=None)
REGEX_BUDGET_MS: ContextVar[int] = ContextVar("toolsense_regex_budget", default=200)


def validator_class(schema: JsonValue, dialect: str | None) -> type[Validator]:
    """`$schema` when present, else 2020-12 for MCP and draft-07 for the other dialects."""
    default: type[Validator] = Draft202012Validator if dialect == "mcp" else Draft7Validator
    if isinstance(schema, dict) and isinstance(schema.get("$schema"), str):
        found: type[Validator] = validator_for(schema, default=default)
        return found
    return default


def canonical(value: JsonValue) -> str:
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
    return regexes.search(pattern, text, REGEX_BUDGET_MS.get())


def _not_evaluated(pattern: str, what: str) -> None:
    """Note why a match was not evaluated: the budget ran out, or no engine can run the pattern."""
    notes = CUT_SHORT.get()
    if notes is None:
        return
    clock = regexes.CLOCK.get()
    spent = clock.spent_by() if clock is not None else None
    timed_out = f"matching {what} {short_repr(pattern)} took longer than the regex time budget"
    if spent is not None:
        if spent.announce():  # said once per budget; the matches after it are skipped silently
            notes[:] = [note for note in notes if note != timed_out]
            notes.append(
                f"{timed_out}, and the regex time budget of {spent.scope} ({spent.total_ms:g} ms) is spent: its "
                "remaining patterns were not matched"
            )
    elif regexes.compiles(pattern):
        notes.append(timed_out)
    else:
        notes.append(f"{what} {short_repr(pattern)} is not an ECMA-262 regular expression toolsense can run")


def _pattern(validator: Validator, pattern: Any, instance: JsonValue, schema: JsonValue) -> Iterator[ValidationError]:
    if not isinstance(instance, str) or not isinstance(pattern, str):
        return
    found = safe_search(pattern, instance)
    if found is None:
        _not_evaluated(pattern, "pattern")
        return
    if not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def key_matches(pattern: str, key: str) -> bool:
    """Whether a property name matches a `patternProperties` pattern, as ECMA-262 reads it, with the same time
    budget. Not evaluated (cut short, or not runnable) → noted, and taken as a match: nothing is reported that
    was not checked."""
    found = safe_search(pattern, key)
    if found is None:
        _not_evaluated(pattern, "property names against")
        return True
    return found


def _pattern_properties(
    validator: Any, patterns: Any, instance: JsonValue, schema: JsonValue
) -> Iterator[ValidationError]:
    if not isinstance(instance, dict) or not isinstance(patterns, dict):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if isinstance(pattern, str) and key_matches(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, extra: JsonValue, instance: JsonValue, schema: JsonValue
) -> Iterator[ValidationError]:
    if not isinstance(instance, dict) or not isinstance(schema, dict):
        return
    found = schema.get("properties")
    properties: JsonObject = found if isinstance(found, dict) else {}
    found = schema.get("patternProperties")
    patterns: JsonObject = found if isinstance(found, dict) else {}
    extras = [
        key
        for key in instance
        if key not in properties and not any(isinstance(p, str) and key_matches(p, key) for p in patterns)
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
    def counted(validator: Any, value: JsonValue, instance: JsonValue, schema: JsonValue) -> Iterator[ValidationError]:
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
    if cls.VALIDATORS.get("unevaluatedProperties") is jsonschema_keywords.unevaluatedProperties:
        keywords["unevaluatedProperties"] = unevaluated_properties(key_matches)
    for name, keyword in cls.VALIDATORS.items():
        if name in _APPLICATORS:
            keywords[name] = _nested(keywords.get(name) or keyword)
    guarded: type[Validator] = extend(cls, keywords)  # type: ignore[no-untyped-call]
    return guarded


def _asserted_format(value: object, format_name: str) -> bool:
    return conforms(format_name, value)


@functools.lru_cache(maxsize=1)
def asserted_formats() -> FormatChecker:
    """The formats toolsense asserts (`engine.formats`), each by its own checker (`regex` by toolsense's
    ECMA-262 engine)."""
    checker = FormatChecker(formats=())
    for name in ASSERTED:
        checker.checks(name)(functools.partial(_asserted_format, format_name=name))
    return checker


@functools.lru_cache(maxsize=512)
def _validator(text: str, dialect: str | None, formats: bool) -> Validator:
    schema = json.loads(text)
    cls = validator_class(schema, dialect)
    checker = asserted_formats() if formats else None
    return _guarded_class(cls)(schema, registry=offline_registry(), format_checker=checker)


def build_validator(schema: JsonValue, dialect: str | None, formats: bool = False) -> Validator:
    """A bounded, offline validator of the schema; formats: assert `engine.formats.ASSERTED`."""
    return _validator(canonical(schema), dialect, formats)


# --- the stack a validation needs ------------------------------------------------------------------------


_FRAMES_PER_NESTING = 5
_STACK_NEEDED = MAX_NESTING * _FRAMES_PER_NESTING + 200
"""Python frames a validation may use: its nesting budget, and what the rest of it calls."""


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

    context = contextvars.copy_context()  # the caller's budgets (`regexes.CLOCK`) hold on the thread too
    worker = threading.Thread(target=context.run, args=(run,), name="toolsense-validate", daemon=True)
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
