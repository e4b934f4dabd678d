"""What an automation can see: its actions, the names visible at each place, and the shape of the data behind them.

Pure functions over a unit's value and the tool registry, shared by the automation rules and the editor help
(completion, hover, go to definition). The runtime model follows nl_to_automation's executor:

- templates are resolved against a context of the trigger data spread at the root (`{{subject}}`), `user`,
  `trigger_data`, the `variables` and, as actions run, each action's output under its `output_as`;
  the date built-ins (`{{today}}`, …) are matched first, by exact name;
- a condition `path` is looked up in the same context (the built-ins are *not* there);
- a trigger `filter` (polling) / `filters` (webhook) path is looked up in the trigger data item itself, with or
  without a `trigger_data.` prefix;
- `tool_params` of a polling trigger are resolved before the source tool runs: only built-ins, `user` and
  variables exist then;
- outputs and trigger data are normalised: the contents of `data`, `summary`, `result`, `response`, `output`
  objects are also readable at the root, and the plain fields of `contributors`, `user`, `author`, `goals`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..document.jsontree import Pointer
from ..engine.context import CheckContext, ToolInfo, ToolRegistry
from ..engine.schemas import closest, description_of, enum_values, expand, json_types, properties_of, type_label
from ..jsonvalue import json_type_name
from ..settings import Settings
from .templates import BUILTIN_BY_NAME, TRIGGER_DATA, USER, USER_FIELDS, Segment, Token, parse_path, scan

if TYPE_CHECKING:
    from ..usermodels import ModelRegistry

WRAPPER_KEYS = ("data", "summary", "result", "response", "output")
FLATTEN_KEEP_KEYS = ("contributors", "user", "author", "goals")

Area = Literal["parameters", "condition", "tool_params", "filter"]


def similar(name: str, candidates: Iterable[str], limit: int = 3, cutoff: float = 0.6) -> list[str]:
    """Candidates most like name, best first; a containment match counts only for names of 3+ characters."""
    lowered = name.lower()
    kept: list[str] = []
    for candidate in closest(name, candidates, limit=limit * 4, cutoff=cutoff):
        ratio = difflib.SequenceMatcher(None, lowered, candidate.lower()).ratio()
        if ratio >= cutoff or min(len(lowered), len(candidate)) >= 3:
            kept.append(candidate)
    return kept[:limit]


# --- the automation ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionInfo:
    index: int
    id: str | None
    tool: str | None
    output_as: str | None
    value: dict[str, Any]

    @property
    def label(self) -> str:
        return f"'{self.id}'" if self.id else f"#{self.index + 1}"


@dataclass(frozen=True)
class AutomationView:
    value: dict[str, Any]
    trigger_type: str | None
    trigger_config: dict[str, Any]
    actions: tuple[ActionInfo, ...]
    variables: dict[str, Any]

    @classmethod
    def of(cls, value: Any) -> AutomationView | None:
        if not isinstance(value, dict):
            return None
        trigger = value.get("trigger_type")
        config = value.get("trigger_config")
        raw_actions = value.get("actions")
        actions: list[ActionInfo] = []
        if isinstance(raw_actions, list):
            for index, action in enumerate(raw_actions):
                if not isinstance(action, dict):
                    continue
                actions.append(
                    ActionInfo(
                        index,
                        _str_or_none(action.get("id")),
                        _str_or_none(action.get("tool")),
                        _str_or_none(action.get("output_as")) or None,
                        action,
                    )
                )
        variables = value.get("variables")
        return cls(
            value,
            trigger if isinstance(trigger, str) else None,
            config if isinstance(config, dict) else {},
            tuple(actions),
            variables if isinstance(variables, dict) else {},
        )

    def action(self, index: int) -> ActionInfo | None:
        for action in self.actions:
            if action.index == index:
                return action
        return None

    def outputs_before(self, index: int) -> dict[str, ActionInfo]:
        """output_as names set by actions before index (a later action with the same name wins, as at run time)."""
        found: dict[str, ActionInfo] = {}
        for action in self.actions:
            if action.index >= index:
                break
            if action.output_as:
                found[action.output_as] = action
        return found

    def output_definers(self, name: str) -> list[ActionInfo]:
        return [action for action in self.actions if action.output_as == name]

    @property
    def source_tool(self) -> str | None:
        if self.trigger_type != "polling":
            return None
        return _str_or_none(self.trigger_config.get("source_tool"))


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


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


def _is_index(part: str) -> bool:
    return part.lstrip("-").isdigit() and part.count("-") <= 1


class SchemaShape(Shape):
    """A value described by a JSON Schema (an MCP outputSchema, or part of one)."""

    def __init__(self, schema: Any, root: Any, origin: str) -> None:
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
            if _is_index(part):
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


def _schema_type(schemas: list[dict[str, Any]]) -> str:
    label = type_label(schemas)
    values = enum_values(schemas)
    if values:
        shown = ", ".join(repr(v) if not isinstance(v, str) else f'"{v}"' for v in values[:8])
        return f"{label} ({shown}{', …' if len(values) > 8 else ''})"
    return label


class ValueShape(Shape):
    """A value known by example: a sample output file, or a variable's literal value."""

    def __init__(self, value: Any, origin: str) -> None:
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
            if _is_index(part):
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

    def input_schema(self, name: str | None) -> dict[str, Any] | None:
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


