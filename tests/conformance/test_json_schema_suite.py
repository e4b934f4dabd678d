"""The official JSON-Schema-Test-Suite, run through the validation path the rules use (`value_findings`, as for an
input example: formats asserted, patterns as ECMA-262) and through `toolsense check` (a tool file per suite file,
a tool per group, the instances as its `input_examples`). Remote `$ref`s are never fetched: those cases end as
"cut short" and are counted apart. Every disagreement with the suite is listed in `suite.EXPECTED_FAILURES` with
its reason; any other fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from checking import check
from clirun import run_cli
from suite import Case, cases, judge, tool_schema

from toolsense.domain.instances import value_findings
from toolsense.rules.tools.examples import CODES

MISMATCH = frozenset(CODES.values())
CASES = list(cases())


def _path_result(case: Case) -> bool | None:
    schema, wrapped = tool_schema(case)
    value = {"value": case.data} if wrapped else case.data
    findings, notes = value_findings(schema, "anthropic", value, "the example", CODES, 200, formats=True)
    if notes:
        assert all("$ref" in note for note in notes), (case, notes)  # only remote references stop a check
        return None
    return not any(f.code in MISMATCH for f in findings)


def test_the_suite_through_the_validation_path() -> None:
    assert len(CASES) == 3946
    unexpected, by_reason, counts = judge({case: _path_result(case) for case in CASES})
    assert not unexpected, "\n".join(unexpected)
    assert counts == {"passed": 3404, "cut short": 70, "expected failures": 472}, (counts, by_reason)


def _write_tool_files(folder: Path) -> dict[tuple[str, int], Case]:
    """One tool file per suite file, a tool per group, one example per line: (file name, line) → its case."""
    by_file: dict[str, list[Case]] = {}
    for case in CASES:
        by_file.setdefault(case.file, []).append(case)
    lines_to_cases: dict[tuple[str, int], Case] = {}
    for index, (suite_file, file_cases) in enumerate(by_file.items()):
        name = f"suite_{index:03d}.json"
        lines = ["["]
        groups: dict[tuple[str, int], list[Case]] = {}
        for case in file_cases:
            groups.setdefault((case.group, id(case.schema)), []).append(case)
        for number, group_cases in enumerate(groups.values()):
            schema, wrapped = tool_schema(group_cases[0])
            header = {"name": f"group_{number}", "description": f"The suite's group {suite_file} #{number}."}
            head = json.dumps(header)[:-1] + f', "input_schema": {json.dumps(schema)}, "input_examples": ['
            lines.append(("," if number else "") + head)
            for position, case in enumerate(group_cases):
                value: Any = {"value": case.data} if wrapped else case.data
                lines_to_cases[(name, len(lines))] = case
                lines.append(("," if position else "") + json.dumps(value))
            lines.append("]}")
        lines.append("]")
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines_to_cases


def test_the_suite_through_the_cli(tmp_path: Path) -> None:
    lines_to_cases = _write_tool_files(tmp_path)
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=300)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    diagnostics = json.loads(done.stdout)
    assert not [d for d in diagnostics if d["code"] in ("TS001", "TS900")], done.stderr[-2000:]
    results: dict[Case, bool | None] = dict.fromkeys(lines_to_cases.values(), True)
    for diagnostic in diagnostics:
        case = lines_to_cases.get((Path(diagnostic["path"]).name, diagnostic["range"]["start"]["line"]))
        if case is None:
            continue
        if diagnostic["code"] == "TS236":
            assert "$ref" in diagnostic["message"], diagnostic  # only remote references stop a check
            results[case] = None
        elif diagnostic["code"] in MISMATCH and results[case] is not None:
            results[case] = False
    unexpected, by_reason, counts = judge(results)
    assert not unexpected, "\n".join(unexpected)
    assert counts == {"passed": 3404, "cut short": 70, "expected failures": 472}, (counts, by_reason)


def test_no_suite_schema_is_called_invalid_or_unresolved() -> None:
    """Every suite schema is valid JSON Schema whose local references resolve: no TS210 (meta-schema, patterns
    as ECMA-262) and no TS215 (`$ref` into embedded resources, anchors)."""
    found = []
    schemas = {id(case.schema): case for case in CASES}
    for case in schemas.values():
        schema, _ = tool_schema(case)
        text = json.dumps({"name": "t", "description": "Does a thing.", "input_schema": schema})
        found.extend((case.file, case.group, d.message) for d in check(text) if d.code in ("TS210", "TS215"))
    assert found == []
