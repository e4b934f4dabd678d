"""The rule catalog as data (`rules.json` beside this module), so `toolsense rules` lists the rules without
importing the rule families (pydantic models, JSON Schema validators: most of a second).

The catalog in the code stays the one source: `rules.json` is generated from it, and a test fails when the two
differ. Regenerate it with `python -m toolsense.cli.rule_table`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.catalog import Catalog, Rule

TABLE = Path(__file__).with_name("rules.json")


def table_of(catalog: Catalog) -> list[dict[str, str]]:
    """Every rule of the catalog as a JSON object, by code."""
    return [
        {"code": r.code, "name": r.name, "severity": r.severity.label, "summary": r.summary, "family": r.family}
        | ({"fix": r.fix} if r.fix else {})
        for r in sorted(catalog.rules.values(), key=lambda r: r.code)
    ]


def table_text(catalog: Catalog) -> str:
    return json.dumps(table_of(catalog), indent=1, ensure_ascii=False) + "\n"


def listed_rules() -> list[Rule]:
    """The rules of the generated table, as the catalog's `Rule`s (by code)."""
    from ..engine.catalog import Rule
    from ..engine.findings import Severity

    entries: list[dict[str, str]] = json.loads(TABLE.read_text(encoding="utf-8"))
    return [
        Rule(e["code"], e["name"], Severity.from_label(e["severity"]), e["summary"], e["family"], e.get("fix", ""))
        for e in entries
    ]


def _write() -> None:
    from ..rules import CATALOG

    TABLE.write_text(table_text(CATALOG), encoding="utf-8")
    print(f"wrote {TABLE}")


if __name__ == "__main__":
    _write()
