"""Every rule of the catalog on one unit, within the unit's regex time budget: a failing rule becomes a finding,
never an exception."""

from __future__ import annotations

import logging

from . import regexes
from .context import CheckContext
from .findings import Finding
from .units import Unit

log = logging.getLogger(__name__)

_UNIT_NAMES = {
    "tool": "this tool",
    "automation": "this automation",
    "tool_call": "this call",
    "mcp_config": "this configuration",
}
"""Each kind of unit as a message about its regex time budget names it."""


def run_unit_checks(unit: Unit, ctx: CheckContext) -> list[Finding]:
    """Every registered check on one unit; a failing check becomes a finding, never an exception."""
    if unit.problem is not None and unit.problem.code == "TS006":
        return []  # no value to check; the problem itself is reported
    if unit.kind == "tool" and unit.origin == "response":
        return []  # a provider's response echoes the tools it accepted: proof that they are valid
    findings: list[Finding] = []
    budget = regexes.UNIT_BUDGET_MATCHES * ctx.settings.limits.regex_timeout_ms
    with regexes.time_budget(budget, _UNIT_NAMES[unit.kind]):
        _run_checks(unit, ctx, findings)
    if not unit.clean:
        findings = [f for f in findings if f.code != "TS102"]
    return findings


def _run_checks(unit: Unit, ctx: CheckContext, findings: list[Finding]) -> None:
    too_deep = False  # a check giving up on the nesting does not stop the others (the security rules read every
    # text iteratively, at any depth): TS006 is said once
    for check in ctx.catalog.unit_checks[unit.kind]:
        try:
            findings.extend(check(unit, ctx))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:  # a rule bug must not take the file down
            # Raised through Rust (rpds/referencing) a RecursionError arrives as pyo3's PanicException, a
            # BaseException: a cyclic or absurdly deep schema, not a bug of ours.
            recursion = isinstance(error, RecursionError)
            if recursion or "RecursionError" in repr(error):
                why = "Python recursion limit reached" if recursion else "a cyclic or very deep schema?"
                if not too_deep:
                    findings.append(Finding("TS006", f"Nesting is too deep to check ({why})", target="parent"))
                too_deep = True
                continue
            name = getattr(check, "__name__", repr(check))
            log.exception("rule %s failed", name)
            findings.append(Finding("TS900", f"Internal error in check {name}: {error!r}", target="parent"))
