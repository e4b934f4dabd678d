"""`input_examples` validated against the tool's own `input_schema`: an example that uses a key the schema does not
define teaches the model a call the tool rejects. Every error is placed inside its example — an unknown key on the
key, a wrong value on the value, a missing property on the example — with the same wording, did-you-mean and fixes as
everywhere else. Matching a `pattern` cannot hang: see `domain.validators`."""

from __future__ import annotations

from ...domain.instances import value_findings
from ...domain.tool import ContentMemo, tool_view, unit_key
from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.units import Unit
from ..catalog import CATALOG

FAMILY = "Tool definitions: input examples"

CODES = {
    "unknown": CATALOG.rule(
        "TS230",
        "example-unknown-property",
        Severity.ERROR,
        "An input example uses a property its tool's input schema does not define.",
        FAMILY,
        "rename to the closest property; remove it",
    ).code,
    "missing": CATALOG.rule(
        "TS231",
        "example-missing-property",
        Severity.ERROR,
        "An input example lacks a property the input schema requires.",
        FAMILY,
        "insert the missing properties",
    ).code,
    "type": CATALOG.rule(
        "TS232", "example-wrong-type", Severity.ERROR, "An input example value has the wrong JSON type.", FAMILY
    ).code,
    "enum": CATALOG.rule(
        "TS233",
        "example-invalid-enum-value",
        Severity.ERROR,
        "An input example value is not one of the schema's enum values.",
        FAMILY,
        "the closest allowed value",
    ).code,
    "coercible": CATALOG.rule(
        "TS234",
        "example-coercible-value",
        Severity.ERROR,
        'An input example writes a number or boolean as a string (`"80"`); the schema rejects it.',
        FAMILY,
        "write the value with its real type (safe)",
    ).code,
    "constraint": CATALOG.rule(
        "TS235",
        "example-constraint-violation",
        Severity.ERROR,
        "An input example breaks a constraint of the schema (range, length, pattern…).",
        FAMILY,
    ).code,
    "format": CATALOG.rule(
        "TS237",
        "example-format-mismatch",
        Severity.WARNING,
        "An input example string does not have its schema's `format` (`date`, `date-time`, `ipv4`, `ipv6`, "
        "`uuid`, `regex`: the formats toolsense asserts).",
        FAMILY,
    ).code,
}
CUT_SHORT = CATALOG.rule(
    "TS236",
    "example-check-cut-short",
    Severity.WARNING,
    "Validating an input example stopped early (a pattern ran out of `limits.regex_timeout_ms`, an unresolvable "
    "`$ref`…); the example may be invalid.",
    FAMILY,
)


@CATALOG.unit_check("tool")
def input_examples(unit: Unit, ctx: CheckContext) -> tuple[Finding, ...]:
    view = tool_view(unit)
    if view is None or view.examples_pointer is None or not isinstance(view.examples, list):
        return ()
    budget = ctx.settings.limits.regex_timeout_ms
    key = (unit_key(unit), unit.dialect, unit.clean, budget)
    return _MEMO.get(key, lambda: _input_examples(unit, unit.clean, budget))


_MEMO: ContentMemo[tuple[Finding, ...]] = ContentMemo(4096)


def _input_examples(unit: Unit, clean: bool, budget: int) -> tuple[Finding, ...]:
    view = tool_view(unit)
    assert view is not None and view.examples_pointer is not None
    examples = view.examples
    if not isinstance(examples, list) or not isinstance(view.schema, dict):
        return ()
    found: list[Finding] = []
    for index, example in enumerate(examples):
        where = (*view.examples_pointer, index)
        subject = f"input example {index + 1}"
        findings, notes = value_findings(view.schema, view.dialect, example, subject, CODES, budget, formats=True)
        for finding in findings:
            if not clean and finding.code == CODES["missing"]:
                continue
            found.append(finding.under(where))
        for note in notes:
            found.append(Finding(CUT_SHORT.code, f"Checking {subject} was cut short: {note}", where, "parent"))
    return tuple(found)
