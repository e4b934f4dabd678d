"""The shape of the data an automation reads: what a tool returns (its output schema, a sample), the trigger's
data, `user`; normalised as the executor does (wrapper objects read through, plain fields of some objects kept).
And `Env`, what a check or an editor request knows about the workspace's tools and samples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.context import CheckContext, ToolInfo, ToolRegistry
from ..engine.schemas import description_of, enum_values, expand, json_types, properties_of, type_label
from ..jsonvalue import JsonObject, JsonValue, json_type_name
from ..settings import Settings
from .automation import AutomationView

if TYPE_CHECKING:
    from ..usermodels import ModelRegistry

WRAPPER_KEYS = ("data", "summary", "result", "response", "output")
FLATTEN_KEEP_KEYS = ("contributors", "user", "author", "goals")
# --- data shapes ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldInfo:
    name: str
    type: str
    description: str | None = None
    primitive: bool = True
    via: str | None = None
    """Set when the runtime copies this field to the root from a wrapper/nested object (`data`, `contributors`)."""


class Shape:
    """What is known about a value: its fields (None when any field may exist) and each field's shape."""

    origin: str = ""

    def fields(self) -> list[FieldInfo] | None:
        return None

    def child(self, part: str) -> Shape | None:
        """The shape of a field or index; None when it certainly does not exist."""
        return OPEN

    @property
    def type(self) -> str:
        return "any"

    @property
    def description(self) -> str | None:
        return None

    @property
    def is_open(self) -> bool:
        return self.fields() is None


class _Open(Shape):
    pass


OPEN: Shape = _Open()


def is_index(part: str) -> bool:
    return part.lstrip("-").isdigit() and part.count("-") <= 1


class SchemaShape(Shape):
    """A value described by a JSON Schema (an MCP outputSchema, or part of one)."""

    def __init__(self, schema: JsonValue, root: JsonValue, origin: str) -> None:
        self.schemas = expand(schema, root)
        self.root = root
        self.origin = origin

    def _kinds(self) -> set[str]:
        return json_types(self.schemas)

    def _closed(self) -> bool:
        has_properties = any(isinstance(s.get("properties"), dict) for s in self.schemas)
        extra_open = any(
            s.get("additionalProperties") not in (None, False) or "patternProperties" in s for s in self.schemas
        )
        if extra_open:
            return False
        return has_properties or any(s.get("additionalProperties") is False for s in self.schemas)

    def _items(self) -> list[Any]:
        found: list[Any] = []
        for node in self.schemas:
            items = node.get("items")
            if isinstance(items, dict):
                found.append(items)
            prefix = node.get("prefixItems")
            if isinstance(prefix, list) and prefix:
                found.append(prefix[0])
        return found

    def fields(self) -> list[FieldInfo] | None:
        kinds = self._kinds()
        if kinds and kinds <= {"string", "number", "integer", "boolean", "null"}:
            return []
        if "array" in kinds and "object" not in kinds:
            items = self._items()
            return SchemaShape({"anyOf": items}, self.root, self.origin).fields() if items else None
        if not self._closed():
            return None
        result: list[FieldInfo] = []
        for prop in properties_of(self.schemas):
            sub = expand(prop.schema, self.root)
            sub_kinds = json_types(sub)
            result.append(
                FieldInfo(
                    prop.name,
                    _schema_type(sub),
                    description_of(sub),
                    primitive=not (sub_kinds & {"object", "array"}) and not any("properties" in s for s in sub),
                )
            )
        return result

    def child(self, part: str) -> Shape | None:
        kinds = self._kinds()
        if "array" in kinds or (not kinds and self._items()):
            if is_index(part):
                items = self._items()
                return SchemaShape({"anyOf": items}, self.root, self.origin) if items else OPEN
            if "object" not in kinds:
                # per_item / latest: a field of the (first) item.
                items = self._items()
                return SchemaShape({"anyOf": items}, self.root, self.origin).child(part) if items else OPEN
        if kinds and kinds <= {"string", "number", "integer", "boolean", "null"}:
            return None
        for node in self.schemas:
            properties = node.get("properties")
            if isinstance(properties, dict) and part in properties:
                return SchemaShape(properties[part], self.root, self.origin)
        if part == "0":
            return self  # the runtime skips a leading 0 on an object (per_item fallback)
        if not self._closed():
            extra = [
                s.get("additionalProperties") for s in self.schemas if isinstance(s.get("additionalProperties"), dict)
            ]
            return SchemaShape({"anyOf": extra}, self.root, self.origin) if extra else OPEN
        return None

    @property
    def type(self) -> str:
        return _schema_type(self.schemas)

    @property
    def description(self) -> str | None:
        return description_of(self.schemas)


