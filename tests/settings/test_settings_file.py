"""Settings: one typed model for pyproject.toml, toolsense.toml and LSP clients; bad values never crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolsense.config_files import ConfigFileError, find_config_file
from toolsense.settings import load_config_file, settings_from_mapping


def test_good_settings() -> None:
    settings, problems = settings_from_mapping(
        {
            "profiles": ["anthropic-strict"],
            "severity": {"TS101": "warning", "TS240": "off"},
            "files": {"tool_definitions": ["schemas/**/*.json"]},
            "diagnostics": {"debounce_ms": 250},
            "limits": {"max_file_mb": 8},
        },
        "toolsense.toml",
    )
    assert problems == []
    assert settings.profiles == ("anthropic-strict",)
    assert settings.severity == {"TS101": "warning", "TS240": "off"}
    assert settings.files.tool_definitions == ("schemas/**/*.json",)
    assert settings.diagnostics.debounce_ms == 250
    assert settings.limits.max_file_mb == 8.0


def test_bad_keys_fall_back_to_defaults_and_the_rest_applies() -> None:
    settings, problems = settings_from_mapping(
        {"profiles": "openai", "trusted": "yes", "severity": {"TS101": "hint"}, "colour": 1}, "client"
    )
    assert settings.severity == {"TS101": "hint"}  # the good key applies
    assert settings.profiles == ()  # the bad ones keep their defaults...
    assert settings.trusted is False  # ...except trust, which fails closed: only the boolean true is trust
    assert sorted(str(p) for p in problems) == [
        "client: setting 'colour': unknown key (valid keys: files, diagnostics, limits, description, mcp, tokens, "
        "profiles, targets, profile_limits, severity, models, enums, python_path, registry, samples, tool_call_tool, "
        "trusted, ignore)",
        "client: setting 'profiles': expected an array whose items are one of 'anthropic', 'anthropic-strict', "
        "'openai', 'openai-strict', 'gemini', 'mcp', 'mcp-quality', 'mcp-security' (found string)",
        "client: setting 'trusted': expected true or false (found string); treated as false (not trusted)",
    ]


@pytest.mark.parametrize("data", [None, {}, [], "x", 3])
def test_anything_at_the_root_is_handled(data: object) -> None:
    settings, problems = settings_from_mapping(data, "client")
    assert settings.profiles == ()
    assert bool(problems) == (data not in (None, {}))


def test_constraint_messages_say_the_type_and_the_limit() -> None:
    _, problems = settings_from_mapping({"diagnostics": {"debounce_ms": -1}}, "toolsense.toml")
    assert [str(p) for p in problems] == [
        "toolsense.toml: setting 'diagnostics.debounce_ms': expected an integer, input should be greater than or "
        "equal to 0 (found integer)"
    ]


def test_find_config_file(tmp_path: Path) -> None:
    """Upward within the workspace folder (here tmp_path: no repository); see test_config_trust.py."""
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert find_config_file(nested, tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert find_config_file(nested, tmp_path) is None
    (tmp_path / "a" / "pyproject.toml").write_text("[tool.toolsense]\nprofiles = []\n", encoding="utf-8")
    assert find_config_file(nested, tmp_path) == tmp_path / "a" / "pyproject.toml"
    (nested / "toolsense.toml").write_text("", encoding="utf-8")
    assert find_config_file(nested, tmp_path) == nested / "toolsense.toml"
    assert find_config_file(nested / "file.json", tmp_path) == nested / "toolsense.toml"


def test_load_config_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "toolsense.toml"
    bad.write_bytes(b"profiles = [\xff]")
    with pytest.raises(ConfigFileError, match="cannot read configuration"):
        load_config_file(bad)
    bad.write_text("profiles = [", encoding="utf-8")
    with pytest.raises(ConfigFileError, match="invalid TOML"):
        load_config_file(bad)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.toolsense]\nseverity = { TS101 = "off" }\n', encoding="utf-8")
    settings, problems = load_config_file(pyproject)
    assert (settings.severity, problems) == ({"TS101": "off"}, [])


def test_the_mcp_protocol_version_setting() -> None:
    settings, problems = settings_from_mapping({"mcp": {"protocol_version": "2025-06-18"}}, "toolsense.toml")
    assert problems == [] and settings.mcp.protocol_version == "2025-06-18"
    assert settings_from_mapping({}, "toolsense.toml")[0].mcp.protocol_version == "2026-07-28"  # the latest
    settings, problems = settings_from_mapping({"mcp": {"protocol_version": "2024-11-05"}}, "client")
    assert settings.mcp.protocol_version == "2026-07-28"
    assert [str(p) for p in problems] == [
        "client: setting 'mcp.protocol_version': expected one of '2025-06-18', '2025-11-25', '2026-07-28' (found "
        "string)"
    ]