def _registered_model_schema(models: ModelRegistry | None, name: str) -> dict[str, Any] | None:
    """The JSON Schema of the user model registered for this tool, if loaded."""
    loaded = models.model_for(name) if models is not None else None
    return loaded.schema if loaded is not None else None


# --- references: every template and condition path --------------------------------------------------------


@dataclass(frozen=True)
class Where:
    area: Area
    action: int | None = None


@dataclass(frozen=True)
class Reference:
    """A path used somewhere: in a `{{template}}` inside a string, or as a condition's `path`."""

    pointer: Pointer
    """The string value holding it (relative to the automation)."""
    where: Where
    token: Token | None
    """The template token (None for a condition path)."""
    segments: tuple[Segment, ...]
    span: tuple[int, int]
    """Where to mark it in the string: the template with its braces, or the whole path."""
    text: str = ""
    """The whole string the path is in."""

    @property
    def is_template(self) -> bool:
        return self.token is not None

    @property
    def path(self) -> str:
        return ".".join(s.text for s in self.segments)


@dataclass(frozen=True)
class StringSite:
    """A string the runtime resolves templates in."""

    pointer: Pointer
    text: str
    where: Where


def string_sites(view: AutomationView) -> Iterator[StringSite]:
    """Every string in which templates are resolved: parameters, condition values, tool_params, filter values."""
    for action in view.actions:
        base: Pointer = ("actions", action.index)
        params = action.value.get("parameters")
        if isinstance(params, dict):
            yield from _strings(params, (*base, "parameters"), Where("parameters", action.index))
        condition = action.value.get("condition")
        for clause, pointer in iter_clauses(condition, (*base, "condition")):
            if "value" in clause:
                yield from _strings(clause["value"], (*pointer, "value"), Where("condition", action.index))
    config = view.trigger_config
    if view.trigger_type == "polling" and isinstance(config.get("tool_params"), dict):
        yield from _strings(config["tool_params"], ("trigger_config", "tool_params"), Where("tool_params"))


def _strings(value: Any, pointer: Pointer, where: Where) -> Iterator[StringSite]:
    stack: list[tuple[Any, Pointer]] = [(value, pointer)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, str):
            yield StringSite(at, node, where)
        elif isinstance(node, dict):
            stack.extend((v, (*at, k)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, (*at, i)) for i, v in reversed(list(enumerate(node))))


def iter_clauses(condition: Any, pointer: Pointer, depth: int = 0) -> Iterator[tuple[dict[str, Any], Pointer]]:
    """Every clause (an object that is not a group) of a condition, with its pointer."""
    if not isinstance(condition, dict) or depth > 64:
        return
    if "clauses" in condition or "operator" in condition:
        clauses = condition.get("clauses")
        if isinstance(clauses, list):
            for index, clause in enumerate(clauses):
                yield from iter_clauses(clause, (*pointer, "clauses", index), depth + 1)
        return
    yield condition, pointer


