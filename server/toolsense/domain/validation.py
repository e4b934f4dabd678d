"""Validation against a pydantic model, every error at once, each on its exact place.

One mapping from pydantic's `loc` to pointers and one wording (path, message, received type and value), shared by
every rule family that validates against a pydantic model or a JSON Schema. Also the placeholder text and snippets
that completion and quick fixes insert (the model's JSON Schema with enum member names is `models.model_schema`'s).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

from ..engine.equality import same_value_sets
from ..engine.findings import Finding, Fix, InsertMembers, RemoveMember, RenameKey, ReplaceValue
from ..engine.schemas import closest, enum_values, json_types, properties_of, subschemas_at
from ..jsonvalue import JsonValue, json_type_name, short_repr
from ..models.base import ENUM_SCHEMAS
from ..models.errors import ValidationIssue, coercion_for, validation_issues
from ..models.model_schema import model_schema as model_schema  # where features and rules find it
from .tool import value_at

# The codes of the structure rules (declared with their wording in `rules.structure`).
UNKNOWN = "TS101"
MISSING = "TS102"
WRONG_TYPE = "TS103"
BAD_ENUM = "TS104"
COERCIBLE = "TS105"
CONSTRAINT = "TS106"
FORMAT = "TS107"

_TYPE_ERRORS = {
    "string_type": "string",
    "int_type": "integer",
    "int_parsing": "integer",
    "float_type": "number",
    "float_parsing": "number",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "dict_type": "object",
    "model_type": "object",
    "model_attributes_type": "object",
    "list_type": "array",
    "none_required": "null",
    "int_from_float": "integer",
}
_ENUM_ERRORS = frozenset({"enum", "literal_error"})


def _real_pointer(value: Any, loc: tuple[int | str, ...]) -> tuple[tuple[str | int, ...], list[str]]:
    """pydantic's loc walked against the value: parts that are not keys/indices are union tags."""
    pointer: list[str | int] = []
    tags: list[str] = []
    node = value
    for index, part in enumerate(loc):
        is_key = isinstance(node, dict) and isinstance(part, str) and part in node
        if is_key or (isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)):
            pointer.append(part)
            node = node[part]
        elif index == len(loc) - 1 and isinstance(part, str) and isinstance(node, dict):
            pointer.append(part)  # a missing or unknown key
        else:
            tags.append(str(part))
    return tuple(pointer), tags


def _tag_note(tags: list[str]) -> str:
    """Say which form of a union was assumed (conditions are told apart by their keys); the innermost counts."""
    for tag in reversed(tags):
        if tag == "group":
            return " (read as a condition group because it has 'clauses' or 'operator')"
        if tag == "clause":
            return " (read as a condition clause: it has no 'clauses' or 'operator')"
    return ""


def placeholder_for(schemas: list[dict[str, Any]]) -> str:
    """A JSON placeholder value for a property with these schemas."""
    values = enum_values(schemas)
    if values:
        return json.dumps(values[0])
    kinds = json_types(schemas)
    for kind, text in (
        ("string", '""'),
        ("object", "{}"),
        ("array", "[]"),
        ("integer", "0"),
        ("number", "0"),
        ("boolean", "false"),
    ):
        if kind in kinds:
            return text
    if any("properties" in s for s in schemas):
        return "{}"
    return '""'


def snippet_for(schemas: list[dict[str, Any]], index: int) -> str:
    values = enum_values(schemas)
    if values and all(isinstance(v, str) for v in values):
        choices = ",".join(str(v).replace(",", "\\,").replace("|", "\\|") for v in values[:20])
        return f'"${{{index}|{choices}|}}"'
    text = placeholder_for(schemas)
    if text == '""':
        return f'"${index}"'
    if text in ("{}", "[]"):
        return f"{text[0]}${index}{text[1]}"
    return f"${{{index}:{text}}}"


