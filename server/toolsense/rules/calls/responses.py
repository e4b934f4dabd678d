"""Tool calls in a provider's response (`engine.records`): a chat completion's `tool_calls`, a Responses API
object's `function_call` items, an Anthropic message's `tool_use` blocks.

The provider wrote the call's envelope, so only what the model wrote is judged: `arguments` that are not JSON (or
not an object) are an error on the string; arguments that parse are checked against the tool's schema when the
same file defines the tool (the request recorded beside the response, the tools a Responses object echoes). A
tool the file does not define is the provider's business: nothing is said about it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ...domain.tool import value_at
from ...engine.context import CheckContext, ToolRegistry
from ...engine.filefacts import NO_FACTS
from ...engine.findings import Finding
from ...engine.units import Unit
from ...engine.workspace import tool_infos
from ..catalog import CATALOG
from .tool_calls import NAME_AND_INPUT, UNKNOWN_TOOL, check_call, parse_arguments


@CATALOG.file_check("tool", "tool_call")
def response_calls(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    calls = [u for u in units if u.kind == "tool_call" and u.origin == "response" and u.dialect in NAME_AND_INPUT]
    tools = [u for u in units if u.kind == "tool"]  # the file's, or its exchange's (`engine.records.exchanges`)
    for call in calls:
        assert call.dialect is not None
        name_pointer, input_pointer = NAME_AND_INPUT[call.dialect]
        name = value_at(call.value, name_pointer)
        raw = value_at(call.value, input_pointer)
        if not isinstance(name, str) or raw is None:
            continue
        registry = ToolRegistry()
        registry.set_file(ctx.uri, tool_infos(ctx.uri, tools, requests=True))
        if name in registry.names():
            own = replace(ctx, registry=registry, facts=NO_FACTS, root_uri="")
            findings = (
                f for f in check_call(call, own, name, name_pointer, input_pointer) if f.code != UNKNOWN_TOOL.code
            )
            yield from (finding.under(call.pointer) for finding in findings)
        elif isinstance(raw, str):
            _, bad = parse_arguments(raw, input_pointer)
            if bad is not None:
                yield bad.under(call.pointer)