def condition_sites(view: AutomationView) -> Iterator[tuple[dict[str, Any], Pointer, Where]]:
    """Every condition clause: actions' conditions, the polling `filter` and the webhook `filters`."""
    for action in view.actions:
        condition = action.value.get("condition")
        for clause, pointer in iter_clauses(condition, ("actions", action.index, "condition")):
            yield clause, pointer, Where("condition", action.index)
    for key in filter_keys(view):
        for clause, pointer in iter_clauses(view.trigger_config.get(key), ("trigger_config", key)):
            yield clause, pointer, Where("filter")


def filter_keys(view: AutomationView) -> tuple[str, ...]:
    if view.trigger_type == "polling":
        return ("filter",)
    if view.trigger_type == "webhook":
        return ("filters",)
    return ()


def references(view: AutomationView) -> Iterator[Reference]:
    """Every template path and condition path of the automation (templates first, in document order)."""
    for site in string_sites(view):
        if "{{" in site.text:
            yield from template_references(site, scan(site.text))
    yield from condition_references(view)


def template_references(site: StringSite, tokens: Iterable[Token]) -> Iterator[Reference]:
    for token in tokens:
        if token.kind in ("path", "raw") and token.segments:
            yield Reference(site.pointer, site.where, token, token.segments, (token.start, token.end), site.text)


def condition_references(view: AutomationView) -> Iterator[Reference]:
    for clause, pointer, where in condition_sites(view):
        path = clause.get("path")
        if isinstance(path, str) and path:
            stripped = path.strip()
            offset = len(path) - len(path.lstrip())
            segments = parse_path(stripped, offset)
            if segments is not None:
                yield Reference((*pointer, "path"), where, None, segments, (0, len(path)), path)


# --- resolution -------------------------------------------------------------------------------------------

Status = Literal[
    "ok",
    "event_data",
    "webhook_array",
    "unknown",
    "later_output",
    "own_output",
    "not_found",
    "no_trigger_data",
    "unavailable",
]
RootKind = Literal["builtin", "user", "trigger_data", "trigger_field", "variable", "output", "unknown"]


@dataclass(frozen=True)
class Resolution:
    status: Status
    kind: RootKind
    root: str
    shape: Shape = OPEN
    """The shape of the value the whole path names (OPEN when unknown)."""
    action: ActionInfo | None = None
    """The action whose output_as this is (outputs, later/own outputs)."""
    missing_at: int | None = None
    """Index of the first segment that does not exist (not_found)."""
    available: tuple[str, ...] = ()
    origin: str = ""
    suggestions: tuple[str, ...] = ()
    known: tuple[str, ...] = ()
    detail: str = ""
    shorthand_guess: bool = False
    """unknown: the name would be read from trigger data whose shape is not known (a warning, not an error)."""
    fields: tuple[FieldInfo, ...] = ()
    """not_found: the fields of the value that lacks the segment."""
    nested: bool = False
    """not_found: the missing segment is below the root of the shape (not one of its top-level fields)."""


def names_in_scope(view: AutomationView, where: Where) -> dict[str, RootKind]:
    """Root names usable at this place (for suggestions and completion), in the runtime's precedence."""
    names: dict[str, RootKind] = {}
    if where.area == "filter":
        names[TRIGGER_DATA] = "trigger_data"
        return names
    for name in view.variables:
        names.setdefault(name, "variable")
    if where.area == "tool_params":
        for name in BUILTIN_BY_NAME:
            names.setdefault(name, "builtin")
        names.setdefault(USER, "user")
        return names
    if where.action is not None:
        for name in view.outputs_before(where.action):
            names[name] = "output"
    if where.area != "condition":
        for name in BUILTIN_BY_NAME:
            names.setdefault(name, "builtin")
    names.setdefault(USER, "user")
    names.setdefault(TRIGGER_DATA, "trigger_data")
    return names