def schema_findings(
    issues: Iterable[ValidationIssue],
    value: JsonValue,
    schema: dict[str, Any],
    subject: str,
) -> Iterator[Finding]:
    """Findings for pydantic issues, with schema-driven did-you-mean, valid names and fixes."""
    grouped: dict[tuple[tuple[str | int, ...], str], list[tuple[ValidationIssue, list[str]]]] = {}
    for issue in issues:
        pointer, tags = _real_pointer(value, issue.loc)
        kind = "type" if issue.error_type in _TYPE_ERRORS else issue.error_type
        grouped.setdefault((pointer, kind), []).append((issue, tags))
    missing_by_parent: dict[tuple[str | int, ...], list[tuple[str, str]]] = {}
    known_by_parent: dict[tuple[str | int, ...], list[str]] = {}  # many unknown keys of one object: read once
    for (pointer, _kind), entries in grouped.items():
        issue, tags = entries[0]
        note = _tag_note(tags)
        if issue.error_type == "extra_forbidden":
            parent = pointer[:-1]
            if parent not in known_by_parent:
                known_by_parent[parent] = [p.name for p in properties_of(subschemas_at(schema, parent))]
            yield _unknown(pointer, value, known_by_parent[parent], subject, note)
        elif issue.error_type == "missing":
            missing_by_parent.setdefault(pointer[:-1], []).append((str(pointer[-1]), note))
        elif issue.error_type in _TYPE_ERRORS:
            yield _wrong_type(pointer, [e[0] for e in entries], schema, note)
        elif issue.error_type in _ENUM_ERRORS:
            yield _bad_enum(pointer, issue, schema, note)
        elif issue.error_type == "jsonschema_format":
            yield Finding(FORMAT, f"{issue.message}{_received(issue)}{note}", pointer)
        else:
            yield Finding(CONSTRAINT, f"{issue.message}{_received(issue)}{note}", pointer)
    for parent, names in missing_by_parent.items():
        yield _missing(parent, names, schema, subject)


def _received(issue: ValidationIssue) -> str:
    if not issue.has_input:
        return ""
    return f" (received {json_type_name(issue.received)}: {short_repr(issue.received)})"


def _unknown(pointer: tuple[str | int, ...], value: JsonValue, known: list[str], subject: str, note: str) -> Finding:
    key = str(pointer[-1])
    parent = pointer[:-1]
    present = value_at(value, parent)
    candidates = [
        name
        for name in closest(key, known)
        if not (isinstance(present, dict) and name in present) and _plausible(key, name)
    ]
    where = f" in {subject}" if not parent else f" at '{_dotted(parent)}'"
    message = f"Unknown property '{key}'{where}."
    if candidates:
        message += f" Did you mean '{candidates[0]}'?"
    if known:
        message += " Valid properties: " + ", ".join(known[:12]) + (", …" if len(known) > 12 else "")
    fixes = [
        Fix(f"Rename to '{name}'", (RenameKey(pointer, name),), safe=False, preferred=index == 0)
        for index, name in enumerate(candidates)
    ]
    fixes.append(Fix(f"Remove property '{key}'", (RemoveMember(pointer),), safe=False))
    return Finding(UNKNOWN, message + note, pointer, "key", fixes=tuple(fixes), data={"key": key})


