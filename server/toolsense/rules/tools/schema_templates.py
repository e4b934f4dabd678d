"""A schema keyword whose value is a template placeholder (TS222): `"enum": "$CATEGORIES"`, `"type": "${TYPE}"`,
`"maxLength": "{{max_len}}"`, `"items": "<ITEMS>"`. The file is the source a loader fills in, not what is sent:
one warning naming the placeholder stands for whatever the JSON Schema rules would say about the string."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ...document.jsontree import Pointer
from ...engine.findings import Finding, Severity
from ..catalog import CATALOG
from .schema_codes import FAMILY

TEMPLATE_VALUE = CATALOG.rule(
    "TS222",
    "template-placeholder-in-schema",
    Severity.WARNING,
    'A schema keyword whose value is a template placeholder (`"enum": "$CATEGORIES"`, `${VAR}`, `{{var}}`, '
    "`<VAR>`): the file is a template its loader fills in; sent as written, a provider rejects it.",
    FAMILY,
)

_SENTINEL = re.compile(
    r"\s*(\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^{}]+\}|\{\{[^{}]*\}\}|\{%[^%]*%\}|<[A-Za-z_][A-Za-z0-9_ .:-]*>)\s*"
)
_SCHEMA_CODES = frozenset({"TS210", "TS214", "TS211", "TS213", "TS219", "TS221"})
"""The JSON Schema family's codes that can be about a keyword's value itself."""


def sentinel(value: Any) -> str | None:
    """The placeholder a string value is, whole (`$CATEGORIES`, `${VAR}`, `{{var}}`, `<VAR>`), else None."""
    if isinstance(value, str) and _SENTINEL.fullmatch(value):
        return value.strip()
    return None


def placeholders(schema: Any, base: Pointer, findings: Iterable[Finding]) -> Iterator[Finding]:
    """`findings` with those about a keyword whose value is a placeholder replaced by one TS222 per keyword."""
    seen: set[Pointer] = set()
    for finding in findings:
        if finding.code in _SCHEMA_CODES and finding.pointer[: len(base)] == base:
            at = _placeholder_at(schema, finding.pointer[len(base) :])
            if at is not None:
                inner, name = at
                pointer = (*base, *inner)
                if pointer not in seen:
                    seen.add(pointer)
                    keyword = inner[-1] if inner else "schema"
                    yield Finding(
                        TEMPLATE_VALUE.code,
                        f"`{keyword}` is the template placeholder {name!r}, filled in by the tool's loader: "
                        "checked as written, it is not a schema value (a provider given this file as is rejects it)",
                        pointer,
                    )
                continue
        yield finding


_MISSING = object()


def _child(node: Any, part: str | int) -> Any:
    """The member or item `part` of a JSON value, else `_MISSING`."""
    if isinstance(node, dict) and isinstance(part, str):
        return node.get(part, _MISSING)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    return _MISSING


def _placeholder_at(schema: Any, pointer: Pointer) -> tuple[Pointer, str] | None:
    """The pointer (inside the schema) and name of a placeholder at or above `pointer`, if any."""
    node = schema
    walked: list[str | int] = []
    for part in pointer:
        name = sentinel(node)
        if name is not None:
            return tuple(walked), name
        node = _child(node, part)
        if node is _MISSING:
            return None
        walked.append(part)
    name = sentinel(node)
    return (tuple(walked), name) if name is not None else None
