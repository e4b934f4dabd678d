"""How each target spells a place inside a parameter schema in its messages.

The same `properties/freshness/anyOf/0` is `parameters.properties[1].value.any_of[0]` in a Gemini API parse error
(properties by position: the proto map's entries), `parameters.properties[freshness].any_of[0]` in its semantic
errors, `parameters.freshness` in Vertex AI's, and `('properties', 'freshness', 'anyOf', 0)` in OpenAI's.
"""

from __future__ import annotations

from ...document.jsontree import Pointer
from ...jsonvalue import JsonValue


def proto_path(schema: JsonValue, pointer: Pointer) -> str:
    """Gemini's parse-error path of the subschema at pointer (`.properties[2].value.items`)."""
    node = schema
    out: list[str] = []
    parts = list(pointer)
    while parts:
        part = parts.pop(0)
        if part == "properties" and parts and isinstance(node, dict) and isinstance(node.get("properties"), dict):
            name = parts.pop(0)
            props = node["properties"]
            assert isinstance(props, dict)
            index = list(props).index(name) if name in props else 0
            out.append(f".properties[{index}].value")
            node = props.get(str(name))
        elif part == "anyOf" and parts and isinstance(node, dict) and isinstance(node.get("anyOf"), list):
            index = int(parts.pop(0))
            branches = node["anyOf"]
            assert isinstance(branches, list)
            out.append(f".any_of[{index}]")
            node = branches[index] if index < len(branches) else None
        else:
            out.append(f".{_snake(str(part))}")
            node = node.get(str(part)) if isinstance(node, dict) else None
    return "".join(out)


def name_path(pointer: Pointer) -> str:
    """Gemini's semantic-error path (`.properties[action].items`): properties by name."""
    out: list[str] = []
    parts = list(pointer)
    while parts:
        part = parts.pop(0)
        if part == "properties" and parts:
            out.append(f".properties[{parts.pop(0)}]")
        elif part == "anyOf" and parts:
            out.append(f".any_of[{parts.pop(0)}]")
        else:
            out.append(f".{_snake(str(part))}")
    return "".join(out)


def dotted_path(pointer: Pointer) -> str:
    """Vertex AI's path (`.data.meta.width`): property names only."""
    return "".join(
        f".{part}" for i, part in enumerate(pointer) if not (part == "properties" and _names_next(pointer, i))
    )


def json_path(pointer: Pointer) -> str:
    """A pointer as dotted JSON Schema keywords (`properties.language`)."""
    return ".".join(str(part) for part in pointer)


def python_tuple(pointer: Pointer) -> str:
    """OpenAI's `context=(...)`: the pointer as a Python tuple."""
    return repr(tuple(pointer))


def _names_next(pointer: Pointer, index: int) -> bool:
    return index + 1 < len(pointer) and isinstance(pointer[index + 1], str)


def _snake(keyword: str) -> str:
    return {"anyOf": "any_of", "propertyOrdering": "property_ordering"}.get(keyword, keyword)
