"""Classification, shapes, units (one broken unit does not hide the others) and the per-unit cache."""

from __future__ import annotations

import gc
import json

import pytest
from checking import brief, context, report
from positions import span

from toolsense.document.document import Document
from toolsense.document.lines import Position, Range
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.units import kind_from_path, split, weak_hint
from toolsense.rules import CATALOG
from toolsense.settings import Settings, settings_from_mapping
from toolsense.usermodels import ModelRegistry

TOOL = {"name": "get_weather", "description": "Weather.", "input_schema": {"type": "object", "properties": {}}}


def tool(name: str, **extra: object) -> str:
    return json.dumps({**TOOL, "name": name, **extra})


# --- classification -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "kind", "weak"),
    [
        # A default glob, by file name or by folder, only lowers the bar: the content decides (other programs
        # name their files `*.tools.json` too); only the user's own settings force a kind.
        ("/w/weather.tool.json", None, "tool"),
        ("/w/all.tools.json", None, "tool"),
        ("/w/tools/weather.json", None, "tool"),
        ("/w/tools/nested/weather.json", None, None),  # `**/tools/*.json`: direct children only
        ("/w/x.automation.json", None, "automation"),
        ("/w/automations/x.json", None, "automation"),
        ("/w/x.toolcall.json", None, "tool_call"),
        ("/w/calls/x.json", None, "tool_call"),
        ("/w/package.json", None, None),
    ],
)
def test_default_globs(path: str, kind: str | None, weak: str | None) -> None:
    assert kind_from_path(path, Settings()) == kind
    assert weak_hint(f"file://{path}") == weak


def test_folder_globs_match_windows_paths() -> None:
    assert weak_hint("file:///C:/w/tools/x.json") == "tool"


def test_settings_globs_come_before_the_defaults_and_exclude_wins() -> None:
    settings, problems = settings_from_mapping(
        {"files": {"automations": ["**/tools/special.json"], "exclude": ["**/tools/skip.json"]}}, "test"
    )
    assert not problems
    assert kind_from_path("/w/tools/special.json", settings) == "automation"
    assert kind_from_path("/w/tools/other.json", settings) is None  # the folder glob only suggests
    assert kind_from_path("/w/x.tool.json", settings) is None  # a default name glob only suggests too
    assert kind_from_path("/w/tools/skip.json", settings) is None


def test_the_first_matching_group_wins_as_if_tried_in_turn() -> None:
    """`kind_from_path` matches every group of globs in one pass: the answer is the first group's in order."""
    settings, problems = settings_from_mapping(
        {
            "files": {
                "exclude": ["**/gen/**", "**/x.tool.json"],
                "automations": ["**/flows/*.json", "**/both/*.json"],
                "tool_calls": ["**/both/*.json", "**/calls/*.tools.json", "**/[!a]*.call.json"],
                "tool_definitions": ["**/defs/**"],
                "dialects": {"**/gemini/*.json": "gemini"},
            }
        },
        "test",
    )
    assert not problems
    expected = {
        "/w/gen/a.tool.json": None,  # excluded first
        "/w/x.tool.json": None,
        "/w/both/y.json": "automation",  # automations before tool calls
        "/w/calls/y.tools.json": "tool_call",  # the user's tool calls before the default tool glob
        "/w/b.call.json": "tool_call",
        "/w/a.call.json": None,
        "/w/defs/deep/z.automation.json": "tool",  # the user's globs before the defaults
        "/w/gemini/g.json": "tool",
        "/w/flows/f.tool.json": "automation",
        "/w/p.tool-call.json": None,  # default globs only suggest
        "/w/p.automation.json": None,
        "/w/tools/p.json": None,
        "/w/caf\udce9.defs.json": None,  # a file name that is not UTF-8: each glob in turn
        "/w/defs/caf\udce9.json": "tool",
    }
    assert {path: kind_from_path(path, settings) for path in expected} == expected


