"""The tool-definition rules on ~500 real tools (../shared/corpus, see its MANIFEST.md; never committed here).

Every error-level finding is listed below with the reason it is a real violation; real data must produce no
other error. Warnings, information and hints are counted per rule, so a change in what the rules report on
real files shows up in this test's diff.
"""

from __future__ import annotations

import collections
import time
from pathlib import Path

import pytest
from checking import CORPUS

from toolsense.engine.checker import Diagnostic
from toolsense.engine.workspace import Workspace
from toolsense.rules import CATALOG
from toolsense.settings import Settings

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not present at {CORPUS}"),
]

# (folder, code) -> (count, why each one is a real violation)
EXPECTED_ERRORS: dict[tuple[str, str], tuple[int, str]] = {
    ("bfcl-multi-turn-func-doc", "TS214"): (
        204,
        'BFCL\'s dialect writes "type": "dict" (163×) and "type": "float" (41×); JSON Schema has "object" and '
        '"number" — a provider validating the schema rejects these (MANIFEST: "an LSP should flag these").',
    ),
    ("functionary-tests", "TS212"): (
        1,
        "test_case_v1.json requires 'get_car_price' (the function's name) but the only property is 'car_name': "
        "no input can satisfy it the way it is meant.",
    ),
    ("functionary-tests", "TS102"): (
        17,
        'the chat request bodies\' assistant `tool_calls` omit `"type": "function"`; the Chat Completions API '
        "requires it (400 Missing required parameter 'messages[i].tool_calls[j].type'). Found since the tool calls "
        "inside request bodies are checked.",
    ),
    ("functionary-tests", "TS304"): (
        2,
        "test_case_v1.json's legacy `function_call`s send {car_name} to get_car_price, whose schema requires "
        "'get_car_price' (the TS212 bug): the request's calls and its tool disagree.",
    ),
    ("honeycomb-api-python", "TS230"): (
        2,
        "honeycomb_update_recipient's Slack example uses details.channel; the schema's Slack details are "
        "slack_channel with additionalProperties: false (the same tool is in honeycomb_tools.json and "
        "resources/recipients.json).",
    ),
    ("honeycomb-api-python", "TS231"): (
        2,
        "the same example therefore lacks the required slack_channel.",
    ),
}

EXPECTED_OTHER: dict[tuple[str, str], int] = {
    ("TS203", "warning"): 64,  # one name, two different tools of one dialect: github-mcp-server and mcp-proxy's
    # server-github overlap (two servers), bfcl's memory_kv vs memory_vector; not the deliberate copies (issue 30:
    # honeycomb resources/ repeat the full file, tau-bench airline vs promptfoo's tau copies, the same schema
    # verbatim), nor functionary's request bodies, whose tools are their own
    ("TS101", "warning"): 161,  # BFCL functions carry a `response` member (a dataset, not a request: OpenAI
    # would reject it only if sent as-is); mcp-proxy's captures have `execution`, which implies MCP 2025-11-25
    # (they state no version): not "removed in 2026-07-28"
    ("TS204", "warning"): 2,  # vectra: "Summarize Detection", "Visualize Entity Detections" (spaces)
    ("TS220", "information"): 589,  # open objects: most real schemas omit additionalProperties: false (advice)
    ("TS241", "information"): 107,  # parameters without descriptions
    ("TS250", "hint"): 57,  # github: idempotentHint: false on read-only tools (meaningless, harmless)
}

TOOL_CODES = ("TS1", "TS2", "TS3", "TS7", "TS8")
"""Structure (envelopes) and the tool-definition, tool-call, drift and model families: this test's business.
Automation files and their codes (TS4xx–TS6xx) are the automation rules' corpus test's."""


def _files() -> list[Path]:
    # realworld/ has its own test (test_realworld.py), checked in its repositories' layout.
    return sorted(
        p
        for p in CORPUS.rglob("*")
        if p.is_file() and p.suffix in (".json", ".jsonl", ".snap") and p.relative_to(CORPUS).parts[0] != "realworld"
    )


TOOL_UNITS: collections.Counter[str] = collections.Counter()


@pytest.fixture(scope="module")
def results() -> dict[Path, list[Diagnostic]]:
    workspace = Workspace(Settings(), CATALOG)
    started = time.monotonic()
    workspace.add(_files())
    found: dict[Path, list[Diagnostic]] = {}
    TOOL_UNITS.clear()
    for path in workspace.files:
        report = workspace.check(path)
        if report is None or report.kind not in ("tool", "tool_call"):
            continue
        TOOL_UNITS.update(u.dialect for u in report.units if u.kind == "tool" and u.dialect is not None)
        found[path] = [d for d in report.diagnostics if d.code.startswith(TOOL_CODES)]
    assert time.monotonic() - started < 120
    return found


def test_the_corpus_has_what_the_manifest_says(results: dict[Path, list[Diagnostic]]) -> None:
    # MANIFEST: MCP 402 (117 github `.snap` + 83 proxy captures + 59 clams + the 143 MCP-like Docker catalog
    # entries), Anthropic 69 (honeycomb, repeated in its resources/ files: 138), OpenAI 44 + functionary's 6 chat
    # request tools, and 162 BFCL functions + functionary's one legacy `functions` entry in the flat shape.
    assert dict(TOOL_UNITS) == {"mcp": 402, "anthropic": 138, "openai": 50, "openai-flat": 163}


def test_every_error_is_a_real_violation(results: dict[Path, list[Diagnostic]]) -> None:
    errors: collections.Counter[tuple[str, str]] = collections.Counter()
    for path, diagnostics in results.items():
        folder = path.relative_to(CORPUS).parts[0]
        for d in diagnostics:
            if d.severity.label == "error":
                errors[(folder, d.code)] += 1
    assert dict(errors) == {key: count for key, (count, _reason) in EXPECTED_ERRORS.items()}


def test_the_specific_errors_say_what_is_wrong(results: dict[Path, list[Diagnostic]]) -> None:
    messages = {(path.name, d.code): d.message for path, diags in results.items() for d in diags}
    assert messages[("test_case_v1.json", "TS212")] == (
        "Required property 'get_car_price' is not defined in 'properties' (defined: car_name)"
    )
    assert messages[("recipients.json", "TS230")].startswith(
        "Unknown property 'channel' at 'details'. Did you mean 'slack_channel'?"
    )
    assert messages[("recipients.json", "TS231")] == "Missing required property 'slack_channel' in 'details'"
    assert messages[("math_api.json", "TS214")] in (
        'Unknown type "dict": JSON Schema calls it "object"',
        'Unknown type "float": JSON Schema calls it "number"',
    )


def test_warnings_information_and_hints_per_rule(results: dict[Path, list[Diagnostic]]) -> None:
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for diagnostics in results.values():
        for d in diagnostics:
            if d.severity.label != "error":
                counts[(d.code, d.severity.label)] += 1
    assert dict(counts) == EXPECTED_OTHER