def _schema_type(schemas: list[JsonObject]) -> str:
    label = type_label(schemas)
    values = enum_values(schemas)
    if values:
        shown = ", ".join(repr(v) if not isinstance(v, str) else f'"{v}"' for v in values[:8])
        return f"{label} ({shown}{', …' if len(values) > 8 else ''})"
    return label


class ValueShape(Shape):
    """A value known by example: a sample output file, or a variable's literal value."""

    def __init__(self, value: JsonValue, origin: str) -> None:
        self.value = value
        self.origin = origin

    def fields(self) -> list[FieldInfo] | None:
        value = self.value
        if isinstance(value, list):
            return ValueShape(value[0], self.origin).fields() if value else None
        if not isinstance(value, dict):
            return []
        return [FieldInfo(str(k), json_type_name(v), None, not isinstance(v, (dict, list))) for k, v in value.items()]

    def child(self, part: str) -> Shape | None:
        value = self.value
        if isinstance(value, list):
            if is_index(part):
                index = int(part)
                return ValueShape(value[index], self.origin) if -len(value) <= index < len(value) else OPEN
            return ValueShape(value[0], self.origin).child(part) if value else OPEN
        if isinstance(value, dict):
            if part in value:
                return ValueShape(value[part], self.origin)
            if part == "0":
                return self
            return None
        return None

    @property
    def type(self) -> str:
        return json_type_name(self.value)


class UnionShape(Shape):
    """Two descriptions of the same value (output schema and sample): a field known to either exists."""

    def __init__(self, parts: Sequence[Shape]) -> None:
        self.parts = list(parts)
        self.origin = parts[0].origin if parts else ""

    def fields(self) -> list[FieldInfo] | None:
        merged: dict[str, FieldInfo] = {}
        for part in self.parts:
            found = part.fields()
            if found is None:
                return None
            for info in found:
                merged.setdefault(info.name, info)
        return list(merged.values())

    def child(self, part: str) -> Shape | None:
        found = [shape for p in self.parts if (shape := p.child(part)) is not None]
        if not found:
            return None
        return found[0] if len(found) == 1 else UnionShape(found)

    @property
    def type(self) -> str:
        return self.parts[0].type if self.parts else "any"

    @property
    def description(self) -> str | None:
        return next((d for p in self.parts if (d := p.description)), None)


def _via(info: FieldInfo, where: str) -> FieldInfo:
    return FieldInfo(info.name, info.type, info.description, info.primitive, where)


class NormalizedShape(Shape):
    """The runtime's normalisation of an output or trigger item (wrapper contents readable at the root)."""

    def __init__(self, base: Shape) -> None:
        self.base = base
        self.origin = base.origin

    def _extra(self) -> dict[str, tuple[Shape, FieldInfo]]:
        extra: dict[str, tuple[Shape, FieldInfo]] = {}
        own = self.base.fields() or []
        names = {f.name for f in own}
        for info in own:
            if info.name not in WRAPPER_KEYS and info.name not in FLATTEN_KEEP_KEYS:
                continue
            inner = self.base.child(info.name)
            if inner is None:
                continue
            if info.name in WRAPPER_KEYS and inner.type.startswith("array"):
                first = inner.child("0")
                for sub in (first.fields() or []) if first is not None else []:
                    if sub.primitive and sub.name not in names and first is not None:
                        extra.setdefault(sub.name, (first.child(sub.name) or OPEN, _via(sub, f"{info.name}.0")))
                continue
            for sub in inner.fields() or []:
                if sub.name in names:
                    continue
                if info.name in WRAPPER_KEYS or sub.primitive:
                    extra.setdefault(sub.name, (inner.child(sub.name) or OPEN, _via(sub, info.name)))
        return extra

    def fields(self) -> list[FieldInfo] | None:
        own = self.base.fields()
        if own is None:
            return None
        return own + [info for _, info in self._extra().values()]

    def child(self, part: str) -> Shape | None:
        found = self.base.child(part)
        if found is not None:
            return found
        extra = self._extra().get(part)
        return extra[0] if extra is not None else None

    @property
    def type(self) -> str:
        return self.base.type

    @property
    def description(self) -> str | None:
        return self.base.description


