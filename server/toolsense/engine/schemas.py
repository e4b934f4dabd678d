"""Walking JSON Schemas along a JSON pointer: the subschemas that apply at a place, their properties, enums.

Completion, hover and the rules' messages all ask "what does the schema say here?"; this is the one answer.
Local `$ref`s are followed (bounded); remote ones are not (they are never fetched).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..document.jsontree import Pointer

_MAX_REF_HOPS = 32
_BRANCHES = ("anyOf", "oneOf", "allOf")


def resolve_local_ref(root: Any, ref: str) -> Any:
    """`#/$defs/X` inside root; None when it does not resolve or is not local."""
    if not ref.startswith("#"):
        return None
    node: Any = root
    fragment = ref[1:]
    if not fragment:
        return root
    if not fragment.startswith("/"):
        return None
    for raw in fragment[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def expand(schema: Any, root: Any) -> list[dict[str, Any]]:
    """The schema itself plus its `$ref` target and `anyOf`/`oneOf`/`allOf` branches, flattened."""
    result: list[dict[str, Any]] = []
    stack: list[tuple[Any, int]] = [(schema, 0)]
    seen: set[int] = set()
    while stack:
        node, hops = stack.pop()
        if not isinstance(node, dict) or id(node) in seen or hops > _MAX_REF_HOPS:
            continue
        seen.add(id(node))
        result.append(node)
        ref = node.get("$ref")
        if isinstance(ref, str):
            stack.append((resolve_local_ref(root, ref), hops + 1))
        for keyword in _BRANCHES:
            branches = node.get(keyword)
            if isinstance(branches, list):
                stack.extend((branch, hops) for branch in reversed(branches))
    return result


def subschemas_at(schema: Any, pointer: Pointer, root: Any | None = None) -> list[dict[str, Any]]:
    """All (expanded) subschemas that apply to the value at pointer."""
    root = schema if root is None else root
    current = expand(schema, root)
    for part in pointer:
        following: list[dict[str, Any]] = []
        for node in current:
            for child in _children(node, part):
                following.extend(expand(child, root))
        current = following
        if not current:
            break
    return current


def _children(node: dict[str, Any], part: str | int) -> Iterator[Any]:
    if isinstance(part, int):
        prefix = node.get("prefixItems")
        if isinstance(prefix, list) and part < len(prefix):
            yield prefix[part]
            return
        items = node.get("items")
        if isinstance(items, list):
            if part < len(items):
                yield items[part]
        elif isinstance(items, dict):
            yield items
        return
    properties = node.get("properties")
    if isinstance(properties, dict) and part in properties:
        yield properties[part]
        return
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        yield extra


@dataclass(frozen=True)
class PropertyInfo:
    name: str
    schema: dict[str, Any]
    required: bool


def properties_of(schemas: Iterable[dict[str, Any]]) -> list[PropertyInfo]:
    """Properties declared by any of the schemas, required ones first, in declaration order."""
    seen: dict[str, PropertyInfo] = {}
    required: set[str] = set()
    for node in schemas:
        names = node.get("required")
        if isinstance(names, list):
            required.update(name for name in names if isinstance(name, str))
    for node in schemas:
        properties = node.get("properties")
        if not isinstance(properties, dict):
            continue
        for name, sub in properties.items():
            if name not in seen:
                seen[name] = PropertyInfo(name, sub if isinstance(sub, dict) else {}, name in required)
    ordered = list(seen.values())
    return [p for p in ordered if p.required] + [p for p in ordered if not p.required]


def enum_values(schemas: Iterable[dict[str, Any]]) -> list[Any]:
    values: list[Any] = []
    for node in schemas:
        for candidate in node.get("enum", []) if isinstance(node.get("enum"), list) else []:
            if candidate not in values:
                values.append(candidate)
        if "const" in node and node["const"] not in values:
            values.append(node["const"])
    return values


def json_types(schemas: Iterable[dict[str, Any]]) -> set[str]:
    kinds: set[str] = set()
    for node in schemas:
        kind = node.get("type")
        if isinstance(kind, str):
            kinds.add(kind)
        elif isinstance(kind, list):
            kinds.update(k for k in kind if isinstance(k, str))
    return kinds


def description_of(schemas: Iterable[dict[str, Any]]) -> str | None:
    for node in schemas:
        text = node.get("description")
        if isinstance(text, str) and text.strip():
            return text
    return None


def type_label(schemas: list[dict[str, Any]]) -> str:
    kinds = sorted(json_types(schemas))
    if kinds:
        return " | ".join(kinds)
    if enum_values(schemas):
        return "enum"
    return "any"


def closest(name: str, candidates: Iterable[str], limit: int = 3, cutoff: float = 0.6) -> list[str]:
    """Candidates most similar to name, best first (case-insensitive similarity, prefix bonus)."""
    pool = [c for c in dict.fromkeys(candidates) if c != name]
    lowered = name.lower()
    scored: list[tuple[float, str]] = []
    for candidate in pool:
        low = candidate.lower()
        ratio = difflib.SequenceMatcher(None, lowered, low).ratio()
        if lowered and (low.startswith(lowered) or lowered.startswith(low) or lowered in low):
            ratio = max(ratio, 0.75)
        if low == lowered:
            ratio = 1.0
        if ratio >= cutoff:
            scored.append((ratio, candidate))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [candidate for _, candidate in scored[:limit]]
