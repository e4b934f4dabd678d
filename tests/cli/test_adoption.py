"""Adopting toolsense in a repository that has findings already, end to end through `python -m toolsense check`:
baselines (`--baseline`, `--update-baseline`), suppressions (`// toolsense-ignore` comments, the settings'
`ignore` table), SARIF fingerprints that survive moved lines, and JUnit XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from clirun import run_cli

TS220 = "The input schema's root object does not say `additionalProperties: false`: unknown keys are accepted"


def _tool(name: str, described: bool = False, closed: bool = False) -> dict[str, Any]:
    city: dict[str, Any] = {"type": "string", **({"description": "The city."} if described else {})}
    schema: dict[str, Any] = {"type": "object", "properties": {"city": city}}
    if closed:
        schema["additionalProperties"] = False
    return {"name": name, "description": f"Does {name} for a city.", "input_schema": schema}


def _write(path: Path, tools: list[dict[str, Any]], blank_lines: int = 0) -> None:
    path.write_text("\n" * blank_lines + json.dumps(tools, indent=2) + "\n", encoding="utf-8")


def _lines(stdout: str) -> list[str]:
    return stdout.splitlines()


def test_a_baseline_accepts_what_is_there_and_reports_what_is_new_and_what_was_fixed(tmp_path: Path) -> None:
    tools = tmp_path / "weather.tools.json"
    _write(tools, [_tool("get weather"), _tool("get_time")])
    first = run_cli(["check", "weather.tools.json"], cwd=tmp_path)
    assert first.returncode == 1  # TS201: a space in a name

    written = run_cli(["check", "weather.tools.json", "--baseline", "baseline.json", "--update-baseline"], cwd=tmp_path)
    assert written.returncode == 0
    assert written.stderr == "toolsense: wrote 5 findings to the baseline baseline.json\n"
    assert _lines(written.stdout) == ["Checked 1 file: no problems (suppressed 5 by the baseline)"]
    baseline = json.loads((tmp_path / "baseline.json").read_text(encoding="utf-8"))
    assert baseline["version"] == 1
    assert {(e["file"], e["tool"], e["pointer"], e["code"]) for e in baseline["findings"]} == {
        ("weather.tools.json", "get weather", "/name", "TS201"),
        ("weather.tools.json", "get weather", "/input_schema", "TS220"),
        ("weather.tools.json", "get weather", "/input_schema/properties/city", "TS241"),
        ("weather.tools.json", "get_time", "/input_schema", "TS220"),
        ("weather.tools.json", "get_time", "/input_schema/properties/city", "TS241"),
    }

    # Lines move (blank lines, a new tool first, the old ones swapped), one old finding is fixed.
    _write(tools, [_tool("get_news"), _tool("get_time"), _tool("get weather", described=True)], blank_lines=3)
    later = run_cli(["check", "weather.tools.json", "--baseline", "baseline.json"], cwd=tmp_path)
    assert later.returncode == 0
    assert _lines(later.stdout) == [
        f"weather.tools.json:8:5: information TS220 {TS220}",  # get_news, new
        "weather.tools.json:11:9: information TS241 Parameter 'city' has no description",
        "weather.tools.json:1:1: information TS019 Fixed: TS241 in tool 'get weather' at "
        "/input_schema/properties/city is no longer reported; --update-baseline drops its entry",
        "Checked 1 file: 3 informations (suppressed 4 by the baseline)",
    ]
    # Two files (the baseline is JSON too): with --jobs 2 worker processes check them, and give each finding the
    # subject one process gives it.
    alone = run_cli(["check", ".", "--baseline", "baseline.json", "--jobs", "1"], cwd=tmp_path)
    pooled = run_cli(["check", ".", "--baseline", "baseline.json", "--jobs", "2"], cwd=tmp_path)
    assert pooled.stdout == alone.stdout and "TS019" in alone.stdout and "Checked 2 files" in alone.stdout
    (tmp_path / "toolsense.toml").write_text('[severity]\nTS019 = "off"\n', encoding="utf-8")
    quiet = run_cli(["check", "weather.tools.json", "--baseline", "baseline.json"], cwd=tmp_path)
    assert "TS019" not in quiet.stdout and "Checked 1 file: 2 informations" in quiet.stdout


def test_a_baseline_that_cannot_be_read_is_a_usage_error(tmp_path: Path) -> None:
    _write(tmp_path / "weather.tools.json", [_tool("get_time")])
    missing = run_cli(["check", ".", "--baseline", "nowhere.json"], cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr == (
        "toolsense: cannot read baseline nowhere.json: No such file or directory (--update-baseline writes it)\n"
    )
    (tmp_path / "other.json").write_text('{"findings": []}', encoding="utf-8")
    foreign = run_cli(["check", ".", "--baseline", "other.json"], cwd=tmp_path)
    assert foreign.returncode == 2
    assert "is not a toolsense baseline" in foreign.stderr
    alone = run_cli(["check", ".", "--update-baseline"], cwd=tmp_path)
    assert alone.returncode == 2
    assert alone.stderr == "toolsense: --update-baseline needs --baseline FILE (the file to write)\n"
    (tmp_path / "elsewhere.json").write_text("{}", encoding="utf-8")
    (tmp_path / "linked.json").symlink_to(tmp_path / "elsewhere.json")
    linked = run_cli(["check", "weather.tools.json", "--baseline", "linked.json", "--update-baseline"], cwd=tmp_path)
    assert linked.returncode == 2
    assert linked.stderr == (
        "toolsense: cannot write baseline linked.json: it is a symbolic link (toolsense never writes through a link)\n"
    )
    assert (tmp_path / "elsewhere.json").read_text(encoding="utf-8") == "{}"


def test_ignore_comments_suppress_a_code_for_the_member_below_or_on_their_line(tmp_path: Path) -> None:
    (tmp_path / "weather.tools.json").write_text(
        """[
  // toolsense-ignore TS220, TS241
  {
    "name": "get_weather",
    "description": "Gets the weather for a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}
  },
  {
    "name": "get_time",
    "description": "Gets the time for a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}} // toolsense-ignore TS220
  }
]
""",
        encoding="utf-8",
    )
    done = run_cli(["check", "weather.tools.json"], cwd=tmp_path)
    assert _lines(done.stdout) == [
        "weather.tools.json:11:55: information TS241 Parameter 'city' has no description",
        "Checked 1 file: 1 information (suppressed 3 by comments)",
    ]


def test_the_settings_ignore_table_suppresses_by_file_glob_tool_and_code(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    _write(tmp_path / "tools" / "weather.json", [_tool("get_weather"), _tool("get_time")])
    _write(tmp_path / "tools" / "news.json", [_tool("get_news")])
    (tmp_path / "toolsense.toml").write_text(
        '[ignore."tools/weather.json"]\nget_weather = ["TS220", "TS241"]\n"*" = ["TS241"]\n', encoding="utf-8"
    )
    done = run_cli(["check", "."], cwd=tmp_path)
    assert _lines(done.stdout) == [
        f"tools/news.json:5:5: information TS220 {TS220}",
        "tools/news.json:8:9: information TS241 Parameter 'city' has no description",
        f"tools/weather.json:17:5: information TS220 {TS220}",  # get_time's: the table names get_weather
        "Checked 2 files: 3 informations (suppressed 3 by the settings' ignore table)",
    ]
    (tmp_path / "toolsense.toml").write_text('[ignore."*.json"]\nget_news = ["TS22"]\n', encoding="utf-8")
    invalid = run_cli(["check", "."], cwd=tmp_path)
    assert invalid.returncode == 2
    assert invalid.stderr == (
        "toolsense: invalid configuration: toolsense.toml: setting 'ignore.*.json.get_news.0': String should match "
        "pattern '^TS[0-9]{3}$' (found string)\n"
    )


def _fingerprints(tmp_path: Path) -> dict[str, set[str]]:
    done = run_cli(["check", ".", "--format", "sarif"], cwd=tmp_path)
    run = json.loads(done.stdout)["runs"][0]
    found: dict[str, set[str]] = {}
    for result in run["results"]:
        found.setdefault(result["ruleId"], set()).add(result["partialFingerprints"]["toolsense/v1"])
    return found


def test_sarif_fingerprints_survive_moved_lines_and_rules_link_their_help(tmp_path: Path) -> None:
    tools = tmp_path / "weather.tools.json"
    _write(tools, [_tool("get_weather"), _tool("get_time")])
    before = _fingerprints(tmp_path)
    assert {code: len(prints) for code, prints in before.items()} == {"TS220": 2, "TS241": 2}
    _write(tools, [_tool("get_news", True, True), _tool("get_time"), _tool("get_weather")], blank_lines=5)
    after = _fingerprints(tmp_path)
    assert after == before  # the new tool has no finding; the old ones moved and kept their fingerprints
    _write(tools, [_tool("get_time"), _tool("get_weather", described=True)])
    fixed = _fingerprints(tmp_path)
    assert fixed["TS220"] == before["TS220"] and len(fixed["TS241"]) == 1 and fixed["TS241"] < before["TS241"]

    done = run_cli(["check", ".", "--format", "sarif"], cwd=tmp_path)
    rules = {rule["id"]: rule for rule in json.loads(done.stdout)["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["TS220"]["helpUri"] == "https://github.com/toolsense/toolsense/blob/main/docs/rules/TS220.md"
    assert rules["TS220"]["help"]["text"].startswith("An object schema without `additionalProperties: false`")


def test_junit_xml_has_a_suite_per_file_and_a_failing_case_per_error_or_warning(tmp_path: Path) -> None:
    _write(tmp_path / "weather.tools.json", [_tool("get weather")])
    _write(tmp_path / "time.tools.json", [_tool("get_time", described=True, closed=True)])
    done = run_cli(["check", ".", "--format", "junit"], cwd=tmp_path)
    assert done.returncode == 1
    root = ET.fromstring(done.stdout)
    assert root.tag == "testsuites"
    # TS220 is information by default (issue 30): a case, not a failure
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "0")
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert set(suites) == {"time.tools.json", "weather.tools.json"}
    clean = suites["time.tools.json"]
    assert [(case.get("name"), list(case)) for case in clean.iter("testcase")] == [("toolsense check", [])]
    cases = {case.get("name"): case for case in suites["weather.tools.json"].iter("testcase")}
    assert set(cases) == {"TS201 3:13", "TS220 5:5", "TS241 8:9"}
    failure = cases["TS201 3:13"].find("failure")
    assert failure is not None and failure.get("type") == "error"
    assert failure.get("message", "").startswith('Tool name "get weather" is not valid for Anthropic')
    assert cases["TS241 8:9"].find("failure") is None
    assert cases["TS241 8:9"].findtext("system-out") == (
        "weather.tools.json:8:9: information TS241 Parameter 'city' has no description"
    )


def test_a_check_of_some_files_keeps_the_baseline_of_the_others(tmp_path: Path) -> None:
    _write(tmp_path / "a.tools.json", [_tool("get_a")])
    _write(tmp_path / "b.tools.json", [_tool("get_b")])
    run_cli(["check", "a.tools.json", "b.tools.json", "--baseline", "base.json", "--update-baseline"], cwd=tmp_path)
    _write(tmp_path / "a.tools.json", [_tool("get_a", described=True)])
    some = run_cli(["check", "a.tools.json", "--baseline", "base.json", "--update-baseline"], cwd=tmp_path)
    assert some.stderr == "toolsense: wrote 3 findings to the baseline base.json\n"
    entries = json.loads((tmp_path / "base.json").read_text(encoding="utf-8"))["findings"]
    assert sorted((e["file"], e["code"]) for e in entries) == [
        ("a.tools.json", "TS220"),
        ("b.tools.json", "TS220"),
        ("b.tools.json", "TS241"),
    ]
    only_a = run_cli(["check", "a.tools.json", "--baseline", "base.json"], cwd=tmp_path)
    # b's entries are not "fixed": not checked
    assert _lines(only_a.stdout) == ["Checked 1 file: no problems (suppressed 1 by the baseline)"]
    (tmp_path / "b.tools.json").unlink()
    gone = run_cli(["check", "a.tools.json", "--baseline", "base.json"], cwd=tmp_path)
    assert [line.split(" Fixed: ")[-1] for line in _lines(gone.stdout) if "TS019" in line] == [
        "TS220 in tool 'get_b' at /input_schema is no longer reported; --update-baseline drops its entry",
        "TS241 in tool 'get_b' at /input_schema/properties/city is no longer reported; "
        "--update-baseline drops its entry",
    ]


def test_kept_entries_whose_message_is_not_a_string_are_written_not_a_crash(tmp_path: Path) -> None:
    # Two entries for one finding of a file not checked, one with "message": null: sorting them compared a
    # string with None (a traceback, exit 3, nothing written).
    _write(tmp_path / "a.tools.json", [_tool("get_a")])
    _write(tmp_path / "b.tools.json", [_tool("get_b")])
    entry = {"file": "b.tools.json", "tool": "get_b", "pointer": "/input_schema", "code": "TS220"}
    findings = [{**entry, "message": None}, {**entry, "message": "x"}, {**entry, "message": 3}]
    (tmp_path / "base.json").write_text(json.dumps({"version": 1, "findings": findings}), encoding="utf-8")
    updated = run_cli(["check", "a.tools.json", "--baseline", "base.json", "--update-baseline"], cwd=tmp_path)
    assert (updated.returncode, updated.stderr) == (0, "toolsense: wrote 5 findings to the baseline base.json\n")
    entries = json.loads((tmp_path / "base.json").read_text(encoding="utf-8"))["findings"]
    assert [(e["file"], e["code"], e["message"]) for e in entries if e["file"] == "b.tools.json"] == [
        ("b.tools.json", "TS220", ""),
        ("b.tools.json", "TS220", ""),
        ("b.tools.json", "TS220", "x"),
    ]
