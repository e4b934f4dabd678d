"""The "close every object schema" source action: `"additionalProperties": false` on each object schema of
every tool in the file that lists its properties and leaves the rest open."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..document.document import Document
from ..document.jsontree import Pointer, locate
from ..engine.catalog import UnitKind
from ..engine.findings import Fix, FixEdit, InsertMembers
from ..engine.units import Unit, read_unit, split, with_dialects
from ..models.definitions import SCHEMA_KEY

CLOSE_OBJECTS_TITLE = "Add additionalProperties: false to every object schema"
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_SINGLE = ("additionalProperties", "items", "not", "if", "then", "else", "contains")
_MAX_SCHEMA_DEPTH = 64


def open_object_schemas(
    schema: Any, pointer: Pointer = (), depth: int = 0, in_all_of: bool = False
) -> Iterator[Pointer]:
    """Pointers (relative to schema) of object schemas without `additionalProperties`.

    Skipped: `allOf` branches and schemas that use `allOf`, `anyOf`, `oneOf` or `$ref` (closing them would
    reject the properties the branches define), `anyOf`/`oneOf` branches of an object that lists properties of
    its own (a branch is checked against the whole object), free-form objects that list no `properties` (closing
    one would allow only `{}`: whether it should is the author's choice), and booleans.
    """
    if not isinstance(schema, dict) or depth > _MAX_SCHEMA_DEPTH:
        return
    kind = schema.get("type")
    is_object = kind == "object" or (isinstance(kind, list) and "object" in kind)
    is_object = is_object or (kind is None and isinstance(schema.get("properties"), dict))
    closed = "additionalProperties" in schema or "unevaluatedProperties" in schema
    listed = isinstance(schema.get("properties"), dict) or isinstance(schema.get("patternProperties"), dict)
    composed = any(keyword in schema for keyword in ("allOf", "anyOf", "oneOf", "$ref"))
    if is_object and listed and not closed and not in_all_of and not composed:
        yield pointer
    for keyword in _SCHEMA_MAPS:
        children = schema.get(keyword)
        if isinstance(children, dict):
            for name, child in children.items():
                yield from open_object_schemas(child, (*pointer, keyword, name), depth + 1)
    for keyword in _SCHEMA_LISTS:
        branches = schema.get(keyword)
        if isinstance(branches, list):
            for index, child in enumerate(branches):
                beside = keyword == "allOf" or (keyword in ("anyOf", "oneOf") and listed)
                yield from open_object_schemas(child, (*pointer, keyword, index), depth + 1, beside)
    for keyword in _SCHEMA_SINGLE:
        child = schema.get(keyword)
        if isinstance(child, dict):
            yield from open_object_schemas(child, (*pointer, keyword), depth + 1)
        elif keyword == "items" and isinstance(child, list):
            for index, item in enumerate(child):
                yield from open_object_schemas(item, (*pointer, keyword, index), depth + 1)


def close_objects_fix(
    document: Document, kind_hint: UnitKind | None = None, units: Sequence[Unit] | None = None
) -> Fix | None:
    """One fix adding `"additionalProperties": false` to every open object schema of every tool in the file.

    `units`: the file's units when a check has just read them (the language server's last report).
    """
    if units is None:
        file_split = split(document, kind_hint)
        if file_split.kind != "tool":
            return None
        units = with_dialects([read_unit(document, span) for span in file_split.spans])
    edits: list[FixEdit] = []
    for unit in units:
        if unit.kind != "tool":
            continue
        if unit.dialect not in SCHEMA_KEY or unit.dialect == "gemini" or not isinstance(unit.value, dict):
            continue  # Gemini's schema subset has no additionalProperties
        if not locate(document.outline, unit.pointer).complete:
            continue  # a tool inside a JSON string (a dataset's `tools`): no JSON of the file to edit there
        keys = [SCHEMA_KEY[unit.dialect]] + ([("outputSchema",)] if unit.dialect == "mcp" else [])
        for key in keys:
            schema: Any = unit.value
            for part in key:
                schema = schema.get(part) if isinstance(schema, dict) else None
            for relative in open_object_schemas(schema):
                edits.append(InsertMembers((*unit.pointer, *key, *relative), (("additionalProperties", "false"),)))
    if not edits:
        return None
    return Fix(CLOSE_OBJECTS_TITLE, tuple(edits), safe=True)
