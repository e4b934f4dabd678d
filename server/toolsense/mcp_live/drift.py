"""Drift between a committed snapshot and what the server lists now: a tool added, removed, or changed.

Position-free: findings carry absolute pointers into the committed snapshot (`tools[i]`, or `result.tools[i]`
for a JSON-RPC capture). Tools are matched by name; order, and the order of keys, never count as change.
"""

from __future__ import annotations

import json
from typing import Any

from ..document.jsontree import Pointer
from ..domain.changes import summary_label
from ..domain.surface import tool_surface
from ..domain.surface_diff import compare_tools
from ..engine.findings import Finding
from ..jsonvalue import short_repr
from ..models.dialects import Dialect
from .codes import TOOL_ADDED, TOOL_CHANGED, TOOL_REMOVED
from .text_diff import review_new_version, word_diff

UPDATE_HINT = "run with --update-snapshot to accept"


def _names(tools: list[Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, tool in enumerate(tools):
        name = tool.get("name") if isinstance(tool, dict) else None
        if isinstance(name, str):
            found.setdefault(name, index)
    return found


def _same(a: Any, b: Any) -> bool:
    # JSON equality: Python's == conflates true/1 and false/0.
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def first_difference(old: Any, new: Any, pointer: Pointer = ()) -> tuple[Pointer, Any, Any, bool] | None:
    """The first place where two JSON values differ: (pointer, old value, new value, whether old has the key)."""
    if _same(old, new):
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                return (*pointer, key), old[key], None, True
            found = first_difference(old[key], new[key], (*pointer, key))
            if found is not None:
                return found
        for key in new:
            if key not in old:
                return (*pointer, key), None, new[key], False
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            found = first_difference(a, b, (*pointer, index))
            if found is not None:
                return found
    return pointer, old, new, True


def _dotted(pointer: Pointer) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(pointer))


def drift_findings(committed: list[Any], live: list[Any], base: Pointer = ("tools",)) -> list[Finding]:
    """Findings on the committed snapshot (absolute pointers under `base`, the pointer of its tools array)."""
    old, new = _names(committed), _names(live)
    findings: list[Finding] = []
    added = [name for name in new if name not in old]
    if added:
        shown = ", ".join(f"'{n}'" for n in added[:10]) + (f" and {len(added) - 10} more" if len(added) > 10 else "")
        noun = "tool" if len(added) == 1 else "tools"
        findings.append(
            Finding(
                TOOL_ADDED.code,
                f"The server lists {len(added)} {noun} this snapshot lacks: {shown} ({UPDATE_HINT})",
                base,
                "key",
            )
        )
    for name, index in old.items():
        where = (*base, index)
        if name not in new:
            findings.append(
                Finding(
                    TOOL_REMOVED.code,
                    f"Tool '{name}' is no longer listed by the server ({UPDATE_HINT})",
                    (*where, "name"),
                )
            )
            continue
        difference = first_difference(committed[index], live[new[name]])
        if difference is None:
            continue
        findings.extend(review_new_version(name, live[new[name]], (*where, "name")))
        pointer, was, now, here = difference
        place = _dotted(pointer) or "the definition"
        hint = _classed_hint(committed[index], live[new[name]])
        if isinstance(was, str) and isinstance(now, str) and (" " in was or " " in now):
            message = f"Tool '{name}' changed: {place}: {word_diff(was, now)} ({hint})"
            findings.append(Finding(TOOL_CHANGED.code, message, (*where, *pointer)))
            continue
        if not here:
            message = f"Tool '{name}' changed: the server now has {place} = {short_repr(now)} ({hint})"
            target_pointer: Pointer = (*where, *pointer[:-1])
            findings.append(Finding(TOOL_CHANGED.code, message, target_pointer, "key" if pointer[:-1] else "value"))
            continue
        if now is None and pointer and isinstance(pointer[-1], str) and not _has(live[new[name]], pointer):
            message = f"Tool '{name}' changed: the server no longer has {place} ({hint})"
            findings.append(Finding(TOOL_CHANGED.code, message, (*where, *pointer), "key"))
            continue
        message = f"Tool '{name}' changed: {place} is {short_repr(now)} on the server, {short_repr(was)} here ({hint})"
        findings.append(Finding(TOOL_CHANGED.code, message, (*where, *pointer)))
    return findings


def _classed_hint(committed: Any, live: Any) -> str:
    """What every change of the tool does to its callers (`breaking: 1 parameter removed; risky: …`, as `toolsense
    diff` sorts them), then how to accept it. The message shows the first difference; the label counts them all."""
    old, new = tool_surface(committed, Dialect.MCP, ()), tool_surface(live, Dialect.MCP, ())
    label = summary_label(compare_tools(old, new)) if old is not None and new is not None else ""
    return f"{label}; {UPDATE_HINT}" if label else UPDATE_HINT


def _has(value: Any, pointer: Pointer) -> bool:
    for part in pointer:
        in_object = isinstance(value, dict) and isinstance(part, str) and part in value
        in_array = isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value)
        if not (in_object or in_array):
            return False
        value = value[part]
    return True
