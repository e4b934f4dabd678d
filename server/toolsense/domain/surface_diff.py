"""Two versions of a tool surface compared: tools matched by name, a rename found as a tool removed and another
added with the same input schema, and every difference sorted into breaking, risky or additive (`changes`).

Position-free: each change carries its JSON pointer in the old and in the new version.
"""

from __future__ import annotations

from ..document.jsontree import Pointer
from ..engine.equality import json_equal, value_key
from ..jsonvalue import JsonValue, short_repr
from ..models.dialects import Dialect
from ..textsafety import escape
from .changes import Change, ChangeClass
from .schema_diff import SchemaDiff
from .surface import ToolSurface

BREAKING, RISKY, ADDITIVE = ChangeClass.BREAKING, ChangeClass.RISKY, ChangeClass.ADDITIVE

NO_PARAMETERS: dict[str, JsonValue] = {"type": "object", "properties": {}}
"""A tool without an input schema takes no arguments (OpenAI's `parameters` may be left out for that)."""


def compare_surfaces(old: list[ToolSurface], new: list[ToolSurface]) -> list[Change]:
    """Every change from `old` to `new`: removed, renamed and changed tools in the old order, then added ones."""
    old_by, new_by = _by_name(old), _by_name(new)
    removed = [tool for name, tool in old_by.items() if name not in new_by]
    added = [tool for name, tool in new_by.items() if name not in old_by]
    renamed = _renames(removed, added)
    changes: list[Change] = []
    for name, tool in old_by.items():
        if name in new_by:
            changes.extend(compare_tools(tool, new_by[name]))
        elif name in renamed:
            target = renamed[name]
            said = f"renamed to '{escape(target.name)}' (same input schema)"
            changes.append(
                Change(BREAKING, "tool-renamed", name, said, tool.name_pointer, target.name_pointer, name, target.name)
            )
            changes.extend(compare_tools(tool, target))
        else:
            changes.append(Change(BREAKING, "tool-removed", name, "removed", tool.pointer, None))
    taken = {tool.name for tool in renamed.values()}
    changes.extend(
        Change(ADDITIVE, "tool-added", t.name, "added", None, t.pointer) for t in added if t.name not in taken
    )
    return changes


def _by_name(tools: list[ToolSurface]) -> dict[str, ToolSurface]:
    found: dict[str, ToolSurface] = {}
    for tool in tools:
        found.setdefault(tool.name, tool)  # a name listed twice: the first is the one clients keep
    return found


def _renames(removed: list[ToolSurface], added: list[ToolSurface]) -> dict[str, ToolSurface]:
    """Old name -> new tool, for each removed tool whose input schema an added tool has exactly (one to one, in
    order). A schema with no parameters says nothing about identity: such tools are never paired."""
    pairs: dict[str, ToolSurface] = {}
    free = list(added)
    for tool in removed:
        if _empty(tool.input):
            continue
        key = value_key(tool.input)
        match = next((other for other in free if value_key(other.input) == key), None)
        if match is not None:
            pairs[tool.name] = match
            free.remove(match)
    return pairs


def _empty(schema: JsonValue) -> bool:
    return not isinstance(schema, dict) or not schema.get("properties")


def compare_tools(old: ToolSurface, new: ToolSurface) -> list[Change]:
    """The changes between two versions of one tool (the old name names them)."""
    name = old.name
    changes: list[Change] = []
    if not json_equal(old.description, new.description):
        changes.append(
            Change(
                RISKY,
                "description-changed",
                name,
                "description changed",
                _where(old.description_pointer, old.description),
                _where(new.description_pointer, new.description),
                old.description,
                new.description,
            )
        )
    if not json_equal(old.title, new.title):
        said = f"title changed from {_shown(old.title)} to {_shown(new.title)}"
        at_old, at_new = _where(old.title_pointer, old.title), _where(new.title_pointer, new.title)
        changes.append(Change(RISKY, "title-changed", name, said, at_old, at_new, old.title, new.title))
    old_input = old.input if old.input is not None else NO_PARAMETERS
    new_input = new.input if new.input is not None else NO_PARAMETERS
    changes.extend(SchemaDiff(name, "input", old_input, new_input, old.input_pointer, new.input_pointer).run())
    changes.extend(_output(old, new))
    if old.dialect == Dialect.MCP and new.dialect == Dialect.MCP:
        changes.extend(_annotations(old, new))
    changes.extend(_others(old, new))
    return changes


