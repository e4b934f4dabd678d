"""Every place that names a rule links to its page (docs/rules/TSxxx.md): SARIF's `helpUri` (tests/cli/test_adoption),
the editor's link on a diagnostic's code, `toolsense rules TSxxx`, the MCP tool `explain_rule` (tests/mcp_server)."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import diagnostics

from toolsense.cli import main
from toolsense.cli.sarif_rules import rule_help
from toolsense.engine.catalog import RULE_PAGES
from toolsense.lsp.convert import to_lsp_diagnostic
from toolsense.rules import CATALOG

ROOT = Path(__file__).resolve().parents[2]
TS220_PAGE = "https://github.com/toolsense/toolsense/blob/main/docs/rules/TS220.md"


def test_every_rule_url_is_a_page_in_the_repository() -> None:
    for rule in CATALOG.rules.values():
        assert rule.url.startswith(RULE_PAGES)
        assert (ROOT / "docs" / "rules" / rule.url.removeprefix(RULE_PAGES)).is_file(), rule.code
        assert rule_help(rule)["helpUri"] == rule.url


def test_an_editor_diagnostic_links_its_code_to_the_page() -> None:
    text = '{"name": "get_weather", "description": "d", "input_schema": {"type": "object", "properties": {}}}'
    [found] = [d for d in diagnostics(text) if d.code == "TS220"]
    lsp = to_lsp_diagnostic(found, related_support=False)
    assert lsp.code == "TS220"
    assert lsp.code_description is not None and lsp.code_description.href == TS220_PAGE


def test_rules_with_codes_explains_them_and_links_each_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "ts220"]) == 0
    assert capsys.readouterr().out == (
        "TS220 missing-additional-properties-false (information; Tool definitions: strictness)\n"
        "An object schema without `additionalProperties: false`: the model may send keys the tool ignores (advice "
        "outside a strict dialect, where TS263 is the error).\n"
        "Quick fix: add `additionalProperties: false` (safe when the object lists its properties)\n"
        f"{TS220_PAGE}\n"
    )


def test_rules_with_an_unknown_code_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "TS999"]) == 2
    assert capsys.readouterr().err == "toolsense: no rule TS999 (`toolsense rules` lists them)\n"
