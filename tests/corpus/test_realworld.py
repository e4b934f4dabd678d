"""91 real files from 57 public repositories (../shared/corpus/realworld, see its MANIFEST.tsv; never committed
here), checked with default settings in their repositories' own folder layout (rebuilt by its make_tree.py:
the default globs look at paths).

- Every file the manifest says is a tool definition, request body or tool call is recognised in its dialect;
  every other file (a website's catalogue of software tools, crewAI specs, MCPB manifests, agent frameworks' own
  formats) gets no diagnostic but, where a folder glob pointed at it, one information note.
- Every error-level finding is listed with the reason it is a real violation. Keys an application adds beside a
  tool in a file that is not sent as-is are warnings, and the MCP version rules follow the file's version, so
  nothing else is an error.
"""

from __future__ import annotations

import collections
import csv
import subprocess
import sys

import pytest
from checking import CORPUS

from toolsense.engine.checker import FileReport
from toolsense.engine.workspace import Workspace
from toolsense.rules import CATALOG
from toolsense.settings import Settings

REALWORLD = CORPUS / "realworld"

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
    ("AgentSafe-AI__agentsentry/testdata/tools.json", "TS292", None): (
        1,
        'a tool scanner\'s test fixture: its run_command description says "ignore all previous instructions" on '
        "purpose (issue 23, TS292).",
    ),
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
OVERRIDES = {"sachineldho24/vapi-voice-assistant": {"openai"}, "offisaac/bridge-node": {"openai-flat"}}
"""Vapi's `{type: "function", function, server}` records are OpenAI tools (`type` says so); Vapi's documented
`server`, `async` and `messages` beside them are not judged.
bridge-node's custom bundle holds flat function tools (`{name, description, parameters}`): they are checked."""


def _manifest() -> list[dict[str, str]]:
    with (REALWORLD / "MANIFEST.tsv").open(newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FileReport | None]:
    tree = tmp_path_factory.mktemp("realworld")
    subprocess.run([sys.executable, str(REALWORLD / "make_tree.py"), str(tree)], check=True, timeout=60)
    workspace = Workspace(Settings(), CATALOG)
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
    expected = {key: count for key, (count, _why) in REAL.items()}
    assert dict(errors) == expected
    assert sum(count for count, _ in REAL.values()) == 29


def test_the_real_violations_say_what_is_wrong(checked: dict[str, FileReport | None]) -> None:
    def messages(where: str, code: str) -> list[str]:
        report = checked[where]
        assert report is not None
        return [d.message for d in report.diagnostics if d.code == code]

    assert 'Unknown type "date": expected one of array, boolean, integer, null, number, object, string' in messages(
        "fbrotte__realtime-twilio-fastify/src/tools.json", "TS214"
    )
    assert messages("Lu4nAlmeida__calendar-AI-agent/tools/tools.json", "TS101") == [
        "'required' belongs inside 'parameters': beside it, it is not part of the schema the model sees"
    ]


def test_the_misplaced_required_offers_its_move(checked: dict[str, FileReport | None]) -> None:
    report = checked["fbrotte__realtime-twilio-fastify/src/tools.json"]
    assert report is not None
    (misplaced,) = [d for d in report.diagnostics if d.code == "TS101" and d.severity.label == "error"]
    assert misplaced.finding is not None
    assert [type(edit).__name__ for fix in misplaced.finding.fixes for edit in fix.edits] == ["MoveMember"]
