"""Rules of the clients in between: GitHub Copilot forwarding to a model family, and VS Code's MCP client."""

from __future__ import annotations

from collections.abc import Iterator

from ..tool import SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_SINGLES, ToolView, types_of, walk_schema
from .meta import meta_errors
from .model import Hit, Message, Rule, Source
from .targets import READ, VSCODE_MCP_SOURCE

COPILOT_GEMINI = frozenset({"copilot-gemini"})
COPILOT_400 = Message("400 Bad Request", "2026-08-26")


def _union_items(view: ToolView, target: str) -> Iterator[Hit]:
    for entry in walk_schema(view.schema).nodes:
        kind = entry.node.get("type")
        if entry.via == "items" and isinstance(kind, list) and "object" in kind and len(kind) > 1:
            yield Hit((*view.schema_pointer, *entry.pointer, "type"))


COPILOT_UNION_ITEMS = Rule(
    "copilot-gemini-union-items",
    COPILOT_GEMINI,
    "rejected",
    'array `items` whose `type` is a list with `"object"` (`["object", "null"]`)',
    (COPILOT_400,),
    (
        Source(
            "https://github.com/github/copilot-cli/issues/4623",
            "2026-08-26",
            "copilot-gemini/union-type-items-copilot-cli",
        ),
        Source("https://github.com/github/copilot-cli/issues/4155", "2026-07-16"),
    ),
    _union_items,
)


def _array_enum(view: ToolView, target: str) -> Iterator[Hit]:
    for entry in walk_schema(view.schema).nodes:
        if "enum" in entry.node and "array" in types_of(entry.node):
            yield Hit((*view.schema_pointer, *entry.pointer, "enum"))


COPILOT_ARRAY_ENUM = Rule(
    "copilot-gemini-array-enum",
    COPILOT_GEMINI,
    "rejected",
    "`enum` directly on an array schema",
    (COPILOT_400,),
    (
        Source(
            "https://github.com/github/copilot-cli/issues/4835",
            "2026-09-14",
            "copilot-gemini/enum-on-array-copilot-cli",
        ),
    ),
    _array_enum,
)


def _boolean_subschemas(view: ToolView) -> Iterator[tuple[str | int, ...]]:
    for entry in walk_schema(view.schema).nodes:
        for key, child in entry.node.items():
            if key in SCHEMA_MAPS and isinstance(child, dict):
                for name, sub in child.items():
                    if isinstance(sub, bool):
                        yield (*entry.pointer, key, name)
            elif key in SCHEMA_SINGLES and isinstance(child, bool) and key != "additionalProperties":
                yield (*entry.pointer, key)
            elif key in SCHEMA_LISTS and isinstance(child, list):
                for index, sub in enumerate(child):
                    if isinstance(sub, bool):
                        yield (*entry.pointer, key, index)


def _boolean_schema(view: ToolView, target: str) -> Iterator[Hit]:
    for pointer in _boolean_subschemas(view):
        yield Hit((*view.schema_pointer, *pointer))


COPILOT_BOOLEAN_SCHEMA = Rule(
    "copilot-gemini-boolean-schema",
    COPILOT_GEMINI,
    "rejected",
    "a boolean subschema (`true` or `false` in place of a schema; `additionalProperties: false` is not one)",
    (COPILOT_400,),
    (
        Source(
            "https://github.com/github/copilot-cli/issues/4623",
            "2026-09-08",
            "copilot-gemini/boolean-subschema-copilot-cli",
        ),
    ),
    _boolean_schema,
)


def _draft7(view: ToolView, target: str) -> Iterator[Hit]:
    if isinstance(view.schema, dict):
        for where, message in meta_errors(view.schema, draft7=True):
            yield Hit((*view.schema_pointer, *where), {"error": message})


VSCODE_DRAFT7 = Rule(
    "vscode-draft-07",
    frozenset({"vscode-mcp"}),
    "rejected",
    "an input schema the draft-07 meta-schema rejects: VS Code omits the tool",
    (
        Message(
            "MCP server `<server>` has tools with invalid parameters which will be omitted.",
            documented=True,
        ),
    ),
    (Source(VSCODE_MCP_SOURCE, READ),),
    _draft7,
)


def _array_items(view: ToolView, target: str) -> Iterator[Hit]:
    for entry in walk_schema(view.schema).nodes:
        if "array" in types_of(entry.node) and "items" not in entry.node:
            yield Hit((*view.schema_pointer, *entry.pointer), {"name": view.name or ""})


VSCODE_ARRAY_ITEMS = Rule(
    "vscode-array-items",
    frozenset({"vscode-mcp"}),
    "rejected",
    "an array schema without `items`: the tool fails validation in agent mode",
    (
        Message(
            "Failed to validate tool mcp_<server>_{name}: Error: tool parameters array type must have items. Please "
            "open a Github issue for the MCP server or extension which provides this tool",
            "2025-04-08",
        ),
    ),
    (
        Source("https://github.com/microsoft/vscode/issues/246119", "2025-04-08"),
        Source(
            "https://github.com/modelcontextprotocol/php-sdk/issues/151",
            "2025-11-15",
            "vscode-mcp/array-missing-items-php-sdk",
        ),
        Source(
            "https://github.com/vespo92/SolidworksMCP-TS/pull/30",
            "2026-09-17",
            "vscode-mcp/array-missing-items-solidworks",
        ),
    ),
    _array_items,
)

RULES = (COPILOT_UNION_ITEMS, COPILOT_ARRAY_ENUM, COPILOT_BOOLEAN_SCHEMA, VSCODE_DRAFT7, VSCODE_ARRAY_ITEMS)
