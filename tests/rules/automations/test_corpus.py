"""The four real automations of nl_to_automation (../shared/corpus), checked against registries the tests define.

Nothing from the corpus is copied here: the files are read in place, and the test is skipped when the shared
folder is absent.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from automations import AUTOMATION_CORPUS, TOOLS, check, make_registry

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not AUTOMATION_CORPUS.is_dir(), reason=f"the shared corpus is not here ({AUTOMATION_CORPUS})"),
]

NAMES = (
    "conditional_multi_action.json",
    "polling_health_alert.json",
    "scheduled_daily_digest.json",
    "webhook_slack_notify.json",
)


def _read(name: str) -> str:
    return (AUTOMATION_CORPUS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_real_automations_are_clean_against_the_full_registry(name: str) -> None:
    """With every tool they call defined, the four real automations have no finding at all."""
    assert [(d.code, d.range, d.message) for d in check(_read(name))] == []


def _without(*names: str) -> dict[str, Any]:
    tools = copy.deepcopy(TOOLS)
    tools["tools"] = [t for t in tools["tools"] if t["name"] not in names]
    return tools


def _strict_blocks() -> dict[str, Any]:
    tools = copy.deepcopy(TOOLS)
    for tool in tools["tools"]:
        if tool["name"] == "slack_post_message":
            tool["inputSchema"]["properties"]["blocks"]["items"] = {"type": "object", "additionalProperties": False}
        if tool["name"] == "create_ticket":
            tool["inputSchema"]["required"] = ["title", "description", "assignee"]
            tool["inputSchema"]["properties"]["assignee"] = {"type": "string"}
    return tools


EXPECTED: dict[str, list[tuple[str, tuple[int, int, int, int], str]]] = {
    # create_ticket requires an assignee the automation does not give.
    "conditional_multi_action.json": [
        ("TS405", (65, 6, 65, 18), "Tool 'create_ticket' requires parameter 'assignee'"),
    ],
    # The polling source tool is missing from the registry: unknown, nothing about its output can be checked.
    "polling_health_alert.json": [
        (
            "TS403",
            (5, 19, 5, 41),
            "Unknown source_tool 'oura_get_daily_sleep'. Did you mean 'oura_get_daily_activity'?",
        ),
    ],
    # oura_get_daily_sleep and llm_transform are missing; their outputs ('sleep', 'summary') are then of unknown
    # shape, which is not an error.
    "scheduled_daily_digest.json": [
        ("TS403", (11, 14, 11, 36), "Unknown tool 'oura_get_daily_sleep'. Did you mean 'oura_get_daily_activity'?"),
        ("TS403", (29, 14, 29, 29), "Unknown tool 'llm_transform'. Did you mean 'llm_classify'?"),
    ],
    # Block Kit blocks with `additionalProperties: false` and no properties: both keys are unknown.
    "webhook_slack_notify.json": [
        ("TS404", (39, 12, 39, 18), "Tool 'slack_post_message': unknown property 'type' in parameter 'blocks.0'."),
        ("TS404", (40, 12, 40, 18), "Tool 'slack_post_message': unknown property 'text' in parameter 'blocks.0'."),
    ],
}


@pytest.mark.parametrize("name", NAMES)
def test_real_automations_against_a_registry_with_gaps(name: str) -> None:
    registry = make_registry(_without("oura_get_daily_sleep", "llm_transform"))
    if name in ("conditional_multi_action.json", "webhook_slack_notify.json"):
        registry = make_registry(_strict_blocks())
    found = [(d.code, d.range, d.message) for d in check(_read(name), registry)]
    assert found == EXPECTED[name]


def test_introduced_mistakes_in_a_real_automation_are_all_found() -> None:
    """The sleep alert with the classic LLM mistakes written into it."""
    text = _read("polling_health_alert.json")
    text = text.replace('"oura_get_daily_sleep"', '"oura_sleep"', 1)
    text = text.replace("{{trigger_data.score}}", "{{#if score}}{{event_data.score}}{{/if}}")
    found = [(d.code, d.text) for d in check(text)]
    assert found == [
        ("TS403", '"oura_sleep"'),
        ("TS501", "{{#if score}}"),
        ("TS502", "{{event_data.score}}"),
        ("TS501", "{{/if}}"),
    ]
