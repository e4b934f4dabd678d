"""Tool calls and tool inputs, validated against the tool's registered strict pydantic model when there is one
(what the runtime's `Model.model_validate` will say), else against the tool's `input_schema` from the workspace.

- An Anthropic `tool_use` block (`input`), an OpenAI call (`arguments`: a JSON string or an object), or a bare
  input file associated with a tool by `tool_call_tool` (glob → tool name).
- All errors at once, in `format_validation_errors`'s vocabulary, each on its exact place — inside a
  JSON-string `arguments` too (a character span within the string).
- Coercible LLM mistakes (`"80"`, `"true"`) are fixable warnings, even when the model would coerce them.
- An unknown tool name is an error with did-you-mean; a registered model that cannot be imported is a
  diagnostic (TS8xx), never a crash.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ...document.document import Document
from ...document.jsontree import Pointer
from ...domain.instances import recode, value_findings
from ...domain.tool import value_at
from ...domain.validation import model_findings
from ...engine.context import CheckContext, ToolRegistry
from ...engine.filefacts import NO_FACTS
from ...engine.findings import (
    Finding,
    Fix,
    FixEdit,
    InsertMembers,
    RemoveMember,
    RenameKey,
    ReplaceInString,
    ReplaceValue,
    Severity,
)
from ...engine.placement import place_bytes
from ...engine.schemas import closest
from ...engine.units import Unit, glob_match, root_value
from ...engine.workspace import tool_infos, uri_to_path
from ...jsonvalue import JsonObject, json_type_name, short_repr
from ...usermodels import LoadedModel
from ..catalog import CATALOG
from ..structure import located

FAMILY = "Tool calls"
MODELS_FAMILY = "Registered models"

UNKNOWN_TOOL = CATALOG.rule(
    "TS301",
    "unknown-tool",
    Severity.ERROR,
    "The call names a tool that is neither defined in the workspace nor registered. Information, not an error, "
    "for an MCP `tools/call` (its server defines its tools) and for a call of a kind whose tools the workspace "
    "does not define (an OpenAI call in a workspace of Anthropic tools).",
    FAMILY,
    "the closest tool name",
)
BAD_ARGUMENTS = CATALOG.rule(
    "TS302",
    "invalid-arguments-json",
    Severity.ERROR,
    "`arguments` is a string that is not JSON, or JSON that is not an object.",
    FAMILY,
)
CODES = {
    "unknown": CATALOG.rule(
        "TS303",
        "call-unknown-property",
        Severity.ERROR,
        "The input has a property the tool's model or schema does not define.",
        FAMILY,
        "rename to the closest property; remove it",
    ).code,
    "missing": CATALOG.rule(
        "TS304",
        "call-missing-property",
        Severity.ERROR,
        "The input lacks a required property.",
        FAMILY,
        "insert the missing properties",
    ).code,
    "type": CATALOG.rule(
        "TS305", "call-wrong-type", Severity.ERROR, "An input value has the wrong JSON type.", FAMILY
    ).code,
    "enum": CATALOG.rule(
        "TS306",
        "call-invalid-enum-value",
        Severity.ERROR,
        "An input value is not one of the allowed values.",
        FAMILY,
        "the closest allowed value; enum member name → value",
    ).code,
    "coercible": CATALOG.rule(
        "TS307",
        "call-coercible-value",
        Severity.WARNING,
        'A string that would be coerced to the expected type (`"80"`, `"true"`): an LLM mistake.',
        FAMILY,
        "write the value with its real type (safe)",
    ).code,
    "constraint": CATALOG.rule(
        "TS308",
        "call-constraint-violation",
        Severity.ERROR,
        "An input value breaks a constraint (range, length, pattern, a model validator…).",
        FAMILY,
    ).code,
    "format": CATALOG.rule(
        "TS309",
        "call-format-mismatch",
        Severity.WARNING,
        "An input string does not have its schema's `format` (`date`, `date-time`, `ipv4`, `ipv6`, `uuid`, "
        "`regex`: the formats toolsense asserts).",
        FAMILY,
    ).code,
}
CUT_SHORT = CATALOG.rule(
    "TS310",
    "call-check-cut-short",
    Severity.WARNING,
    "Validating the input stopped early (a pattern ran out of time, an unresolvable `$ref`…).",
    FAMILY,
)

IMPORT_FAILED = CATALOG.rule(
    "TS801",
    "model-import-failed",
    Severity.ERROR,
    "A registered model or enum cannot be imported (the error is in the message).",
    MODELS_FAMILY,
)
IMPORT_TIMEOUT = CATALOG.rule(
    "TS802",
    "model-import-timeout",
    Severity.ERROR,
    "Importing a registered model's module took longer than `limits.model_import_timeout_s`.",
    MODELS_FAMILY,
)
NOT_A_MODEL = CATALOG.rule(
    "TS803",
    "not-a-model",
    Severity.ERROR,
    "A registration names something that is not a pydantic model (or not an Enum, under `enums`).",
    MODELS_FAMILY,
)
BAD_TARGET = CATALOG.rule(
    "TS804",
    "invalid-model-reference",
    Severity.ERROR,
    'A registration is not of the form "package.module:Name".',
    MODELS_FAMILY,
)
UNTRUSTED = CATALOG.rule(
    "TS805",
    "models-not-trusted",
    Severity.INFORMATION,
    "The workspace is not trusted: registered models are not imported; the tool's input_schema is used instead.",
    MODELS_FAMILY,
)

_NAME_AND_INPUT: dict[str, tuple[Pointer, Pointer]] = {
    "anthropic-call": (("name",), ("input",)),
    "openai-call": (("function", "name"), ("function", "arguments")),
    "openai-flat-call": (("name",), ("arguments",)),
    "openai-responses-call": (("name",), ("arguments",)),
    "bedrock-call": (("toolUse", "name"), ("toolUse", "input")),
    "mcp-call": (("name",), ("arguments",)),
}

NAME_AND_INPUT = _NAME_AND_INPUT
"""Where each call dialect keeps the tool's name and its input."""


