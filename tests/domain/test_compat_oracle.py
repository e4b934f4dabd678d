"""The compat oracle's logic on hand-made tools: how verdicts combine, what "unknown" means, how messages are
matched against their sources, and the "make portable" rewrite (exact, lossy, none)."""

from __future__ import annotations

from typing import Any

from toolsense.domain.compat import RULES_BY_ID, TARGET_IDS, assess, matches
from toolsense.domain.compat.portable import make_portable
from toolsense.domain.tool import ToolView, tool_view
from toolsense.engine.findings import InsertMembers, RemoveMember, ReplaceValue
from toolsense.engine.units import Unit
from toolsense.settings import TargetName


def view(schema: dict[str, Any], name: str = "search", description: str = "Search the notes.") -> ToolView:
    found = tool_view(
        Unit("tool", (), {"name": name, "description": description, "inputSchema": schema}, "mcp", 0, 0, True)
    )
    assert found is not None
    return found


PLAIN = {"type": "object", "properties": {"query": {"type": "string", "description": "q"}}, "required": ["query"]}


def test_the_settings_know_every_target_in_the_oracles_order() -> None:
    assert TargetName.__args__ == TARGET_IDS  # type: ignore[attr-defined]


def test_a_plain_tool_is_accepted_where_a_contract_is_documented_and_unknown_elsewhere() -> None:
    verdicts = {target: assess(view(PLAIN), target).verdict for target in TARGET_IDS}
    assert verdicts["anthropic"] == verdicts["claude-code"] == verdicts["gemini-api"] == "accepted"
    assert verdicts["cursor"] == verdicts["copilot-gpt"] == verdicts["copilot-gemini"] == "unknown"
    accepted = assess(view(PLAIN), "anthropic")
    assert accepted.findings == () and accepted.basis.startswith("documented contract: https://platform.claude.com/")
    unknown = assess(view(PLAIN), "cursor")
    assert unknown.basis == "no evidence about this tool's schema at this target either way"


def test_one_rejected_keyword_rejects_the_tool_at_that_keyword_with_the_targets_words() -> None:
    schema = {"type": "object", "properties": {"mode": {"const": "fast"}, "tags": {"type": "array"}}}
    result = assess(view(schema), "gemini-api")
    assert result.verdict == "rejected"
    assert [(f.rule, f.pointer) for f in result.findings] == [
        ("gemini-unknown-keyword", ("inputSchema", "properties", "mode", "const")),
        ("gemini-array-items", ("inputSchema", "properties", "tags")),
    ]
    assert result.findings[0].message == (
        'Invalid JSON payload received. Unknown name "const" at \'tools[0].function_declarations[N].parameters'
        ".properties[0].value': Cannot find field."
    )
    assert result.findings[1].message == (
        "GenerateContentRequest.tools[0].function_declarations[N].parameters.properties[tags].items: missing field."
    )


def test_a_change_says_what_changes_and_a_rejection_outranks_it() -> None:
    schema = {"type": "object", "properties": {"when": {"type": ["string", "null"]}}}
    changed = assess(view(schema, name="find stuff"), "gemini-cli")
    assert changed.verdict == "changed"
    assert [f.change for f in changed.findings] == [
        "every character outside a-zA-Z0-9_.:- becomes `_`",
        '`type: ["string", "null"]` is sent as `type: "string"` with `nullable: true`',
    ]
    vscode = assess(view({"type": "object", "properties": {"ids": {"type": "array"}}}, name="a.b"), "vscode-mcp")
    assert [f.verdict for f in vscode.findings] == ["changed", "rejected"] and vscode.verdict == "rejected"


def test_conflicting_evidence_gives_unknown_not_a_guess() -> None:
    dotted = assess(view(PLAIN, name="files.read"), "openai-chat")
    assert dotted.verdict == "unknown"
    assert dotted.findings[0].rule == "openai-name-dot"
    spaced = assess(view(PLAIN, name="files read"), "openai-chat")
    assert spaced.verdict == "rejected"
    assert assess(view({"type": "object", "additionalProperties": False}), "vertex-ai").verdict == "unknown"
    assert assess(view({"type": "object", "additionalProperties": False}), "gemini-api").verdict == "rejected"


