"""`toolsense rules` lists the rules from `cli/rules.json` (no rule module imported): the table must be the
catalog's, rule for rule."""

from __future__ import annotations

import pytest

from toolsense.cli.app import main
from toolsense.cli.rule_table import TABLE, listed_rules, table_text
from toolsense.rules import CATALOG


def test_the_rule_table_is_generated_from_the_catalog() -> None:
    assert TABLE.read_text(encoding="utf-8") == table_text(CATALOG), (
        "server/toolsense/cli/rules.json is stale: run `python -m toolsense.cli.rule_table`"
    )
    assert listed_rules() == sorted(CATALOG.rules.values(), key=lambda rule: rule.code)


def test_rules_lists_every_rule_of_the_catalog(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed == [
        f"{rule.code}  {rule.severity.label:<11} {rule.name}: {rule.summary}"
        for rule in sorted(CATALOG.rules.values(), key=lambda rule: rule.code)
    ]
