"""The official JSON-Schema-Test-Suite (drafts 2020-12 and 7, `optional/` included; tests/data), read as cases,
and what toolsense is known to answer differently, each with its reason."""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUITE = Path(__file__).resolve().parents[1] / "data" / "json-schema-test-suite" / "tests"
DRAFTS = {"draft2020-12": "https://json-schema.org/draft/2020-12/schema", "draft7": None}


@dataclass(frozen=True, eq=False)
class Case:
    file: str  # "draft7/optional/format/date.json"
    group: str
    test: str
    schema: Any
    data: Any
    valid: bool

    @property
    def draft(self) -> str:
        return self.file.split("/", 1)[0]


def cases() -> Iterator[Case]:
    for draft in DRAFTS:
        for path in sorted((SUITE / draft).rglob("*.json")):
            name = path.relative_to(SUITE).as_posix()
            for group in json.loads(path.read_text(encoding="utf-8")):
                for test in group["tests"]:
                    yield Case(
                        name, group["description"], test["description"], group["schema"], test["data"], test["valid"]
                    )


def tool_schema(case: Case) -> tuple[Any, bool]:
    """The schema a tool file gives its examples: the group's, with the draft's `$schema` when it has none (a
    tool's default dialect is draft-07); a boolean schema wrapped as the property `value` (True: wrapped)."""
    schema = case.schema
    if isinstance(schema, bool):
        wrapped: dict[str, Any] = {"type": "object", "properties": {"value": schema}, "required": ["value"]}
        if DRAFTS[case.draft]:
            wrapped["$schema"] = DRAFTS[case.draft]
        return wrapped, True
    if DRAFTS[case.draft] and "$schema" not in schema:
        schema = {"$schema": DRAFTS[case.draft], **schema}
    return schema, False


NOT_ASSERTED_FORMATS = (
    "`format` is asserted only for date, date-time, ipv4, ipv6, uuid and regex (engine/formats.py); this format "
    "stays an annotation"
)
EXPECTED_FAILURES: list[tuple[str, str, str, str]] = [
    # (file glob, group glob, test glob, reason)
    *(
        (f"*/optional/format/{name}.json", "*", "*", NOT_ASSERTED_FORMATS)
        for name in (
            "duration",
            "email",
            "hostname",
            "idn-email",
            "idn-hostname",
            "iri",
            "iri-reference",
            "json-pointer",
            "relative-json-pointer",
            "time",
            "uri",
            "uri-reference",
            "uri-template",
        )
    ),
    (
        "draft2020-12/format.json",
        "*",
        "invalid * string is only an annotation by default",
        "toolsense asserts its safe subset of formats on values a model is shown or sends (a warning, by design)",
    ),
    (
        "*/optional/format/ecmascript-regex.json",
        "\\a is not an ECMA 262 control escape",
        "*",
        "identity escapes of letters are accepted as V8 accepts them without the `u` flag (ECMA-262 Annex B)",
    ),
    (
        "draft2020-12/optional/dependencies-compatibility.json",
        "*",
        "*",
        "the legacy `dependencies` keyword is not part of 2020-12 (jsonschema ignores it there)",
    ),
    ("draft7/optional/content.json", "*", "*", "`contentEncoding` / `contentMediaType` are annotations (not asserted)"),
    (
        "draft2020-12/vocabulary.json",
        "*",
        "*",
        "a custom meta-schema is remote: never fetched, so its vocabularies are not read",
    ),
]


def expected_failure(case: Case) -> tuple[int, str] | None:
    """The index and reason of the expected-failure entry that covers the case, if any."""
    for index, (file, group, test, reason) in enumerate(EXPECTED_FAILURES):
        matches = (fnmatch.fnmatchcase(case.file, file), fnmatch.fnmatchcase(case.group, group))
        if all(matches) and fnmatch.fnmatchcase(case.test, test):
            return index, reason
    return None


def judge(results: dict[Case, bool | None]) -> tuple[list[str], dict[str, int], dict[str, int]]:
    """(unexpected disagreements, expected failures counted by reason, counts: passed / cut short / failed as
    expected). results: the case → valid as toolsense says, None when the check was cut short (a remote $ref)."""
    unexpected: list[str] = []
    by_reason: dict[str, int] = {}
    used: set[int] = set()
    counts = {"passed": 0, "cut short": 0, "expected failures": 0}
    for case, valid in results.items():
        if valid is None:
            counts["cut short"] += 1
            continue
        if valid == case.valid:
            counts["passed"] += 1
            continue
        known = expected_failure(case)
        if known is None:
            unexpected.append(f"{case.file} | {case.group} | {case.test}: expected valid={case.valid}, got {valid}")
            continue
        used.add(known[0])
        by_reason[known[1]] = by_reason.get(known[1], 0) + 1
        counts["expected failures"] += 1
    for index, entry in enumerate(EXPECTED_FAILURES):
        if index not in used:
            unexpected.append(f"expected failure no longer fails (remove it): {entry[:3]}")
    return unexpected, by_reason, counts
