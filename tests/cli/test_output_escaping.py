"""File-controlled text (tool names, keys, paths) never reaches the output raw: newlines, ESC and other C0/C1
controls, bidi overrides, zero-width and tag characters are shown as `<U+XXXX>` in every format and in LSP
diagnostics, so no file can start a GitHub workflow command, drive the terminal or hide text (issue 26: X2)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from clirun import run

from toolsense.document.lines import Position, Range
from toolsense.engine.checker import Diagnostic, RelatedLocation
from toolsense.engine.findings import Severity
from toolsense.lsp.convert import to_lsp_diagnostic
from toolsense.textsafety import escape_controls

HOSTILE = (
    "\n::error::INJECTED",  # a workflow command on a line of its own
    "\r::warning::CR",
    "\x1b[2K\x1b[1AChecked 1 file: no problems",  # ESC: erase the line, move up, a fake summary
    "\x9b2J",  # C1 CSI
    "\u202egnp.exe",  # right-to-left override
    "zero\u200bwidth",
    "tag\U000e0049\U000e0047\U000e004e",  # invisible tag characters spelling IGN
    "lone\ud800surrogate",  # from a JSON escape: not even encodable as UTF-8
    "vs\U000e0100selector",
)
UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ud800-\udfff\U000e0000-\U000e0fff]"
)


def test_escape_controls_shows_each_character_as_its_code_point() -> None:
    assert escape_controls("a\nb\x1b[0m\u202ec\U000e0041") == "a<U+000A>b<U+001B>[0m<U+202E>c<U+E0041>"
    plain = "Wetter für Zürich — 東京 🌧️ 👩‍💻"  # the emoji's own ZWJ and variation selector are escaped too
    assert escape_controls(plain) == "Wetter für Zürich — 東京 🌧<U+FE0F> 👩<U+200D>💻"
    assert escape_controls("ordinary text, with: colons %25 and \\n") == "ordinary text, with: colons %25 and \\n"


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    properties = {f"k{i}{text}": {"type": "string"} for i, text in enumerate(HOSTILE)}
    tools = [
        {"name": f"n{i}{text}", "description": "d", "input_schema": {"type": "object", "properties": properties}}
        for i, text in enumerate(HOSTILE)
    ]
    folder = tmp_path / "tools" / "evil\n::error::INJECTED-PATH\x1b[2K"
    folder.mkdir(parents=True)
    (folder / "y.tools.json").write_text(json.dumps(tools))  # ensure_ascii: the surrogate stays a JSON escape
    (tmp_path / "tools" / "x.tools.json").write_text(json.dumps(tools))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _assert_clean(text: str) -> None:
    assert UNSAFE.search(text) is None, repr(UNSAFE.search(text))


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github", "junit"])
def test_every_format_escapes_hostile_names_keys_and_paths(
    hostile: Path, capsys: pytest.CaptureFixture[str], output_format: str
) -> None:
    code, out, err = run(capsys, "--format", output_format, ".")
    assert code == 1, err
    _assert_clean(out)
    _assert_clean(err)
    lines = out.splitlines()
    if output_format == "github":
        command = r"::(error|warning|notice) file=tools/[^,:]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=TS\d+::"
        assert lines and all(re.match(command, line) for line in lines)  # one command per diagnostic, nothing else
        assert "file=tools/evil<U+000A>%3A%3Aerror%3A%3AINJECTED-PATH<U+001B>[2K/y.tools.json" in out
    else:
        assert not any(line.startswith("::") for line in lines)
    if output_format == "text":
        # a diagnostic per line, or an indented place of a finding repeated over the file's tools (issue 30)
        place = r"tools/\S.*:\d+:\d+: \w+ TS\d+ |    tools/\S.*:\d+:\d+: the same in tool '"
        assert all(re.match(place, line) for line in lines[:-1])
        assert any(line.startswith("    tools/") for line in lines)
        assert "evil<U+000A>::error::INJECTED-PATH<U+001B>[2K/y.tools.json" in out
        assert "<U+E0049><U+E0047><U+E004E>" in out and "<U+D800>" in out and "<U+202E>" in out
    if output_format == "json":
        diagnostics = json.loads(out)
        paths = {d["path"] for d in diagnostics}
        assert paths == {"tools/x.tools.json", "tools/evil<U+000A>::error::INJECTED-PATH<U+001B>[2K/y.tools.json"}
        _assert_clean(json.dumps([d["message"] for d in diagnostics], ensure_ascii=False))
        assert any("<U+000A>::error::INJECTED" in d["message"] for d in diagnostics)
    if output_format == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        assert uris == {
            "tools/x.tools.json",
            "tools/evil%3CU+000A%3E::error::INJECTED-PATH%3CU+001B%3E%5B2K/y.tools.json",
        }
        _assert_clean(json.dumps([r["message"]["text"] for r in results], ensure_ascii=False))
    if output_format == "junit":
        suites = {suite.get("name") for suite in ET.fromstring(out).iter("testsuite")}  # well-formed XML
        assert suites == {"tools/x.tools.json", "tools/evil<U+000A>::error::INJECTED-PATH<U+001B>[2K/y.tools.json"}


def test_lsp_diagnostic_messages_are_escaped() -> None:
    where = Range(Position(0, 0), Position(0, 1))
    related = (RelatedLocation("file:///w/a.json", where, "also \x1b]0;title\x07 here"),)
    diagnostic = Diagnostic(
        where, Severity.ERROR, "TS201", 'Tool name "a\n::error::x\u202e" is not valid', None, related
    )
    converted = to_lsp_diagnostic(diagnostic, True)
    assert converted.message == 'Tool name "a<U+000A>::error::x<U+202E>" is not valid'
    assert converted.related_information is not None
    assert converted.related_information[0].message == "also <U+001B>]0;title<U+0007> here"


def test_messages_on_stderr_are_escaped_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """GitHub Actions reads workflow commands on stderr as well: a key in the repository's configuration
    cannot start one."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "toolsense.toml").write_text('[limits]\n"x\\n::error::INJECTED\\u001b[2K" = 1\n')
    monkeypatch.chdir(tmp_path)
    code, _out, err = run(capsys, ".")
    assert code == 2
    assert err.splitlines() == [
        "toolsense: invalid configuration: toolsense.toml: setting 'limits.x<U+000A>::error::INJECTED<U+001B>[2K': "
        "unknown key (valid keys: max_file_mb, regex_timeout_ms, max_schema_depth, max_subschemas, "
        "model_import_timeout_s)"
    ]


LEGACY = re.compile(r"##\[")


def test_legacy_workflow_commands_anywhere_in_a_line_are_neutralised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The runner reads `##[error]…`, `##[add-mask]…`, `##[stop-commands]…`, `##[group]` anywhere in a line (the
    # third campaign, F17): in the text report (stdout) and in the `--stats` table (stderr).
    assert escape_controls("a ##[error]x ###[group]") == "a #<U+0023>[error]x ##<U+0023>[group]"
    properties = {"##[stop-commands]x1y2z3": {"type": "string"}, "##[add-mask]tools": {"type": "string"}}
    tool = {"name": "##[error]no problems, merge it", "description": "d", "input_schema": {"properties": properties}}
    (tmp_path / "a.tools.json").write_text(json.dumps([tool]))
    monkeypatch.chdir(tmp_path)
    for args in ([], ["--stats"], ["--format", "json"], ["--format", "sarif"]):
        code, out, err = run(capsys, *args, ".")
        assert code == 1
        assert LEGACY.search(out) is None and LEGACY.search(err) is None, (args, out, err)
    _, out, _ = run(capsys, ".")
    assert 'Tool name "#<U+0023>[error]no problems, merge it" is not valid' in out


def test_diff_lines_are_escaped_like_every_other_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A JSONC comment holding ESC sequences, a lone CR before `::error`, a line starting `::warning` in a block
    # comment, a bidi override and a tag character: `check --diff` printed them raw (F18).
    text = (
        '[\n {\n  "name": "add",\n  "description": "Adds numbers.",\n'
        "  // note \x1b[2K\x1b]0;pwned\x07 see\r::error file=README.md,line=1::INJECTED\r\n"
        '  "input_schema": {"type": "object", "properties": {"a": {"type": "integer", "description": "a", '
        '"enum": [1, 1]}}}\n'
        "  /*\n\t ::warning::W ##[group]g \u202ex\U000e0041\n  */\n }\n]\n"
    )
    (tmp_path / "a.tools.jsonc").write_bytes(text.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "--diff", ".")
    assert code == 0
    assert "\r" not in out.replace("\r\n", "\n") and "\x1b" not in out
    assert not any(re.match(r"\s*::", line) for line in out.splitlines())
    assert LEGACY.search(out) is None
    assert "\n   // note <U+001B>[2K<U+001B>]0;pwned<U+0007> see<U+000D>\n <U+003A>:error file=README.md," in out
    assert "\n \t <U+003A>:warning::W #<U+0023>[group]g <U+202E>x<U+E0041>\n" in out
