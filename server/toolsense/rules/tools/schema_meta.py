"""A tool's schema against its dialect's meta-schema (each error placed inside the schema, worded for people).
The fast meta-schemas (2020-12 flattened, the plain-Python "certainly valid" pass) are `domain.meta_schema`'s."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

from ...document.jsontree import Pointer
from ...domain.meta_schema import flat_2020_12_meta_schema, quick_valid
from ...domain.tool import (
    JSON_TYPES,
)
from ...domain.validators import canonical, offline_registry, validator_class
from ...engine import regexes
from ...engine.findings import Finding, Fix, ReplaceValue
from ...jsonvalue import json_type_name, short_repr

# --- meta-schema ------------------------------------------------------------------------------------------
from .schema_codes import INVALID, TOO_COMPLEX, TYPE_ALIASES


@dataclass(frozen=True)
class MetaError:
    pointer: Pointer
    message: str
    fix_json: str | None = None
    fix_title: str = ""
    fix_safe: bool = False


@functools.lru_cache(maxsize=1024)
def _meta_errors(text: str, cls: type[Validator]) -> tuple[MetaError, ...]:
    """The meta-schema's errors for a schema (by content: check_schema costs ~3 ms for 2020-12)."""
    schema = json.loads(text)
    meta = _meta_validator(cls)
    found: list[MetaError] = []
    try:
        errors = sorted(meta.iter_errors(schema), key=lambda e: tuple(str(p) for p in e.absolute_path))
    except RecursionError:
        return (MetaError((), "The schema nests too deeply to check against its meta-schema"),)
    for error in errors:
        made = _meta_error(error)
        if made not in found:  # 2019-09's meta-schema reports an error once per vocabulary
            found.append(made)
    return tuple(found)


@functools.lru_cache(maxsize=16)
def _meta_validator(cls: type[Validator]) -> Validator:
    meta = flat_2020_12_meta_schema() if cls is Draft202012Validator else cls.META_SCHEMA
    return cls(meta, format_checker=_meta_formats(cls), registry=offline_registry())


def _is_pattern(instance: object) -> bool:
    return not isinstance(instance, str) or regexes.is_ecma(instance)


@functools.lru_cache(maxsize=16)
def _meta_formats(cls: type[Validator]) -> FormatChecker:
    """The dialect's format checker, with `regex` read as ECMA-262 by toolsense's own engine (Python's `re`
    rejects `\\p{L}`, `(?<name>…)`, `\\u{1F432}`, `[^]`, `\\cJ`, which V8 and toolsense run)."""
    checker = FormatChecker(formats=())
    checker.checkers = {**cls.FORMAT_CHECKER.checkers, "regex": (_is_pattern, ())}
    return checker


def _keyword(path: Pointer) -> str:
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return "schema"