@pytest.mark.parametrize(
    ("text", "kind", "shape", "pointers"),
    [
        (tool("a"), "tool", "object", [()]),
        (f"[{tool('a')}, {tool('b')}]", "tool", "array", [(0,), (1,)]),
        (f'{{"tools": [{tool("a")}, {tool("b")}]}}', "tool", "wrapper", [("tools", 0), ("tools", 1)]),
        (f'{{"functions": [{tool("a")}]}}', "tool", "wrapper", [("functions", 0)]),
        (
            f'{{"jsonrpc": "2.0", "id": 1, "result": {{"tools": [{tool("a")}]}}}}',
            "tool",
            "wrapper",
            [("result", "tools", 0)],
        ),
        (f"{tool('a')}\n{tool('b')}\n{tool('c')}\n", "tool", "lines", [(0,), (1,), (2,)]),
        ('{"name": "x", "trigger_type": "manual", "actions": []}', "automation", "object", [()]),
        ('{"type": "tool_use", "id": "t", "name": "x", "input": {}}', "tool_call", "object", [()]),
        ('{"type": "function", "function": {"name": "x", "arguments": "{}"}}', "tool_call", "object", [()]),
        ('{"type": "function", "function": {"name": "x", "parameters": {}}}', "tool", "object", [()]),
        ('{"$schema": "https://example.com/automation.schema.json", "name": "x"}', "automation", "object", [()]),
        ('{"compilerOptions": {}}', None, "object", []),
        ("[1, 2, 3]", None, "array", []),
    ],
)
def test_kind_and_shape_from_content(
    text: str, kind: str | None, shape: str, pointers: list[tuple[str | int, ...]]
) -> None:
    file_split = split(Document.from_text("file:///x.json", text), None)
    assert (file_split.kind, file_split.shape) == (kind, shape)
    assert [span.pointer for span in file_split.spans] == pointers


def test_the_glob_kind_wins_over_the_content() -> None:
    text = '{"name": "x", "input_schema": {"type": "object"}}'
    assert split(Document.from_text("file:///x.json", text), "automation").kind == "automation"


# --- units are independent ----------------------------------------------------------------------------


def test_one_broken_tool_does_not_hide_the_others() -> None:
    text = "[\n" + tool("a", colour=1) + ",\n" + '{"name": "b" "input_schema": {}}' + ",\n" + tool("c", size=2) + "\n]"
    _, result = report(text, "x.tools.json")
    found = [(code, where) for code, where, _ in brief(result.diagnostics, "TS")]
    assert ("TS101", span(text, '"colour"')) in found
    assert ("TS101", span(text, '"size"')) in found
    assert ("TS001", span(text, '"input_schema"', 1)) in found  # where the comma after "name": "b" was expected
    assert [unit.pointer for unit in result.units] == [(0,), (1,), (2,)]


def test_a_truncated_file_still_checks_the_complete_units() -> None:
    text = "[\n" + tool("a", colour=1) + ",\n" + tool("b", size=2) + ',\n{"name": "c", "zzz'
    _, result = report(text, "x.tools.json")
    codes = brief(result.diagnostics)
    assert ("TS101", span(text, '"colour"')) in [(c, w) for c, w, _ in codes]
    assert ("TS101", span(text, '"size"')) in [(c, w) for c, w, _ in codes]
    assert ("TS001", span(text, '"zzz'), "Syntax error: unterminated string") in codes
    assert result.split.recovered


def test_a_wrapper_truncated_inside_the_array() -> None:
    text = '{"tools": [' + tool("a", colour=1) + ', {"name": "b'
    _, result = report(text, "x.tools.json")
    assert [unit.pointer for unit in result.units] == [("tools", 0)]
    assert ("TS101", span(text, '"colour"')) in [(c, w) for c, w, _ in brief(result.diagnostics)]


# --- the cache ----------------------------------------------------------------------------------------


def three_tools() -> str:
    return "[\n  " + ",\n  ".join(tool(n) for n in ("alpha", "beta", "gamma")) + "\n]\n"


def test_an_edit_inside_one_unit_rechecks_only_that_unit() -> None:
    text = three_tools()
    document = Document.from_text("file:///w/x.tools.json", text)
    cache = UnitCache()
    ctx = context()
    first = check_document(document, ctx, "tool", cache)
    assert first.checked_units == 3
    index = text.index('"Weather."', text.index("beta"))
    line = text[:index].count("\n")
    column = index - (text.rfind("\n", 0, index) + 1)
    document.apply_change('"Weather today."', Range(Position(line, column), Position(line, column + 10)))
    second = check_document(document, ctx, "tool", cache)
    assert second.checked_units == 1
    assert check_document(document, ctx, "tool", cache).checked_units == 0  # nothing changed since


