"""`toolsense check --format junit`: JUnit XML, for CI systems that show test results (GitLab, Jenkins, Azure).

One test suite per file checked; in it one test case per diagnostic — failing for an error or a warning, passing
with the message as its output for information and hints — or a single passing case for a file without any.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from ..textsafety import escape_controls

if TYPE_CHECKING:
    from ..engine.checker import Diagnostic

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot carry at all, not even as character references (C0 controls, lone surrogates,
U+FFFE, U+FFFF)."""


def _shown(text: str) -> str:
    """Text from the files, safe in XML: control and invisible characters written `<U+XXXX>` as in every output
    format (`escape_controls`), and so the few others XML cannot carry (U+FFFE, U+FFFF)."""
    return _NOT_XML.sub(_code_point, escape_controls(text))


def _code_point(match: re.Match[str]) -> str:
    return f"<U+{ord(match.group()):04X}>"


def junit_report(shown: dict[str, list[Diagnostic]]) -> str:
    """The JUnit XML document for the diagnostics of each file (paths as shown to the user)."""
    from ..engine.findings import Severity

    failing = (Severity.ERROR, Severity.WARNING)
    root = ET.Element("testsuites", name="toolsense check")
    total_cases = total_failures = 0
    for path, diagnostics in shown.items():
        name = _shown(path)
        suite = ET.SubElement(root, "testsuite", name=name)
        failures = 0
        for d in diagnostics:
            start = d.range.start
            where = f"{start.line + 1}:{start.character + 1}"
            case = ET.SubElement(
                suite, "testcase", classname=name, name=f"{d.code} {where}", file=name, line=str(start.line + 1)
            )
            text = _shown(f"{path}:{where}: {d.severity.label} {d.code} {d.message}")
            if d.severity in failing:
                failures += 1
                failure = ET.SubElement(case, "failure", type=d.severity.label, message=_shown(d.message))
                failure.text = text
            else:
                ET.SubElement(case, "system-out").text = text
        if not diagnostics:
            ET.SubElement(suite, "testcase", classname=name, name="toolsense check", file=name)
        cases = max(len(diagnostics), 1)
        suite.set("tests", str(cases))
        suite.set("failures", str(failures))
        suite.set("errors", "0")
        total_cases += cases
        total_failures += failures
    root.set("tests", str(total_cases))
    root.set("failures", str(total_failures))
    root.set("errors", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
