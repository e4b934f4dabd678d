"""Suppressions in the engine (so the CLI and the editor agree): `// toolsense-ignore` comments and the
settings' `ignore` table, each diagnostic's subject (tool name, pointer inside it), and the comment edit of the
"Suppress … for this tool" quick fix."""

from __future__ import annotations

from checking import context

from toolsense.document.document import Document
from toolsense.engine.checker import FileReport, check_document
from toolsense.engine.findings import Subject
from toolsense.fixes import TextEdit, apply_edits
from toolsense.lsp.suppress_action import comment_edit, literal_glob, settings_edit, takes_comments
from toolsense.settings import Settings

OPEN = '{"type": "object", "properties": {"city": {"type": "string"}}}'


def _tools(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def report(text: str, name: str, settings: Settings | None = None) -> tuple[Document, FileReport]:
    document = Document.from_text(f"file:///x/{name}", text)
    return document, check_document(document, context(settings, uri=document.uri), "tool")


def _found(text: str, settings: Settings | None = None) -> list[tuple[str, int, Subject | None]]:
    _, checked = report(text, "w.tools.json", settings)
    return [(d.code, d.range.start.line, d.subject) for d in checked.diagnostics]


TWO_TOOLS = (
    "[",
    '  {"name": "get_weather", "description": "Gets the weather.",',
    f'   "input_schema": {OPEN}}},',
    '  {"name": "get_time", "description": "Gets the time.",',
    f'   "input_schema": {OPEN}}}',
    "]",
)


def test_each_diagnostic_names_its_tool_and_its_pointer_inside_it() -> None:
    assert _found(_tools(*TWO_TOOLS)) == [
        ("TS220", 2, Subject("get_weather", ("input_schema",))),
        ("TS241", 2, Subject("get_weather", ("input_schema", "properties", "city"))),
        ("TS220", 4, Subject("get_time", ("input_schema",))),
        ("TS241", 4, Subject("get_time", ("input_schema", "properties", "city"))),
    ]


def test_a_comment_covers_the_member_below_it_or_on_its_line_and_only_its_codes() -> None:
    above = _tools(TWO_TOOLS[0], "  // toolsense-ignore TS220, TS241", *TWO_TOOLS[1:])
    assert [(code, line) for code, line, _ in _found(above)] == [("TS220", 5), ("TS241", 5)]
    inside = _tools(*TWO_TOOLS[:4], f'   "input_schema": {OPEN}}} // toolsense-ignore TS241', "]")
    assert [(code, line) for code, line, _ in _found(inside)] == [("TS220", 2), ("TS241", 2), ("TS220", 4)]
    in_a_string = _tools(
        *TWO_TOOLS[:1], '  {"name": "get_weather", "description": "// toolsense-ignore TS220",', *TWO_TOOLS[2:]
    )
    assert [code for code, _, _ in _found(in_a_string)] == ["TS220", "TS241", "TS220", "TS241"]


def test_the_settings_table_by_glob_tool_and_code() -> None:
    settings = Settings.model_validate({"ignore": {"*.tools.json": {"get_time": ["TS220"], "*": ["TS241"]}}})
    assert [(code, line) for code, line, _ in _found(_tools(*TWO_TOOLS), settings)] == [("TS220", 2)]
    elsewhere = Settings.model_validate({"ignore": {"other/*.json": {"*": ["TS220", "TS241"]}}})
    assert len(_found(_tools(*TWO_TOOLS), elsewhere)) == 4


def test_the_quick_fix_adds_its_code_to_a_comment_above_the_tool() -> None:
    text = _tools(TWO_TOOLS[0], "  // toolsense-ignore TS241", *TWO_TOOLS[1:])
    document, checked = report(text, "w.tools.json")
    assert takes_comments(document, document.uri)
    first = next(d for d in checked.diagnostics if d.code == "TS220" and d.subject and d.subject.name == "get_weather")
    edit = comment_edit(document, first)
    assert edit is not None
    assert (
        apply_edits(document.data, [TextEdit(*edit)]).decode().splitlines()[1] == "  // toolsense-ignore TS241, TS220"
    )
    second = next(d for d in checked.diagnostics if d.code == "TS220" and d.subject and d.subject.name == "get_time")
    edit = comment_edit(document, second)
    assert edit is not None
    assert apply_edits(document.data, [TextEdit(*edit)]).decode().splitlines()[4:6] == [
        "  // toolsense-ignore TS220",
        '  {"name": "get_time", "description": "Gets the time.",',
    ]


def test_a_plain_json_file_takes_no_comment_and_its_glob_matches_only_it(tmp_path: object) -> None:
    document, _ = report(_tools(*TWO_TOOLS), "w.tools.json")
    assert not takes_comments(document, document.uri)
    from pathlib import Path

    root = Path(str(tmp_path))
    assert literal_glob(root / "a" / "we*ird[1].json", root) == "a/we[*]ird[[]1].json"
    assert literal_glob(Path("/elsewhere/x.json"), root) is None
    config = root / "pyproject.toml"
    config.write_text('[project]\nname = "x"\n\n[tool.toolsense]\nprofiles = ["mcp"]\n', encoding="utf-8")
    edit = settings_edit(config, "w.tools.json", "get time", "TS220")
    assert edit is not None and edit.exists
    assert edit.text == '\n[tool.toolsense.ignore."w.tools.json"]\n"get time" = ["TS220"]\n'


def test_a_document_read_from_its_outline_is_neither_searched_nor_parsed_for_comments() -> None:
    """A large file is read from a light outline (strict JSON: no comment can be in it); looking for ignore
    comments must not parse it with tree-sitter (seconds and hundreds of MB for a 20 MB file)."""
    from toolsense.engine.suppression import may_have_ignore_comments

    text = _tools(*TWO_TOOLS).replace('"Gets the time."', '"// toolsense-ignore TS220"')
    outlined = Document("file:///x/w.tools.json", bytearray(text.encode()), outline_limit=16)
    assert may_have_ignore_comments(outlined) is False
    assert outlined._tree is None  # still never parsed
    parsed = Document.from_text("file:///x/w.tools.json", text)
    assert may_have_ignore_comments(parsed) is True  # the mark is there (in a string: comment_codes tells)
