"""Report formats for `toolsense check` beyond plain text: SARIF 2.1.0 for code scanning."""

from __future__ import annotations

from typing import Any

from . import __version__
from .engine.checker import Diagnostic
from .engine.findings import Severity
from .rules import CATALOG

_SARIF_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "note",
    Severity.HINT: "note",
}


def sarif(shown: dict[str, list[Diagnostic]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log; regions are 1-based with UTF-16 columns, as GitHub code scanning expects."""
    used = sorted({d.code for diags in shown.values() for d in diags})
    rules = [
        {
            "id": code,
            "name": CATALOG.rules[code].name if code in CATALOG.rules else code,
            "shortDescription": {"text": CATALOG.rules[code].summary if code in CATALOG.rules else code},
            "defaultConfiguration": {
                "level": _SARIF_LEVEL[CATALOG.rules[code].severity] if code in CATALOG.rules else "error"
            },
        }
        for code in used
    ]
    index = {code: i for i, code in enumerate(used)}
    results = [
        {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": path.replace("\\", "/")},
                        "region": {
                            "startLine": d.range.start.line + 1,
                            "startColumn": d.range.start.character + 1,
                            "endLine": d.range.end.line + 1,
                            "endColumn": d.range.end.character + 1,
                        },
                    }
                }
            ],
        }
        for path, diags in shown.items()
        for d in diags
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "toolsense",
                        "version": __version__,
                        "informationUri": "https://github.com/toolsense/toolsense",
                        "rules": rules,
                    }
                },
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }
