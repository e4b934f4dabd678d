"""`$ref`s (local ones resolve, cycles are named, network and file ones are reported and never fetched) and the
schema's own values (`default`, `examples`, `const`, `enum` members) against the schema they annotate."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Hashable, Iterator
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from jsonschema import Draft202012Validator
from referencing import Registry

from ...document.jsontree import Pointer
from ...domain.instances import value_findings
from ...domain.tool import (
    JSON_TYPES,
    SchemaWalk,
    types_of,
)

# --- $ref ------------------------------------------------------------------------------------------------
from ...domain.validators import meta_registry
from ...engine.equality import value_key
from ...engine.findings import Finding, Fix, ReplaceValue, Severity
from ...engine.schemas import closest, resolve_local_ref
from ...jsonvalue import JsonValue, json_type_name, short_repr
from .schema_codes import OWN_VALUE, REMOTE_REF, UNRESOLVED_REF
from .schema_meta import article


def ref_findings(schema: dict[str, Any], walk: SchemaWalk, base: Pointer) -> Iterator[Finding]:
    if "$ref" not in walk.keys:
        return
    resources = _resources(walk)
    anchors = _anchors(walk)
    definitions = _definition_refs(schema)
    registry = meta_registry()
    for entry in walk.nodes:
        ref = entry.node.get("$ref")
        if not isinstance(ref, str):
            continue
        pointer = (*base, *entry.pointer, "$ref")
        document, fragment = urldefrag(_join(_base_uri(entry.pointer, resources), ref))
        resource = resources.get(document)
        if resource is None:
            if _bundled(registry, ref):
                continue
            yield Finding(
                REMOTE_REF.code,
                f"$ref {short_repr(ref)} points outside this schema: it is not fetched (toolsense never fetches "
                "network or file references); inline it under $defs",
                pointer,
            )
            continue
        if _resolves(resource, fragment, anchors):
            cycle = _ref_cycle(resource, ref) if ref.startswith("#") else None
            if cycle is not None:
                yield Finding(
                    UNRESOLVED_REF.code,
                    f"$ref {short_repr(ref)} never reaches a schema: {' → '.join(cycle)} is a cycle",
                    pointer,
                )
            continue
        candidates = closest(ref, definitions, limit=2, cutoff=0.5)
        message = f"$ref {short_repr(ref)} does not resolve inside the schema"
        if candidates:
            message += f". Did you mean {short_repr(candidates[0])}?"
        fixes = tuple(
            Fix(f"Use {short_repr(c)}", (ReplaceValue(pointer, json.dumps(c)),), preferred=i == 0)
            for i, c in enumerate(candidates)
        )
        yield Finding(UNRESOLVED_REF.code, message, pointer, fixes=fixes)


def _resources(walk: SchemaWalk) -> dict[str, Any]:
    """Each schema resource by its absolute URI (without fragment): the root (by its `$id`, and by "" for
    references made before any base), and every subschema with its own `$id`, read against the resource around
    it (an embedded resource: `#/$defs/x` inside it is its own `$defs`). Keys are also kept by pointer
    (`("pointer", …)`) to find the resource around a place."""
    found: dict[Any, Any] = {}
    for entry in sorted(walk.nodes, key=lambda e: len(e.pointer)):
        ident = entry.node.get("$id")
        if not entry.pointer:
            uri = urldefrag(ident)[0] if isinstance(ident, str) else ""
            found[""] = found[uri] = entry.node
            found[("pointer", ())] = uri
        elif isinstance(ident, str) and not ident.startswith("#"):
            uri = urldefrag(_join(_base_uri(entry.pointer[:-1], found), ident))[0]
            found[uri] = entry.node
            found[("pointer", entry.pointer)] = uri
    return found


def _join(base: str, ref: str) -> str:
    """ref read against base; a fragment alone stays in base's document whatever its scheme (`urljoin` drops
    the base of a URN: `urn:uuid:…` + `#/$defs/x`)."""
    if ref.startswith("#"):
        return urldefrag(base)[0] + ref
    return urljoin(base, ref)


def _base_uri(pointer: Pointer, resources: dict[Any, Any]) -> str:
    """The base URI at pointer: that of the innermost resource holding it (itself included)."""
    for end in range(len(pointer), -1, -1):
        uri = resources.get(("pointer", tuple(pointer[:end])))
        if uri is not None:
            return str(uri)
    return ""


def _ref_cycle(schema: dict[str, Any], ref: str) -> list[str] | None:
    """The chain of local `$ref`s that only point at other `$ref`s and come back (`#/$defs/a` → `#/$defs/b` →
    `#/$defs/a`): no value can ever be checked against it. None when the chain reaches a real schema."""
    chain = [ref]
    node = resolve_local_ref(schema, ref)
    while isinstance(node, dict) and isinstance(following := node.get("$ref"), str) and len(chain) <= 64:
        if following in chain:
            return [*chain, following]
        chain.append(following)
        node = resolve_local_ref(schema, following)
    return None


def _bundled(registry: Registry[Any], ref: str) -> bool:
    document = urldefrag(ref)[0].rstrip("#")
    for candidate in (document, document + "#"):
        try:
            registry.contents(candidate)
            return True
        except Exception:
            continue
    return False


def _anchors(walk: SchemaWalk) -> set[str]:
    """Every plain-name fragment the schema defines (`$anchor`, `$dynamicAnchor`, draft-07's `"$id": "#x"`)."""
    names: set[str] = set()
    for entry in walk.nodes:
        for keyword in ("$anchor", "$dynamicAnchor"):
            anchor = entry.node.get(keyword)
            if isinstance(anchor, str):
                names.add(anchor)
        ident = entry.node.get("$id")
        if isinstance(ident, str) and ident.startswith("#"):
            names.add(ident[1:])
    return names


def _resolves(schema: Any, fragment: str, anchors: set[str]) -> bool:
    fragment = unquote(fragment)
    if fragment == "":
        return True
    if not fragment.startswith("/"):
        return fragment in anchors
    return resolve_local_ref(schema, "#" + fragment) is not None


def _definition_refs(schema: dict[str, Any]) -> list[str]:
    refs: list[str] = []
    for key in ("$defs", "definitions"):
        defs = schema.get(key)
        if isinstance(defs, dict):
            refs.extend(f"#/{key}/{name.replace('~', '~0').replace('/', '~1')}" for name in defs)
    return refs


# --- default, examples, const and enum against their own schema -------------------------------------------------

_ANNOTATED = ("default", "examples")
_OWN_VALUE_KEYS = frozenset({"enum", "const", *_ANNOTATED})
_LOCAL_DEFS = ("#/$defs/", "#/definitions/")
_OWN_CODES = {kind: f"{OWN_VALUE.code}:{kind}" for kind in ("unknown", "missing", "type", "enum", "coercible")}
_OWN_CODES.update({kind: f"{OWN_VALUE.code}:{kind}" for kind in ("constraint", "format")})


def own_values(schema: dict[str, Any], walk: SchemaWalk, base: Pointer, dialect: str) -> Iterator[Finding]:
    """Each `default` and `examples` item validated against the subschema it sits in (local `$defs` resolved;
    other `$ref`s make it say nothing); `const` and `enum` members against the subschema's `type`."""
    if not _OWN_VALUE_KEYS & walk.keys:
        return
    for entry in walk.nodes:
        if entry.conditional:
            continue
        node = entry.node
        typed = "enum" in node or "const" in node
        annotated = "default" in node or "examples" in node  # _ANNOTATED
        if not typed and not annotated:
            continue
        pointer = (*base, *entry.pointer)
        if typed:
            yield from _typed_members(node, pointer)
        if not annotated:
            continue
        refs = _local_refs(node)
        if refs is None:
            continue
        own = {key: value for key, value in node.items() if key not in _ANNOTATED}
        for key in ("$defs", "definitions", "$schema") if refs else ("$schema",):
            if key in schema and key not in own:
                own[key] = schema[key]  # copied only when a $ref needs them: a large $defs costs per default
        checked: list[tuple[Pointer, Any, str]] = []
        if "default" in node:
            checked.append((("default",), node["default"], "The default"))
        examples = node.get("examples")
        if isinstance(examples, list):
            checked.extend((("examples", i), example, f"Example {i + 1}") for i, example in enumerate(examples))
        for where, value, label in checked:
            findings, notes = value_findings(own, dialect, value, label.lower(), _OWN_CODES, 200, formats=True)
            if notes:
                continue  # the check stopped early: say nothing rather than guess
            for finding in findings:
                kind = finding.code.rsplit(":", 1)[-1]
                severity = Severity.WARNING if kind in ("constraint", "format") else Severity.ERROR
                yield dataclasses.replace(
                    finding.under((*pointer, *where)),
                    code=OWN_VALUE.code,
                    message=f"{label} breaks its own schema: {finding.message}",
                    severity=severity,
                    fixes=(),
                )


def _local_refs(node: JsonValue) -> bool | None:
    """Whether node uses `$ref`s, all into the root's `$defs`/`definitions` (copied beside it); None when one
    points elsewhere (or a dynamic reference is used): then the value is not checked."""
    found = False
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            ref = current.get("$ref")
            if ref is not None:
                if not (isinstance(ref, str) and ref.startswith(_LOCAL_DEFS)):
                    return None
                found = True
            if "$dynamicRef" in current or "$recursiveRef" in current:
                return None
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return found


def _of_type(value: JsonValue, kinds: list[str]) -> bool:
    """Whether a JSON value is of one of the types, as Draft 2020-12's type checker says (a float with an integer
    value is an integer; a bool is neither a number nor an integer), without its per-call dispatch."""
    for kind in kinds:
        if kind == "string":
            if isinstance(value, str):
                return True
        elif kind == "number":
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return True
        elif kind == "integer":
            if isinstance(value, bool):
                continue
            if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
                return True
        elif kind == "boolean":
            if isinstance(value, bool):
                return True
        elif kind == "object":
            if isinstance(value, dict):
                return True
        elif kind == "array":
            if isinstance(value, list):
                return True
        elif kind == "null":
            if value is None:
                return True
        elif _CHECKER.is_type(value, kind):
            return True
    return False


_CHECKER = Draft202012Validator.TYPE_CHECKER


def _a(value: JsonValue) -> str:
    kind = json_type_name(value)
    return "null" if kind == "null" else article(kind)


def _typed_members(node: dict[str, Any], pointer: Pointer) -> Iterator[Finding]:
    if "enum" not in node and "const" not in node:
        return  # most subschemas: nothing to say, and this runs for each of them
    kinds = types_of(node)
    if not kinds or not all(kind in JSON_TYPES for kind in kinds) or not isinstance(node.get("type"), (str, list)):
        return
    shown = " or ".join(kinds)
    values = node.get("enum")
    if isinstance(values, list):
        for index, value in enumerate(values):
            if not _of_type(value, kinds):
                yield Finding(
                    OWN_VALUE.code,
                    f"Enum value {short_repr(value)} is {_a(value)}, not {shown}: no value can match it",
                    (*pointer, "enum", index),
                )
    if "const" in node:
        value = node["const"]
        if not _of_type(value, kinds):
            yield Finding(
                OWN_VALUE.code,
                f"const {short_repr(value)} is {_a(value)}, not {shown}: no value can match the schema",
                (*pointer, "const"),
            )
        elif isinstance(values, list) and enum_key(value) not in {enum_key(v) for v in values}:
            yield Finding(
                OWN_VALUE.code,
                f"const {short_repr(value)} is not one of the enum values: no value can match the schema",
                (*pointer, "const"),
            )


def enum_key(value: JsonValue) -> Hashable:
    """The key two enum members share when JSON Schema calls them equal (1 and 1.0; not true and 1)."""
    return value_key(value)
