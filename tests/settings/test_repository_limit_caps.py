"""A repository cannot lift its own bounds: every `[limits]` value its `toolsense.toml` sets is capped
(`REPOSITORY_LIMIT_CAPS`), trusted or not, in the CLI and in the language server; a higher value takes the
user's own settings (`--config FILE`, the editor's settings) (issue 26: X4)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from clirun import run_cli
from rawrpc import ServerProcess

from toolsense.cli.app import load_settings_for
from toolsense.settings import REPOSITORY_LIMIT_CAPS, LimitsSettings, Settings, cap_repository_limits

BOUND_S = 60.0
HUGE = {
    "max_file_mb": 100000.0,
    "regex_timeout_ms": 2000000000,
    "max_schema_depth": 1000000,
    "max_subschemas": 1000000000,
    "model_import_timeout_s": 100000.0,
}


def test_every_limit_has_a_cap() -> None:
    assert set(REPOSITORY_LIMIT_CAPS) == set(LimitsSettings.model_fields)
    defaults = LimitsSettings()
    assert all(getattr(defaults, name) <= cap for name, cap in REPOSITORY_LIMIT_CAPS.items())


def test_values_above_the_cap_are_lowered_and_said_values_below_are_kept() -> None:
    settings = Settings(limits=LimitsSettings(**HUGE))
    capped, problems = cap_repository_limits(settings, "toolsense.toml")
    assert capped.limits.model_dump() == {name: type(HUGE[name])(cap) for name, cap in REPOSITORY_LIMIT_CAPS.items()}
    assert [p.key for p in problems] == [f"limits.{name}" for name in REPOSITORY_LIMIT_CAPS]
    assert str(problems[1]) == (
        "toolsense.toml: setting 'limits.regex_timeout_ms': 2000000000 is above what a repository's configuration "
        "may set; using 1000 (a higher value takes your own settings: `toolsense check --config FILE`, or the "
        "editor's settings)"
    )
    lower = Settings(limits=LimitsSettings(regex_timeout_ms=50, max_file_mb=1.0))
    assert cap_repository_limits(lower, "toolsense.toml") == (lower, [])


def _repository(folder: Path) -> Path:
    (folder / ".git").mkdir(parents=True)
    lines = "\n".join(f"{name} = {value!r}" for name, value in HUGE.items())
    config = folder / "toolsense.toml"
    config.write_text(f"[limits]\n{lines}\n")
    (folder / "tools").mkdir()
    tool = {
        "name": "r",
        "description": "A lookaround pattern: the backtracking engine, with a time budget.",
        "input_schema": {
            "type": "object",
            "properties": {"s": {"type": "string", "description": "s", "pattern": "^(?=a)(a|aa)+(?<!b)$"}},
            "additionalProperties": False,
        },
        "input_examples": [{"s": "a" * 60 + "b"}],
    }
    (folder / "tools" / "r.tools.json").write_text(json.dumps([tool]))
    return config


def test_cli_caps_the_repositorys_file_but_not_a_file_the_user_names(tmp_path: Path) -> None:
    config = _repository(tmp_path / "repo")
    err = io.StringIO()
    loaded = load_settings_for([tmp_path / "repo"], None, err)
    assert loaded is not None
    assert loaded[0].limits.regex_timeout_ms == 1000 and loaded[0].limits.max_file_mb == 50.0
    assert f"toolsense: {config}: setting 'limits.regex_timeout_ms': 2000000000 is above" in err.getvalue()
    own = load_settings_for([tmp_path / "repo"], config, io.StringIO())
    assert own is not None and own[0].limits.regex_timeout_ms == 2000000000


@pytest.mark.timeout(120)
def test_cli_check_ends_with_the_pattern_cut_short(tmp_path: Path) -> None:
    _repository(tmp_path / "repo")
    result = run_cli(["check", ".", "--format", "json"], cwd=tmp_path / "repo", timeout=100)
    assert result.returncode in (0, 1), result.stderr
    assert "TS236" in {d["code"] for d in json.loads(result.stdout)}
    assert "limits.regex_timeout_ms': 2000000000 is above what a repository's configuration may set" in result.stderr


@pytest.mark.timeout(120)
def test_an_untrusted_server_caps_the_repositorys_limits(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    config = _repository(root)
    server = ServerProcess(root, log_level="INFO")
    try:
        server.initialize(root, {"trusted": False, "diagnostics": {"debounce_ms": 0}})
        path = root / "tools" / "r.tools.json"
        uri = server.open(path, path.read_text(encoding="utf-8"))
        server.wait_diagnostics(uri, BOUND_S, lambda p: any(d.get("code") == "TS236" for d in p["diagnostics"]))
        messages = [m["params"]["message"] for m in server.notifications("window/showMessage")]
        expected = f"toolsense: {config}: setting 'limits.regex_timeout_ms': 2000000000 is above what a repository"
        assert any(m.startswith(expected) for m in messages), messages
    finally:
        server.close()
