"""Automations: conditions (TS601, TS602, TS607) on actions, the polling `filter` and the webhook `filters`.

A clause is `{path, op, value?, case_insensitive?}`, a group `{operator: AND|OR, clauses: [...]}` (told apart by
their keys). The structure family already reports a missing `path`/`op`, an `op` outside the set, a bad
`operator` and empty `clauses` for action conditions and the polling filter (TS101–TS106, saying which form was
assumed); this module does the same for the webhook `filters` (typed as a plain object in the envelope) and adds
what a model cannot say: `value` is required except for exists/not_exists, where it is ignored; an ordering
`op` needs a number. A clause's `path` is resolved like a template path by the template rules.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...domain.automation import AutomationView, condition_sites
from ...domain.validation import model_findings
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, InsertMembers, RemoveMember, Severity
from ...engine.units import Unit
from ...jsonvalue import JsonValue, short_repr
from ...models.base import StrictModel
from ...models.definitions import NO_VALUE_OPS, Condition, ConditionOp
from ..catalog import CATALOG

FAMILY = "Automations: conditions, triggers and preflight"

MISSING_VALUE = CATALOG.rule(
    "TS601",
    "condition-missing-value",
    Severity.ERROR,
    "A condition clause has no `value` (only `exists` / `not_exists` take none).",
    FAMILY,
    "insert a `value` placeholder",
)
IGNORED_VALUE = CATALOG.rule(
    "TS602",
    "condition-value-ignored",
    Severity.WARNING,
    "A `value` on an `exists` / `not_exists` clause, which ignores it.",
    FAMILY,
    "remove the value (safe)",
)
NUMERIC_VALUE = CATALOG.rule(
    "TS607",
    "condition-value-not-numeric",
    Severity.WARNING,
    "`<`, `>`, `<=`, `>=` compare numbers, but the clause's `value` is not a number (the clause is then always false).",
    FAMILY,
)

_ORDERING = frozenset({ConditionOp.LT.value, ConditionOp.GT.value, ConditionOp.LE.value, ConditionOp.GE.value})
_OPS = frozenset(op.value for op in ConditionOp)


class _WebhookFilters(StrictModel):
    filters: Condition


@CATALOG.unit_check("automation")
def automation_conditions(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = AutomationView.of(unit.value)
    if view is None:
        return
    filters = view.trigger_config.get("filters")
    if view.trigger_type == "webhook" and isinstance(filters, dict):
        for finding in model_findings(_WebhookFilters, {"filters": filters}, "webhook trigger_config"):
            yield finding.under(("trigger_config",))
    for clause, pointer, _where in condition_sites(view):
        op = clause.get("op")
        if not isinstance(op, str) or op not in _OPS:
            continue
        if op in NO_VALUE_OPS:
            if "value" in clause:
                yield IGNORED_VALUE.finding(
                    f"op '{op}' takes no value: {short_repr(clause['value'])} is ignored; remove it",
                    (*pointer, "value"),
                    target="key",
                    fixes=(Fix("Remove 'value'", (RemoveMember((*pointer, "value")),), safe=True, preferred=True),),
                )
            continue
        if "value" not in clause:
            placeholder = "0" if op in _ORDERING else '""'
            snippet = "${1:0}" if op in _ORDERING else '"$1"'
            yield MISSING_VALUE.finding(
                f"Condition clause with op '{op}' needs a 'value' to compare with (only exists/not_exists take none)",
                pointer,
                target="parent",
                fixes=(
                    Fix(
                        "Add 'value'",
                        (InsertMembers(pointer, (("value", placeholder),), (("value", snippet),)),),
                        preferred=True,
                    ),
                ),
            )
            continue
        value = clause["value"]
        if op in _ORDERING and not _numeric(value):
            yield NUMERIC_VALUE.finding(
                f"op '{op}' compares numbers, but {short_repr(value)} is not one: the clause would always be false",
                (*pointer, "value"),
            )


def _numeric(value: JsonValue) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, str):
        if "{{" in value:
            return True  # a template, resolved at run time
        try:
            float(value)
        except ValueError:
            return False
        return True
    return False
