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
from ...engine.context import CheckContext, ToolInfo, ToolRegistry
from ...engine.filefacts import NO_FACTS
from ...engine.findings import Finding
from ...engine.units import Unit
from ...engine.workspace import tool_infos
from ..catalog import CATALOG
from .tool_calls import NAME_AND_INPUT, UNKNOWN_TOOL, check_call


@CATALOG.file_check("tool", "tool_call")
def response_calls(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    calls = [u for u in units if u.kind == "tool_call" and u.origin == "response" and u.dialect in NAME_AND_INPUT]
    if not calls:
        return
    # The file's tools, or its exchange's (`engine.records.exchanges`).
    defined = tool_infos(ctx.uri, [u for u in units if u.kind == "tool"], requests=True)
    names = {info.name for info in defined}
    for call in calls:
        assert call.dialect is not None
        name_pointer, input_pointer = NAME_AND_INPUT[call.dialect]
        name = value_at(call.value, name_pointer)
        if not isinstance(name, str) or value_at(call.value, input_pointer) is None:
            continue
        registry = ToolRegistry()
        # A tool the file does not define accepts any object here: only whether `arguments` is JSON is judged.
        accepts_any = ToolInfo(name, ctx.uri, (), (), call.dialect, {})
        registry.set_file(ctx.uri, defined if name in names else [accepts_any])
        own = replace(ctx, registry=registry, facts=NO_FACTS, root_uri="")
        for finding in check_call(call, own, name, name_pointer, input_pointer):
            if finding.code != UNKNOWN_TOOL.code:
                yield finding.under(call.pointer)
