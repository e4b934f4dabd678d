"""The opt-in mcp-quality and mcp-security profiles on small MCP tool files: codes, places and messages."""

from __future__ import annotations

import json
from typing import Any

from toolsense.document.document import Document
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.rules import CATALOG
from toolsense.rules.tools.mcp_profiles import is_secret, naming_style
from toolsense.settings import Settings

PROFILE_CODES = {f"TS{n}" for n in (*range(270, 277), *range(280, 287))}


def found(
    tools: list[dict[str, Any]], *profiles: str, severity: dict[str, str] | None = None
) -> list[tuple[str, str, str]]:
    """(code, the text the diagnostic marks, message) of every profile diagnostic."""
    text = json.dumps({"tools": tools}, indent=2, ensure_ascii=False)
    document = Document.from_text("file:///w/server.tools.json", text)
    settings = Settings(profiles=profiles, severity=severity or {})  # type: ignore[arg-type]
    report = check_document(
        document, CheckContext(settings, ToolRegistry(), document.uri, True, catalog=CATALOG), None, UnitCache()
    )
    result = []
    for d in report.diagnostics:
        if d.code in PROFILE_CODES:
            start, end = document.offset_at(d.range.start), document.offset_at(d.range.end)
            result.append((d.code, bytes(document.data[start:end]).decode(), d.message))
    return result


def tool(
    name: str, description: str = "Read the thing by id and return it; use it before editing.", **extra: Any
) -> dict[str, Any]:
    schema = extra.pop("schema", {"type": "object", "properties": {}, "additionalProperties": False})
    return {
        "name": name,
        "description": description,
        "inputSchema": schema,
        "annotations": {"readOnlyHint": True},
        **extra,
    }


def test_profiles_are_off_by_default() -> None:
    assert found([tool("x", "Short.")]) == []


def test_short_descriptions_and_name_echoes() -> None:
    tools = [tool("get_weather", "Get weather"), tool("list_items", "List items."), tool("read_doc", "读取文件")]
    assert found(tools, "mcp-quality") == [
        (
            "TS270",
            '"Get weather"',
            'The description "Get weather" (only repeats the name) does not say what the tool does and when to use it',
        ),
        (
            "TS270",
            '"List items."',
            'The description "List items." (only repeats the name) does not say what the tool does and when to use it',
        ),
        (
            "TS270",
            '"读取文件"',
            'The description "读取文件" (2 words) does not say what the tool does and when to use it',
        ),
    ]


def test_most_parameters_undescribed() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string", "description": "C."}},
        "additionalProperties": False,
    }
    (only,) = found([tool("get_x", schema=schema)], "mcp-quality")
    assert only[0] == "TS271" and only[1] == '"inputSchema"'
    assert only[2] == "2 of 3 parameters have no description (a, b): the model guesses what they mean"


def test_naming_style_majority() -> None:
    tools = [
        tool("get_item"),
        tool("list_items"),
        tool("deleteItem", annotations={"destructiveHint": True}),
        tool("ping"),
    ]
    assert [(c, t) for c, t, _ in found(tools, "mcp-quality")] == [("TS272", '"deleteItem"')]
    assert naming_style("AIMindTool") == "PascalCase" and naming_style("ping") is None
    assert naming_style("linear_issue_add-label") == "mixed"


def test_annotations_missing_and_contradicting_the_name() -> None:
    tools = [
        {**tool("fetch_page"), "annotations": None},
        tool("delete_repo", annotations={"readOnlyHint": False}),
        tool("remove_user", annotations={"readOnlyHint": True}),
        tool("get_user", annotations={"readOnlyHint": False}),
        tool("purge_cache", annotations={"destructiveHint": False}),
    ]
    tools[0].pop("annotations")
    assert [(c, t, m) for c, t, m in found(tools, "mcp-quality") if c == "TS274"] == [
        ("TS274", '"annotations"', "'delete_repo' sounds destructive: say destructiveHint: true"),
        ("TS274", "true", "'remove_user' sounds destructive but says readOnlyHint: true"),
        ("TS274", "false", "'get_user' sounds read-only: say readOnlyHint: true (found false)"),
        ("TS274", "false", "'purge_cache' sounds destructive: say destructiveHint: true (found false)"),
    ]
    assert [t for c, t, _ in found(tools, "mcp-quality") if c == "TS273"] == ['"fetch_page"']


def test_output_schema_promised_and_parameterless_open() -> None:
    promising = tool("get_stats", "Returns a JSON object with the counters of the last hour.")
    open_schema = tool("ping", schema={"type": "object", "additionalProperties": True})
    messages = found([promising, open_schema], "mcp-quality")
    assert [(c, t) for c, t, _ in messages] == [("TS275", '"get_stats"'), ("TS276", "true")]
    # Without additionalProperties TS220 already says it; TS276 speaks only when TS220 is off.
    bare = tool("ping", schema={"type": "object"})
    assert found([bare], "mcp-quality") == []
    assert [c for c, _, _ in found([bare], "mcp-quality", severity={"TS220": "off"})] == ["TS276"]


def _params(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False}


def test_security_rules() -> None:
    schema = _params(
        user_id={"type": "string", "description": "User."},
        sha={"type": "string", "pattern": "^[0-9a-f]{40}$", "description": "Commit."},
        issue_ids={"type": "array", "items": {"type": "integer"}, "description": "Issues."},
        file_path={"type": "string", "description": "File to read."},
        repo_path={"type": "string", "description": "Path inside the repository."},
        callback_url={"type": "string", "description": "Where to post."},
        homepage_url={"type": "string", "format": "uri", "description": "Home."},
        api_key={"type": "string", "default": "sk-123", "description": "Key."},
        access_token={"type": "string", "x-mcp-header": "Token", "description": "Token."},
        page_token={"type": "string", "default": "", "description": "Cursor."},
    )
    icons = [
        {"src": "javascript:alert(1)"},
        {"src": "http://x/icon.png"},
        {"src": "https://x/icon.png"},
        {"src": "data:image/png;base64,AA"},
    ]
    got = found([tool("get_data", schema=schema, icons=icons)], "mcp-security")
    assert [(c, t) for c, t, _ in got] == [
        ("TS280", '"user_id"'),
        ("TS281", '"issue_ids"'),
        ("TS282", '"file_path"'),
        ("TS283", '"callback_url"'),
        ("TS284", '"default"'),
        ("TS285", '"x-mcp-header"'),
        ("TS286", '"javascript:alert(1)"'),
        ("TS286", '"http://x/icon.png"'),
    ]
    assert got[4][2] == (
        "Secret-like parameter 'api_key' has a default: the value is in the definition every client and model sees"
    )


def test_secret_names() -> None:
    assert all(is_secret(n) for n in ("password", "apiKey", "API_KEY", "access_token", "clientSecret", "auth"))
    assert not any(is_secret(n) for n in ("max_tokens", "page_token", "nextPageToken", "author", "token_count"))


def test_other_dialects_are_left_alone() -> None:
    anthropic = {
        "name": "get",
        "description": "Get",
        "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}},
    }
    assert found([anthropic], "mcp-quality", "mcp-security") == []
