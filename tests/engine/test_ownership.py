"""The claim decision (`engine.ownership`): text that does not parse is never claimed through error recovery alone,
and a member that contradicts a dialect vetoes the claim."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import report
from clirun import run

from toolsense.document.document import Document
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.ownership import tool_verdict
from toolsense.models.dialects import Dialect
from toolsense.rules import CATALOG
from toolsense.settings import Settings

TRANSCRIPT = (
    "User: which tools do you have?\n"
    "Assistant: these:\n"
    '{"tools": [{"name": "get_weather", "description": "Weather", "input_schema": {"type": "object", '
    '"properties": {"city": {"type": "string"}}, "extra_key": 1}}]}\n'
    'and also "foo": {"name": "x", "inputSchema": {"type": "object"}}\n'
)
PYTHON_REPR = (
    "ListToolsResult(tools=[Tool(name='get_weather', description='Weather', inputSchema={'type': 'object', "
    "'properties': {'city': {'type': 'string'}}})], nextCursor=None)\n"
)
GO_TEMPLATE = (
    '{"tools": [\n{{- range $i, $t := .Tools }}{{ if $i }},{{ end }}\n'
    '  {"name": "{{ $t.Name }}", "description": "{{ $t.Desc }}", "input_schema": {"type": "object"}}\n'
    "{{- end }}\n]}\n"
)
HALF_TYPED = (
    '{"tools": [{"name": "a", "description": "Does a.", "input_schema": {"type": "object", "properties": {}}}, '
    '{"name": "b", "description": "'
)
CLEAN = '{"tools": [{"name": "a", "description": "Does a.", "input_schema": {"type": "object", "properties": {}}}]}'


@pytest.mark.parametrize("text", [TRANSCRIPT, PYTHON_REPR, GO_TEMPLATE, HALF_TYPED])
def test_a_json_file_that_does_not_parse_gets_at_most_one_note(text: str) -> None:
    _, result = report(text, "notes/pasted.json")
    assert result.kind is None and result.units == []
    assert len(result.diagnostics) <= 1
    assert {d.code for d in result.diagnostics} <= {"TS007"}
    assert all(d.severity.label == "information" for d in result.diagnostics)


def test_the_note_says_why_when_fragments_look_like_tools() -> None:
    _, result = report(TRANSCRIPT, "notes/pasted.json")
    (note,) = result.diagnostics
    assert note.code == "TS007"
    assert note.message.startswith(
        "Not checked: the file does not parse as JSON, and although parts of it look like tool definitions, "
        "nothing says it is ours"
    )


def test_a_folder_glob_is_no_authority_for_a_broken_file() -> None:
    _, result = report(HALF_TYPED, "tools/half.json")
    assert [d.code for d in result.diagnostics] == ["TS007"]


@pytest.mark.parametrize(
    ("name", "settings"),
    [
        ("half.tools.json", None),  # the file's name: only our formats use it
        ("notes/half.json", Settings.model_validate({"files": {"tool_definitions": ["**/notes/*.json"]}})),
    ],
)
def test_a_name_or_a_setting_says_a_broken_file_is_ours(name: str, settings: Settings | None) -> None:
    _, result = report(HALF_TYPED, name, settings)
    assert "TS001" in {d.code for d in result.diagnostics}
    assert result.kind == "tool"


def test_a_schema_says_a_broken_file_is_ours() -> None:
    text = '{"$schema": "https://example.com/tools.schema.json", "tools": [{"name": "a", "input_schema": {"type": }}]}'
    _, result = report(text, "notes/broken.json")
    assert "TS001" in {d.code for d in result.diagnostics}


def test_the_open_documents_clean_history_says_a_half_typed_file_is_ours() -> None:
    from checking import context

    document = Document("file:///x/notes/tools.json", bytearray(CLEAN.encode()))
    cache = UnitCache()
    ctx = context(uri=document.uri)
    assert check_document(document, ctx, None, cache).kind == "tool"
    assert document.claimed_kind == "tool"
    at = CLEAN.index("]}")
    document.replace_bytes(at, at, b', {"name": "b", "description": "')  # the user types a second tool
    document.reparse()
    broken = check_document(document, ctx, None, cache)
    assert broken.kind == "tool"
    assert "TS001" in {d.code for d in broken.diagnostics}
    assert document.claimed_kind == "tool"  # a broken version does not change the history


def test_a_history_of_not_ours_claims_nothing() -> None:
    from checking import context

    document = Document("file:///x/notes/other.json", bytearray(b'{"compilerOptions": {"strict": true}}'))
    ctx = context(uri=document.uri)
    assert check_document(document, ctx, None, UnitCache()).kind is None
    document.replace_bytes(0, len(document.data), HALF_TYPED.encode())
    document.reparse()
    assert check_document(document, ctx, None, UnitCache()).diagnostics[0].code == "TS007"


def test_the_cli_gives_a_pasted_transcript_one_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "transcript.json").write_text(TRANSCRIPT, encoding="utf-8")
    (tmp_path / "repr.json").write_text(PYTHON_REPR, encoding="utf-8")
    code, out, _ = run(capsys, str(tmp_path))
    assert code == 0
    assert "TS001" not in out and "TS101" not in out and "TS220" not in out
    assert out.count("TS007") == 1
    assert out.strip().endswith("Checked 2 files: 1 information")


# --- a member that contradicts the dialect -----------------------------------------------------------------

GUARDRAILS = (
    '{"functions": [\n'
    '  {"id": "g1", "type": "guardrail", "name": "pii_filter", "description": ["Removes PII"], '
    '"parameters": {"threshold": 0.5}},\n'
    '  {"id": "g2", "type": "guardrail", "name": "toxicity", "description": ["Blocks toxic text"], '
    '"parameters": {"level": 2}}\n]}\n'
)


def test_a_foreign_type_vetoes_the_legacy_functions_wrapper() -> None:
    _, result = report(GUARDRAILS, "config/guardrails.json")
    assert result.kind is None and result.diagnostics == []


def test_a_near_miss_of_the_dialects_type_is_a_typo_reported_not_a_veto() -> None:
    text = (
        '{"functions": [{"type": "functon", "name": "a", "description": "Does a.", "parameters": {"type": "object"}}]}'
    )
    _, result = report(text, "config/functions.json")
    assert result.kind == "tool"
    (typo,) = [d for d in result.diagnostics if d.code == "TS104"]
    assert 'invalid value "functon"' in typo.message


def test_evidence_against_must_outweigh_evidence_for() -> None:
    # A tool with a wrong-typed description and an `id` is still a tool (its mistakes are reported)...
    tool = {"id": 1, "name": "a", "description": ["x"], "parameters": {"type": "object"}}
    assert tool_verdict(tool, Dialect.OPENAI_FLAT).claimed
    # ...but without its name the evidence against wins.
    record = {"id": 1, "description": ["x"], "parameters": {"type": "object"}}
    verdict = tool_verdict(record, Dialect.OPENAI_FLAT)
    assert (verdict.evidence_for, verdict.evidence_against, verdict.claimed) == (2, 2, False)
    vetoed = tool_verdict({"type": "guardrail", "name": "a", "parameters": {}}, Dialect.OPENAI_FLAT)
    assert vetoed.veto == "`type` is 'guardrail'" and not vetoed.claimed
    assert tool_verdict({"type": "custom", "name": "a", "input_schema": {}}, Dialect.ANTHROPIC).claimed


def test_the_catalog_describes_the_broken_file_note() -> None:
    assert "does not parse" in CATALOG.rules["TS007"].summary