def resolve(view: AutomationView, env: Env, where: Where, segments: Sequence[Segment]) -> Resolution:
    """Where a path's value comes from, and whether the rest of the path exists in what is known of it."""
    parts = [s.text for s in segments]
    root = parts[0]
    trigger = env.trigger_shape(view)

    if view.trigger_type == "webhook":
        index_at = _webhook_index(parts)
        if index_at is not None:
            return Resolution("webhook_array", "trigger_data", root, missing_at=index_at)

    if where.area == "filter":
        rest = parts[1:] if root == TRIGGER_DATA and len(parts) > 1 else parts
        offset = len(parts) - len(rest)
        if root == TRIGGER_DATA and len(parts) == 1:
            return Resolution("ok", "trigger_data", root, trigger or OPEN, detail=_trigger_detail(view))
        return _walk(trigger or OPEN, rest, offset, "trigger_field", root, None, _trigger_detail(view))

    if root == "event_data":
        return Resolution("event_data", "unknown", root)

    if where.area != "condition" and len(parts) == 1 and root in BUILTIN_BY_NAME:
        builtin = BUILTIN_BY_NAME[root]
        return Resolution("ok", "builtin", root, _Typed(builtin.type, builtin.description), detail=builtin.description)

    if where.action is not None and where.area != "tool_params":
        earlier = view.outputs_before(where.action)
        if root in earlier:
            action = earlier[root]
            shape = env.output_shape(action.tool, f"the output of action {action.label} ({action.tool})")
            return _walk(shape, parts[1:], 1, "output", root, action, f"Output of action {action.label}")

    if root in view.variables:
        shape = ValueShape(view.variables[root], f"variable '{root}'")
        return _walk(shape, parts[1:], 1, "variable", root, None, "A variable of this automation")

    if root == USER:
        return _walk(_USER_SHAPE, parts[1:], 1, "user", root, None, "The automation owner's profile")

    definers = view.output_definers(root)
    if definers and where.action is not None and where.area != "tool_params":
        own = next((a for a in definers if a.index == where.action), None)
        if own is not None:
            return Resolution("own_output", "output", root, action=own)
        return Resolution("later_output", "output", root, action=definers[0])

    if where.area == "tool_params":
        if root == TRIGGER_DATA or definers:
            return Resolution("unavailable", "trigger_data" if root == TRIGGER_DATA else "output", root)
        return _unknown(view, where, root, None)

    if where.area == "condition" and len(parts) == 1 and root in BUILTIN_BY_NAME:
        return Resolution("unavailable", "builtin", root)

    if root == TRIGGER_DATA:
        if trigger is None:
            return Resolution("no_trigger_data", "trigger_data", root)
        if len(parts) == 1:
            return Resolution("ok", "trigger_data", root, trigger, detail=_trigger_detail(view))
        return _walk(trigger, parts[1:], 1, "trigger_data", root, None, _trigger_detail(view))

    # A bare name: the trigger data's fields are spread at the root of the context.
    if trigger is None:
        return _unknown(view, where, root, None)
    if trigger.is_open:
        candidates = _suggest(root, names_in_scope(view, where))
        if candidates:
            return Resolution(
                "unknown", "unknown", root, suggestions=candidates, known=_known(view, where), shorthand_guess=True
            )
        return Resolution("ok", "trigger_field", root, OPEN, detail=_trigger_detail(view))
    if trigger.child(root) is None:
        return _unknown(view, where, root, trigger)
    return _walk(trigger, parts, 0, "trigger_field", root, None, _trigger_detail(view))


class _Typed(Shape):
    def __init__(self, type_: str, description: str | None) -> None:
        self._type = type_
        self._description = description

    def fields(self) -> list[FieldInfo] | None:
        return []

    def child(self, part: str) -> Shape | None:
        return None

    @property
    def type(self) -> str:
        return self._type

    @property
    def description(self) -> str | None:
        return self._description


class _UserShape(Shape):
    origin = "user"

    def fields(self) -> list[FieldInfo] | None:
        return [FieldInfo(name, "string", text) for name, text in USER_FIELDS.items()]

    def child(self, part: str) -> Shape | None:
        text = USER_FIELDS.get(part)
        return _Typed("string", text) if text is not None else None

    @property
    def type(self) -> str:
        return "object"


