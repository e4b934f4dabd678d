"""Every fix every rule offers on the case files: applied, re-parsed, re-checked.

For each diagnostic with fixes, each fix is applied on its own and must (fixkit.apply_fix): apply, leave
every byte outside its edits unchanged, leave valid JSON, remove its diagnostic and add none. Each file is
tried as written (LF, two spaces), as CRLF + tabs, and with comments outside the units where the file's
shape has such a place. A catalogue test keeps this honest: every rule that says it has a quick fix must
have one exercised here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fixkit import EXAMPLES, Applied, apply_fix, changed_lines, check, crlf_tabs, find

from toolsense.engine.catalog import CATALOG
from toolsense.engine.findings import Fix

CASES = Path(__file__).parent / "cases"
FILES = sorted(CASES.glob("*.json")) + sorted((EXAMPLES / "wrong").glob("*.json"))


def variants(path: Path) -> Iterator[tuple[str, str]]:
    text = path.read_text(encoding="utf-8")
    yield "lf", text
    yield "crlf-tabs", crlf_tabs(text)
    if text.startswith('{\n  "tools": ['):
        yield "comments", text.replace('{\n  "tools": [', '{\n  // the tools\n  "tools": [ /* all */', 1) + "// end\n"
    elif text.startswith("[\n"):
        yield "comments", "// calls\n" + text.replace("[\n", "[ // first\n", 1)


def all_fixes() -> Iterator[object]:
    for path in FILES:
        for variant, text in variants(path):
            _, diagnostics = check(text, path.name)
            for index, diagnostic in enumerate(diagnostics):
                if diagnostic.finding is None:
                    continue
                for fix in diagnostic.finding.fixes:
                    yield pytest.param(
                        path.name,
                        text,
                        index,
                        fix.title,
                        id=f"{path.name}-{variant}-{diagnostic.code}-{index}-{fix.title}",
                    )


PARAMS = list(all_fixes())


def _fix(text: str, name: str, index: int, title: str) -> tuple[Applied, Fix]:
    _, diagnostics = check(text, name)
    diagnostic = diagnostics[index]
    assert diagnostic.finding is not None
    fix = next(f for f in diagnostic.finding.fixes if f.title == title)
    return apply_fix(text, name, diagnostic, fix), fix


@pytest.mark.parametrize(("name", "text", "index", "title"), PARAMS)
def test_every_fix(name: str, text: str, index: int, title: str) -> None:
    applied, _ = _fix(text, name, index, title)
    removed, added = changed_lines(applied.old, applied.new)
    # A fix is local: a few lines per edit at most (never a reformatted file).
    assert len(removed) + len(added) <= 4 + 4 * len(applied.edits), (removed, added)


def test_the_case_files_cover_every_rule_with_a_fix() -> None:
    offered = {p.values[0] for p in PARAMS}  # type: ignore[attr-defined]
    assert offered
    codes: set[str] = set()
    for path in FILES:
        _, diagnostics = check(path.read_bytes(), path.name)
        codes |= {d.code for d in diagnostics if d.finding is not None and d.finding.fixes}
    with_fix_text = {code for code, rule in CATALOG.rules.items() if rule.fix}
    missing = with_fix_text - codes - NOT_IN_CASE_FILES
    assert not missing, f"rules with a quick fix but no case file exercising it: {sorted(missing)}"


NOT_IN_CASE_FILES: set[str] = set()
"""Rules whose fixes are tested elsewhere (e.g. they need settings: profiles)."""


# --- exact results for the fixes users see most ----------------------------------------------------------


def _apply_titled(path: Path, code: str, title: str, text: str | None = None) -> str:
    text = text if text is not None else path.read_text(encoding="utf-8")
    _, diagnostics = check(text, path.name)
    diagnostic = find(diagnostics, code)
    assert diagnostic.finding is not None
    fix = next(f for f in diagnostic.finding.fixes if f.title == title)
    return apply_fix(text, path.name, diagnostic, fix).new.decode("utf-8")


def test_rename_unknown_key_exactly() -> None:
    path = EXAMPLES / "wrong" / "typos.tool.json"
    original = path.read_text(encoding="utf-8")
    fixed = _apply_titled(path, "TS101", "Rename to 'description'")
    assert fixed == original.replace('"descripton"', '"description"')


def test_remove_unknown_key_exactly_crlf_tabs() -> None:
    path = EXAMPLES / "wrong" / "typos.tool.json"
    text = crlf_tabs(path.read_text(encoding="utf-8"))
    fixed = _apply_titled(path, "TS101", "Remove property 'descripton'", text)
    assert fixed == text.replace('\t"descripton": "Create a support ticket.",\r\n', "")


def test_coerce_exactly() -> None:
    path = EXAMPLES / "wrong" / "typos.tool.json"
    original = path.read_text(encoding="utf-8")
    assert _apply_titled(path, "TS105", "Convert to boolean true") == original.replace('"true"', "true")


def test_event_data_exactly() -> None:
    path = EXAMPLES / "wrong" / "broken.automation.json"
    original = path.read_text(encoding="utf-8")
    fixed = _apply_titled(path, "TS502", "Change 'event_data' to 'trigger_data'")
    assert fixed == original.replace("{{event_data.text}}", "{{trigger_data.text}}")


def test_insert_missing_property_exactly() -> None:
    path = CASES / "missing.automation.json"
    fixed = _apply_titled(path, "TS102", "Add missing property 'actions'")
    assert fixed == path.read_text(encoding="utf-8").replace(
        '"trigger_config": {}\n}', '"trigger_config": {},\n  "actions": []\n}'
    )


def test_insert_missing_parameters_exactly() -> None:
    path = CASES / "tools.automation.json"
    _, diagnostics = check(path.read_bytes(), path.name)
    diagnostic = find(diagnostics, "TS405", ("actions", 2, "parameters"))
    assert diagnostic.finding is not None
    applied = apply_fix(path.read_bytes(), path.name, diagnostic, diagnostic.finding.fixes[0])
    assert b'"parameters": {"channel": "#sleep", "text": ""}' in applied.new


def test_enum_member_name_to_value() -> None:
    path = CASES / "structure.automation.json"
    fixed = _apply_titled(path, "TS104", 'Use the value "<"')
    assert '"op": "<"' in fixed and '"op": "LT"' not in fixed
