"""What SARIF carries beyond the results: each rule's help (text and a link to its page, docs/rules/TSxxx.md) and
each result's `partialFingerprints`, so code scanning follows a finding across commits however its lines move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .finding_keys import FINGERPRINT_KEY, finding_key, fingerprints

if TYPE_CHECKING:
    from ..engine.catalog import Rule
    from ..engine.checker import Diagnostic


def rule_help(rule: Rule) -> dict[str, Any]:
    """`fullDescription`, `help` and `helpUri` of a SARIF reporting descriptor."""
    fix = f" Quick fix: {rule.fix}." if rule.fix else ""
    uri = rule.url
    return {
        "fullDescription": {"text": rule.summary},
        "help": {
            "text": f"{rule.summary}{fix} See {uri}",
            "markdown": f"**{rule.code} `{rule.name}`** ({rule.severity.label}): {rule.summary}{fix}\n\n"
            f"[{rule.code} {rule.name}]({uri}) ({rule.family})",
        },
        "helpUri": uri,
    }


def add_fingerprints(results: list[dict[str, Any]], shown: dict[str, list[Diagnostic]]) -> None:
    """Give each SARIF result (in the order of `shown`'s diagnostics) its fingerprint: a hash of file, tool name,
    pointer in the tool and code (`finding_keys`), not of the line."""
    keys = [finding_key(path, d) for path, diagnostics in shown.items() for d in diagnostics]
    for result, fingerprint in zip(results, fingerprints(keys), strict=True):
        result["partialFingerprints"] = {FINGERPRINT_KEY: fingerprint}
