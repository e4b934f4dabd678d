"""The 2026 tool features of OpenAI's Responses API and Anthropic's Messages API, beyond the members the models
check: a custom tool's grammar (TS245), `allowed_callers` (TS246), where `defer_loading` may be (TS247) and the
dated versions of Anthropic's server tools (TS248). Each fact comes from `models.feature_facts`, with its source.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...document.jsontree import Pointer
from ...domain.grammars import lark_error, regex_error
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, ReplaceValue, Severity
from ...engine.schemas import closest
from ...engine.units import Unit
from ...jsonvalue import short_repr
from ...models.dialects import Dialect
from ...models.feature_facts import (
    ANTHROPIC_ALL_DEFERRED,
    ANTHROPIC_ALLOWED_CALLERS,
    ANTHROPIC_SERVER_TOOLS,
    ANTHROPIC_TOOL_SEARCH_TYPES,
    OPENAI_ALLOWED_CALLERS,
    OPENAI_NAMESPACE,
    READ_ON,
    DatedFact,
    server_tool_family,
)
from ..catalog import CATALOG

FAMILY = "Tool definitions: 2026 features"

GRAMMAR = CATALOG.rule(
    "TS245",
    "custom-tool-grammar",
    Severity.ERROR,
    "An OpenAI custom tool's grammar does not compile: a Lark grammar that Lark cannot read (or that uses what "
    "OpenAI's llguidance does not support), a regex grammar that is no valid regular expression.",
    FAMILY,
)
CALLERS = CATALOG.rule(
    "TS246",
    "unknown-allowed-caller",
    Severity.ERROR,
    "An `allowed_callers` value the provider does not define (Anthropic: `direct` and the code-execution tool "
    "versions; OpenAI: `direct`, `programmatic`).",
    FAMILY,
    "replace with the closest allowed value",
)
DEFERRED = CATALOG.rule(
    "TS247",
    "defer-loading-placement",
    Severity.ERROR,
    "`defer_loading` where the provider refuses or ignores it: every Anthropic tool deferred (the API answers 400), "
    "the tool-search tool itself deferred, `defer_loading` on an OpenAI namespace instead of its functions, "
    "deferred OpenAI tools without a `tool_search` tool to load them.",
    FAMILY,
)
SERVER_TOOL = CATALOG.rule(
    "TS248",
    "server-tool-version",
    Severity.WARNING,
    "An Anthropic server tool whose dated `type` is no released version (a warning: a newer one may have come out "
    "since the list was read), or whose `name` is not the one that version takes (an error).",
    FAMILY,
    "rename to the version's name; or use the latest released version",
)


# --- grammars --------------------------------------------------------------------------------------------


@CATALOG.unit_check("tool")
def custom_grammar(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if unit.dialect is not None or not isinstance(value, dict) or value.get("type") != "custom":
        return
    form = value.get("format")
    if not isinstance(form, dict) or form.get("type") != "grammar":
        return
    syntax, definition = form.get("syntax"), form.get("definition")
    if syntax not in ("lark", "regex") or not isinstance(definition, str):
        return  # the model reports it
    error = ctx.memo.of(lark_error if syntax == "lark" else regex_error)(definition)
    if error is not None:
        yield Finding(GRAMMAR.code, error, ("format", "definition"))


# --- allowed_callers -------------------------------------------------------------------------------------


@CATALOG.unit_check("tool")
def allowed_callers(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not isinstance(value, dict) or not isinstance(value.get("allowed_callers"), list):
        return
    fact = _callers_fact(unit)
    if fact is None:
        return
    for index, caller in enumerate(value["allowed_callers"]):
        if not isinstance(caller, str) or caller in fact.values:
            continue
        allowed = ", ".join(fact.values)
        near = closest(caller, fact.values, limit=1, cutoff=0.6)
        hint = f" Did you mean {short_repr(near[0])}?" if near else ""
        at = ("allowed_callers", index)
        fixes = tuple(Fix(f"Replace with {short_repr(n)}", (ReplaceValue(at, f'"{n}"'),)) for n in near)
        yield Finding(
            CALLERS.code,
            f"allowed_callers value {short_repr(caller)} is not one the API accepts (allowed: {allowed}; "
            f"{fact.name} as of {fact.read_on}).{hint}",
            at,
            fixes=fixes,
        )


def _callers_fact(unit: Unit) -> DatedFact | None:
    if unit.dialect in (Dialect.ANTHROPIC, Dialect.ANTHROPIC_SERVER):
        return ANTHROPIC_ALLOWED_CALLERS
    kind = unit.value.get("type")
    if unit.dialect == Dialect.OPENAI_FLAT or (unit.dialect is None and kind in ("custom", "mcp", "function")):
        return OPENAI_ALLOWED_CALLERS
    return None


# --- defer_loading ---------------------------------------------------------------------------------------


def _deferred(value: Any) -> bool:
    return isinstance(value, dict) and value.get("defer_loading") is True


def _tool_search(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") in ANTHROPIC_TOOL_SEARCH_TYPES


@CATALOG.unit_check("tool")
def defer_loading_here(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not _deferred(value):
        return
    if _tool_search(value):
        yield Finding(
            DEFERRED.code,
            "The tool-search tool itself is never deferred: it is what loads the deferred tools",
            ("defer_loading",),
            "key",
        )
    elif unit.dialect is None and value.get("type") == "namespace":
        yield Finding(
            DEFERRED.code,
            f"OpenAI: {OPENAI_NAMESPACE[0]}: set it on each function of its `tools` that should be searchable",
            ("defer_loading",),
            "key",
        )


_ANTHROPIC = frozenset({Dialect.ANTHROPIC, Dialect.ANTHROPIC_SERVER})


@CATALOG.file_check("tool")
def deferred_lists(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    """Per list of tools: an Anthropic list whose every tool is deferred; an OpenAI list with deferred tools (its
    own or a namespace's) and no `tool_search` to load them."""
    lists: dict[Pointer, list[Unit]] = {}
    for unit in units:
        if unit.kind == "tool" and unit.pointer and isinstance(unit.pointer[-1], int) and unit.origin != "app":
            lists.setdefault(unit.pointer[:-1], []).append(unit)
    namespaces = {u.pointer for u in units if u.dialect is None and _kind(u.value) == "namespace"}
    for prefix, members in lists.items():
        if prefix[:-1] in namespaces or not members[0].sent_as_is:
            continue  # a namespace's own tools are judged with its list; a tools file may get its search tool in code
        inner = [u for u in units if u.pointer[:-2] in namespaces and u.pointer[: len(prefix)] == prefix]
        dialects = {u.dialect for u in members}
        if dialects & _ANTHROPIC and not dialects & {Dialect.OPENAI, Dialect.OPENAI_FLAT}:
            if all(_deferred(u.value) for u in members):
                yield Finding(
                    DEFERRED.code,
                    f"Every tool of this list has defer_loading: true; the API answers 400 "
                    f'"{ANTHROPIC_ALL_DEFERRED[0]}": keep at least one tool (the tool-search tool, for one) loaded',
                    (*members[0].pointer, "defer_loading"),
                    "key",
                )
        elif not dialects & _ANTHROPIC and not any(_kind(u.value) == "tool_search" for u in members):
            deferred = next((u for u in [*members, *inner] if _deferred(u.value)), None)
            if deferred is not None and _kind(deferred.value) != "namespace":
                yield Finding(
                    DEFERRED.code,
                    "This tool has defer_loading: true, but the request has no `tool_search` tool: nothing can "
                    'load it, so the model never sees it; add {"type": "tool_search"} to the tools',
                    (*deferred.pointer, "defer_loading"),
                    "key",
                    severity=Severity.WARNING,
                )


def _kind(value: Any) -> Any:
    return value.get("type") if isinstance(value, dict) else None


# --- Anthropic's dated server tools ----------------------------------------------------------------------


@CATALOG.unit_check("tool")
def server_tool_version(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if unit.dialect != Dialect.ANTHROPIC_SERVER or not isinstance(value, dict):
        return
    kind = value.get("type")
    if not isinstance(kind, str):
        return
    expected = ANTHROPIC_SERVER_TOOLS.get(kind)
    if expected is not None:
        name = value.get("name")
        if isinstance(name, str) and name != expected:
            yield Finding(
                SERVER_TOOL.code,
                f"A {kind} tool must be named {short_repr(expected)}, found {short_repr(name)}",
                ("name",),
                severity=Severity.ERROR,
                fixes=(Fix(f"Rename to {short_repr(expected)}", (ReplaceValue(("name",), f'"{expected}"'),)),),
            )
        return
    family = server_tool_family(kind)
    if family is None:
        return  # not a family toolsense knows: a newer tool, or another program's type
    released = sorted(k for k in ANTHROPIC_SERVER_TOOLS if k.rsplit("_", 1)[0] == family)
    yield Finding(
        SERVER_TOOL.code,
        f"{short_repr(kind)} is no released version of {family} (released as of {READ_ON}: {', '.join(released)}); "
        "the API rejects an unknown version",
        ("type",),
        fixes=(Fix(f"Use {short_repr(released[-1])}", (ReplaceValue(("type",), f'"{released[-1]}"'),)),),
    )
