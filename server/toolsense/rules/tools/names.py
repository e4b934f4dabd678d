"""Tool names: each dialect's pattern and length (and each enabled profile's), duplicates within a file (an
error: a request cannot carry both) and across the workspace (a warning: which one does a call mean?)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from ...document.jsontree import Pointer
from ...domain.providers import PROFILES, enabled_profiles
from ...domain.tool import ToolView, tool_view
from ...engine.context import CheckContext
from ...engine.findings import MAX_RELATED, Finding, Fix, Related, ReplaceValue, Severity
from ...engine.units import Unit
from ...jsonvalue import short_repr
from ...models.definitions import NAME_KEY
from ..catalog import CATALOG

FAMILY = "Tool definitions: names"

BAD_NAME = CATALOG.rule(
    "TS201",
    "invalid-tool-name",
    Severity.ERROR,
    "The name breaks the provider's pattern: Anthropic `^[a-zA-Z0-9_-]{1,128}$`, OpenAI `^[a-zA-Z0-9_-]{1,64}$` "
    "(and enabled profiles').",
    FAMILY,
    "replace the characters that are not allowed",
)
DUPLICATE = CATALOG.rule(
    "TS202",
    "duplicate-tool-name",
    Severity.ERROR,
    "Two tools in one file have the same name.",
    FAMILY,
)
DUPLICATE_WORKSPACE = CATALOG.rule(
    "TS203",
    "duplicate-tool-name-in-workspace",
    Severity.WARNING,
    "Another file in the workspace defines a tool with the same name.",
    FAMILY,
)
MCP_NAME = CATALOG.rule(
    "TS204",
    "mcp-tool-name",
    Severity.WARNING,
    "An MCP tool name outside the spec's SHOULD: 1–128 characters of `[A-Za-z0-9_.-]`.",
    FAMILY,
    "replace the characters that are not allowed",
)

DIALECT_PROFILE = {
    "anthropic": "anthropic",
    "openai": "openai",
    "openai-flat": "openai",
    "mcp": "mcp",
    "gemini": "gemini",
}


def _sanitized(name: str, profile: str) -> str | None:
    allowed = {"mcp": r"[^A-Za-z0-9_.-]", "gemini": r"[^A-Za-z0-9_.:-]"}.get(profile, r"[^A-Za-z0-9_-]")
    limit = PROFILES[profile].name_max
    fixed = re.sub(r"_+", "_", re.sub(allowed, "_", name.strip())).strip("_")[:limit]
    if profile == "gemini" and fixed and not (fixed[0].isalpha() or fixed[0] == "_"):
        fixed = "_" + fixed[: limit - 1]
    return fixed if fixed and fixed != name else None


def _name_findings(view: ToolView, profile: str, explicit: bool) -> Iterator[Finding]:
    name = view.name
    assert name is not None
    spec = PROFILES[profile]
    if re.fullmatch(spec.name_pattern, name):
        return
    rule = MCP_NAME if profile == "mcp" else BAD_NAME
    who = f"profile '{profile}'" if explicit else spec.provider
    problem = _problem(name, profile)
    message = f"Tool name {short_repr(name)} is not valid for {who}: {problem} (allowed: {spec.name_rule})"
    fixed = _sanitized(name, profile)
    fixes = (Fix(f"Rename to {short_repr(fixed)}", (ReplaceValue(view.name_pointer, f'"{fixed}"'),)),) if fixed else ()
    yield Finding(rule.code, message, view.name_pointer, fixes=fixes, data={"profile": profile})


_ALLOWED = {"mcp": r"[A-Za-z0-9_.-]", "gemini": r"[A-Za-z0-9_.:-]"}


def _problem(name: str, profile: str) -> str:
    if not name:
        return "it is empty"
    limit = PROFILES[profile].name_max
    if len(name) > limit:
        return f"it is {len(name)} characters long"
    if profile == "gemini" and not (name[0].isascii() and (name[0].isalpha() or name[0] == "_")):
        return "it must start with a letter or _"
    allowed = _ALLOWED.get(profile, r"[A-Za-z0-9_-]")
    bad = sorted({c for c in name if not re.fullmatch(allowed, c)})
    shown = ", ".join("space" if c == " " else repr(c) for c in bad[:5])
    return f"it contains {shown}"


@CATALOG.unit_check("tool")
def tool_name(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = tool_view(unit)
    if view is None or view.name is None:
        return
    checked: set[str] = set()
    own = DIALECT_PROFILE.get(view.dialect)
    # The bare {name, description, parameters} is OpenAI's shape but also MCP servers' and Gemini's, until the file
    # says it is OpenAI's: there '.' and ':' are fine and OpenAI's other name rules are warnings.
    generic = view.dialect == "openai-flat" and not _surely_openai(unit) and not ctx.facts.sent_as_is
    if own == "openai" and generic and re.fullmatch(r"[A-Za-z0-9_.:-]{1,64}", view.name):
        own = None
    profiles = [(p, True) for p in enabled_profiles(ctx.settings)]
    if own is not None:
        profiles.insert(0, (own, False))
    for profile, explicit in profiles:
        pattern = PROFILES[profile].name_pattern
        if pattern in checked and profile != "mcp":
            continue
        checked.add(pattern)
        for finding in _name_findings(view, profile, explicit):
            if generic and not explicit and finding.code == BAD_NAME.code:
                finding = dataclasses.replace(finding, severity=Severity.WARNING)
            yield finding
    yield from _elsewhere(view, ctx, unit.origin)


def _surely_openai(unit: Unit) -> bool:
    """Whether a flat function is OpenAI's: it says `"type": "function"`, sits in a request body or a legacy
    `functions` list, or the settings force the dialect."""
    value = unit.value if isinstance(unit.value, dict) else {}
    return (
        value.get("type") == "function"
        or unit.origin in ("request", "forced")
        or (bool(unit.pointer) and unit.pointer[0] == "functions")
    )


def _elsewhere(view: ToolView, ctx: CheckContext, origin: str = "file") -> Iterator[Finding]:
    assert view.name is not None
    if origin == "request":
        return  # a request body carries its own tools: another file's tool of the same name is no ambiguity
    others, total = ctx.registry.elsewhere(view.name, ctx.uri, MAX_RELATED, view.dialect)
    if not others:
        return
    first = others[0]
    where = ctx.display_path(first.uri)
    more = f" (and {total - 1} more)" if total > 1 else ""
    related = tuple(
        Related(f"'{view.name}' is also defined here", info.name_pointer, info.uri) for info in others[:MAX_RELATED]
    )
    yield Finding(
        DUPLICATE_WORKSPACE.code,
        f"Tool '{view.name}' is also defined in {where}{more}: calls and automations naming it are ambiguous",
        view.name_pointer,
        related=related,
    )


@CATALOG.file_check("tool")
def duplicate_names(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    # Runs on every check of the file, over all its units: read the names directly, allocate almost nothing.
    first: dict[str, int] = {}
    duplicates: dict[str, list[int]] = {}
    namespaces: dict[Pointer, str] = {}
    """OpenAI namespaces: a function inside one is called by the namespace's name and its own."""
    for index, unit in enumerate(units):
        value = unit.value
        if unit.kind != "tool" or not isinstance(value, dict):
            continue
        dialect = unit.dialect
        if dialect is None and value.get("type") == "namespace" and isinstance(value.get("name"), str):
            namespaces[unit.pointer] = value["name"]
        if dialect in ("openai", "bedrock"):
            inner = value.get("function" if dialect == "openai" else "toolSpec")
            name = inner.get("name") if isinstance(inner, dict) else None
        elif dialect in ("anthropic", "mcp", "openai-flat", "gemini", "anthropic-server"):
            name = value.get("name")
        else:
            continue
        if isinstance(name, str) and name:
            if len(unit.pointer) > 2 and unit.pointer[:-2] in namespaces:
                name = f"{namespaces[unit.pointer[:-2]]}.{name}"
            seen = first.setdefault(name, index)
            if seen != index:
                duplicates.setdefault(name, [seen]).append(index)
    for name, indexes in duplicates.items():
        pointers = [(*units[i].pointer, *NAME_KEY.get(units[i].dialect or "anthropic", ("name",))) for i in indexes]
        count = len(pointers)
        # Each finding lists at most MAX_RELATED of the others: n tools sharing one name make n findings, and
        # listing all the others in each would be n² locations (1,000 tools: a 200 MB publish).
        listed = f" (the first {MAX_RELATED} others are listed)" if count - 1 > MAX_RELATED else ""
        message = f"Duplicate tool name '{name}': {count} tools in this file have it{listed}"
        for pointer in pointers:
            others = [other for other in pointers[: MAX_RELATED + 1] if other != pointer][:MAX_RELATED]
            related = tuple(Related(f"'{name}' is also defined here", other) for other in others)
            yield Finding(DUPLICATE.code, message, pointer, related=related)
