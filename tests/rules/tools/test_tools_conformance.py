"""Issue 22: conformance with the standards toolsense judges by. enum/const by JSON value, ECMA-262 patterns
(validity and matching, on both engines), `$ref`s into embedded resources and anchors, no side effect on other
users of jsonschema, and the `format`s toolsense asserts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from checking import check, one, registry_of, tool
from clirun import run_cli

import toolsense.models  # noqa: F401  (importing it must change nothing in jsonschema)
from toolsense.engine import regexes


def _codes(text: str, *wanted: str) -> list[tuple[str, str, str]]:
    return [(d.code, d.severity, d.message) for d in check(text) if d.code in wanted]


# --- 2. enum and const compare JSON values -----------------------------------------------------------------


def test_an_enum_with_an_object_member_is_checked_not_crashed_on(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"v": {"enum": [{"k": 1}, "x", [1, 2]], "description": "V."}}}
    text = tool(schema, input_examples=[{"v": "y"}, {"v": {"k": 1.0}}, {"v": [1, 2]}])
    assert _codes(text, "TS233", "TS900") == [
        ("TS233", "error", 'Invalid value "y": expected one of {"k": 1}, "x", [1, 2]')
    ]
    (tmp_path / "t.tools.json").write_text(f"[{text}]", encoding="utf-8")
    done = run_cli(["check", "t.tools.json"], tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr  # findings, not an internal error (3)


def test_json_equality_one_is_one_point_zero_and_true_is_not_one() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"enum": [1, 1.0, True, {"a": 1}, {"a": 1.0}], "description": "N."},
            "b": {"type": "number", "enum": [1, 2], "const": 1.0, "description": "B."},
        },
    }
    text = tool(schema, input_examples=[{"n": 1.0, "b": 1}, {"n": 1, "b": True}])
    assert _codes(text, "TS213", "TS219", "TS233") == [
        ("TS213", "warning", "Duplicate enum value 1.0 (already at index 0)"),
        ("TS213", "warning", 'Duplicate enum value {"a": 1.0} (already at index 3)'),
        ("TS233", "error", "Invalid value true: expected one of 1, 2"),
    ]


# --- 3. valid ECMA-262 patterns are valid (TS210 and the `regex` format) ----------------------------------

ECMA_VALID = [r"^\p{L}+$", r"\p{Letter}", r"(?<name>a)\k<name>", r"\u{1F432}", "[^]", r"\cJ", r"^\p{Script=Greek}$"]
NOT_ECMA = ["(?i)abc", "(?P<n>a)", "(?>a)", "a++", "a{2,1}", "(unclosed"]


@pytest.mark.parametrize("pattern", ECMA_VALID)
def test_valid_ecma_patterns_are_valid(pattern: str) -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern, "description": "S."}}}
    assert regexes.compiles(pattern)
    assert _codes(tool(schema), "TS210") == []
    mcp = {"name": "t", "description": "Does a thing.", "inputSchema": schema}
    assert [d.code for d in check(json.dumps(mcp)) if d.code == "TS210"] == []  # 2020-12 (the MCP default)


@pytest.mark.parametrize("pattern", NOT_ECMA)
def test_patterns_v8_rejects_are_invalid(pattern: str) -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern, "description": "S."}}}
    assert not regexes.compiles(pattern)
    assert [code for code, *_ in _codes(tool(schema), "TS210")] == ["TS210"]


# --- 4. the backtracking engine follows ECMA too; a pattern no engine runs is never a match ----------------


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        (r"^(?=.*[A-Z])(?=.*\d).{8,}$", "Abcdefg1\n", False),  # `$` is the very end; `.` excludes \n
        (r"^(?=.*[A-Z])(?=.*\d).{8,}$", "Abcdefg1", True),
        (r"^(?=x|.)(.)\1$", "\r\r", False),  # `.` excludes \r
        (r"^(?=.)\d$", "\u0663", False),  # Arabic-Indic three: \d is ASCII
        (r"^(?=.)\w+$", "\u00e9", False),
        (r"^(?!x)\s$", "\u2028", True),  # \s is WhiteSpace and LineTerminator
        (r"^(?=.)\s$", "\u0085", False),  # NEL is not in ECMA's \s
        (r"^(?=.)[a\S]$", "\u00a0", False),  # a negated escape inside a class
        (r"(?<!\w)x", "éx", True),  # é is no word character
    ],
)
def test_the_backtracking_engine_gives_ecma_answers(pattern: str, text: str, expected: bool) -> None:
    assert not regexes.runs_in_linear_time(pattern)
    assert regexes.search(pattern, text) is expected


def test_the_password_rule_example_is_rejected_and_a_pattern_no_engine_runs_is_cut_short() -> None:
    schema = {
        "type": "object",
        "properties": {
            "password": {"type": "string", "pattern": r"^(?=.*[A-Z])(?=.*\d).{8,}$", "description": "P."},
            "code": {"type": "string", "pattern": "(?i)^abc$", "description": "C."},
        },
    }
    text = tool(schema, input_examples=[{"password": "Abcdefg1\n"}, {"code": "zzz"}])
    assert _codes(text, "TS235", "TS236") == [
        (
            "TS235",
            "error",
            'String should match pattern "^(?=.*[A-Z])(?=.*\\\\d).{8,}$" (received string: "Abcdefg1\\n")',
        ),
        (
            "TS236",
            "warning",
            'Checking input example 2 was cut short: pattern "(?i)^abc$" is not an ECMA-262 regular expression '
            "toolsense can run",
        ),
    ]


# --- 5. $ref into an embedded resource, and to anchors ------------------------------------------------------


@pytest.mark.parametrize(
    "schema",
    [
        {"$id": "https://x.example/a", "$defs": {"x": {"type": "string"}}, "$ref": "#/$defs/x"},
        {"$id": "https://x.example/a", "$defs": {"x": {"type": "string"}}, "items": {"$ref": "#/$defs/x"}},
        {"$id": "urn:uuid:deadbeef-4321-ffff-ffff-1234feebdaed", "$defs": {"x": {}}, "$ref": "#/$defs/x"},
        {"$ref": "#node", "$defs": {"n": {"$dynamicAnchor": "node", "type": "object"}}},
        {"$ref": "#node", "$defs": {"n": {"$anchor": "node", "type": "object"}}},
    ],
)
def test_refs_that_resolve_are_not_reported(schema: dict[str, object]) -> None:
    wrapped = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}
    wrapped["properties"] = {"a": {**schema, "description": "A."}}
    assert _codes(tool(wrapped), "TS215", "TS216") == []


def test_a_ref_into_an_embedded_resource_that_is_not_there_is_reported() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"$id": "https://x.example/a", "$defs": {"x": {}}, "description": "A."},
            "b": {"$ref": "https://x.example/a#/$defs/y", "description": "B."},
            "c": {"$ref": "https://x.example/a#/$defs/x", "description": "C."},
        },
    }
    assert _codes(tool(schema), "TS215", "TS216") == [
        ("TS215", "error", '$ref "https://x.example/a#/$defs/y" does not resolve inside the schema')
    ]


# --- 6. no side effect on other users of jsonschema -----------------------------------------------------------


def test_jsonschema_keeps_pythons_re_after_toolsense_checked_patterns() -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^a$"}}}
    _codes(tool(schema, input_examples=[{"s": "a\n"}]), "TS235")  # toolsense's own validators ran
    from jsonschema import _keywords, _legacy_keywords, _utils

    assert all(module.re is re for module in (_keywords, _utils, _legacy_keywords))
    plain = jsonschema.Draft202012Validator({"pattern": "^a$", "patternProperties": {"^k$": {"type": "string"}}})
    assert plain.is_valid("a\n")  # Python's `$` matches before a final newline; ECMA's (toolsense's) does not
    assert not plain.is_valid({"k\n": 1})
    assert jsonschema.Draft202012Validator({"unevaluatedProperties": False, "patternProperties": {"^k$": {}}}).is_valid(
        {"k\n": 1}
    )


# --- 7. the formats toolsense asserts, as warnings --------------------------------------------------------------

FORMATS = {
    "type": "object",
    "properties": {
        "when": {"type": "string", "format": "date-time", "description": "When.", "default": "tomorrow"},
        "day": {"type": "string", "format": "date", "description": "Day."},
        "id": {"type": "string", "format": "uuid", "description": "Id."},
        "mail": {"type": "string", "format": "email", "description": "Mail (not asserted)."},
    },
}


def test_formats_in_examples_calls_and_defaults_are_warnings() -> None:
    good = {"when": "2026-11-27T10:00:00Z", "day": "2024-02-29", "id": "123e4567-e89b-12d3-a456-426614174000"}
    text = tool(FORMATS, name="plan", input_examples=[good, {"when": "noon", "day": "2023-02-29", "mail": "x"}])
    assert _codes(text, "TS219", "TS237") == [
        ("TS219", "warning", "The default breaks its own schema: Input should be a valid date-time (received "
         'string: "tomorrow")'),
        ("TS237", "warning", 'Input should be a valid date-time (received string: "noon")'),
        ("TS237", "warning", 'Input should be a valid date (received string: "2023-02-29")'),
    ]  # fmt: skip
    registry = registry_of(("file:///w/tools/plan.json", tool(FORMATS, name="plan")))
    call = json.dumps({"type": "tool_use", "id": "toolu_1", "name": "plan", "input": {"id": "not-a-uuid"}})
    found = check(call, "tool_call", registry=registry, uri="file:///w/calls/call.json")
    assert one(found, "TS309").message == (
        "the input of 'plan', 'id': input should be a valid uuid (received string: \"not-a-uuid\")"
    )
    assert one(found, "TS309").severity == "warning"


@pytest.mark.parametrize(
    ("pattern", "text"),
    [(r"^\p{Letter}+$", "h\u00e9llo"), (r"^\p{Script=Greek}+$", "\u03b1\u03b2"), (r"^\p{gc=Nd}$", "\u0663")],
)
def test_long_unicode_property_names_run_in_linear_time(pattern: str, text: str) -> None:
    assert regexes.runs_in_linear_time(pattern)
    assert regexes.search(pattern, text) is True


# --- huge repeat counts and Annex B classes (the third adversarial campaign, F14 and F15) --------------------

HUGE = "a{" + "1" * 5000 + "," + "2" * 5000 + "}"


def test_a_5000_digit_repeat_count_is_valid_and_not_run() -> None:
    # V8 reads a count beyond 2^31-1 as its infinity; Python's int() refuses 5,000 digits (TS900 and exit 3).
    schema = {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": HUGE, "description": "S."}},
        "additionalProperties": False,
    }
    diags = check(tool(schema, input_examples=[{"s": "aaa"}]))
    assert [(d.code, d.message[:60]) for d in diags] == [
        ("TS236", 'Checking input example 1 was cut short: pattern "a{111111111')
    ]
    assert diags[0].message.endswith("is not an ECMA-262 regular expression toolsense can run")
    assert regexes.is_ecma(HUGE) and not regexes.compiles(HUGE) and regexes.search(HUGE, "aaa") is None
    assert regexes.is_ecma("\\" + "1" * 5000)  # a 5,000-digit escape: an octal escape and digits (Annex B)


@pytest.mark.timeout(60)
def test_a_lower_bound_the_backtracking_engine_would_write_out_is_not_compiled() -> None:
    # `regex` compiles a{2147483647} by writing out its repeats: all the memory there is. RE2 reads a count it
    # cannot parse as literal text: `^a{99999999999}$` must not match the text "a{99999999999}".
    for pattern in ("^a{99999999999}$", "(?=a)a{2147483647}", "(a{1000}){1000}"):
        assert regexes.is_ecma(pattern) and not regexes.compiles(pattern)
        assert regexes.search(pattern, pattern.strip("^$")) is None
    assert regexes.search("^a{0,99999999999}$", "a" * 5000) is True  # an upper bound that large is none
    assert regexes.search("^a{2,1001}$", "a") is False


def test_annex_b_set_escape_next_to_a_dash_is_no_range() -> None:
    # `[\w-\.]` is \w, `-` and `.` (V8: valid); it was spelled as the range `_-.`, which both engines reject.
    email = r"^[\w-\.]+@([\w-]+\.)+[\w-]{2,4}$"
    schema = {
        "type": "object",
        "properties": {"e": {"type": "string", "pattern": email, "description": "E."}},
        "additionalProperties": False,
    }
    assert check(tool(schema, input_examples=[{"e": "a-b.c@example.com"}])) == []
    assert [d.code for d in check(tool(schema, input_examples=[{"e": "a/b@example.com"}]))] == ["TS235"]
    assert regexes.search(r"^[.-\w]+$", "-") is True and regexes.search(r"^[.-\w]+$", "/") is False