_USER_SHAPE = _UserShape()


def _trigger_detail(view: AutomationView) -> str:
    if view.trigger_type == "polling" and view.source_tool:
        return f"Trigger data: the output of the polled tool '{view.source_tool}'"
    if view.trigger_type == "webhook":
        service = view.trigger_config.get("service")
        event = view.trigger_config.get("event_type")
        return f"Trigger data: the {service} '{event}' webhook payload"
    return "Trigger data"


def _webhook_index(parts: list[str]) -> int | None:
    if parts[0] == TRIGGER_DATA and len(parts) > 1 and _is_index(parts[1]):
        return 1
    if _is_index(parts[0]):
        return 0
    return None


def _walk(
    shape: Shape,
    rest: Sequence[str],
    offset: int,
    kind: RootKind,
    root: str,
    action: ActionInfo | None,
    detail: str,
) -> Resolution:
    current = shape
    for index, part in enumerate(rest):
        following = current.child(part)
        if following is None:
            fields = tuple(current.fields() or [])
            available = tuple(f.name for f in fields)
            return Resolution(
                "not_found",
                kind,
                root,
                current,
                action,
                offset + index,
                available,
                shape.origin,
                tuple(similar(part, available)),
                detail=detail,
                fields=fields,
                nested=index > 0,
            )
        current = following
    return Resolution("ok", kind, root, current, action, origin=shape.origin, detail=detail)


def _known(view: AutomationView, where: Where) -> tuple[str, ...]:
    names = names_in_scope(view, where)
    ordered = [n for n, k in names.items() if k in ("output", "variable")]
    ordered += [n for n, k in names.items() if k in ("trigger_data", "user")]
    return tuple(ordered)


def _suggest(name: str, names: Mapping[str, RootKind]) -> tuple[str, ...]:
    return tuple(similar(name, [n for n, k in names.items() if k != "trigger_field"]))


def _unknown(view: AutomationView, where: Where, root: str, trigger: Shape | None) -> Resolution:
    names = dict(names_in_scope(view, where))
    fields: tuple[str, ...] = ()
    if trigger is not None and where.area != "tool_params":
        fields = tuple(f.name for f in trigger.fields() or [])
        for name in fields:
            names.setdefault(name, "trigger_field")
    candidates = tuple(similar(root, list(names)))
    return Resolution(
        "unknown",
        "unknown",
        root,
        suggestions=candidates,
        known=_known(view, where),
        available=fields,
        origin=trigger.origin if trigger is not None else "",
    )


# --- places (for the editor) ------------------------------------------------------------------------------

PlaceKind = Literal["template", "path"]


def place_of(view: AutomationView, pointer: Pointer) -> tuple[Where, PlaceKind] | None:
    """What a string at pointer (relative to the automation) is: template text, or a condition path."""
    if len(pointer) >= 3 and pointer[0] == "actions" and isinstance(pointer[1], int):
        index = pointer[1]
        if pointer[2] == "parameters" and len(pointer) > 3:
            return Where("parameters", index), "template"
        if pointer[2] == "condition":
            rest = pointer[3:]
            if _clause_member(rest, "path"):
                return Where("condition", index), "path"
            if "value" in rest and _clause_member(rest[: rest.index("value") + 1], "value"):
                return Where("condition", index), "template"
        return None
    if len(pointer) >= 3 and pointer[0] == "trigger_config":
        if pointer[1] == "tool_params" and view.trigger_type == "polling":
            return Where("tool_params"), "template"
        if pointer[1] in filter_keys(view) and _clause_member(pointer[2:], "path"):
            return Where("filter"), "path"
    return None


def _clause_member(rest: Pointer, key: str) -> bool:
    """rest is `(clauses, i, clauses, j, …, key)`: a member of a clause inside nested groups."""
    if not rest or rest[-1] != key:
        return False
    body = rest[:-1]
    if len(body) % 2:
        return False
    return all(body[i] == "clauses" and isinstance(body[i + 1], int) for i in range(0, len(body), 2))
