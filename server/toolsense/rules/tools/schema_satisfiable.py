"""Schemas no value can satisfy (TS221): an empty `enum`, a lower bound above its upper bound, a
`const` outside its own `enum`, `required` naming a property that `properties` forbids with `false`, `not: {}`.

A meta-schema accepts each of these (every keyword is well formed on its own); only the keywords together say that
the tool can never be called with this value, or, at a required property or the root, never called at all. (An
empty `type` list breaks the meta-schema: TS210 says so.)
"""

from __future__ import annotations

from collections.abc import Iterator
from numbers import Real
from typing import Any

from ...document.jsontree import Pointer
from ...domain.tool import SchemaWalk
from ...engine.equality import json_equal
from ...engine.findings import Finding, Severity
from ...jsonvalue import short_repr
from ..catalog import CATALOG
from .schema_codes import FAMILY

UNSATISFIABLE = CATALOG.rule(
    "TS221",
    "unsatisfiable-schema",
    Severity.ERROR,
    "A schema no value can satisfy: an empty `enum`, `minimum` above `maximum` (likewise the "
    "exclusive bounds, `minLength`/`maxLength`, `minItems`/`maxItems`, `minProperties`/`maxProperties`), a "
    "`const` its own `enum` does not list, `required` naming a property `properties` forbids with `false`, "
    "`not: {}`.",
    FAMILY,
)

_BOUNDS = (
    ("minLength", "maxLength"),
    ("minItems", "maxItems"),
    ("minProperties", "maxProperties"),
)


def _number(value: Any) -> float | None:
    """A JSON number (never a boolean: draft-04's `exclusiveMinimum: true` is a flag, not a bound)."""
    return float(value) if isinstance(value, Real) and not isinstance(value, bool) else None


def unsatisfiable(walk: SchemaWalk, base: Pointer) -> Iterator[Finding]:
    """Every subschema of the walk that no value can satisfy, one finding per contradiction."""
    for entry in walk.nodes:
        node = entry.node
        at: Pointer = (*base, *entry.pointer)
        yield from _node(node, at)


def _node(node: dict[str, Any], at: Pointer) -> Iterator[Finding]:
    enum = node.get("enum")
    if isinstance(enum, list) and not enum:
        yield _finding("`enum` is empty: no value can satisfy this schema", (*at, "enum"))
    yield from _numeric_range(node, at)
    for low_key, high_key in _BOUNDS:
        low, high = _number(node.get(low_key)), _number(node.get(high_key))
        if low is not None and high is not None and low > high:
            yield _finding(
                f"`{low_key}` {short_repr(node[low_key])} is above `{high_key}` {short_repr(node[high_key])}: "
                "no value can satisfy this schema",
                (*at, low_key),
            )
    if "const" in node and isinstance(enum, list) and enum and not any(json_equal(node["const"], v) for v in enum):
        yield _finding(
            f"`const` {short_repr(node['const'])} is not in this schema's own `enum`: no value can satisfy both",
            (*at, "const"),
        )
    properties, required = node.get("properties"), node.get("required")
    if isinstance(properties, dict) and isinstance(required, list):
        for index, name in enumerate(required):
            if isinstance(name, str) and properties.get(name) is False:
                yield _finding(
                    f"`required` names '{name}', which `properties` forbids with `false`: no object can satisfy "
                    "this schema",
                    (*at, "required", index),
                )
    denied = node.get("not")
    if denied is True or denied == {}:
        yield _finding("`not` of a schema every value satisfies: no value can satisfy this schema", (*at, "not"))


def _numeric_range(node: dict[str, Any], at: Pointer) -> Iterator[Finding]:
    """`minimum`/`exclusiveMinimum` against `maximum`/`exclusiveMaximum` (the numeric forms of draft-06 on)."""
    lows = [(k, _number(node.get(k))) for k in ("minimum", "exclusiveMinimum")]
    highs = [(k, _number(node.get(k))) for k in ("maximum", "exclusiveMaximum")]
    for low_key, low in lows:
        for high_key, high in highs:
            if low is None or high is None:
                continue
            strict = low_key.startswith("exclusive") or high_key.startswith("exclusive")
            if low > high or (strict and low == high):
                relation = "above" if low > high else "equal to"
                yield _finding(
                    f"`{low_key}` {short_repr(node[low_key])} is {relation} `{high_key}` "
                    f"{short_repr(node[high_key])}: no number can satisfy this schema",
                    (*at, low_key),
                )
                return


def _finding(message: str, pointer: Pointer) -> Finding:
    return Finding(UNSATISFIABLE.code, message, pointer)
