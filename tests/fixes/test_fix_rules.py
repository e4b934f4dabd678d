"""Every fix every rule offers on the case files: applied, re-parsed, re-checked.

For each diagnostic with fixes, each fix is applied on its own and must (fixing.apply_fix): apply, leave
every byte outside its edits unchanged, leave valid JSON, remove its diagnostic and add none. Each file is
tried as written (LF, two spaces), as CRLF + tabs, and with comments outside the units where the file's
shape has such a place. A catalogue test keeps this honest: every rule that says it has a quick fix must
have one exercised here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from checking import EXAMPLES
from fixing import WORKSPACE, Applied, apply_fix, changed_lines, check_in_workspace, crlf_tabs, find

from toolsense.engine.checker import Diagnostic
from toolsense.engine.findings import Fix
from toolsense.engine.units import split
from toolsense.rules import CATALOG

CASES = Path(__file__).parent / "cases"
TARGETS = CASES / "targets"
"""Case files checked with their own settings (`targets = [...]`: TS264 and its make-portable fix)."""
FILES: list[tuple[Path, str]] = [
    *((WORKSPACE, path.name) for path in sorted(CASES.glob("*.json"))),
    *((TARGETS, path.name) for path in sorted(TARGETS.glob("*.json"))),
    *((WORKSPACE, path.relative_to(WORKSPACE).as_posix()) for path in sorted(WORKSPACE.rglob("*.json"))),
    *((EXAMPLES, path.relative_to(EXAMPLES).as_posix()) for path in sorted(EXAMPLES.rglob("*.json"))),
]
"""(workspace root, name): the case files are checked as if they were in the small stable workspace; the
examples (which grow with the rules) in their own workspace, with its settings and registered models."""


def source(root: Path, name: str) -> Path:
    return CASES / name if root == WORKSPACE and not (WORKSPACE / name).exists() else root / name


def variants(path: Path) -> Iterator[tuple[str, str]]:
    text = path.read_text(encoding="utf-8")
    yield "lf", text
    yield "crlf-tabs", crlf_tabs(text)
    if text.startswith('{\n  "tools": ['):
        yield "comments", text.replace('{\n  "tools": [', '{\n  // the tools\n  "tools": [ /* all */', 1) + "// end\n"
    elif text.startswith("[\n"):
        yield "comments", "// calls\n" + text.replace("[\n", "[ // first\n", 1)


def all_fixes() -> Iterator[object]:
    for root, name in FILES:
        for variant, text in variants(source(root, name)):
            _, diagnostics = check_in_workspace(text, name, root)
            for index, diagnostic in enumerate(diagnostics):
                if diagnostic.finding is None:
                    continue
                for fix in diagnostic.finding.fixes:
                    yield pytest.param(
                        root,
                        name,
                        text,
                        index,
                        fix.title,
                        id=f"{root.name}/{name}-{variant}-{diagnostic.code}-{index}-{fix.title}",
                    )


PARAMS = list(all_fixes())


def _fix(root: Path, text: str, name: str, index: int, title: str) -> tuple[Applied, Fix]:
    _, diagnostics = check_in_workspace(text, name, root)
    diagnostic = diagnostics[index]
    assert diagnostic.finding is not None
    fix = next(f for f in diagnostic.finding.fixes if f.title == title)
    prefix = REVEALS.get(diagnostic.code)
    document, _ = check_in_workspace(text, name, root)
    spans = [span.pointer for span in split(document, None).spans]
    pointer = diagnostic.finding.pointer
    unit = max((p for p in spans if pointer[: len(p)] == p), key=len, default=())

    def revealed(new: Diagnostic) -> bool:
        pointer = new.finding.pointer if new.finding else ()
        return prefix is not None and new.code.startswith(prefix) and pointer[: len(unit)] == unit

    return apply_fix(text, name, diagnostic, fix, root, revealed), fix


REVEALS = {"TS301": "TS30", "TS403": "TS40", "TS290": "TS290"}
"""A fixed tool name lets the tool's own checks run: TS301 (a call's tool) reveals TS30x findings on its input,
TS403 (an action's tool) TS40x findings on its parameters. Only those may appear after such a fix. TS290 on a
key renames it, so the TS290 findings under that key come back under the clean key."""

KNOWN_BAD: dict[tuple[str, str], str] = {}
"""(file, fix title) → why that fix is known to break an invariant (the rule is at fault); xfailed, reported.
Empty: TS303's type-blind rename (`chart_type` → `start_time`) was fixed in the rule."""


@pytest.mark.parametrize(("root", "name", "text", "index", "title"), PARAMS)
def test_every_fix(root: Path, name: str, text: str, index: int, title: str) -> None:
    if (name, title) in KNOWN_BAD:
        pytest.xfail(KNOWN_BAD[(name, title)])
    applied, _ = _fix(root, text, name, index, title)
    removed, added = changed_lines(applied.old, applied.new)
    # A fix is local: a few lines per edit at most (never a reformatted file).
    assert len(removed) + len(added) <= 4 + 4 * len(applied.edits), (removed, added)


def test_the_case_files_cover_every_rule_with_a_fix() -> None:
    assert PARAMS
    codes: set[str] = set()
    for root, name in FILES:
        _, diagnostics = check_in_workspace(source(root, name).read_bytes(), name, root)
        codes |= {d.code for d in diagnostics if d.finding is not None and d.finding.fixes}
    with_fix_text = {code for code, rule in CATALOG.rules.items() if rule.fix}
    missing = with_fix_text - codes - NOT_IN_CASE_FILES
    assert not missing, f"rules with a quick fix but no case file exercising it: {sorted(missing)}"
    undocumented = codes - with_fix_text
    assert not undocumented, f"rules offering fixes without a `fix` text for docs/rules.md: {sorted(undocumented)}"


NOT_IN_CASE_FILES: set[str] = {"TS298"}
"""Rules whose fixes are tested elsewhere (e.g. they need settings: profiles). TS298 needs a token budget
(`[tokens]`); its fix is applied and re-checked in tests/rules/tools/test_tools_token_budget.py."""


# --- exact results for the fixes users see most ----------------------------------------------------------


def _apply_titled(path: Path, code: str, title: str, text: str | None = None) -> str:
    text = text if text is not None else path.read_text(encoding="utf-8")
    name = path.relative_to(WORKSPACE).as_posix() if path.is_relative_to(WORKSPACE) else path.name
    _, diagnostics = check_in_workspace(text, name)
    diagnostic = find(diagnostics, code)
    assert diagnostic.finding is not None
    fix = next(f for f in diagnostic.finding.fixes if f.title == title)
    return apply_fix(text, name, diagnostic, fix).new.decode("utf-8")


def test_rename_unknown_key_exactly() -> None:
    path = WORKSPACE / "wrong" / "typos.tool.json"
    original = path.read_text(encoding="utf-8")
    fixed = _apply_titled(path, "TS101", "Rename to 'description'")
    assert fixed == original.replace('"descripton"', '"description"')


def test_remove_unknown_key_exactly_crlf_tabs() -> None:
    path = WORKSPACE / "wrong" / "typos.tool.json"
    text = crlf_tabs(path.read_text(encoding="utf-8"))
    fixed = _apply_titled(path, "TS101", "Remove property 'descripton'", text)
    assert fixed == text.replace('\t"descripton": "Create a support ticket.",\r\n', "")


def test_coerce_exactly() -> None:
    path = WORKSPACE / "wrong" / "typos.tool.json"
    original = path.read_text(encoding="utf-8")
    assert _apply_titled(path, "TS105", "Convert to boolean true") == original.replace('"true"', "true")


def test_event_data_exactly() -> None:
    path = WORKSPACE / "wrong" / "broken.automation.json"
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
    _, diagnostics = check_in_workspace(path.read_bytes(), path.name)
    diagnostic = find(diagnostics, "TS405", ("actions", 2, "parameters"))
    assert diagnostic.finding is not None
    applied = apply_fix(path.read_bytes(), path.name, diagnostic, diagnostic.finding.fixes[0])
    assert b'"parameters": {"channel": "#sleep", "text": ""}' in applied.new


def test_enum_member_name_to_value() -> None:
    path = CASES / "structure.automation.json"
    fixed = _apply_titled(path, "TS104", 'Use the value "<"')
    assert '"op": "<"' in fixed and '"op": "LT"' not in fixed


def test_make_portable_exactly() -> None:
    path = TARGETS / "portable.mcp.tools.json"
    text = path.read_text(encoding="utf-8")
    _, diagnostics = check_in_workspace(text, path.name, TARGETS)
    diagnostic = find(diagnostics, "TS264")
    assert diagnostic.finding is not None
    fix = diagnostic.finding.fixes[0]
    assert (fix.title, fix.safe) == ("Make portable for claude-code, vscode-mcp", True)
    fixed = apply_fix(text, path.name, diagnostic, fix, TARGETS).new.decode("utf-8")
    assert fixed == (
        text.replace(
            '"items": [{"type": "number"}, {"type": "number"}]',
            '"items": {}, "prefixItems": [{"type": "number"}, {"type": "number"}]',
        )
        .replace('"minimum": 0, "exclusiveMinimum": true', '"exclusiveMinimum": 0')
        .replace('"description": "Road kinds to avoid"}', '"description": "Road kinds to avoid", "items": {}}')
    )