def test_a_shift_before_the_units_rechecks_nothing_and_moves_the_diagnostics() -> None:
    text = "[\n  " + tool("alpha", colour=1) + "\n]"
    document = Document.from_text("file:///w/x.tools.json", text)
    cache = UnitCache()
    ctx = context()
    before = check_document(document, ctx, "tool", cache).diagnostics
    document.apply_change("\n\n", Range(Position(0, 1), Position(0, 1)))
    after = check_document(document, ctx, "tool", cache)
    assert after.checked_units == 0
    moved = [(d.code, d.range.start.line - 2, d.range.start.character, d.message) for d in after.diagnostics]
    assert moved == [(d.code, d.range.start.line, d.range.start.character, d.message) for d in before]
    fresh = check_document(Document.from_text("file:///w/x.tools.json", document.text), ctx, "tool")
    assert [(d.range, d.code, d.message) for d in fresh.diagnostics] == [
        (d.range, d.code, d.message) for d in after.diagnostics
    ]


def test_a_full_text_change_reuses_units_by_content() -> None:
    text = three_tools()
    document = Document.from_text("file:///w/x.tools.json", text)
    cache = UnitCache()
    ctx = context()
    check_document(document, ctx, "tool", cache)
    document.apply_change(text.replace('"beta"', '"delta"'))  # full-document sync, one unit changed
    assert check_document(document, ctx, "tool", cache).checked_units == 1


def test_new_settings_recheck_every_unit() -> None:
    document = Document.from_text("file:///w/x.tools.json", three_tools())
    cache = UnitCache()
    check_document(document, context(), "tool", cache)
    changed, _ = settings_from_mapping({"description": {"max_length": 5}}, "test")
    assert check_document(document, context(changed), "tool", cache).checked_units == 3


def test_equal_settings_in_a_new_object_reuse_the_findings() -> None:
    """The cache is keyed on the settings' content: a configuration re-sent unchanged checks nothing again."""
    document = Document.from_text("file:///w/x.tools.json", three_tools())
    cache = UnitCache()
    check_document(document, context(Settings()), "tool", cache)
    assert check_document(document, context(Settings()), "tool", cache).checked_units == 0


def test_a_changed_configuration_rechecks_however_many_settings_were_freed() -> None:
    """Settings objects are made and dropped one after another (as a client re-sends its configuration); a freed
    object's address is given to the next one, so a cache keyed on addresses would keep the old findings."""
    text = "[\n  " + ",\n  ".join(tool(n, colour=1) for n in ("alpha", "beta", "gamma")) + "\n]\n"
    document = Document.from_text("file:///w/x.tools.json", text)
    cache = UnitCache()
    for round_ in range(40):
        silenced = round_ % 2 == 1
        mapping = {"severity": {"TS101": "off"}} if silenced else {}
        settings, _ = settings_from_mapping(mapping, "test")
        result = check_document(document, context(settings), "tool", cache)
        del settings
        gc.collect()
        assert result.checked_units == 3, round_
        ts101 = [d for d in result.diagnostics if d.code == "TS101"]
        assert len(ts101) == (0 if silenced else 3), round_


def test_each_model_registry_is_a_new_fingerprint() -> None:
    """Registered models are code: a reload is a new registry and re-checks, even if it looks the same."""
    first, second = ModelRegistry(), ModelRegistry()
    settings = Settings()
    registry = ToolRegistry()
    with_first = CheckContext(settings, registry, "file:///x", models=first, catalog=CATALOG).fingerprint()
    assert with_first == CheckContext(settings, registry, "file:///x", models=first, catalog=CATALOG).fingerprint()
    assert with_first != CheckContext(settings, registry, "file:///x", models=second, catalog=CATALOG).fingerprint()
    assert with_first != CheckContext(settings, registry, "file:///x", catalog=CATALOG).fingerprint()


# --- severities -----------------------------------------------------------------------------------------


def test_severity_overrides_and_off() -> None:
    text = tool("a", colour=1)
    default = brief(report(text)[1].diagnostics, "TS101")
    assert len(default) == 1
    settings, _ = settings_from_mapping({"severity": {"TS101": "hint"}}, "test")
    (diagnostic,) = [d for d in report(text, settings=settings)[1].diagnostics if d.code == "TS101"]
    assert diagnostic.severity.label == "hint"
    assert diagnostic.finding is not None and diagnostic.finding.severity is not None
    off, _ = settings_from_mapping({"severity": {"TS101": "off"}}, "test")
    assert not [d for d in report(text, settings=off)[1].diagnostics if d.code == "TS101"]


def test_file_level_codes_take_overrides_too() -> None:
    settings, _ = settings_from_mapping({"severity": {"TS001": "warning", "TS004": "off"}}, "test")
    syntax = [d for d in report('{"name": ', settings=settings)[1].diagnostics if d.code == "TS001"]
    assert syntax and all(d.severity.label == "warning" for d in syntax)
    assert not report('"just a string"', settings=settings, kind="tool")[1].diagnostics
