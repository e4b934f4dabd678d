"""Automations for the tests: a registry the tests define, an automation builder, and checking a text as an
automation against that registry.

The registry below is written for these tests (it is not corpus data): the tools the four nl_to_automation
example automations call, with the parameters those automations use.
"""

from __future__ import annotations

import json
from typing import Any

from checking import CORPUS, D, registry_of
from checking import check as check_text
from fixing import fixed_text

from toolsense.engine.context import ToolRegistry
from toolsense.engine.findings import Fix
from toolsense.settings import Settings

AUTOMATION_CORPUS = CORPUS / "nl_to_automation" / "examples"

TOOLS: dict[str, Any] = {
    "tools": [
        {
            "name": "llm_classify",
            "description": "Classify a text into one of the given options with an LLM.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "Text to classify"},
                    "question": {"type": "string", "description": "What to decide"},
                    "options": {"type": "array", "items": {"type": "string"}, "description": "Possible answers"},
                },
                "required": ["text", "question", "options"],
                "additionalProperties": False,
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "answer": {"type": "string", "description": "The option chosen"},
                    "confidence": {"type": "number", "description": "0 to 1"},
                },
                "required": ["answer"],
            },
        },
        {
            "name": "llm_transform",
            "description": "Rewrite a text following an instruction.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "instruction": {"type": "string"},
                    "output_format": {"type": "string", "enum": ["text", "json", "markdown"]},
                },
                "required": ["text", "instruction"],
                "additionalProperties": False,
            },
        },
        {
            "name": "slack_post_message",
            "description": "Post a message to a Slack channel.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "channel": {"type": "string", "description": "Channel name or id, e.g. '#general'"},
                    "text": {"type": "string", "description": "Message text (Slack mrkdwn)"},
                    "blocks": {"type": "array", "items": {"type": "object"}, "description": "Block Kit blocks"},
                    "thread_ts": {"type": "string", "description": "Reply in this thread"},
                },
                "required": ["channel", "text"],
                "additionalProperties": False,
            },
        },
        {
            "name": "create_ticket",
            "description": "Open a support ticket.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "title": {"type": "string", "minLength": 3},
                    "description": {"type": "string"},
                    "priority": {"type": "string", "enum": ["URGENT", "NORMAL", "LOW_PRIORITY"]},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "estimate_hours": {"type": "integer"},
                },
                "required": ["title"],
                "additionalProperties": False,
            },
        },
        {
            "name": "oura_get_daily_sleep",
            "description": "Daily sleep summaries from the Oura ring for a date range.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "start_date": {"type": "string", "description": "First day, YYYY-MM-DD"},
                    "end_date": {"type": "string", "description": "Last day, YYYY-MM-DD"},
                },
                "required": ["start_date"],
                "additionalProperties": False,
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "score": {"type": "integer", "description": "Sleep score, 0-100"},
                    "day": {"type": "string"},
                    "timestamp": {"type": "string"},
                    "contributors": {"type": "object", "additionalProperties": False},
                },
                "additionalProperties": False,
            },
        },
        {
            "name": "oura_get_daily_activity",
            "description": "Daily activity summaries from the Oura ring.",
            "inputSchema": {
                "type": "object",
                "properties": {"start_date": {"type": "string"}, "end_date": {"type": "string"}},
                "required": ["start_date"],
                "additionalProperties": False,
            },
        },
        {
            "name": "send_push_notification",
            "description": "Send a push notification to the user's phone.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "body": {"type": "string"},
                    "priority": {"type": "string", "enum": ["low", "normal", "high"]},
                },
                "required": ["title", "body"],
                "additionalProperties": False,
            },
        },
    ]
}

TOOLS_URI = "file:///ws/tools/registry.tools.json"
AUTOMATION_URI = "file:///ws/automations/a.automation.json"


def make_registry(tools: dict[str, Any] | None = None, samples: dict[str, Any] | None = None) -> ToolRegistry:
    registry = registry_of((TOOLS_URI, json.dumps(TOOLS if tools is None else tools, indent=2)))
    if samples:
        registry.set_samples(samples)
    return registry


def check(
    text: str,
    registry: ToolRegistry | None = None,
    settings: Settings | None = None,
    uri: str = AUTOMATION_URI,
    models: Any = None,
) -> list[D]:
    """`checking.check` as an automation, against the registry above unless another is given."""
    return check_text(
        text,
        "automation",
        settings=settings,
        registry=registry if registry is not None else make_registry(),
        models=models,
        uri=uri,
    )


def apply_fix(text: str, fix: Fix) -> str:
    """The automation's text after one fix."""
    return fixed_text(text, fix, AUTOMATION_URI)


def automation(actions: list[dict[str, Any]] | str, **extra: Any) -> str:
    """A webhook automation with these actions, pretty-printed (one member per line)."""
    value: dict[str, Any] = {
        "name": "test",
        "trigger_type": "webhook",
        "trigger_config": {"service": "Slack", "event_type": "message.channels"},
    }
    value.update(extra)
    value["actions"] = actions
    return json.dumps(value, indent=2, ensure_ascii=False)