# --- the environment: tools, samples ----------------------------------------------------------------------


@dataclass(frozen=True)
class Env:
    """What the rules know besides the unit: the registry's tools and sample outputs.

    Made for one check (or one editor request); it remembers the shapes it built meanwhile.
    """

    settings: Settings
    registry: ToolRegistry
    models: ModelRegistry | None = None
    trusted: bool = True
    _shapes: dict[tuple[str, str], Shape | None] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, ctx: CheckContext) -> Env:
        return cls(ctx.settings, ctx.registry, ctx.models, ctx.trusted)

    def tool(self, name: str | None) -> ToolInfo | None:
        if not name:
            return None
        return self.registry.lookup(name)

    def dialect(self, name: str | None) -> str | None:
        tool = self.tool(name)
        return tool.dialect if tool is not None else None

    def known_tool_names(self) -> list[str]:
        return sorted(set(self.registry.names()) | set(self.settings.models))

    def is_known_tool(self, name: str) -> bool:
        return self.registry.lookup(name) is not None or name in self.settings.models

    @property
    def has_tools(self) -> bool:
        return bool(self.registry.names()) or bool(self.settings.models)

    def samples(self) -> Mapping[str, Any]:
        return self.registry.samples

    def input_schema(self, name: str | None) -> JsonObject | None:
        """The tool's input schema: a registered model's schema when one is loaded, else the definition's."""
        if not name:
            return None
        model_schema = _registered_model_schema(self.models, name) if self.trusted else None
        if model_schema is not None:
            return model_schema
        tool = self.tool(name)
        return tool.input_schema if tool is not None else None

    def output_shape(self, tool_name: str | None, label: str | None = None) -> Shape:
        """What a tool returns (normalised), from its outputSchema and/or a sample file; OPEN when unknown."""
        if not tool_name:
            return OPEN
        key = ("output", f"{tool_name}\0{label}")
        if key not in self._shapes:
            self._shapes[key] = self._output_shape(tool_name, label)
        return self._shapes[key] or OPEN

    def _output_shape(self, tool_name: str, label: str | None) -> Shape:
        origin = label or f"{tool_name} output"
        parts: list[Shape] = []
        tool = self.tool(tool_name)
        if tool is not None and isinstance(tool.output_schema, dict):
            parts.append(SchemaShape(tool.output_schema, tool.output_schema, origin))
        sample = self.samples().get(tool_name, _MISSING)
        if sample is not _MISSING:
            parts.append(ValueShape(sample, origin))
        if not parts:
            return OPEN
        return NormalizedShape(parts[0] if len(parts) == 1 else UnionShape(parts))

    def trigger_shape(self, view: AutomationView) -> Shape | None:
        """The trigger data's shape; None when the trigger provides none (schedules, manual)."""
        config = view.trigger_config
        key = (
            "trigger",
            f"{view.trigger_type}\0{view.source_tool}\0{config.get('service')}\0{config.get('event_type')}",
        )
        if key not in self._shapes:
            self._shapes[key] = self._trigger_shape(view)
        return self._shapes[key]

    def _trigger_shape(self, view: AutomationView) -> Shape | None:
        if view.trigger_type == "polling":
            return self.output_shape(view.source_tool)
        if view.trigger_type == "webhook":
            service = view.trigger_config.get("service")
            event = view.trigger_config.get("event_type")
            key = f"webhook:{service}:{event}"
            sample = self.samples().get(key, _MISSING)
            if sample is not _MISSING:
                return NormalizedShape(ValueShape(sample, f"{service} {event} webhook payload"))
            return OPEN
        if view.trigger_type in ("schedule_recurring", "schedule_once", "manual"):
            return None
        return OPEN


_MISSING: Any = object()


def _registered_model_schema(models: ModelRegistry | None, name: str) -> JsonObject | None:
    """The JSON Schema of the user model registered for this tool, if loaded."""
    loaded = models.model_for(name) if models is not None else None
    return loaded.schema if loaded is not None else None