def _where(pointer: Pointer, value: JsonValue) -> Pointer:
    """The member's pointer when the version has it, else its tool's (the pointer without its last part)."""
    return pointer if value is not None else pointer[:-1]


def _shown(value: JsonValue) -> str:
    return "(none)" if value is None else short_repr(value, 40)


def _output(old: ToolSurface, new: ToolSurface) -> list[Change]:
    a, b = old.output, new.output
    if a is None and b is None:
        return []
    at_old, at_new = _where(old.output_pointer, a), _where(new.output_pointer, b)
    if a is None:
        return [Change(ADDITIVE, "output-schema-added", old.name, "outputSchema added", at_old, at_new, None, b)]
    if b is None:
        said = "outputSchema removed (callers lose the structured result they read)"
        return [Change(BREAKING, "output-schema-removed", old.name, said, at_old, at_new, a, None)]
    return SchemaDiff(old.name, "output", a, b, old.output_pointer, new.output_pointer).run()


# MCP's ToolAnnotations, and what a hint means when it is absent (schema/2025-06-18/schema.ts and
# schema/2025-11-25/schema.ts of github.com/modelcontextprotocol/modelcontextprotocol, read 2026-12-07):
# readOnlyHint defaults to false; destructiveHint defaults to true and "is meaningful only when readOnlyHint ==
# false"; openWorldHint defaults to true. So a tool without annotations is taken as destructive and open-world.


HINT_DEFAULTS: dict[str, JsonValue] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
"""An absent hint means its default: `destructiveHint: true` written out where it was left out changes nothing."""


def _hints(annotations: JsonValue) -> dict[str, JsonValue]:
    return annotations if isinstance(annotations, dict) else {}


def destructive(annotations: JsonValue) -> bool:
    hints = _hints(annotations)
    return hints.get("readOnlyHint") is not True and hints.get("destructiveHint") is not False


def open_world(annotations: JsonValue) -> bool:
    return _hints(annotations).get("openWorldHint") is not False


def _annotations(old: ToolSurface, new: ToolSurface) -> list[Change]:
    a, b = _hints(old.annotations), _hints(new.annotations)
    if json_equal(a, b):
        return []
    changes: list[Change] = []
    said_by: set[str] = set()
    for newly, hints, kind, label in (
        (
            not destructive(a) and destructive(b),
            ("readOnlyHint", "destructiveHint"),
            "newly-destructive",
            "destructive",
        ),
        (not open_world(a) and open_world(b), ("openWorldHint",), "newly-open-world", "open-world"),
    ):
        if not newly:
            continue
        moved = [h for h in hints if not json_equal(a.get(h), b.get(h))]
        said = ", ".join(f"{h} {_shown(a.get(h))} -> {_shown(b.get(h))}" for h in moved)
        point = moved[0]
        changes.append(
            Change(
                RISKY,
                kind,
                old.name,
                f"newly {label} ({said}; MCP takes an absent hint as {label})",
                _member(old.annotations_pointer, a, point),
                _member(new.annotations_pointer, b, point),
                {h: a.get(h) for h in moved},
                {h: b.get(h) for h in moved},
            )
        )
        said_by.update(moved)
    for key in [*a, *[k for k in b if k not in a]]:
        default = HINT_DEFAULTS.get(key)
        if key in said_by or json_equal(a.get(key, default), b.get(key, default)):
            continue
        said = f"annotation {escape(key)} changed from {_shown(a.get(key))} to {_shown(b.get(key))}"
        at_old = _member(old.annotations_pointer, a, key) if old.annotations is not None else old.pointer
        at_new = _member(new.annotations_pointer, b, key) if new.annotations is not None else new.pointer
        changes.append(Change(RISKY, "annotation-changed", old.name, said, at_old, at_new, a.get(key), b.get(key)))
    return changes


def _member(pointer: Pointer, members: dict[str, JsonValue], key: str) -> Pointer:
    return (*pointer, key) if key in members else pointer


def _others(old: ToolSurface, new: ToolSurface) -> list[Change]:
    changes = []
    for key in [*old.others, *[k for k in new.others if k not in old.others]]:
        a, b = old.others.get(key), new.others.get(key)
        if (key in old.others) == (key in new.others) and json_equal(a, b):
            continue
        label = escape("/".join(str(part) for part in key))
        said = f"{label} changed from {_shown(a)} to {_shown(b)}"
        at_old = (*old.pointer, *key) if key in old.others else old.pointer
        at_new = (*new.pointer, *key) if key in new.others else new.pointer
        changes.append(Change(RISKY, "member-changed", old.name, said, at_old, at_new, a, b))
    return changes
