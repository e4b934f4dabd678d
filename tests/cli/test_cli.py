"""`toolsense check`: every output format, every exit code, settings files and their errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from checking import ROOT
from clirun import run, run_cli

from toolsense.cli import main

CLEAN = (
    '{"name": "get_weather", "description": "Weather for a city.", "input_schema": {"type": "object", '
    '"properties": {"city": {"type": "string", "description": "City name."}}, "required": ["city"], '
    '"additionalProperties": false}}\n'
)
WRONG = (
    '{\n  "name": "get_weather",\n  "descripton": "Weather 😀.",\n  "input_schema": {"type": "object", '
    '"properties": {"city": {"type": "string", "description": "City name."}}, "required": ["city"], '
    '"additionalProperties": false},\n  "strict": "true"\n}\n'
)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "clean.json").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "wrong.tool.json").write_text(WRONG, encoding="utf-8")
    (tmp_path / "package.json").write_text('{"name": "not ours"}', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- exit codes ---------------------------------------------------------------------------------------


def test_exit_0_when_clean(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tools")
    assert (code, err) == (0, "")
    assert out == "Checked 1 file: no problems\n"


def test_exit_1_on_an_error_and_text_format(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ".")
    assert code == 1
    lines = out.splitlines()
    prefix = "wrong.tool.json:3:3: error TS101 Unknown property 'descripton' in Anthropic tool 'get_weather'."
    assert any(line.startswith(prefix) for line in lines)
    coerced = "wrong.tool.json:5:13: warning TS105 Anthropic tool 'get_weather', 'strict': expected boolean"
    assert any(line.startswith(coerced) for line in lines)
    assert lines[-1].startswith("Checked 3 files: ")
    assert "package.json" not in out  # a JSON file that is none of ours


def test_exit_0_with_only_warnings(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workspace / "toolsense.toml").write_text('[severity]\nTS101 = "warning"\n', encoding="utf-8")
    code, out, _ = run(capsys, "wrong.tool.json")
    assert code == 0
    assert "warning TS101" in out


def test_exit_2_on_usage_errors(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "missing.json")
    assert code == 2 and "no such file or directory: missing.json" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--format", "xml"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err


def test_exit_3_when_toolsense_itself_fails(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolsense.engine.workspace import Workspace

    def broken(self: Workspace) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(Workspace, "check_all", broken)
    code, out, err = run(capsys, ".")
    assert code == 3
    assert out == ""
    assert "internal error (this is a bug in toolsense, not in your files)" in err
    assert "RuntimeError: boom" in err


# --- formats ------------------------------------------------------------------------------------------


def test_json_format_is_exactly_one_array_on_stdout(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ".", "--format", "json")
    assert code == 1
    diagnostics = json.loads(out)  # the whole of stdout is one JSON document
    assert isinstance(diagnostics, list)
    unknown = next(d for d in diagnostics if d["code"] == "TS101")
    assert unknown == {
        "path": "wrong.tool.json",
        "range": {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 14}},
        "severity": "error",
        "code": "TS101",
        "message": unknown["message"],
        "source": "toolsense",
    }
    assert unknown["message"].startswith("Unknown property 'descripton'")
    assert {d["severity"] for d in diagnostics} <= {"error", "warning", "information", "hint"}
    assert set(diagnostics[0]) == {"path", "range", "severity", "code", "message", "source"}


def test_json_format_when_clean_is_an_empty_array(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tools", "--format", "json")
    assert code == 0
    assert json.loads(out) == []


def test_sarif_format(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ".", "--format", "sarif")
    assert code == 1
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    (sarif_run,) = log["runs"]
    driver = sarif_run["tool"]["driver"]
    assert driver["name"] == "toolsense"
    assert sarif_run["columnKind"] == "utf16CodeUnits"
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert "TS101" in rule_ids and rule_ids == sorted(set(rule_ids))
    result = next(r for r in sarif_run["results"] if r["ruleId"] == "TS101")
    assert driver["rules"][result["ruleIndex"]]["id"] == "TS101"
    assert result["level"] == "error"
    assert result["message"]["text"].startswith("Unknown property 'descripton'")
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "wrong.tool.json"
    assert location["region"] == {"startLine": 3, "startColumn": 3, "endLine": 3, "endColumn": 15}
    warning = next(r for r in sarif_run["results"] if r["ruleId"] == "TS105")
    assert warning["level"] == "warning"


def test_github_annotations(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "wrong.tool.json", "--format", "github")
    assert code == 1
    lines = out.splitlines()
    error = next(line for line in lines if "title=TS101" in line)
    assert error.startswith("::error file=wrong.tool.json,line=3,col=3,endLine=3,endColumn=15,title=TS101::")
    assert error.split("::", 2)[2].startswith("Unknown property 'descripton'")
    assert any(line.startswith("::warning file=wrong.tool.json,line=5,") for line in lines)
    assert not any(line.startswith("Checked") for line in lines)  # annotations only


def test_github_escapes_newlines_and_percent() -> None:
    from toolsense.cli.reporting import _github
    from toolsense.document.lines import Position, Range
    from toolsense.engine.checker import Diagnostic
    from toolsense.engine.findings import Severity

    diagnostic = Diagnostic(Range(Position(0, 0), Position(0, 1)), Severity.ERROR, "TS001", "50% done\nnext")
    assert _github("a,b:c.json", diagnostic) == (
        "::error file=a%2Cb%3Ac.json,line=1,col=1,endLine=1,endColumn=2,title=TS001::50%25 done%0Anext"
    )


def test_python_dash_m_entry_point(workspace: Path) -> None:
    done = run_cli(["check", "wrong.tool.json", "--format", "json"])
    assert done.returncode == 1
    assert [d["code"] for d in json.loads(done.stdout)].count("TS101") == 1


# --- settings -------------------------------------------------------------------------------------------


def test_settings_from_pyproject(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workspace / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.toolsense]\nseverity = { TS101 = "off", TS105 = "off" }\n', encoding="utf-8"
    )
    code, out, _ = run(capsys, "wrong.tool.json", "--format", "json")
    assert code == 0
    assert not [d for d in json.loads(out) if d["code"] in ("TS101", "TS105")]


def test_toolsense_toml_comes_before_pyproject(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workspace / "pyproject.toml").write_text('[tool.toolsense]\nseverity = { TS101 = "off" }\n', encoding="utf-8")
    (workspace / "toolsense.toml").write_text('[severity]\nTS101 = "hint"\n', encoding="utf-8")
    _, out, _ = run(capsys, "wrong.tool.json", "--format", "json")
    assert [d["severity"] for d in json.loads(out) if d["code"] == "TS101"] == ["hint"]


def test_a_pyproject_without_our_table_is_skipped(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workspace / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    code, _, err = run(capsys, "wrong.tool.json")
    assert (code, err) == (1, "")


def test_settings_file_globs(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workspace / "schemas").mkdir()
    (workspace / "schemas" / "x.json").write_text('{"name": "a", "colour": 1}', encoding="utf-8")
    (workspace / "toolsense.toml").write_text('[files]\ntool_definitions = ["schemas/*.json"]\n', encoding="utf-8")
    _, out, _ = run(capsys, "schemas", "--format", "json")
    assert "TS102" in {d["code"] for d in json.loads(out)}  # read as a tool: name without input_schema


def test_explicit_config_option(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = workspace / "elsewhere.toml"
    config.write_text('[severity]\nTS101 = "off"\n', encoding="utf-8")
    _, out, _ = run(capsys, "wrong.tool.json", "--config", str(config), "--format", "json")
    assert "TS101" not in {d["code"] for d in json.loads(out)}
    code, _, err = run(capsys, "wrong.tool.json", "--config", "nope.toml")
    assert code == 2 and "configuration file not found: nope.toml" in err


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('severty = { TS101 = "off" }\n', "setting 'severty': unknown key; did you mean 'severity'?"),
        ('profiles = "anthropic"\n', "setting 'profiles': expected an array whose items are one of 'anthropic'"),
        ('[diagnostics]\ndebounce_ms = "fast"\n', "setting 'diagnostics.debounce_ms': expected an integer"),
        ('trusted = "yes"\n', "setting 'trusted': expected true or false (found string)"),
        ('[severity]\nTS101 = "warn"\n', "setting 'severity.TS101': expected one of 'error', 'warning'"),
        ("[files]\ntool_definitions = 3\n", "setting 'files.tool_definitions': expected an array of strings"),
    ],
)
def test_config_errors_name_file_key_and_expected_type(
    workspace: Path, capsys: pytest.CaptureFixture[str], content: str, expected: str
) -> None:
    (workspace / "toolsense.toml").write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "wrong.tool.json")
    assert code == 2
    assert out == ""
    assert f"toolsense: invalid configuration: toolsense.toml: {expected}" in err  # the path as found from cwd
    assert "Traceback" not in err


def test_config_errors_in_pyproject_name_the_pyproject(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workspace / "pyproject.toml").write_text("[tool.toolsense]\nprofiles = 3\n", encoding="utf-8")
    code, _, err = run(capsys, ".")
    assert code == 2
    assert "toolsense: invalid configuration: pyproject.toml: setting 'profiles': expected an array" in err


def test_unparsable_config(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workspace / "toolsense.toml").write_text("severity = {\n", encoding="utf-8")
    code, _, err = run(capsys, ".")
    assert code == 2
    assert (
        "toolsense: toolsense.toml: invalid TOML: Invalid initial character for a key part (at line 1, column 13)"
        in err
    )


def test_rules_markdown_matches_docs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rules.md is generated from the catalog: regenerate it with `toolsense rules --markdown > docs/rules.md`."""
    assert main(["rules", "--markdown"]) == 0
    generated = capsys.readouterr().out
    docs = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert docs == generated, "docs/rules.md is stale: run `toolsense rules --markdown > docs/rules.md`"
