"""91 real files from 57 public repositories (../shared/corpus/realworld, see its MANIFEST.tsv; never committed
here), checked with default settings in their repositories' own folder layout (rebuilt by its make_tree.py:
the default globs look at paths).

- Every file the manifest says is a tool definition, request body or tool call is recognised in its dialect;
  every other file (a website's catalogue of software tools, crewAI specs, MCPB manifests, agent frameworks' own
  formats) gets no diagnostic but, where a folder glob pointed at it, one information note.
- Every error-level finding is listed with the reason it is a real violation. PENDING lists the errors whose
  severity another change (keys an application adds beside a tool in a file that is not sent as-is are
  warnings; MCP version rules) is to lower: each says why it is not one.
"""

from __future__ import annotations

import collections
import csv
import subprocess
import sys
from pathlib import Path

import pytest

import toolsense.rules  # noqa: F401  (registers every rule family)
from toolsense.engine.checker import FileReport
from toolsense.engine.workspace import Workspace
from toolsense.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
REALWORLD = next(
    (p / "shared/corpus/realworld" for p in ROOT.parents[:2] if (p / "shared/corpus/realworld").is_dir()),
    ROOT.parent / "shared/corpus/realworld",
)

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not REALWORLD.is_dir(), reason=f"the realworld corpus is not present at {REALWORLD}"),
]

# (repository folder/path, code, the offending key or None) -> (count, why each one is a real violation)
REAL: dict[tuple[str, str, str | None], tuple[int, str]] = {
    ("Pran-Ker__claude-web/tools/tools.json", "TS211", None): (
        11,
        "`parameters` is written as a bare property map ({url: {type}}), not a schema with `type: object` and "
        "`properties`: the model is given a wrong contract, and providers reject the root.",
    ),
    ("fbrotte__realtime-twilio-fastify/src/tools.json", "TS214", None): (
        12,
        '"type": "date" is no JSON Schema type (a string with `format: date` is): providers reject the schema.',
    ),
    ("fbrotte__realtime-twilio-fastify/src/tools.json", "TS101", "required"): (
        1,
        "`required` sits beside `parameters` instead of inside it: the Realtime API rejects the unknown tool key "
        "and the model is not told which arguments are required.",
    ),
    ("Lu4nAlmeida__calendar-AI-agent/tools/tools.json", "TS101", "required"): (
        1,
        "the same misplaced `required` in a Responses-API function tool, sent to OpenAI as-is.",
    ),
    ("IJPSoftware__open-ai-assistant-function-generator/functions.json", "TS211", None): (
        3,
        '`"parameters": {}` has no `"type": "object"`: OpenAI-compatible APIs reject it (DeepSeek: '
        "end-4/dots-hyprland#3264); OpenAI's own rule for a function without arguments is to omit `parameters`.",
    ),
}

PENDING: dict[tuple[str, str, str | None], tuple[int, str]] = {
    ("Pran-Ker__claude-web/tools/tools.json", "TS101", "implementation"): (11, "the app's own key beside the tool"),
    ("Pran-Ker__claude-web/tools/tools.json", "TS101", "bash_usage"): (11, "the app's own key"),
    ("Pran-Ker__claude-web/tools/tools.json", "TS101", "common_keys"): (1, "the app's own key"),
    ("Pran-Ker__claude-web/tools/tools.json", "TS101", "common_usage"): (1, "the app's own key"),
    ("Pran-Ker__claude-web/tools/tools.json", "TS101", "fallback"): (1, "the app's own key"),
    ("Pran-Ker__claude-web/tools/tools.json", "TS101", "note"): (2, "the app's own key"),
    ("Pran-Ker__claude-web/tools/tools.json", "TS101", "protocol_file"): (1, "the app's own key"),
    ("Pran-Ker__claude-web/tools/tools.json", "TS101", "when_to_use"): (1, "the app's own key"),
    ("abi2024__ironclaw/tools/tools.json", "TS101", "binary_path"): (1, "a WASM registry's own key"),
    ("abi2024__ironclaw/tools/tools.json", "TS101", "handler"): (1, "a WASM registry's own key"),
    ("fbrotte__realtime-twilio-fastify/src/tools.json", "TS101", "method"): (13, "the app's HTTP routing, stripped"),
    ("fbrotte__realtime-twilio-fastify/src/tools.json", "TS101", "url"): (13, "the app's HTTP routing, stripped"),
    ("imikailoby__comics-mcp/tool_manifest.json", "TS101", "examples"): (1, "the manifest's own key"),
    ("kavinbm16__Mcp-Dynamic-Router/testdata/tools.json", "TS101", "id"): (2, "a router's own key"),
    ("kavinbm16__Mcp-Dynamic-Router/testdata/tools.json", "TS101", "server"): (2, "a router's own key"),
    ("kavinbm16__Mcp-Dynamic-Router/testdata/tools.json", "TS101", "domain"): (2, "a router's own key"),
    ("kavinbm16__Mcp-Dynamic-Router/testdata/tools.json", "TS101", "read_only"): (1, "a router's own key"),
    (
        "modelcontextprotocol__modelcontextprotocol/schema/2026-07-28/examples/Tool/tool-with-array-output-schema.json",
        "TS211",
        None,
    ): (1, "since MCP 2026-07-28 an outputSchema may be any JSON Schema (the spec's own example)"),
    ("mongodb-js__mongodb-mcp-server/mcp-tools.json", "TS101", "description"): (
        20,
        "MCP's ToolAnnotations does not forbid other keys",
    ),
    ("offisaac__bridge-node/claude_tools.json", "TS101", "examples"): (3, "the bundle's own key"),
    ("offisaac__bridge-node/claude_tools.json", "TS101", "usage_notes"): (2, "the bundle's own key"),
    ("oobabooga__text-generation-webui/tools/code_interpreter.json", "TS101", "action"): (1, "the app's Python"),
    ("oobabooga__text-generation-webui/tools/get_weather.json", "TS101", "action"): (1, "the app's Python"),
    ("oobabooga__text-generation-webui/tools/roll_dice.json", "TS101", "action"): (1, "the app's Python"),
}

