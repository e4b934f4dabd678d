"""examples/: the automations that pass and the ones that show each rule; settings `registry` and `samples`."""

from __future__ import annotations

import io
import json
from pathlib import Path

from automations import TOOLS
from checking import ROOT

from toolsense.cli import main
from toolsense.engine.context import ToolRegistry
from toolsense.engine.registry_files import load_registry_extras
from toolsense.engine.workspace import Workspace
from toolsense.rules import CATALOG
from toolsense.settings import Settings

EXAMPLES = ROOT / "examples"

SHOWN_IN_EXAMPLES = {
    "TS401", "TS402", "TS403", "TS404", "TS405", "TS406", "TS407", "TS410",
    "TS501", "TS502", "TS503", "TS504", "TS505", "TS506", "TS507", "TS508", "TS509",
    "TS601", "TS602", "TS603", "TS604", "TS605", "TS606", "TS607", "TS610", "TS611",
}  # fmt: skip
"""Every automation rule except TS408 (no example tool has such a constraint) and TS409 (needs an empty registry)."""


def _check(paths: list[Path]) -> dict[Path, list[str]]:
    workspace = Workspace(Settings(), CATALOG)
    workspace.add(paths)
    return {path: [d.code for d in diags] for path, diags in workspace.check_all().items()}


def test_example_automations_pass() -> None:
    results = _check([EXAMPLES / "tools", EXAMPLES / "automations"])
    automations = {p: c for p, c in results.items() if p.parent.name == "automations"}
    assert len(automations) >= 5
    assert automations == {p: [] for p in automations}


def test_wrong_examples_show_every_automation_rule() -> None:
    results = _check([EXAMPLES / "tools", *sorted((EXAMPLES / "wrong").glob("*.automation.json"))])
    shown = {code for path, codes in results.items() if path.name.endswith(".automation.json") for code in codes}
    assert shown >= SHOWN_IN_EXAMPLES, sorted(SHOWN_IN_EXAMPLES - shown)


def _project(tmp_path: Path, config: str) -> Path:
    (tmp_path / "automations").mkdir()
    (tmp_path / "registry.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    (tmp_path / "samples").mkdir()
    (tmp_path / "samples" / "sleep.json").write_text(json.dumps({"score": 80, "day": "2026-03-01"}), "utf-8")
    (tmp_path / "toolsense.toml").write_text(config, encoding="utf-8")
    automation = {
        "name": "t",
        "trigger_type": "polling",
        "trigger_config": {
            "source_tool": "oura_get_daily_sleep",
            "polling_interval_minutes": 30,
            "tool_params": {"start_date": "{{yesterday}}"},
        },
        "actions": [
            {
                "id": "n",
                "tool": "send_push_notification",
                "parameters": {"title": "{{trigger_data.score}}", "body": "{{trigger_data.dya}}"},
            }
        ],
    }
    (tmp_path / "automations" / "a.json").write_text(json.dumps(automation, indent=2), encoding="utf-8")
    return tmp_path


def test_registry_file_and_samples_from_settings(tmp_path: Path) -> None:
    project = _project(tmp_path, 'registry = "registry.json"\n[samples]\noura_get_daily_sleep = "samples/sleep.json"\n')
    registry = ToolRegistry()
    settings = Settings(registry="registry.json", samples={"oura_get_daily_sleep": "samples/sleep.json"})
    assert load_registry_extras(registry, settings, project) == []
    tool = registry.lookup("send_push_notification")
    assert tool is not None and tool.source == "registry"
    assert registry.samples == {"oura_get_daily_sleep": {"score": 80, "day": "2026-03-01"}}

    out, err = io.StringIO(), io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(
            ["check", str(project / "automations"), "--config", str(project / "toolsense.toml"), "--format", "json"]
        )
    assert status == 1, err.getvalue()
    [diag] = json.loads(out.getvalue())
    assert diag["code"] == "TS610"
    # The outputSchema (score, day, timestamp, contributors) and the sample (score, day) together.
    assert diag["message"] == (
        "Path 'trigger_data.dya' not found in oura_get_daily_sleep output. "
        "Available fields: score, day, timestamp, contributors"
    )
    assert diag["range"] == {"start": {"line": 16, "character": 17}, "end": {"line": 16, "character": 37}}


def test_unreadable_registry_or_sample_is_a_configuration_error(tmp_path: Path) -> None:
    project = _project(tmp_path, 'registry = "missing.json"\n[samples]\nx = "samples/nope.json"\n')
    out, err = io.StringIO(), io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["check", str(project / "automations"), "--config", str(project / "toolsense.toml")])
    assert status == 2
    lines = err.getvalue().splitlines()
    assert lines[0].startswith("toolsense: invalid configuration: setting 'registry': ")
    assert lines[0].endswith("missing.json: Cannot read file: No such file or directory")
    assert lines[1].startswith("toolsense: invalid configuration: setting 'samples.x': ")
