"""Drift between a tool's JSON Schema and the pydantic model registered for it: a schema written by hand falls
behind the model (a property the examples use is missing; an enum list differs from the Python enum).

For a tool with a registered model: properties in the model but not in the schema and the reverse, differing
`required` sets, and enum values that differ from the Python enum — each placed on the schema node, with the
model's location (module:Qualname (file:line)) in the message. Registered enums (`[tool.toolsense.enums]`) are
compared with every schema node they name. `toolsense schema MODULE:MODEL` regenerates instead of hand-editing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...document.jsontree import Pointer
from ...domain.tool import ToolView, tool_view, walk_schema
from ...engine.context import CheckContext
from ...engine.equality import value_key
from ...engine.findings import Finding, Severity
from ...engine.schemas import resolve_local_ref
from ...engine.units import Unit
from ...jsonvalue import JsonValue, short_repr
from ...usermodels import LoadedModel
from ..calls.tool_calls import model_problem
from ..catalog import CATALOG

FAMILY = "Drift from registered models"

MODEL_ONLY = CATALOG.rule(
    "TS701",
    "property-missing-from-schema",
    Severity.ERROR,
    "The registered model has a property the tool's schema lacks: the model can never receive it.",
    FAMILY,
)
SCHEMA_ONLY = CATALOG.rule(
    "TS702",
    "property-not-in-model",
    Severity.ERROR,
    "The tool's schema offers a property the registered model does not have: the model rejects it.",
    FAMILY,
)
REQUIRED = CATALOG.rule(
    "TS703",
    "required-differs-from-model",
    Severity.ERROR,
    "The schema's `required` list differs from the registered model's required fields.",
    FAMILY,
)
ENUM = CATALOG.rule(
    "TS704",
    "enum-differs-from-model",
    Severity.ERROR,
    "An enum in the schema differs from the Python enum of the registered model (or a registered enum).",
    FAMILY,
)

_MAX_DEPTH = 32


def _deref(node: JsonValue, root: JsonValue, pointer: Pointer | None) -> tuple[Any, Pointer | None, str | None]:
    """Follow `$ref`s (bounded); the node, its pointer in the document, and the `$defs` name last followed."""
    name: str | None = None
    for _ in range(16):
        if not isinstance(node, dict):
            break
        ref = node.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            break
        target = resolve_local_ref(root, ref)
        if target is None:
            break
        parts = [p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/")]
        name = parts[-1]
        pointer = _ref_pointer(root, parts) if pointer is not None else None
        node = target
    return node, pointer, name


def _ref_pointer(root: JsonValue, parts: list[str]) -> Pointer:
    pointer: list[str | int] = []
    node = root
    for part in parts:
        if isinstance(node, list) and part.isdigit():
            pointer.append(int(part))
            node = node[int(part)] if int(part) < len(node) else None
        else:
            pointer.append(part)
            node = node.get(part) if isinstance(node, dict) else None
    return tuple(pointer)


def _unwrap_nullable(node: Any, root: Any, pointer: Pointer | None) -> tuple[Any, Pointer | None, str | None]:
    """`anyOf: [X, {"type": "null"}]` → X (pydantic's Optional), dereferenced."""
    node, pointer, name = _deref(node, root, pointer)
    if isinstance(node, dict) and isinstance(node.get("anyOf"), list):
        branches = [
            (i, b) for i, b in enumerate(node["anyOf"]) if not (isinstance(b, dict) and b.get("type") == "null")
        ]
        if len(branches) == 1:
            index, branch = branches[0]
            inner_pointer = (*pointer, "anyOf", index) if pointer is not None else None
            inner, inner_pointer, inner_name = _deref(branch, root, inner_pointer)
            return inner, inner_pointer, inner_name or name
    return node, pointer, name


class _Comparison:
    def __init__(self, view: ToolView, loaded: LoadedModel) -> None:
        self.view = view
        self.loaded = loaded
        self.tool_root = view.schema
        self.model_root = loaded.schema
        self.seen: set[tuple[int, int]] = set()
        self.found: dict[tuple[str, Pointer, str], Finding] = {}

    def emit(self, code: str, message: str, pointer: Pointer, target: str = "value") -> None:
        absolute = (*self.view.schema_pointer, *pointer)
        key = (code, absolute, message)
        if key not in self.found:
            self.found[key] = Finding(code, message, absolute, target, data={"model": self.loaded.target})  # type: ignore[arg-type]

    def compare(
        self, schema: JsonValue, model: JsonValue, pointer: Pointer, model_name: str | None, depth: int
    ) -> None:
        if depth > _MAX_DEPTH:
            return
        schema, s_pointer, _ = _unwrap_nullable(schema, self.tool_root, pointer)
        model, _, m_name = _unwrap_nullable(model, self.model_root, ())
        model_name = m_name or model_name
        if not isinstance(schema, dict) or not isinstance(model, dict) or s_pointer is None:
            return
        pair = (id(schema), id(model))
        if pair in self.seen:
            return
        self.seen.add(pair)
        where = self.loaded.location_of(model_name)
        self._enum(schema, model, s_pointer, where)
        s_props, m_props = schema.get("properties"), model.get("properties")
        if isinstance(s_props, dict) and isinstance(m_props, dict):
            self._properties(schema, model, s_pointer, where)
            for name in s_props:
                if name in m_props:
                    self.compare(s_props[name], m_props[name], (*s_pointer, "properties", name), model_name, depth + 1)
        s_items, m_items = schema.get("items"), model.get("items")
        if isinstance(s_items, dict) and isinstance(m_items, dict):
            self.compare(s_items, m_items, (*s_pointer, "items"), model_name, depth + 1)

    def _properties(self, schema: dict[str, Any], model: dict[str, Any], pointer: Pointer, where: str) -> None:
        s_props: dict[str, Any] = schema["properties"]
        m_props: dict[str, Any] = model["properties"]
        for name in m_props:
            if name not in s_props:
                self.emit(
                    MODEL_ONLY.code,
                    f"Property '{name}' of the model {where} is missing from the schema",
                    (*pointer, "properties"),
                    "key",
                )
        for name in s_props:
            if name not in m_props:
                self.emit(
                    SCHEMA_ONLY.code,
                    f"Property '{name}' is not in the model {where}: the model rejects it",
                    (*pointer, "properties", name),
                    "key",
                )
        s_required = (
            {n for n in schema.get("required", []) if isinstance(n, str)}
            if isinstance(schema.get("required"), list)
            else set()
        )
        m_required = (
            {n for n in model.get("required", []) if isinstance(n, str)}
            if isinstance(model.get("required"), list)
            else set()
        )
        common = set(s_props) & set(m_props)
        only_model = sorted((m_required - s_required) & common)
        only_schema = sorted((s_required - m_required) & common)
        if only_model or only_schema:
            parts = []
            if only_model:
                parts.append(
                    "the model requires " + ", ".join(f"'{n}'" for n in only_model) + " but the schema does not"
                )
            if only_schema:
                parts.append(
                    "the schema requires " + ", ".join(f"'{n}'" for n in only_schema) + " but the model does not"
                )
            target_pointer = (*pointer, "required") if "required" in schema else pointer
            self.emit(
                REQUIRED.code,
                f"'required' differs from the model {where}: " + "; ".join(parts),
                target_pointer,
                "value" if "required" in schema else "parent",
            )

    def _enum(self, schema: dict[str, Any], model: dict[str, Any], pointer: Pointer, where: str) -> None:
        m_values = model.get("enum")
        if not isinstance(m_values, list):
            return
        s_values = schema.get("enum")
        if not isinstance(s_values, list):
            if "const" in schema or schema.get("type") not in ("string", "integer", "number", None):
                return
            shown = ", ".join(short_repr(v) for v in m_values[:12]) + (", …" if len(m_values) > 12 else "")
            self.emit(
                ENUM.code,
                f"The model {where} allows only {shown}, but the schema has no enum here",
                pointer,
                "parent",
            )
            return
        message = enum_difference(s_values, m_values, f"the model {where}")
        if message is not None:
            self.emit(ENUM.code, message, (*pointer, "enum"))


def enum_difference(schema_values: list[Any], python_values: list[Any], what: str) -> str | None:
    """A message when the schema's enum differs from the Python one (as sets), else None."""

    schema_keys = {value_key(v): v for v in schema_values}
    python_keys = {value_key(v): v for v in python_values}
    missing = [v for k, v in python_keys.items() if k not in schema_keys]
    extra = [v for k, v in schema_keys.items() if k not in python_keys]
    if not missing and not extra:
        return None
    parts = []
    if missing:
        parts.append("missing " + ", ".join(short_repr(v) for v in missing[:12]) + (", …" if len(missing) > 12 else ""))
    if extra:
        parts.append(
            "not in the enum " + ", ".join(short_repr(v) for v in extra[:12]) + (", …" if len(extra) > 12 else "")
        )
    return f"Enum values differ from {what}: " + "; ".join(parts)


@CATALOG.unit_check("tool")
def model_drift(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = tool_view(unit)
    if view is None or view.name is None:
        return
    problem = model_problem(ctx, view.name, view.name_pointer)
    if problem is not None:
        yield problem
    yield from _registered_enums(view, ctx)
    if ctx.models is None or not ctx.trusted or not isinstance(view.schema, dict):
        return
    loaded = ctx.models.model_for(view.name)
    if loaded is None:
        return
    comparison = _Comparison(view, loaded)
    comparison.compare(view.schema, loaded.schema, (), None, 0)
    yield from comparison.found.values()


def _registered_enums(view: ToolView, ctx: CheckContext) -> Iterator[Finding]:
    if ctx.models is None or not ctx.trusted or not ctx.models.enums or not isinstance(view.schema, dict):
        return
    walk = walk_schema(view.schema, ctx.settings.limits.max_schema_depth, ctx.settings.limits.max_subschemas)
    for key, loaded in ctx.models.enums.items():
        tool, _, fragment = key.partition("#")
        if fragment:
            if tool != view.name:
                continue
            node = resolve_local_ref(view.schema, "#" + fragment)
            targets: list[tuple[Pointer, Any]] = (
                [(tuple(p for p in fragment.strip("/").split("/") if p), node)] if node is not None else []
            )
        else:
            targets = [
                (entry.pointer, entry.node)
                for entry in walk.nodes
                if entry.node.get("title") == key
                or (entry.via in ("$defs", "definitions") and entry.pointer[-1] == key)
            ]
        for pointer, node in targets:
            values = node.get("enum") if isinstance(node, dict) else None
            if not isinstance(values, list):
                continue
            message = enum_difference(values, loaded.values, f"the registered enum {loaded.location}")
            if message is not None:
                yield Finding(ENUM.code, message, (*view.schema_pointer, *pointer, "enum"))
