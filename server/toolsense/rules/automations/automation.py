"""Automations: actions and the tools they call (TS4xx).

`actions` non-empty, ids unique, every `tool` (and a polling `source_tool`) known to the registry, and the
`parameters` (and `tool_params`) valid against the tool's input schema: unknown names on the key, missing
required ones on `parameters`, literal values of the wrong type or outside an enum on the value. A string that
holds a template is not checked as a literal (the template rules look at it instead).

The envelope itself (required `id` / `tool`, types) is the structure family's (TS101–TS106).
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from ...document.jsontree import Pointer
from ...domain.automation import AutomationView, similar
from ...domain.shapes import Env
from ...domain.templates import BUILTIN_BY_NAME, RESERVED_ROOTS, has_template
from ...domain.validation import placeholder_for, snippet_for
from ...domain.validators import build_validator, safe_search, with_stack_room
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, InsertMembers, Related, RemoveMember, RenameKey, ReplaceValue, Severity
from ...engine.schemas import enum_values, expand, json_types, properties_of, subschemas_at
from ...engine.units import Unit
from ...jsonvalue import JsonObject, JsonValue, json_type_name, short_repr
from ..catalog import CATALOG
from .templates import template_type_finding

FAMILY = "Automations: actions and tools"

EMPTY_ACTIONS = CATALOG.rule(
    "TS401", "empty-actions", Severity.ERROR, "An automation's `actions` array is empty.", FAMILY
)
DUPLICATE_ID = CATALOG.rule(
    "TS402",
    "duplicate-action-id",
    Severity.ERROR,
    "Two actions share an `id` (the other one is given as related information).",
    FAMILY,
)
UNKNOWN_TOOL = CATALOG.rule(
    "TS403",
    "unknown-tool",
    Severity.ERROR,
    "An action's `tool` or a polling `source_tool` names no tool in the registry.",
    FAMILY,
    "replace with a similarly named tool (best first)",
)
UNKNOWN_PARAMETER = CATALOG.rule(
    "TS404",
    "unknown-parameter",
    Severity.ERROR,
    "A parameter (or nested property) the tool's input schema does not define.",
    FAMILY,
    "rename to the closest parameter; remove it",
)
MISSING_PARAMETER = CATALOG.rule(
    "TS405",
    "missing-parameter",
    Severity.ERROR,
    "A parameter the tool requires is missing (marked on `parameters`).",
    FAMILY,
    "insert the missing parameters with placeholders",
)
PARAMETER_TYPE = CATALOG.rule(
    "TS406", "parameter-type", Severity.ERROR, "A literal parameter value of the wrong JSON type.", FAMILY
)
PARAMETER_ENUM = CATALOG.rule(
    "TS407",
    "parameter-enum",
    Severity.ERROR,
    "A literal parameter value that is not one of the tool's allowed values.",
    FAMILY,
    "replace with the closest allowed value",
)
PARAMETER_CONSTRAINT = CATALOG.rule(
    "TS408",
    "parameter-constraint",
    Severity.ERROR,
    "A literal parameter value breaks another constraint of the input schema (length, range, pattern…).",
    FAMILY,
)
NO_REGISTRY = CATALOG.rule(
    "TS409",
    "no-tool-registry",
    Severity.INFORMATION,
    "No tool definitions are known, so tools and parameters cannot be checked.",
    FAMILY,
)
NAME_CONFLICT = CATALOG.rule(
    "TS410",
    "output-name-conflict",
    Severity.WARNING,
    "An `output_as` or variable name hides a built-in, `user`/`trigger_data`, or an earlier output.",
    FAMILY,
)


@CATALOG.unit_check("automation")
def automation_actions(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = AutomationView.of(unit.value)
    if view is None:
        return
    env = Env.of(ctx)
    actions = unit.value.get("actions")
    if isinstance(actions, list) and not actions:
        yield EMPTY_ACTIONS.finding(
            "An automation needs at least one action: 'actions' is empty. Add an action such as "
            '{"id": "notify", "tool": "…", "parameters": {…}}',
            ("actions",),
        )
    yield from _duplicate_ids(view)
    yield from _name_conflicts(view)
    if not env.has_tools:
        if view.actions or view.source_tool:
            yield NO_REGISTRY.finding(
                "No tool definitions are known, so tool names and parameters are not checked: add tool definition "
                "files to the workspace or name a registry file in settings (`registry`)",
                ("actions",),
                target="key",
            )
        return
    for action in view.actions:
        base: Pointer = ("actions", action.index)
        if action.tool is None:
            continue
        known = yield from unknown_tool(env, action.tool, (*base, "tool"), "tool")
        if not known:
            continue
        schema = env.input_schema(action.tool)
        if schema is None:
            continue
        parameters = action.value.get("parameters", {})
        yield from parameter_findings(
            parameters,
            schema,
            action.tool,
            (*base, "parameters"),
            present="parameters" in action.value,
            dialect=env.dialect(action.tool),
        )
    source = view.source_tool
    if source is not None:
        known = yield from unknown_tool(env, source, ("trigger_config", "source_tool"), "source_tool")
        schema = env.input_schema(source) if known else None
        if schema is not None:
            params = view.trigger_config.get("tool_params", {})
            yield from parameter_findings(
                params,
                schema,
                source,
                ("trigger_config", "tool_params"),
                present="tool_params" in view.trigger_config,
                dialect=env.dialect(source),
            )


def unknown_tool(env: Env, name: str, pointer: Pointer, key: str) -> Generator[Finding, None, bool]:
    """TS403 when the tool is unknown; returns whether it is known (use with `yield from`)."""
    if env.is_known_tool(name):
        return True
    candidates = similar(name, env.known_tool_names(), limit=3, cutoff=0.5)
    label = "Unknown tool" if key == "tool" else "Unknown source_tool"
    message = f"{label}: the name is empty" if not name.strip() else f"{label} '{name}'."
    if candidates:
        message += f" Did you mean '{candidates[0]}'?"
        if len(candidates) > 1:
            message += " Other close names: " + ", ".join(f"'{c}'" for c in candidates[1:])
    else:
        count = len(env.known_tool_names())
        message += f" No tool with a similar name among the {count} known tool{'s' if count != 1 else ''}."
    fixes = tuple(
        Fix(f"Change to '{candidate}'", (ReplaceValue(pointer, json.dumps(candidate)),), preferred=index == 0)
        for index, candidate in enumerate(candidates)
    )
    yield UNKNOWN_TOOL.finding(message, pointer, fixes=fixes, data={"tool": name})
    return False


def _duplicate_ids(view: AutomationView) -> Iterator[Finding]:
    first: dict[str, int] = {}
    for action in view.actions:
        if action.id is None:
            continue
        if action.id in first:
            index = first[action.id]
            yield DUPLICATE_ID.finding(
                f"Duplicate action id '{action.id}': action #{index + 1} already uses it; ids must be unique",
                ("actions", action.index, "id"),
                related=(Related(f"Action #{index + 1} uses id '{action.id}'", ("actions", index, "id")),),
            )
        else:
            first[action.id] = action.index


def _name_conflicts(view: AutomationView) -> Iterator[Finding]:
    seen: dict[str, int] = {}
    for action in view.actions:
        name = action.output_as
        if not name:
            continue
        pointer: Pointer = ("actions", action.index, "output_as")
        if name in BUILTIN_BY_NAME:
            yield NAME_CONFLICT.finding(
                f"output_as '{name}' is the name of a built-in variable: '{{{{{name}}}}}' still gives the built-in, "
                "not this output. Choose another name",
                pointer,
            )
        elif name in RESERVED_ROOTS:
            yield NAME_CONFLICT.finding(
                f"output_as '{name}' hides '{name}' ({'the trigger data' if name == 'trigger_data' else 'the user'})"
                " for every later action. Choose another name",
                pointer,
            )
        elif name in seen:
            index = seen[name]
            yield NAME_CONFLICT.finding(
                f"output_as '{name}' is also set by action #{index + 1}: later actions see only this newer output",
                pointer,
                related=(Related(f"Action #{index + 1} sets '{name}' first", ("actions", index, "output_as")),),
            )
        elif name in view.variables:
            yield NAME_CONFLICT.finding(
                f"output_as '{name}' hides the variable '{name}' for every later action. Choose another name",
                pointer,
            )
        seen.setdefault(name, action.index)
    for name in view.variables:
        if name in BUILTIN_BY_NAME or name in RESERVED_ROOTS:
            yield NAME_CONFLICT.finding(
                f"Variable '{name}' has the name of a built-in: "
                + (
                    f"'{{{{{name}}}}}' still gives the built-in value"
                    if name in BUILTIN_BY_NAME
                    else f"it replaces '{name}' in every template"
                ),
                ("variables", name),
                target="key",
            )


# --- parameters -------------------------------------------------------------------------------------------


def parameter_findings(
    parameters: Any,
    schema: JsonObject,
    tool: str,
    base: Pointer,
    present: bool = True,
    dialect: str | None = None,
) -> Iterator[Finding]:
    """Parameters against a tool's input schema (TS404–TS408, TS509 for templated values)."""
    if not isinstance(parameters, dict):
        return
    roots = expand(schema, schema)
    props = properties_of(roots)
    names = [p.name for p in props]
    by_name = {p.name: p for p in props}
    open_extra = _allows_extra(roots, bool(props))
    required = [p.name for p in props if p.required]
    required += [
        name for node in roots for name in _required_names(node) if name not in by_name and name not in required
    ]
    missing = [name for name in required if name not in parameters]

    guesses: dict[str, str] = {}
    if not open_extra:
        for key, value in parameters.items():
            if key in by_name:
                continue
            candidates = [c for c in similar(key, names) if c not in parameters]
            if not candidates:
                # No similar name: a required parameter that is missing and takes this kind of value is a good bet.
                candidates = [m for m in missing if _fits(value, subschemas_at(schema, (m,)))][:3]
            if candidates:
                guesses[key] = candidates[0]
            message = f"Tool '{tool}' has unknown parameter '{key}'."
            if candidates:
                message += f" Did you mean '{candidates[0]}'?"
            if names:
                shown = ", ".join(names[:15]) + (", …" if len(names) > 15 else "")
                message += f" Valid parameters: {shown}"
            else:
                message += f" '{tool}' takes no parameters"
            fixes = [
                Fix(f"Rename to '{c}'", (RenameKey((*base, key), c),), preferred=i == 0)
                for i, c in enumerate(candidates)
            ]
            fixes.append(Fix(f"Remove parameter '{key}'", (RemoveMember((*base, key)),)))
            yield UNKNOWN_PARAMETER.finding(
                message, (*base, key), target="key", fixes=tuple(fixes), data={"parameter": key}
            )

    if missing:
        yield _missing(tool, missing, schema, base, present, guesses)

    literal: JsonObject = {}
    for key, value in parameters.items():
        if key not in by_name:
            continue
        if _templated(value):
            finding = template_type_finding(value, subschemas_at(schema, (key,)), tool, key, (*base, key))
            if finding is not None:
                yield finding
        else:
            literal[key] = value
    if literal:
        yield from _value_findings(literal, schema, tool, base, dialect)


