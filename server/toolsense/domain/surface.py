"""A tool's surface: what a caller and a model see of it, the same whatever dialect spells it.

Name, description, input schema, output schema (MCP), annotations and title (MCP), and the other members, each
with its absolute JSON pointer in the file, so a comparison of two versions can say where each change is in both.
Built from the units the engine read (`unit_surfaces`), or from the `tools` of an MCP listing (`mcp_surfaces`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..document.jsontree import Pointer
from ..engine.units import Unit
from ..jsonvalue import JsonValue
from ..models.definitions import DESCRIPTION_KEY, NAME_KEY, SCHEMA_KEY, schema_pointer
from ..models.dialects import Dialect, lower_types
from .tool import value_at

_MCP_PARTS = ("outputSchema", "annotations", "title")


@dataclass(frozen=True)
class ToolSurface:
    name: str
    dialect: str
    pointer: Pointer
    """The tool in its file."""
    name_pointer: Pointer
    description: JsonValue
    description_pointer: Pointer
    input: JsonValue
    input_pointer: Pointer
    output: JsonValue = None
    output_pointer: Pointer = ()
    annotations: JsonValue = None
    annotations_pointer: Pointer = ()
    title: JsonValue = None
    title_pointer: Pointer = ()
    others: dict[Pointer, JsonValue] = field(default_factory=dict)
    """The members of the definition none of the above is in (`strict`, `_meta`, `icons`, …), by their pointer
    inside the tool (`function` of an OpenAI Chat tool holds most of them, the wrapper has `type`)."""


def tool_surface(value: JsonValue, dialect: str, pointer: Pointer) -> ToolSurface | None:
    """The surface of one function tool of a known dialect; None for anything else or a tool without a name."""
    if dialect not in SCHEMA_KEY or not isinstance(value, dict):
        return None
    name = value_at(value, NAME_KEY[dialect])
    if not isinstance(name, str) or not name:
        return None
    schema_at = schema_pointer(dialect, value)
    schema = value_at(value, schema_at)
    if dialect == Dialect.GEMINI and schema_at == SCHEMA_KEY[dialect]:
        schema = lower_types(schema)  # Gemini's OpenAPI subset spells OBJECT; compared as JSON Schema
    holder = NAME_KEY[dialect][:-1]
    inner = value_at(value, holder)
    known = {NAME_KEY[dialect][-1], DESCRIPTION_KEY[dialect][-1]}
    if schema_at[: len(holder)] == holder:
        known.add(schema_at[len(holder)])  # Bedrock's toolSpec.inputSchema.json: `inputSchema` is the schema
    mcp = dialect == Dialect.MCP
    if mcp:
        known.update(_MCP_PARTS)
    others: dict[Pointer, JsonValue] = {}
    if isinstance(inner, dict):
        others.update({(*holder, k): v for k, v in inner.items() if k not in known})
    if holder:  # OpenAI Chat's {"type": "function", "function": {...}}: the wrapper's own members too
        others.update({(k,): v for k, v in value.items() if k != holder[0]})
    return ToolSurface(
        name=name,
        dialect=dialect,
        pointer=pointer,
        name_pointer=(*pointer, *NAME_KEY[dialect]),
        description=value_at(value, DESCRIPTION_KEY[dialect]),
        description_pointer=(*pointer, *DESCRIPTION_KEY[dialect]),
        input=schema,
        input_pointer=(*pointer, *schema_at),
        output=value.get("outputSchema") if mcp else None,
        output_pointer=(*pointer, "outputSchema"),
        annotations=value.get("annotations") if mcp else None,
        annotations_pointer=(*pointer, "annotations"),
        title=value.get("title") if mcp else None,
        title_pointer=(*pointer, "title"),
        others=others,
    )


def unit_surfaces(units: Iterable[Unit]) -> list[ToolSurface]:
    """The surfaces of a file's tool units (a request's own tools included: a recorded body is a surface too)."""
    found = []
    for unit in units:
        if unit.kind != "tool" or unit.dialect is None:
            continue
        surface = tool_surface(unit.value, unit.dialect, unit.pointer)
        if surface is not None:
            found.append(surface)
    return found


def mcp_surfaces(tools: list[JsonValue], base: Pointer = ("tools",)) -> list[ToolSurface]:
    """The surfaces of an MCP `tools/list` result's tools (a snapshot's, a live listing's), at `base`."""
    found = []
    for index, tool in enumerate(tools):
        surface = tool_surface(tool, Dialect.MCP, (*base, index))
        if surface is not None:
            found.append(surface)
    return found
