"""Golden diagnostics: each `<case>.json` here is checked as `toolsense check <case>.json` would check it, and
the diagnostics of the document and structure families (TS0xx, TS1xx — the codes this layer places) must equal
`<case>.expected.json`: code, severity, exact range (0-based, UTF-16) and message, plus the text the range
covers, so a reviewer sees at a glance what is marked.

Regenerate after a deliberate change, then review every diff by hand:

    python tests/golden/goldkit.py            # or: TOOLSENSE_UPDATE_GOLDENS=1 pytest tests/golden
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CODES = ("TS0", "TS1")


def cases() -> list[Path]:
    return sorted(p for p in HERE.glob("*.json") if not p.name.endswith(".expected.json"))


def expected_path(case: Path) -> Path:
    return case.with_name(case.name[: -len(".json")] + ".expected.json")


def actual(case: Path) -> list[dict[str, Any]]:
    from toolsense.engine.workspace import Workspace
    from toolsense.rules import CATALOG
    from toolsense.settings import Settings

    workspace = Workspace(Settings(), CATALOG)
    workspace.add([case])
    diagnostics = workspace.check_all().get(case, [])
    loaded = workspace.files[case]
    text = loaded.document.text if loaded.document is not None else ""
    lines = text.encode("utf-16-le", "surrogatepass")
    result = []
    for d in diagnostics:
        if not d.code.startswith(CODES):
            continue
        result.append(
            {
                "code": d.code,
                "severity": d.severity.label,
                "range": d.range.to_json(),
                "text": _covered(text, lines, d.range.to_json()),
                "message": d.message,
            }
        )
    return result


def _covered(text: str, _utf16: bytes, range_: dict[str, dict[str, int]]) -> str:
    """The source text inside an LSP range (lines end at \\r\\n, \\r, \\n; columns in UTF-16 units)."""
    import re

    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]

    def index(position: dict[str, int]) -> int:
        line = min(position["line"], len(starts) - 1)
        start = starts[line]
        units = 0
        i = start
        while i < len(text) and units < position["character"] and text[i] not in "\r\n":
            units += 2 if ord(text[i]) > 0xFFFF else 1
            i += 1
        return i

    return text[index(range_["start"]) : index(range_["end"])]


def render(diagnostics: list[dict[str, Any]]) -> str:
    return json.dumps(diagnostics, indent=2, ensure_ascii=False) + "\n"


def update() -> list[Path]:
    written = []
    for case in cases():
        target = expected_path(case)
        content = render(actual(case))
        if not target.exists() or target.read_text(encoding="utf-8") != content:
            target.write_text(content, encoding="utf-8")
            written.append(target)
    return written


if __name__ == "__main__":
    for path in update():
        print(f"updated {path.relative_to(HERE.parent.parent)}")
    sys.exit(0)
