"""Report formats of `toolsense check`: text, JSON, SARIF 2.1.0 (code scanning), GitHub workflow commands.

Paths and messages hold text from the files checked: every format shows them through `escape_controls`, so no
file can start an output line of its own (a GitHub workflow command), drive the terminal, or hide text.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from ..engine.checker import Diagnostic
from ..engine.findings import Severity
from ..engine.suppression import BY_BASELINE, BY_COMMENT, BY_SETTINGS, REFUSED, Suppressions
from ..rules import CATALOG
from ..textsafety import escape_controls


def write_report(
    output_format: str,
    results: dict[Path, list[Diagnostic]],
    file_count: int,
    out: TextIO,
    suppressed: Suppressions | None = None,
) -> None:
    """The diagnostics of every file in the chosen format; paths shown relative to the current folder. The text
    format's summary also counts what was suppressed, and by what (`suppressed`)."""
    cwd = Path.cwd()
    shown = {
        escape_controls(_display(path, cwd)): [_escaped(d) for d in diags] for path, diags in sorted(results.items())
    }
    if output_format == "json":
        out.write(json.dumps([d.to_json(path) for path, diags in shown.items() for d in diags], indent=2) + "\n")
    elif output_format == "sarif":
        out.write(json.dumps(sarif(shown), indent=2) + "\n")
    elif output_format == "junit":
        from .junit import junit_report  # XML is imported for this format only

        out.write(junit_report(shown))
    elif output_format == "github":
        for shown_path, shown_diags in shown.items():
            for d in shown_diags:
                out.write(_github(shown_path, d) + "\n")
    else:
        _text(shown, out, file_count, suppressed or Counter())


def _escaped(diagnostic: Diagnostic) -> Diagnostic:
    message = escape_controls(diagnostic.message)
    return diagnostic if message == diagnostic.message else dataclasses.replace(diagnostic, message=message)


_SARIF_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "note",
    Severity.HINT: "note",
}


def sarif(shown: dict[str, list[Diagnostic]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log; regions are 1-based with UTF-16 columns, as GitHub code scanning expects."""
    from .. import __version__  # the package metadata, read only for this format
    from .sarif_rules import add_fingerprints, rule_help

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
    for rule in rules:  # help text and a link to docs/rules.md
        if rule["id"] in CATALOG.rules:
            rule.update(rule_help(CATALOG.rules[rule["id"]]))
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
                        "artifactLocation": {"uri": quote(path.replace("\\", "/"), safe="/:@!$&'()*+,;=")},
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
    add_fingerprints(results, shown)
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


def _display(path: Path, cwd: Path) -> str:
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        return str(path)


def _text(shown: dict[str, list[Diagnostic]], out: TextIO, file_count: int, suppressed: Suppressions) -> None:
    """One line per finding; a finding repeated over the tools of one file (one code, one message but for the
    tool's name) once, with the count and an indented line per place (a problem matcher reads only the first)."""
    counts = {s: 0 for s in Severity}
    for path, diags in shown.items():
        for d in diags:
            counts[d.severity] += 1
        for first, repeats in repeated(diags):
            start = first.range.start
            message = first.message
            if repeats:
                names = len({d.subject.name for d in (first, *repeats) if d.subject is not None})
                message = f"{message} [and {len(repeats)} more like it in this file, over {names} tools]"
            out.write(f"{path}:{start.line + 1}:{start.character + 1}: {first.severity.label} {first.code} {message}\n")
            for d in repeats:
                at = d.range.start
                name = escape_controls(d.subject.name) if d.subject is not None else ""
                tool = f" in tool '{name}'" if name else ""
                out.write(f"    {path}:{at.line + 1}:{at.character + 1}: the same{tool}\n")
    summary = ", ".join(f"{n} {s.label}{'s' if n != 1 else ''}" for s, n in counts.items() if n)
    out.write(f"Checked {file_count} file{'s' if file_count != 1 else ''}: {summary or 'no problems'}")
    out.write(suppression_summary(suppressed) + "\n")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def suppression_summary(suppressed: Suppressions) -> str:
    """What was suppressed and by what, and the security findings a comment named but could not suppress; empty
    when nothing was."""
    by = [
        f"{suppressed[key]} by {what}"
        for key, what in (
            (BY_SETTINGS, "the settings' ignore table"),
            (BY_COMMENT, "comments"),
            (BY_BASELINE, "the baseline"),
        )
        if suppressed[key]
    ]
    parts = [f"suppressed {', '.join(by)}"] if by else []
    if suppressed[REFUSED]:
        parts.append(
            f"{_count(suppressed[REFUSED], 'security finding')} reported although a comment in the file names "
            f"{'it' if suppressed[REFUSED] == 1 else 'them'}: only the settings or a baseline suppress a security rule"
        )
    return f" ({'; '.join(parts)})" if parts else ""


REPEATED_FROM = 3
"""How many tools of one file must share a finding before the text report shows it once."""


def repeated(diags: list[Diagnostic]) -> list[tuple[Diagnostic, list[Diagnostic]]]:
    """The file's diagnostics in order, each with the later ones that repeat it in other tools (the same code,
    severity and message once the tool's own name is taken out), when `REPEATED_FROM` or more share it."""
    groups: dict[tuple[str, Severity, str], list[Diagnostic]] = {}
    for d in diags:
        groups.setdefault((d.code, d.severity, _shape(d)), []).append(d)
    result: list[tuple[Diagnostic, list[Diagnostic]]] = []
    for d in diags:
        group = groups[(d.code, d.severity, _shape(d))]
        tools = {g.subject.name for g in group if g.subject is not None and g.subject.name}
        if len(group) < REPEATED_FROM or len(tools) < 2:
            result.append((d, []))
        elif group[0] is d:
            result.append((d, group[1:]))
    return result


def _shape(d: Diagnostic) -> str:
    """The message without the tool's own name (`Tool 'get_time' has no description` → `Tool '…' has no …`)."""
    name = d.subject.name if d.subject is not None else ""
    return d.message.replace(f"'{name}'", "'…'") if name else d.message


_GITHUB_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "notice",
    Severity.HINT: "notice",
}


def _github(path: str, d: Diagnostic) -> str:
    def escape(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    def prop(text: str) -> str:
        return escape(text).replace(":", "%3A").replace(",", "%2C")

    return (
        f"::{_GITHUB_LEVEL[d.severity]} file={prop(path)},line={d.range.start.line + 1},"
        f"col={d.range.start.character + 1},endLine={d.range.end.line + 1},"
        f"endColumn={d.range.end.character + 1},title={prop(d.code)}::{escape(d.message)}"
    )