def test_strict_rules_apply_at_strict_targets_and_to_tools_that_ask_for_strict() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}}, "additionalProperties": False}
    assert assess(view(schema), "anthropic").verdict == "accepted"
    strict = assess(view(schema), "anthropic-strict")
    assert strict.verdict == "rejected"
    assert strict.findings[0].message == "Anthropic strict tool use does not support 'maximum' (documented limit)"
    assert strict.findings[0].documented


def test_the_newest_message_is_quoted_and_older_ones_match_their_dates() -> None:
    rule = RULES_BY_ID["anthropic-name"]
    assert "{{1,128}}" in rule.message.template
    assert [m.since for m in rule.message_at("2025-04-01")] == ["2025-03-07"]
    assert [m.since for m in rule.message_at("2026-01-01")] == ["2025-03-07", "2025-06-29"]


def test_matching_allows_positions_wrapping_and_a_cut_but_not_other_words() -> None:
    ours = (
        "tools.N.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (x). Learn more."
    )
    assert matches(
        ours, "tools.14.custom.input_schema: JSON schema is invalid.\nIt must match JSON Schema draft 2020-12"
    )
    assert matches(ours, "tools.3.custom.input_schema: JSON schema is invalid.")
    assert not matches(ours, "tools.3.custom.input_schema: JSON")  # cut mid-sentence, under half the words
    assert not matches(ours, "tools.3.custom.name: JSON schema is invalid.")
    assert matches("<server>: abc – length (<61 or more>) exceeds 60", "g: abc – length (60) exceeds 60")
    assert not matches("x at 'a.properties[0].value'", "x at 'a.properties[name].value'")


def test_make_portable_is_exact_when_meaning_is_kept() -> None:
    schema = {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]},
            "ttl": {"type": "integer", "minimum": 0, "exclusiveMinimum": True},
        },
    }
    portable = make_portable(view(schema), ["anthropic", "claude-code"])
    assert portable is not None and portable.exact
    assert portable.title(["anthropic", "claude-code"]) == "Make portable for anthropic, claude-code"
    pair = ("inputSchema", "properties", "pair")
    assert ReplaceValue((*pair, "items"), "{}") in portable.edits
    assert InsertMembers(pair, (("prefixItems", '[{"type": "number"}, {"type": "number"}]'),)) in portable.edits
    assert RemoveMember(("inputSchema", "properties", "ttl", "minimum")) in portable.edits


def test_make_portable_says_what_it_loses_and_gives_up_when_it_cannot() -> None:
    schema = {
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}},
    }
    lossy = make_portable(view(schema), ["gemini-api"])
    assert lossy is not None and not lossy.exact
    assert lossy.title(["gemini-api"]) == "Make portable for gemini-api (lossy: drops 'uniqueItems')"
    nothing = make_portable(view(PLAIN), ["gemini-api"])
    assert nothing is None  # nothing to do
    renamed = make_portable(view(PLAIN, name="files read"), ["openai-chat"])
    assert renamed is None  # a tool's name is its callers' too: no rewrite
    tuple_for_gemini = {"type": "object", "properties": {"p": {"type": "array", "items": [{"type": "number"}]}}}
    assert (
        make_portable(view(tuple_for_gemini), ["claude-code", "gemini-api"]) is None
    )  # prefixItems is Gemini's next refusal


def test_make_portable_merges_what_it_adds_to_one_object() -> None:
    schema = {"type": "object", "properties": {"when": {"type": ["array", "null"]}}}
    portable = make_portable(view(schema), ["gemini-api"])
    assert portable is not None and portable.exact
    assert (
        InsertMembers(("inputSchema", "properties", "when"), (("nullable", "true"), ("items", "{}"))) in portable.edits
    )
