"""Rules about a tool's name and description: what each target allows, and what the clients rename."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ..providers import PROFILES
from ..tool import ToolView
from .model import Hit, Message, Rule, Source
from .targets import (
    ANTHROPIC_FAMILY,
    GEMINI_CLI_NAMES,
    GEMINI_PARAMETERS,
    OPENAI_CHAT,
    OPENAI_FUNCTION_DOCS,
    READ,
    VERTEX_SCHEMA_DOCS,
    VSCODE_MCP_SOURCE,
)

# Claude Code sends `mcp__<server>__<tool>`: with the shortest server name, 8 characters come before the tool's.
CLAUDE_CODE_PREFIX = len("mcp__x__")


def _name(view: ToolView) -> str:
    return view.name or ""


def _anthropic_name(view: ToolView, target: str) -> Iterator[Hit]:
    name = _name(view)
    pattern = PROFILES["anthropic"].name_pattern
    if target == "claude-code":
        if re.search(r"[^a-zA-Z0-9_-]", name) or len(name) > 128 - CLAUDE_CODE_PREFIX:
            yield Hit(view.name_pointer)
    elif not re.fullmatch(pattern, name):
        yield Hit(view.name_pointer)


ANTHROPIC_NAME = Rule(
    "anthropic-name",
    ANTHROPIC_FAMILY,
    "rejected",
    "a name outside `^[a-zA-Z0-9_-]{1,128}$` (Claude Code: also with its `mcp__server__` prefix)",
    (
        Message("tools.{i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'", "2025-03-07"),
        Message("tools.{i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,128}}$'", "2025-06-29"),
    ),
    (
        Source(
            "https://github.com/apify/tester-mcp-client/issues/11", "2025-03-07", "anthropic/name-with-dot-apify-tester"
        ),
        Source(
            "https://github.com/modelcontextprotocol/typescript-sdk/issues/413",
            "2025-04-25",
            "anthropic/name-with-dot-typescript-sdk",
        ),
        Source(
            "https://github.com/jedisct1/openapi-mcp/issues/9", "2025-06-29", "claude-code/name-with-slash-openapi-mcp"
        ),
        Source(
            "https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1345",
            "2025-08-14",
            "claude-code/name-with-spaces-mcp-spec",
        ),
    ),
    _anthropic_name,
)


def _openai_name(view: ToolView, target: str) -> Iterator[Hit]:
    if re.search(r"[^a-zA-Z0-9_.-]", _name(view)) or not _name(view):
        yield Hit(view.name_pointer)


OPENAI_NAME = Rule(
    "openai-name",
    OPENAI_CHAT,
    "rejected",
    "a function name with characters outside `a-zA-Z0-9_-` (a `.` is the next rule's)",
    (
        Message(
            "Invalid 'tools[{i}].function.name': string does not match pattern. Expected a string that matches the "
            "pattern '^[a-zA-Z0-9_-]+$'.",
            "2025-01-07",
        ),
        Message(
            "Invalid 'tools[{i}].function.name': string does not match pattern. Expected a string that matches the "
            "pattern '^[a-zA-Z0-9_\\\\.-]+$'.",
            "2025-06-11",
        ),
    ),
    (
        Source("https://github.com/nanbingxyz/5ire/issues/33", "2025-01-07", "openai-chat/name-with-space-5ire"),
        Source("https://github.com/brekkylab/ailoy/pull/109", "2025-06-09", "openai-chat/name-with-slash-ailoy"),
        Source("https://github.com/danishjsheikh/swagger-mcp/issues/13", "2025-06-11"),
    ),
    _openai_name,
)


def _openai_dot(view: ToolView, target: str) -> Iterator[Hit]:
    name = _name(view)
    if "." in name and not re.search(r"[^a-zA-Z0-9_.-]", name):
        yield Hit(view.name_pointer)


OPENAI_NAME_DOT = Rule(
    "openai-name-dot",
    OPENAI_CHAT,
    "unknown",
    "a `.` in a function name: one captured message allows it (`^[a-zA-Z0-9_\\.-]+$`), others do not",
    (Message("OpenAI's messages disagree on `.` in a function name (one pattern allows it, the other does not)"),),
    (
        Source("https://github.com/danishjsheikh/swagger-mcp/issues/13", "2025-06-11"),
        Source("https://github.com/brekkylab/ailoy/pull/109", "2025-06-09", "openai-chat/name-with-slash-ailoy"),
    ),
    _openai_dot,
)


def _openai_name_length(view: ToolView, target: str) -> Iterator[Hit]:
    if len(_name(view)) > 64:
        yield Hit(view.name_pointer, {"length": str(len(_name(view)))})


OPENAI_NAME_LENGTH = Rule(
    "openai-name-length",
    OPENAI_CHAT,
    "rejected",
    "a function name longer than 64 characters",
    (
        Message(
            "Invalid 'tools[{i}].function.name': string too long. Expected a string with maximum length 64, but got "
            "a string with length {length} instead.",
            "2025-05-09",
        ),
    ),
    (
        Source(
            "https://github.com/microsoft/foundry-dev-tools/issues/201",
            "2025-05-09",
            "openai-chat/name-too-long-foundry",
        ),
        Source(OPENAI_FUNCTION_DOCS, READ),
    ),
    _openai_name_length,
)


def _openai_description(view: ToolView, target: str) -> Iterator[Hit]:
    if isinstance(view.description, str) and len(view.description) > 1024:
        yield Hit(view.description_pointer, {"length": str(len(view.description))})


OPENAI_DESCRIPTION_LENGTH = Rule(
    "openai-description-length",
    OPENAI_CHAT,
    "rejected",
    "a function description longer than 1024 characters",
    (
        Message(
            "Invalid 'tools[{i}].function.description': string too long. Expected a string with maximum length "
            "1024, but got a string with length {length} instead.",
            "2025-01-07",
        ),
    ),
    (Source("https://github.com/nanbingxyz/5ire/issues/33", "2025-01-07", "openai-chat/description-too-long-5ire"),),
    _openai_description,
)


def _gemini_name(view: ToolView, target: str) -> Iterator[Hit]:
    if not re.fullmatch(PROFILES["gemini"].name_pattern, _name(view)):
        yield Hit(view.name_pointer)


GEMINI_NAME = Rule(
    "gemini-name",
    GEMINI_PARAMETERS,
    "rejected",
    "a function name that does not start with a letter or `_`, or has other characters than `a-zA-Z0-9_.:-`, or "
    "more than 64",
    (
        Message(
            "GenerateContentRequest.tools[0].function_declarations[{i}].name: Invalid function name. Must start with "
            "a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or "
            "dashes (-), with a maximum length of 64.",
            "2025-11-07",
        ),
    ),
    (
        Source("https://github.com/cline/cline/issues/7339", "2025-11-07"),
        Source(VERTEX_SCHEMA_DOCS, READ),
    ),
    _gemini_name,
)


def _gemini_cli_name(view: ToolView, target: str) -> Iterator[Hit]:
    name = _name(view)
    # generateValidName(`${server}__${tool}`): `mcp_` in front, other characters to `_`, over 63 cut in the middle.
    if re.search(r"[^a-zA-Z0-9_.:-]", name):
        yield Hit(view.name_pointer, change="every character outside a-zA-Z0-9_.:- becomes `_`")
    if len("mcp_x__") + len(name) > 63:
        qualified = re.sub(r"[^a-zA-Z0-9_.:-]", "_", f"mcp_<server>__{name}")
        yield Hit(
            view.name_pointer,
            {"qualified": qualified},
            change="the name is cut to 63 characters (its middle becomes `...`)",
        )


GEMINI_CLI_NAME = Rule(
    "gemini-cli-name",
    frozenset({"gemini-cli"}),
    "changed",
    "a name Gemini CLI rewrites: characters outside `a-zA-Z0-9_.:-`, or too long with its `mcp_server__` prefix",
    (
        Message(
            'Truncating MCP tool name "{qualified}" to fit within the 64 character limit. This tool may require user '
            "approval.",
            documented=True,
        ),
    ),
    (Source(GEMINI_CLI_NAMES, READ),),
    _gemini_cli_name,
)


def _cursor_name(view: ToolView, target: str) -> Iterator[Hit]:
    # Cursor filters a tool out when server name + tool name reach 60 characters; a server name has one at least.
    if len(_name(view)) + 1 >= 60:
        yield Hit(view.name_pointer, {"length": f"<{len(_name(view)) + 1} or more>"})


CURSOR_NAME = Rule(
    "cursor-name-length",
    frozenset({"cursor"}),
    "rejected",
    "a tool name of 59 characters or more: with any server name, Cursor's 60-character limit filters it out",
    (
        Message(
            "<server>: {name} – Combined server and tool name length ({length}) exceeds 60 characters", "2026-02-27"
        ),
    ),
    (
        Source(
            "https://github.com/ComposioHQ/composio/issues/2788", "2026-02-27", "cursor/combined-name-too-long-composio"
        ),
    ),
    _cursor_name,
)


def _vscode_name(view: ToolView, target: str) -> Iterator[Hit]:
    if re.search(r"[^a-zA-Z0-9_-]", _name(view)):
        yield Hit(
            view.name_pointer,
            {"quoted": json.dumps(_name(view))},
            change="VS Code renames the tool: every character outside a-zA-Z0-9_- becomes `_`",
        )


VSCODE_NAME = Rule(
    "vscode-name",
    frozenset({"vscode-mcp"}),
    "changed",
    "a tool name with characters outside `a-zA-Z0-9_-`, which VS Code replaces with `_`",
    (Message("Tool {quoted} is invalid. Tools names may only contain [a-z0-9_-]", "2025-06-29"),),
    (
        Source(
            "https://github.com/jedisct1/openapi-mcp/issues/9", "2025-06-29", "vscode-mcp/name-with-slash-openapi-mcp"
        ),
        Source(VSCODE_MCP_SOURCE, READ),
    ),
    _vscode_name,
)


def _vscode_description(view: ToolView, target: str) -> Iterator[Hit]:
    if not view.description:
        yield Hit(view.description_pointer, change='VS Code sends the description "<empty>"')


VSCODE_DESCRIPTION = Rule(
    "vscode-description",
    frozenset({"vscode-mcp"}),
    "changed",
    "a tool without a description, which VS Code sends as `<empty>`",
    (
        Message(
            "Tool {name} does not have a description. Tools must be accurately described to be called",
            documented=True,
        ),
    ),
    (Source(VSCODE_MCP_SOURCE, READ),),
    _vscode_description,
)

RULES = (
    ANTHROPIC_NAME,
    OPENAI_NAME,
    OPENAI_NAME_DOT,
    OPENAI_NAME_LENGTH,
    OPENAI_DESCRIPTION_LENGTH,
    GEMINI_NAME,
    GEMINI_CLI_NAME,
    CURSOR_NAME,
    VSCODE_NAME,
    VSCODE_DESCRIPTION,
)