def _required_names(node: JsonObject) -> list[str]:
    names = node.get("required")
    return [name for name in names if isinstance(name, str)] if isinstance(names, list) else []


def _allows_extra(roots: list[JsonObject], has_properties: bool) -> bool:
    for node in roots:
        extra = node.get("additionalProperties")
        if extra is True or isinstance(extra, dict) or isinstance(node.get("patternProperties"), dict):
            return True
    if has_properties:
        return False
    return not any(node.get("additionalProperties") is False for node in roots)


def _fits(value: JsonValue, schemas: list[JsonObject]) -> bool:
    kinds = json_types(schemas)
    if not kinds:
        return True
    actual = json_type_name(value)
    return actual in kinds or (actual == "integer" and "number" in kinds)


def _missing(
    tool: str, missing: list[str], schema: JsonObject, base: Pointer, present: bool, guesses: dict[str, str]
) -> Finding:
    quoted = ", ".join(f"'{name}'" for name in missing)
    noun = "parameter" if len(missing) == 1 else "parameters"
    message = f"Tool '{tool}' requires {noun} {quoted}"
    hints = [f"'{key}' may be meant as '{name}'" for key, name in guesses.items() if name in missing]
    if hints:
        message += " (" + "; ".join(hints) + ")"
    schemas = {name: subschemas_at(schema, (name,)) for name in missing}
    members = tuple((name, placeholder_for(schemas[name])) for name in missing)
    snippets = tuple((name, snippet_for(schemas[name], i + 1)) for i, name in enumerate(missing))
    if present:
        edit = InsertMembers(base, members, snippets)
    else:
        body = "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in members) + "}"
        edit = InsertMembers(base[:-1], ((str(base[-1]), body),))
    fix = Fix(f"Add {noun} {quoted}", (edit,), preferred=True)
    return MISSING_PARAMETER.finding(message, base, target="parent", fixes=(fix,), data={"missing": ",".join(missing)})


