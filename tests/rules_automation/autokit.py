"""Helpers for the automation rule tests: a registry the tests define, checking a text, reading ranges back.

The registry below is written for these tests (it is not corpus data): the tools the four nl_to_automation
example automations call, with the parameters those automations use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolsense.document.document import Document
from toolsense.engine.checker import Diagnostic, UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.findings import Fix
from toolsense.engine.workspace import document_tools
from toolsense.fixes import apply_edits, edits_for_fix
from toolsense.rules import CATALOG
from toolsense.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "nl_to_automation" / "examples"

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
    registry = ToolRegistry()
    document = Document.from_text(TOOLS_URI, json.dumps(TOOLS if tools is None else tools, indent=2))
    registry.set_file(TOOLS_URI, document_tools(document, "tool"))
    if samples:
        registry.set_samples(samples)
    return registry


@dataclass(frozen=True)
class Diag:
    code: str
    range: tuple[int, int, int, int]
    severity: str
    message: str
    text: str
    """The source text the range covers."""
    diagnostic: Diagnostic


def check(
    text: str,
    registry: ToolRegistry | None = None,
    settings: Settings | None = None,
    uri: str = AUTOMATION_URI,
    models: Any = None,
) -> list[Diag]:
    document = Document.from_text(uri, text)
    registry = registry if registry is not None else make_registry()
    context = CheckContext(settings or Settings(), registry, uri, models=models, catalog=CATALOG)
    report = check_document(document, context, "automation", UnitCache())
    return [_diag(document, d) for d in report.diagnostics]


def _diag(document: Document, diagnostic: Diagnostic) -> Diag:
    r = diagnostic.range
    start = document.offset_at(r.start)
    end = document.offset_at(r.end)
    return Diag(
        diagnostic.code,
        (r.start.line, r.start.character, r.end.line, r.end.character),
        diagnostic.severity.label,
        diagnostic.message,
        document.data[start:end].decode("utf-8"),
        diagnostic,
    )


def only(diags: list[Diag], code: str) -> list[Diag]:
    return [d for d in diags if d.code == code]


def one(diags: list[Diag], code: str) -> Diag:
    found = only(diags, code)
    assert len(found) == 1, f"expected one {code}, got {[(d.code, d.message) for d in diags]}"
    return found[0]


def codes(diags: list[Diag]) -> list[str]:
    return [d.code for d in diags]


def apply_fix(text: str, fix: Fix) -> str:
    """The text after one fix (through the same edit layer as `toolsense check --fix` and the editor)."""
    document = Document.from_text(AUTOMATION_URI, text)
    edits = edits_for_fix(document, fix)
    assert edits is not None, f"fix {fix.title!r} does not apply"
    return apply_edits(document.data, edits).decode("utf-8")


def fixes(diag: Diag) -> list[Fix]:
    finding = diag.diagnostic.finding
    assert finding is not None
    return list(finding.fixes)


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