def _meta_error(error: ValidationError) -> MetaError:
    path: Pointer = tuple(error.absolute_path)
    keyword = _keyword(path)
    instance = error.instance
    value = error.validator_value
    found = "null" if instance is None else f"{json_type_name(instance)} {short_repr(instance, 40)}"
    if error.validator == "type":
        expected = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
        if sorted(expected) == ["boolean", "object"]:
            message = f"Expected a schema (an object, or true/false) at '{keyword}', found {found}"
            if isinstance(instance, str) and instance.strip().lower() in ("true", "false"):
                replacement = instance.strip().lower()
                return MetaError(path, message, replacement, f"Use {replacement}", True)
            if isinstance(instance, str) and (instance in JSON_TYPES or instance.lower() in TYPE_ALIASES):
                kind = instance if instance in JSON_TYPES else TYPE_ALIASES[instance.lower()]
                replacement = json.dumps({"type": kind})
                return MetaError(
                    path, message + f'. Did you mean {{"type": "{kind}"}}?', replacement, f"Use {replacement}"
                )
            return MetaError(path, message)
        where = f"Entries of '{_keyword(path[:-1])}'" if path and isinstance(path[-1], int) else f"'{keyword}'"
        message = f"{where} must be {' or '.join(article(e) for e in expected)}, found {found}"
        coerced = _coerce(instance, expected)
        if coerced is not None:
            return MetaError(path, message, coerced, f"Use {coerced}", True)
        return MetaError(path, message)
    if error.validator == "uniqueItems":
        return MetaError(path, f"'{keyword}' lists the same entry more than once")
    if error.validator == "minItems":
        return MetaError(path, f"'{keyword}' must have at least {value} entr{'y' if value == 1 else 'ies'}")
    if error.validator == "minimum":
        return MetaError(path, f"'{keyword}' must be at least {value}, found {short_repr(instance)}")
    if error.validator == "exclusiveMinimum":
        return MetaError(path, f"'{keyword}' must be greater than {value}, found {short_repr(instance)}")
    if error.validator == "format" and value == "regex":
        return MetaError(path, f"'{keyword}' is not a valid regular expression: {short_repr(instance)}")
    if error.validator == "enum":
        allowed = ", ".join(short_repr(v) for v in value[:12]) if isinstance(value, list) else str(value)
        return MetaError(path, f"'{keyword}' must be one of {allowed}, found {short_repr(instance)}")
    if error.validator in ("anyOf", "oneOf") and keyword == "type":
        return MetaError(path, f"'type' must be a type name or a list of type names, found {found}")
    message = error.message if len(error.message) <= 160 else error.message[:159] + "…"
    return MetaError(path, f"Invalid '{keyword}': {message}")


def article(kind: str) -> str:
    return {"array": "an array", "object": "an object", "integer": "an integer"}.get(kind, f"a {kind}")


def _coerce(instance: Any, expected: list[str]) -> str | None:
    if not isinstance(instance, str):
        return None
    text = instance.strip()
    if "boolean" in expected and text.lower() in ("true", "false"):
        return text.lower()
    if "integer" in expected or "number" in expected:
        try:
            number = float(text)
        except ValueError:
            return None
        if "integer" in expected and number.is_integer():
            return str(int(number))
        if "number" in expected and number == number and abs(number) != float("inf"):
            return text
    return None


def with_known_types(schema: dict[str, Any], places: list[Pointer], findings: list[Finding]) -> dict[str, Any]:
    """A copy with unknown type names replaced (by the right name, else "string"), so the meta-schema check
    does not report again what unknown-type-name already said."""
    if not places:
        return schema
    patched: dict[str, Any] = json.loads(json.dumps(schema))
    for place, finding in zip(places, findings, strict=True):
        parent: Any = patched
        for part in place[:-1]:
            parent = parent[part]
        parent[place[-1]] = finding.data.get("type", "string")
    return patched


def meta_findings(schema: dict[str, Any], base: Pointer, dialect: str) -> Iterator[Finding]:
    cls = validator_class(schema, dialect)
    if quick_valid(schema, cls):
        return
    try:
        text = canonical(schema)
    except (RecursionError, ValueError):
        yield Finding(TOO_COMPLEX.code, "The schema nests too deeply to check", base, "key")
        return
    draft = _draft_name(cls)
    for error in _meta_errors(text, cls):
        pointer = (*base, *error.pointer)
        fixes: tuple[Fix, ...] = ()
        if error.fix_json is not None:
            fixes = (Fix(error.fix_title, (ReplaceValue(pointer, error.fix_json),), error.fix_safe, True),)
        yield Finding(INVALID.code, f"{error.message} ({draft})", pointer, fixes=fixes)


def _draft_name(cls: type[Validator]) -> str:
    name = cls.__name__.removesuffix("Validator")
    return {
        "Draft3": "draft-03",
        "Draft4": "draft-04",
        "Draft6": "draft-06",
        "Draft7": "draft-07",
        "Draft201909": "2019-09",
        "Draft202012": "2020-12",
    }.get(name, name)