def _plausible(key: str, name: str) -> bool:
    """A did-you-mean for an unknown key: a close spelling, or a shared word (`target_nines` → `target_percentage`);
    not letters that merely line up (`chart_type` → `start_time`)."""
    low_key, low_name = key.lower(), name.lower()
    if difflib.SequenceMatcher(None, low_key, low_name).ratio() >= 0.75 or low_key in low_name or low_name in low_key:
        return True

    def words(text: str) -> set[str]:
        return {w for w in re.split(r"[^a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text).lower()) if w}

    return bool(words(key) & words(name))


def _dotted(pointer: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in pointer)


def _missing(
    parent: tuple[str | int, ...], names: list[tuple[str, str]], schema: dict[str, Any], subject: str
) -> Finding:
    keys = [name for name, _ in names]
    note = names[0][1]
    where = subject if not parent else f"'{_dotted(parent)}'"
    if len(keys) == 1:
        message = f"Missing required property '{keys[0]}' in {where}{note}"
    else:
        message = f"Missing required properties in {where}: " + ", ".join(f"'{k}'" for k in keys) + note
    schemas_by_key = {k: subschemas_at(schema, (*parent, k)) for k in keys}
    members = tuple((k, placeholder_for(schemas_by_key[k])) for k in keys)
    snippets = tuple((k, snippet_for(schemas_by_key[k], i + 1)) for i, k in enumerate(keys))
    fix = Fix(
        "Add missing " + ("property " if len(keys) == 1 else "properties ") + ", ".join(f"'{k}'" for k in keys),
        (InsertMembers(parent, members, snippets),),
        safe=False,
        preferred=True,
    )
    return Finding(MISSING, message, parent, "parent", fixes=(fix,), data={"missing": ",".join(keys)})


def _wrong_type(
    pointer: tuple[str | int, ...], issues: list[ValidationIssue], schema: dict[str, Any], note: str
) -> Finding:
    expected: list[str] = []
    for issue in issues:
        name = _TYPE_ERRORS[issue.error_type]
        if name not in expected:
            expected.append(name)
    schemas = subschemas_at(schema, pointer)
    wanted = set(expected) | json_types(schemas)
    received = issues[0].received if issues[0].has_input else None
    coercion = coercion_for(received, wanted)
    label = " or ".join(expected)
    if coercion is not None:
        message = (
            f"Expected {coercion.json_type}, received string {short_repr(received)}: it would be coerced to "
            f"{coercion.replacement_json}, but write the {coercion.json_type} itself{note}"
        )
        fix = Fix(
            "Convert to null"
            if coercion.json_type == "null"
            else f"Convert to {coercion.json_type} {coercion.replacement_json}",
            (ReplaceValue(pointer, coercion.replacement_json),),
            safe=True,
            preferred=True,
        )
        return Finding(COERCIBLE, message, pointer, fixes=(fix,))
    message = f"Expected {label}, received {json_type_name(received)}"
    if issues[0].has_input and not isinstance(received, (dict, list)):
        message += f": {short_repr(received)}"
    return Finding(WRONG_TYPE, message + note, pointer)


def _bad_enum(pointer: tuple[str | int, ...], issue: ValidationIssue, schema: dict[str, Any], note: str) -> Finding:
    allowed = enum_values(subschemas_at(schema, pointer))
    received = issue.received if issue.has_input else None
    fixes: list[Fix] = []
    message = f"Invalid value {short_repr(received)}"
    if allowed:
        message += ": expected one of " + ", ".join(short_repr(v) for v in allowed[:20])
    else:
        message += f": {issue.message}"
    if isinstance(received, str):
        member_value = _enum_member_value(pointer, received, schema)
        if member_value is not None:
            message += f". '{received}' is the member name; use its value {short_repr(member_value)}"
            fixes.append(
                Fix(
                    f"Use the value {short_repr(member_value)}",
                    (ReplaceValue(pointer, json.dumps(member_value)),),
                    safe=True,
                    preferred=True,
                )
            )
        else:
            candidates = closest(received, [v for v in allowed if isinstance(v, str)])
            if candidates:
                message += f". Did you mean {short_repr(candidates[0])}?"
            fixes.extend(
                Fix(f"Replace with {short_repr(c)}", (ReplaceValue(pointer, json.dumps(c)),), preferred=i == 0)
                for i, c in enumerate(candidates)
            )
    return Finding(BAD_ENUM, message + note, pointer, fixes=tuple(fixes))


def _enum_member_value(pointer: tuple[str | int, ...], received: str, schema: dict[str, Any]) -> Any:
    """If received is the *name* of a member of a known enum at pointer, that member's value."""
    for node in subschemas_at(schema, pointer):
        names = node.get("x-enum-names")
        values = node.get("enum")
        if isinstance(names, list) and isinstance(values, list) and received in names:
            return values[names.index(received)]
    allowed = enum_values(subschemas_at(schema, pointer))
    for name in ENUM_SCHEMAS.names():
        fragment = ENUM_SCHEMAS.get(name)
        if fragment.source is None or not same_value_sets(fragment.values, allowed):
            continue
        member = fragment.source.__members__.get(received) or fragment.source.__members__.get(received.upper())
        if member is not None:
            return member.value
    return None


def model_findings(model: type[BaseModel], value: JsonValue, subject: str, text: bytes | None = None) -> list[Finding]:
    """Validate value with a pydantic model; all errors at once, as placed findings.

    text: the value's own JSON text, if known (`Unit.text`). Parsing it spares encoding the value again; only a
    success is taken from it, since the text may say more than the value (a duplicate key's earlier member, which
    `json.loads` drops and a dict field still sees): any error is found again from the value itself."""
    try:
        # Strict JSON mode: "80" for an integer or "true" for a boolean is reported (TS105), not coerced
        # silently; enums are still matched by value, as they arrive in JSON.
        if text is not None:
            try:
                model.model_validate_json(text, strict=True)
                return []
            except ValidationError:
                pass
        model.model_validate_json(json.dumps(value), strict=True)
    except ValidationError as error:
        return list(schema_findings(validation_issues(error), value, model_schema(model), subject))
    return []
