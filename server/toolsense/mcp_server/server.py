"""`toolsense mcp`: toolsense as an MCP server over stdio, for coding agents (Claude Code, VS Code, …).

The MCP SDK (the `mcp` extra) is imported here only, when the command runs: the rest of the CLI never pays for
it. Arguments are validated against each tool's input schema before anything runs (a path that climbs out of the
project is refused there and again when it is resolved); a tool's failure is an error result the agent can
read (`isError`), never a protocol error. Results are both JSON text and `structuredContent`.
"""

from __future__ import annotations

import io
import json
import os
import sys
import traceback
from functools import partial
from typing import TYPE_CHECKING, Any, BinaryIO

from .definitions import TOOLS
from .service import Project, ToolError, check, explain_rule, fix, schema_for_model

if TYPE_CHECKING:
    import mcp_types
    from mcp.server.lowlevel import Server

SERVER_NAME = "toolsense"
INSTRUCTIONS = (
    "toolsense checks the JSON that drives LLM agents: tool definitions (Anthropic, MCP, OpenAI, Gemini), tool "
    "calls, automations and MCP configurations. Call `check` after writing or editing one, `fix` for the "
    "mechanical fixes, `explain_rule` to understand a finding."
)


class SdkMissing(RuntimeError):
    def __init__(self) -> None:
        super().__init__("`toolsense mcp` needs the MCP Python SDK: pip install 'toolsense[mcp]' (or: pip install mcp)")


def call(project: Project, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Run one tool on validated arguments (raises ToolError for what the agent should correct)."""
    if name == "check":
        return check(project, list(arguments.get("paths", [])), arguments.get("text"), arguments.get("file_name"))
    if name == "fix":
        return fix(
            project,
            arguments.get("path"),
            arguments.get("text"),
            arguments.get("file_name"),
            bool(arguments.get("unsafe", False)),
        )
    if name == "explain_rule":
        return explain_rule(project, arguments["code"])
    if name == "schema_for_model":
        return schema_for_model(
            project,
            arguments["model"],
            arguments.get("tool_name"),
            arguments.get("description"),
            arguments.get("dialect", "anthropic"),
        )
    raise ToolError(f"no tool named {name!r}")


def argument_problems(name: str, arguments: dict[str, Any]) -> list[str]:
    """Where the arguments break the tool's input schema (empty when they fit, or the tool is unknown)."""
    import jsonschema

    schema = next((tool["inputSchema"] for tool in TOOLS if tool["name"] == name), None)
    if schema is None:
        return []
    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{'/'.join(str(part) for part in error.absolute_path) or 'arguments'}: {error.message}"
        for error in sorted(validator.iter_errors(arguments), key=lambda error: list(error.absolute_path))
    ]


def build(project: Project) -> Server[Any]:
    try:
        import anyio
        import mcp_types as types
        from mcp.server.lowlevel import Server
    except ImportError as error:
        raise SdkMissing() from error
    from .. import __version__

    tools = [types.Tool.model_validate(definition) for definition in TOOLS]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        problems = argument_problems(params.name, arguments)
        if problems:
            return _error(types, "invalid arguments: " + "; ".join(problems))
        try:
            result = await anyio.to_thread.run_sync(partial(call, project, params.name, arguments))
        except ToolError as error:
            return _error(types, str(error))
        except Exception as error:  # a bug: still an answer the agent can read, never a protocol error
            traceback.print_exc(file=sys.stderr)
            return _error(types, f"toolsense failed on this request ({type(error).__name__}; a bug in toolsense)")
        text = json.dumps(result, ensure_ascii=False)  # one line: the agent pays for every indenting space
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=result)

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _error(types: Any, message: str) -> mcp_types.CallToolResult:
    result: mcp_types.CallToolResult = types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)
    return result


def serve(project: Project, protocol_out: BinaryIO) -> int:
    """Serve over stdin and protocol_out (the real stdout) until the client closes the connection; 0 then, 2
    without the SDK. User code (a registered model's module) reading stdin gets end-of-file instead of the
    client's messages; what it prints goes to stderr (the CLI points fd 1 there)."""
    try:
        server = build(project)
    except SdkMissing as error:
        sys.stderr.write(f"toolsense: {error}\n")
        return 2
    import anyio
    from mcp.server.stdio import stdio_server

    private_in = os.dup(0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)

    async def run() -> None:
        with open(private_in, "rb") as protocol_in:
            reader = anyio.wrap_file(io.TextIOWrapper(protocol_in, encoding="utf-8", errors="replace"))
            writer = anyio.wrap_file(io.TextIOWrapper(protocol_out, encoding="utf-8", write_through=True))
            async with stdio_server(reader, writer) as (read, write):
                await server.run(read, write, server.create_initialization_options())

    anyio.run(run)
    return 0
