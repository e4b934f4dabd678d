"""An automation as the rules and the editor read it: its actions, and every template and condition path in it
with the place it sits (`Where`). What the names there resolve to is `scope`; the data behind them, `shapes`.

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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..document.jsontree import Pointer
from ..engine.schemas import closest
from ..jsonvalue import JsonObject, JsonValue
from .templates import Segment, Token, parse_path, scan

if TYPE_CHECKING:
    pass

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
    value: JsonObject

    @property
    def label(self) -> str:
        return f"'{self.id}'" if self.id else f"#{self.index + 1}"


@dataclass(frozen=True)
class AutomationView:
    value: JsonObject
    trigger_type: str | None
    trigger_config: JsonObject
    actions: tuple[ActionInfo, ...]
    variables: JsonObject

    @classmethod
    def of(cls, value: JsonValue) -> AutomationView | None:
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


def _str_or_none(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


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


def _strings(value: JsonValue, pointer: Pointer, where: Where) -> Iterator[StringSite]:
    stack: list[tuple[Any, Pointer]] = [(value, pointer)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, str):
            yield StringSite(at, node, where)
        elif isinstance(node, dict):
            stack.extend((v, (*at, k)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, (*at, i)) for i, v in reversed(list(enumerate(node))))


def iter_clauses(condition: Any, pointer: Pointer, depth: int = 0) -> Iterator[tuple[JsonObject, Pointer]]:
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


def condition_sites(view: AutomationView) -> Iterator[tuple[JsonObject, Pointer, Where]]:
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