def model_problem(ctx: CheckContext, tool: str, pointer: Pointer) -> Finding | None:
    """The diagnostic for a registered model that could not be used (or was not imported: untrusted)."""
    if tool not in ctx.settings.models:
        return None
    if not ctx.trusted:
        return Finding(
            UNTRUSTED.code,
            f"The model registered for '{tool}' ({ctx.settings.models[tool]}) is not imported: the workspace is "
            "not trusted",
            pointer,
        )
    problem = ctx.models.problem_for(tool) if ctx.models is not None else None
    if problem is None:
        return None
    return Finding(problem.code, f"Registered model for '{tool}' ({problem.target}): {problem.message}", pointer)


def _bare_input_tool(ctx: CheckContext) -> str | None:
    if not ctx.settings.tool_call_tool:
        return None
    path = uri_to_path(ctx.uri)
    text = str(path) if path is not None else ctx.uri
    for pattern, tool in ctx.settings.tool_call_tool.items():
        if glob_match(text, pattern):
            return tool
    return None


@CATALOG.unit_check("tool_call")
def tool_call_input(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not isinstance(value, dict) or unit.origin in ("request", "response"):
        return  # checked against their own request's tools (`request_calls`), or their file's (`responses`)
    if unit.dialect in _NAME_AND_INPUT:
        name_pointer, input_pointer = _NAME_AND_INPUT[unit.dialect]
        name = value_at(value, name_pointer)
        if not isinstance(name, str):
            return
        if value_at(value, input_pointer) is None:
            return  # the structure rule reports the missing input
    elif unit.dialect == "input":
        bare = _bare_input_tool(ctx)
        if bare is None:
            return
        name, name_pointer, input_pointer = bare, (), ()
    else:
        return
    yield from check_call(unit, ctx, name, name_pointer, input_pointer)


@CATALOG.file_check("tool", "tool_call")
def request_calls(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    """The tool calls in a request body's messages, against the tools of the same request (the only ones the
    model was given), whatever else the workspace defines."""
    calls = [u for u in units if u.kind == "tool_call" and u.origin == "request" and u.dialect in _NAME_AND_INPUT]
    if not calls:
        return
    tools = [u for u in units if u.kind == "tool"]
    if not tools:
        return
    # A provider's built-in tools: Anthropic's server tools have fixed names (their calls are the provider's to
    # check); OpenAI's (code_interpreter, file_search) are called by names the request does not spell.
    server_names = {u.value.get("name") for u in tools if u.dialect == "anthropic-server" and isinstance(u.value, dict)}
    built_in = any(u.dialect is None for u in tools)
    registry = ToolRegistry()
    registry.set_file(ctx.uri, tool_infos(ctx.uri, tools, requests=True))
    own = replace(ctx, registry=registry, facts=NO_FACTS, root_uri="")
    for unit in calls:
        assert unit.dialect is not None
        name_pointer, input_pointer = _NAME_AND_INPUT[unit.dialect]
        name = value_at(unit.value, name_pointer)
        if not isinstance(name, str) or value_at(unit.value, input_pointer) is None or name in server_names:
            continue
        for finding in check_call(unit, own, name, name_pointer, input_pointer):
            if finding.code == UNKNOWN_TOOL.code and built_in:
                continue
            if finding.code == UNKNOWN_TOOL.code and ": no tool of that name" in finding.message:
                head = finding.message.split(": no tool of that name", 1)[0]
                finding = replace(
                    finding, message=f"{head}: not one of the {len(registry.names())} tools of this request"
                )
            yield finding.under(unit.pointer)


def check_call(
    unit: Unit, ctx: CheckContext, name: str, name_pointer: Pointer, input_pointer: Pointer
) -> Iterator[Finding]:
    raw = value_at(unit.value, input_pointer) if input_pointer else unit.value
    loaded = ctx.models.model_for(name) if ctx.models is not None and ctx.trusted else None
    info = ctx.registry.lookup(name)
    problem = model_problem(ctx, name, name_pointer)
    if problem is not None:
        yield problem
    if loaded is None and info is None:
        if name not in ctx.settings.models and ctx.registry.names():
            unknown = _unknown_tool(name, name_pointer, ctx)
            why = _elsewhere(unit, ctx)
            if why is not None:
                unknown = replace(unknown, message=f"{unknown.message} ({why})", severity=Severity.INFORMATION)
            yield unknown
        return
    text: str | None = None
    if isinstance(raw, str):
        text = raw
        try:
            arguments = json.loads(raw)
        except ValueError as error:
            pos = getattr(error, "pos", 0) or 0
            message = getattr(error, "msg", str(error))
            yield Finding(
                BAD_ARGUMENTS.code,
                f"arguments is not valid JSON: {message} (at character {pos + 1})",
                input_pointer,
                span=(pos, min(pos + 1, len(raw))),
            )
            return
        if not isinstance(arguments, dict):
            yield Finding(
                BAD_ARGUMENTS.code,
                f"arguments must encode a JSON object, found {json_type_name(arguments)}",
                input_pointer,
            )
            return
    else:
        arguments = raw
    if not isinstance(arguments, dict):
        return  # the envelope's structure rule reports it
    subject = f"the input of '{name}'"
    budget = ctx.settings.limits.regex_timeout_ms
    if loaded is not None:
        findings = _model_findings(loaded, arguments, subject, budget)
        notes: list[str] = []
    else:
        assert info is not None
        if not isinstance(info.input_schema, dict):
            return
        findings, notes = value_findings(
            info.input_schema, info.dialect, arguments, subject, CODES, budget, formats=True
        )
    if not unit.clean:
        findings = [f for f in findings if f.code != CODES["missing"]]
    findings = [located(f, subject) for f in findings]
    if text is not None:
        yield from _inside_string(findings, text, input_pointer)
    else:
        yield from (f.under(input_pointer) for f in findings)
    for note in notes:
        yield Finding(CUT_SHORT.code, f"Checking {subject} was cut short: {note}", input_pointer, "key")


def _model_findings(loaded: LoadedModel, arguments: JsonObject, subject: str, budget: int) -> list[Finding]:
    try:
        findings = recode(model_findings(loaded.model, arguments, subject), CODES)
    except Exception as error:  # a user validator that raises something other than ValueError
        return [Finding(CODES["constraint"], f"The model {loaded.location} raised {type(error).__name__}: {error}")]
    # The model may coerce "80" itself (CoercedInt): still say it, as a fixable warning.
    flagged = {f.pointer for f in findings}
    extra, _ = value_findings(loaded.schema, None, arguments, subject, CODES, budget)
    findings.extend(f for f in extra if f.code == CODES["coercible"] and f.pointer not in flagged)
    return findings


_CALLABLE: dict[str, frozenset[str]] = {
    "anthropic-call": frozenset({"anthropic", "anthropic-server", "mcp"}),
    "openai-call": frozenset({"openai", "openai-flat", "mcp"}),
    "openai-flat-call": frozenset({"openai", "openai-flat", "mcp"}),
    "openai-responses-call": frozenset({"openai", "openai-flat", "mcp"}),
    "bedrock-call": frozenset({"bedrock", "mcp"}),
}
"""The tool dialects a call of each dialect may name (an MCP client forwards its servers' tools to any
provider). A call of a dialect the workspace defines no tools for names tools defined elsewhere."""


def _elsewhere(unit: Unit, ctx: CheckContext) -> str | None:
    """Why an unknown tool may be defined outside the workspace, when it may (then it is information): an MCP
    `tools/call` names a tool of the server it is sent to; a call of a dialect whose tools the workspace does not
    define was checked against the wrong registry."""
    if unit.dialect == "mcp-call":
        return "a tools/call names a tool of the server it is sent to, which the workspace need not define"
    callable_dialects = _CALLABLE.get(unit.dialect or "")
    if callable_dialects is not None and not callable_dialects & ctx.registry.dialects():
        return "the workspace defines no tools of this call's kind, so its tools are defined elsewhere"
    return None


def _unknown_tool(name: str, pointer: Pointer, ctx: CheckContext) -> Finding:
    candidates = ctx.registry.suggest(name)
    for registered in ctx.settings.models:
        if registered not in candidates and registered != name and closest(name, [registered]):
            candidates.append(registered)
    message = f"Unknown tool {short_repr(name)}"
    if candidates:
        message += f". Did you mean {short_repr(candidates[0])}?"
        if len(candidates) > 1:
            message += " Other close names: " + ", ".join(short_repr(c) for c in candidates[1:3])
    else:
        message += f": no tool of that name among the {len(ctx.registry.names())} defined in the workspace"
    fixes = tuple(
        Fix(f"Call {short_repr(c)}", (ReplaceValue(pointer, json.dumps(c)),), preferred=i == 0)
        for i, c in enumerate(candidates[:3])
    )
    return Finding(UNKNOWN_TOOL.code, message, pointer, fixes=fixes, data={"tool": name})


# --- findings inside a JSON string (`"arguments": "{\"a\": 1}"`) ------------------------------------------


def _inside_string(findings: list[Finding], text: str, pointer: Pointer) -> Iterator[Finding]:
    document = Document.from_text("toolsense:arguments", text)
    root = root_value(document.root)
    if root is None:
        return
    data = text.encode("utf-8", "surrogatepass")

    def chars(start: int, end: int) -> tuple[int, int]:
        first = len(data[:start].decode("utf-8", "replace"))
        return first, first + len(data[start:end].decode("utf-8", "replace"))

    for finding in findings:
        span = chars(*place_bytes(root, finding.pointer, finding.target, None))
        fixes = tuple(fix for fix in (_string_fix(f, root, pointer, chars) for f in finding.fixes) if fix is not None)
        yield replace(finding, pointer=pointer, target="value", span=span, fixes=fixes, related=())


def _string_fix(fix: Fix, root: Any, pointer: Pointer, chars: Any) -> Fix | None:
    edits: list[FixEdit] = []
    for edit in fix.edits:
        if isinstance(edit, ReplaceValue):
            start, end = chars(*place_bytes(root, edit.pointer, "value", None))
            edits.append(ReplaceInString(pointer, start, end, edit.json_text))
        elif isinstance(edit, RenameKey):
            start, end = chars(*place_bytes(root, edit.pointer, "key", None))
            edits.append(ReplaceInString(pointer, start, end, json.dumps(edit.new_key)))
        elif isinstance(edit, (RemoveMember, InsertMembers)):
            return None
        else:
            return None
    return Fix(fix.title, tuple(edits), fix.safe, fix.preferred)