# The manifest's `dialect` column -> the dialects toolsense must read the file's units in.
DIALECTS = {
    "mcp": {"mcp"},
    "openai": {"openai"},
    "openai-flat": {"openai-flat"},
    "openai-realtime": {"openai-flat"},
    "anthropic": {"anthropic"},
    "anthropic-request": {"anthropic"},
    "gemini": {"gemini"},
    "bedrock": {"bedrock"},
    "app-wrapper-openai": {"openai-flat"},
    "openai-messages": {"openai-call"},
}
NOT_TOOLS = {"decoy", "nonstandard", "mcpb-manifest"}
OVERRIDES = {"sachineldho24/vapi-voice-assistant": {"openai-flat"}, "offisaac/bridge-node": {"openai-flat"}}
"""Vapi's `{type, function, server}` records: the OpenAI function inside each is checked, Vapi's keys are Vapi's.
bridge-node's custom bundle holds flat function tools (`{name, description, parameters}`): they are checked."""


def _manifest() -> list[dict[str, str]]:
    with (REALWORLD / "MANIFEST.tsv").open(newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FileReport | None]:
    tree = tmp_path_factory.mktemp("realworld")
    subprocess.run([sys.executable, str(REALWORLD / "make_tree.py"), str(tree)], check=True, timeout=60)
    workspace = Workspace(Settings())
    workspace.add([tree])
    return {path.relative_to(tree).as_posix(): workspace.check(path) for path in workspace.files}


def _where(row: dict[str, str]) -> str:
    return f"{row['repo'].replace('/', '__')}/{row['path']}"


def test_every_file_is_read_in_its_dialect(checked: dict[str, FileReport | None]) -> None:
    rows = _manifest()
    assert len(rows) == 91 and len(checked) == 91
    wrong = {}
    for row in rows:
        report = checked[_where(row)]
        assert report is not None
        found = {str(u.dialect) for u in report.units}
        expected = OVERRIDES.get(row["repo"], set() if row["dialect"] in NOT_TOOLS else DIALECTS.get(row["dialect"]))
        if found != expected:
            wrong[_where(row)] = (row["dialect"], sorted(found))
    assert wrong == {}


def test_files_that_are_not_tools_get_nothing_but_a_note(checked: dict[str, FileReport | None]) -> None:
    notes = {}
    for row in _manifest():
        report = checked[_where(row)]
        if row["dialect"] in NOT_TOOLS and row["repo"] not in OVERRIDES and report is not None:
            assert all(d.code == "TS007" and d.severity.label == "information" for d in report.diagnostics)
            notes[_where(row)] = len(report.diagnostics)
    # A folder glob (`**/tools/*.json`) points at these four: one note each; the others are silent.
    assert {path for path, count in notes.items() if count} == {
        "CycloneDX__cyclonedx.org/tools/tools.json",
        "VoiceDX__TaskAgentTest/tools/tools.json",
        "Vincent-Stragier__prompt_based_dataset_generation/tools/tools.json",
        "wehnsdaefflae__PerpetualAgent/tools/calculate.json",
        "wehnsdaefflae__PerpetualAgent/tools/create_file.json",
        "wehnsdaefflae__PerpetualAgent/tools/get_weather.json",
    }
    assert set(notes.values()) == {0, 1}


def test_every_error_is_listed_with_its_reason(checked: dict[str, FileReport | None]) -> None:
    errors: collections.Counter[tuple[str, str, str | None]] = collections.Counter()
    for where, report in checked.items():
        for d in report.diagnostics if report is not None else []:
            if d.severity.label == "error":
                key = d.finding.data.get("key") if d.finding is not None and d.code == "TS101" else None
                errors[(where, d.code, key)] += 1
    expected = {key: count for key, (count, _why) in {**REAL, **PENDING}.items()}
    assert dict(errors) == expected
    assert sum(count for count, _ in REAL.values()) == 28


def test_the_real_violations_say_what_is_wrong(checked: dict[str, FileReport | None]) -> None:
    def messages(where: str, code: str) -> list[str]:
        report = checked[where]
        assert report is not None
        return [d.message for d in report.diagnostics if d.code == code]

    assert 'Unknown type "date": expected one of array, boolean, integer, null, number, object, string' in messages(
        "fbrotte__realtime-twilio-fastify/src/tools.json", "TS214"
    )
    assert messages("Lu4nAlmeida__calendar-AI-agent/tools/tools.json", "TS101") == [
        "Unknown property 'required' in OpenAI function 'create_event'. "
        "Valid properties: name, type, description, parameters, strict"
    ]
