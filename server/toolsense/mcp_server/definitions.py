"""The MCP tool definitions of `toolsense mcp`, as the wire sends them (`tools/list`).

They pass toolsense's own checks with the `mcp-quality` and `mcp-security` profiles (a test lists them through
the SDK client and checks them): every parameter described and bounded, paths kept inside the project by a
`pattern`, annotations telling clients that no tool writes or reaches beyond the project.
"""

from __future__ import annotations

from typing import Any

PROJECT_PATH_PATTERN = r"^(?!.*(?:^|[/\\])\.\.(?:[/\\]|$)).+$"
"""A path without `..` segments (relative to the project root, or absolute: the server refuses any outside it)."""

_MAX_TEXT = 10_000_000
_MAX_NAME = 255

_FILE_NAME: dict[str, Any] = {
    "type": "string",
    "description": "The name the text would have in the project (e.g. `tools/search.tools.json`): it decides "
    "the file's kind and dialect as a real file's name does. Default: `input.json` (the content decides).",
    "maxLength": _MAX_NAME,
    "pattern": PROJECT_PATH_PATTERN,
}
_TEXT: dict[str, Any] = {
    "type": "string",
    "description": "The JSON (or JSONC) text of a file, checked as if it were saved under `file_name`.",
    "maxLength": _MAX_TEXT,
}
_RANGE: dict[str, Any] = {
    "type": "object",
    "description": "Zero-based line and UTF-16 character positions, as the Language Server Protocol counts.",
    "properties": {
        "start": {"type": "object", "properties": {"line": {"type": "integer"}, "character": {"type": "integer"}}},
        "end": {"type": "object", "properties": {"line": {"type": "integer"}, "character": {"type": "integer"}}},
    },
}
_FINDING: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string"},
        "range": _RANGE,
        "severity": {"type": "string", "enum": ["error", "warning", "information", "hint"]},
        "code": {"type": "string"},
        "message": {"type": "string"},
        "source": {"type": "string"},
    },
    "required": ["path", "range", "severity", "code", "message"],
}
_NOTES: dict[str, Any] = {
    "type": "array",
    "description": "What toolsense noted while loading the project (models not imported, …).",
    "items": {"type": "string"},
}
_READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}

CHECK: dict[str, Any] = {
    "name": "check",
    "title": "Check tool definitions",
    "description": "Check LLM tool definitions, tool calls, automations or MCP configurations with toolsense and "
    "return every finding at once: the same codes, messages and ranges as `toolsense check --format json`, "
    "with the project's settings. Give files or folders of the project in `paths`, or unsaved JSON in `text` "
    "(with `file_name`), or both: they are checked together, so calls and automations are checked against the "
    "tools defined in the other files. Use it after writing or editing a tool definition.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "paths": {
                "type": "array",
                "description": "Files and folders in the project (relative to its root, or absolute inside it); "
                "folders are searched as `toolsense check` searches them.",
                "items": {"type": "string", "maxLength": 4096, "pattern": PROJECT_PATH_PATTERN},
                "maxItems": 1000,
            },
            "text": _TEXT,
            "file_name": _FILE_NAME,
        },
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {
            "findings": {"type": "array", "items": _FINDING},
            "summary": {
                "type": "object",
                "description": "Files checked and findings per severity.",
                "additionalProperties": {"type": "integer"},
            },
            "notes": _NOTES,
        },
        "required": ["findings", "summary", "notes"],
    },
    "annotations": _READ_ONLY,
}

FIX: dict[str, Any] = {
    "name": "fix",
    "title": "Fix tool definitions",
    "description": "Apply toolsense's quick fixes to one file or to unsaved JSON and return the fixed text with "
    "the findings that remain. Nothing is written: save the returned text with your own edit tool. Only safe "
    "fixes (meaning kept) are applied unless `unsafe` is true. Give either `path` or `text`.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "path": {
                "type": "string",
                "description": "A file in the project whose content is fixed (the file itself is not changed).",
                "maxLength": 4096,
                "pattern": PROJECT_PATH_PATTERN,
            },
            "text": _TEXT,
            "file_name": _FILE_NAME,
            "unsafe": {
                "type": "boolean",
                "description": "Also apply fixes that change meaning (removing a property, choosing a name).",
                "default": False,
            },
        },
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "The fixed text (the input when nothing changed)."},
            "changed": {"type": "boolean"},
            "applied": {"type": "integer", "description": "How many fixes were applied."},
            "remaining": {"type": "array", "items": _FINDING},
            "notes": _NOTES,
        },
        "required": ["text", "changed", "applied", "remaining", "notes"],
    },
    "annotations": _READ_ONLY,
}

EXPLAIN_RULE: dict[str, Any] = {
    "name": "explain_rule",
    "title": "Explain a toolsense rule",
    "description": "Explain a toolsense rule by its code (`TS220`) or name: what it finds, its default severity "
    "and the one this project sets, its family, its quick fix and a link to the rule catalogue. Use it to "
    "understand a finding before changing a tool definition.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "code": {
                "type": "string",
                "description": "The rule's code as findings show it (`TS220`) or its name (`schema-type-missing`).",
                "maxLength": 100,
                "pattern": r"^[A-Za-z0-9-]+$",
            }
        },
        "required": ["code"],
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {
            "code": {"type": "string"},
            "name": {"type": "string"},
            "severity": {"type": "string", "description": "The default severity."},
            "project_severity": {"type": "string", "description": "The severity in this project, or `off`."},
            "family": {"type": "string"},
            "summary": {"type": "string"},
            "fix": {"type": ["string", "null"], "description": "What the quick fix does, if the rule has one."},
            "docs": {"type": "string", "format": "uri"},
        },
        "required": ["code", "name", "severity", "project_severity", "family", "summary", "fix", "docs"],
    },
    "annotations": _READ_ONLY,
}

SCHEMA_FOR_MODEL: dict[str, Any] = {
    "name": "schema_for_model",
    "title": "Schema of a registered pydantic model",
    "description": "Generate the strict JSON Schema of a pydantic model that the project registers in its "
    "toolsense settings (`[tool.toolsense.models]`), as `toolsense schema` prints it; with `tool_name`, a whole "
    "tool definition in the chosen dialect. Use it to write or regenerate a tool definition from the model "
    "instead of editing the schema by hand. Only registered models are imported.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "model": {
                "type": "string",
                "description": "`package.module:Model` as registered, or the tool name it is registered under.",
                "maxLength": 500,
                "pattern": r"^[A-Za-z_][\w.\-]*(:[A-Za-z_][\w.]*)?$",
            },
            "tool_name": {
                "type": "string",
                "description": "Return a whole tool definition with this name instead of the schema alone.",
                "maxLength": 128,
                "pattern": r"^[A-Za-z0-9_.\-]+$",
            },
            "description": {
                "type": "string",
                "description": "The tool's description (with `tool_name`; default: the model's docstring).",
                "maxLength": 10_000,
            },
            "dialect": {
                "type": "string",
                "description": "The tool definition's shape (with `tool_name`).",
                "enum": ["anthropic", "mcp", "openai"],
                "default": "anthropic",
            },
        },
        "required": ["model"],
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {
            "model": {"type": "string", "description": "The model's `package.module:Model`."},
            "schema": {"type": "object", "description": "The strict JSON Schema, or the whole tool definition."},
        },
        "required": ["model", "schema"],
    },
    "annotations": _READ_ONLY,
}

TOOLS: tuple[dict[str, Any], ...] = (CHECK, FIX, EXPLAIN_RULE, SCHEMA_FOR_MODEL)
