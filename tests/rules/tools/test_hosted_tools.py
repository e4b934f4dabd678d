"""Provider-hosted tools and newer fields are what providers accept, never errors (issue 21, class 3).

OpenAI Responses hosted types (`web_search` and dated variants, `tool_search`, `computer_use`, `mcp`, `custom`,
`namespace`, …) and `defer_loading`; Anthropic dated server tools and `defer_loading`, `allowed_callers`,
`eager_input_streaming`; an unknown hosted type is one information; a provider's response echoing the tools it
accepted is proof they are valid."""

from __future__ import annotations

import json
from typing import Any

from checking import check

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "City."}},
    "required": ["city"],
    "additionalProperties": False,
}
FUNCTION = {"type": "function", "name": "get_weather", "description": "Weather.", "parameters": SCHEMA}
OPENAI_HOSTED: list[dict[str, Any]] = [
    {"type": "web_search"},
    {"type": "web_search_2025_08_26", "search_context_size": "low"},
    {"type": "web_search_preview_2025_03_11"},
    {"type": "file_search", "vector_store_ids": ["vs_1"]},
    {"type": "code_interpreter", "container": {"type": "auto"}},
    {"type": "computer_use_preview", "display_width": 1024, "display_height": 768, "environment": "browser"},
    {"type": "computer"},
    {"type": "mcp", "server_label": "wiki", "server_url": "https://mcp.example.com/mcp", "defer_loading": True},
    {
        "type": "custom",
        "name": "sql",
        "description": "Run SQL.",
        "format": {"type": "grammar", "syntax": "lark", "definition": 'start: "SELECT 1"'},
    },
    {"type": "image_generation", "quality": "low"},
    {"type": "local_shell"},
    {"type": "shell"},
    {"type": "apply_patch"},
    {"type": "tool_search"},
    {"type": "namespace", "name": "crm", "description": "CRM.", "tools": [FUNCTION]},
]


CAPTURE = "file:///w/captures/response.json"


def _request(tools: list[dict[str, Any]], **extra: Any) -> str:
    return json.dumps({"model": "gpt-5.4", "input": "hi", "tools": tools, **extra}, indent=1)


def test_openai_hosted_tools_and_deferred_functions_are_accepted() -> None:
    deferred = {**FUNCTION, "defer_loading": True, "strict": True}
    assert check(_request([*OPENAI_HOSTED, deferred]), kind=None) == []


def test_an_unknown_hosted_type_is_information_never_an_error() -> None:
    text = _request([FUNCTION, {"type": "brand_new_tool", "option": 1}])
    found = [(d.code, d.severity, d.message, d.text) for d in check(text, kind=None)]
    assert found == [
        (
            "TS010",
            "information",
            "Tool type 'brand_new_tool' is no hosted tool toolsense knows: not checked (the provider validates its "
            "options)",
            '"brand_new_tool"',
        )
    ]


def test_anthropic_server_tools_and_newer_fields_are_accepted() -> None:
    tools = [
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
        {"type": "web_fetch_20250910", "name": "web_fetch"},
        {"type": "code_execution_20250825", "name": "code_execution"},
        {"type": "bash_20250124", "name": "bash"},
        {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"},
        {"type": "computer_20250124", "name": "computer", "display_width_px": 1024, "display_height_px": 768},
        {"type": "memory_20250818", "name": "memory"},
        {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"},
        {
            "name": "get_weather",
            "description": "Weather.",
            "input_schema": SCHEMA,
            "cache_control": {"type": "ephemeral", "ttl": "1h"},
            "defer_loading": True,
            "strict": True,
            "input_examples": [{"city": "Paris"}],
            "allowed_callers": ["code_execution_20250825"],
            "eager_input_streaming": True,
        },
    ]
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}]}
    assert check(json.dumps({**body, "tools": tools}, indent=1), kind=None) == []


def test_a_response_echoing_its_tools_is_proof_they_are_valid() -> None:
    """A Responses API response echoes the tools it accepted (with `null` for what was not given)."""
    echoed = {**FUNCTION, "description": None, "strict": True, "defer_loading": False}
    hosted = {"type": "web_search_preview", "search_context_size": "medium", "user_location": None}
    response = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-4.1",
        "output": [],
        "tool_choice": "auto",
        "temperature": 1.0,
        "tools": [echoed, hosted],
    }
    assert check(json.dumps(response, indent=1), kind=None, uri=CAPTURE) == []
    assistant = {"id": "asst_1", "object": "assistant", "model": "gpt-4o", "tools": [{"type": "function", "x": 1}]}
    assert check(json.dumps(assistant, indent=1), kind=None, uri=CAPTURE) == []


def test_the_same_tools_in_a_request_are_still_checked() -> None:
    broken = {**FUNCTION, "defer_loading": "yes"}
    found = [(d.code, d.severity, d.text) for d in check(_request([broken]), kind=None, uri=CAPTURE)]
    assert found == [("TS103", "error", '"yes"')]
