"""The official JSON-Schema-Test-Suite, run through the validation path the rules use (`value_findings`, as for an
input example: formats asserted, patterns as ECMA-262) and through `toolsense check` (a tool file per suite file,
a tool per group, the instances as its `input_examples`). Remote `$ref`s are never fetched: those cases end as
"cut short" and are counted apart. Every disagreement with the suite is listed in `suite.EXPECTED_FAILURES` with
its reason; any other fails."""

from __future__ import annotations

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