def _value_findings(
    literal: JsonObject, schema: JsonObject, tool: str, base: Pointer, dialect: str | None
) -> Iterator[Finding]:
    """The literal parameter values against the whole input schema, in one validation ($refs resolve)."""
    try:
        validator = build_validator(schema, dialect)
        errors = with_stack_room(lambda: list(validator.iter_errors(literal)))
    except Exception:  # a broken or remote schema, or one nesting too deeply: the tool-definition rules report it
        return
    for error in errors:
        if not error.absolute_path:
            continue  # root-level required/additionalProperties: handled above
        if _templated(error.instance):
            continue
        yield from _schema_error(error, schema, tool, base)


def _templated(value: Any) -> bool:
    return isinstance(value, str) and has_template(value)


def _dotted(parts: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in parts)


def _schema_error(error: ValidationError, schema: JsonObject, tool: str, base: Pointer) -> Iterator[Finding]:
    path: tuple[str | int, ...] = tuple(error.absolute_path)
    pointer: Pointer = (*base, *path)
    label = f"Parameter '{_dotted(path)}' of tool '{tool}'"
    validator = error.validator
    if validator == "additionalProperties" and isinstance(error.instance, dict):
        known = [p.name for p in properties_of(subschemas_at(schema, path))]
        patterns = error.schema.get("patternProperties", {}) if isinstance(error.schema, dict) else {}
        for extra in error.instance:
            if extra in known or any(_matches(p, extra) for p in patterns):
                continue
            candidates = [c for c in similar(extra, known) if c not in error.instance]
            message = f"Tool '{tool}': unknown property '{extra}' in parameter '{_dotted(path)}'."
            if candidates:
                message += f" Did you mean '{candidates[0]}'?"
            if known:
                message += " Valid properties: " + ", ".join(known[:15])
            fixes = [
                Fix(f"Rename to '{c}'", (RenameKey((*pointer, extra), c),), preferred=i == 0)
                for i, c in enumerate(candidates)
            ]
            fixes.append(Fix(f"Remove property '{extra}'", (RemoveMember((*pointer, extra)),)))
            yield UNKNOWN_PARAMETER.finding(message, (*pointer, extra), target="key", fixes=tuple(fixes))
        return
    if validator == "required" and isinstance(error.instance, dict):
        wanted = error.validator_value if isinstance(error.validator_value, list) else []
        missing = [name for name in wanted if isinstance(name, str) and name not in error.instance]
        if not missing:
            return
        schemas = {name: subschemas_at(schema, (*path, name)) for name in missing}
        members = tuple((name, placeholder_for(schemas[name])) for name in missing)
        fix = Fix("Add " + ", ".join(f"'{n}'" for n in missing), (InsertMembers(pointer, members),), preferred=True)
        quoted = ", ".join(f"'{n}'" for n in missing)
        yield MISSING_PARAMETER.finding(
            f"{label} is missing required propert{'y' if len(missing) == 1 else 'ies'} {quoted}",
            pointer,
            target="parent",
            fixes=(fix,),
        )
        return
    if validator == "type":
        expected = error.validator_value
        expected_label = " or ".join(expected) if isinstance(expected, list) else str(expected)
        received = json_type_name(error.instance)
        shown = "" if isinstance(error.instance, (dict, list)) else f": {short_repr(error.instance)}"
        yield PARAMETER_TYPE.finding(f"{label} expects {expected_label}, received {received}{shown}", pointer)
        return
    if validator in ("enum", "const"):
        yield _enum_error(error, schema, path, pointer, label)
        return
    if validator in ("anyOf", "oneOf") and error.context:
        best = jsonschema.exceptions.best_match(error.context)
        if best is not None and not _templated(best.instance):
            nested_path = (*path, *best.relative_path)
            best_label = f"Parameter '{_dotted(nested_path)}' of tool '{tool}'"
            yield PARAMETER_CONSTRAINT.finding(f"{best_label}: {best.message}", (*base, *nested_path))
            return
    yield PARAMETER_CONSTRAINT.finding(f"{label}: {error.message}", pointer)


def _enum_error(
    error: ValidationError, schema: JsonObject, path: tuple[str | int, ...], pointer: Pointer, label: str
) -> Finding:
    allowed = enum_values(subschemas_at(schema, path))
    if not allowed:
        raw = error.validator_value
        allowed = (list(raw) if isinstance(raw, list) else []) if error.validator == "enum" else [raw]
    message = f"Invalid value {short_repr(error.instance)} for {label[0].lower()}{label[1:]}"
    message += ": expected one of " + ", ".join(short_repr(v) for v in allowed[:20])
    fixes: list[Fix] = []
    if isinstance(error.instance, str):
        candidates = similar(error.instance, [v for v in allowed if isinstance(v, str)])
        if candidates:
            message += f". Did you mean {short_repr(candidates[0])}?"
        fixes = [
            Fix(f"Replace with {short_repr(c)}", (ReplaceValue(pointer, json.dumps(c)),), preferred=i == 0)
            for i, c in enumerate(candidates)
        ]
    return PARAMETER_ENUM.finding(message, pointer, fixes=tuple(fixes))


def _matches(pattern: str, text: str) -> bool:
    return safe_search(pattern, text) is not False
