"""Scope resolution: which names a template or condition path may use at each place of an automation, and what
a path resolves to (a field of a tool's output, the trigger data, a variable), or why it does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .automation import ActionInfo, AutomationView, Where, similar
from .shapes import OPEN, Env, FieldInfo, Shape, ValueShape, is_index
from .templates import BUILTIN_BY_NAME, TRIGGER_DATA, USER, USER_FIELDS, Segment

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
    if parts[0] == TRIGGER_DATA and len(parts) > 1 and is_index(parts[1]):
        return 1
    if is_index(parts[0]):
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
