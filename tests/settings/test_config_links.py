"""A configuration file that is a symbolic link, or that resolves outside the folder it was found in, is never read
(issue 32, F01/F20/F21): not by the search, not through `--config`, not by the language server, `toolsense mcp` or
the suppress quick fix (their tests: tests/lsp/test_suppress_action.py, tests/mcp_server/test_mcp_server.py). It
is refused with a message saying so, the project root stays where it was, and messages about a configuration
name the type of a wrong value, never the value."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from clirun import run

from toolsense.config_files import LINKED_CONFIG, ConfigFileError, discover_config, read_config_section
from toolsense.settings import load_config_file, settings_from_mapping

SECRET = "cio_TOPSECRET_4242"
TOOL = {"name": "a", "description": "Gets a.", "input_schema": {"type": "strin"}}


def _repository(tmp_path: Path) -> tuple[Path, Path]:
    """A repository beside a file outside it that holds a secret (cargo's credentials.toml, exactly)."""
    credentials = tmp_path / "home" / ".cargo" / "credentials.toml"
    credentials.parent.mkdir(parents=True)
    credentials.write_text(f'[registry]\ntoken = "{SECRET}"\n', encoding="utf-8")
    repo = tmp_path / "home" / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "tools").mkdir()
    (repo / "tools" / "a.json").write_text(json.dumps([TOOL]), encoding="utf-8")
    return repo, credentials


def test_the_search_refuses_a_linked_toolsense_toml_and_reads_nothing_through_it(tmp_path: Path) -> None:
    repo, credentials = _repository(tmp_path)
    (repo / "toolsense.toml").symlink_to(credentials)
    found = discover_config(repo / "tools")
    assert found.path is None
    assert found.skipped == (f"{repo / 'toolsense.toml'} is not read: {LINKED_CONFIG}",)
    assert LINKED_CONFIG.startswith("it is a symbolic link (toolsense reads no configuration through a link")


def test_the_search_refuses_a_linked_pyproject_and_goes_on_above_it(tmp_path: Path) -> None:
    """Unread, a linked pyproject.toml may hold no toolsense table at all: it is named, and the search goes on."""
    repo, _ = _repository(tmp_path)
    outside = tmp_path / "elsewhere.toml"
    outside.write_text("[tool.toolsense]\n", encoding="utf-8")
    package = repo / "package"
    package.mkdir()
    (package / "pyproject.toml").symlink_to(outside)
    found = discover_config(package)
    assert found.path is None
    assert found.skipped == (f"{package / 'pyproject.toml'} is not read: {LINKED_CONFIG}",)
    (repo / "toolsense.toml").write_text("", encoding="utf-8")
    found = discover_config(package)
    assert found.path == repo / "toolsense.toml"
    assert found.skipped == (f"{package / 'pyproject.toml'} is not read: {LINKED_CONFIG}",)


def test_a_dangling_link_and_a_link_to_a_sibling_are_refused_too(tmp_path: Path) -> None:
    repo, _ = _repository(tmp_path)
    (repo / "toolsense.dev.toml").write_text("", encoding="utf-8")
    (repo / "toolsense.toml").symlink_to("toolsense.dev.toml")
    assert discover_config(repo).skipped == (f"{repo / 'toolsense.toml'} is not read: {LINKED_CONFIG}",)
    (repo / "toolsense.toml").unlink()
    (repo / "toolsense.toml").symlink_to(tmp_path / "nothing-here.toml")
    assert discover_config(repo).skipped == (f"{repo / 'toolsense.toml'} is not read: {LINKED_CONFIG}",)


def test_reading_refuses_a_link_even_when_named(tmp_path: Path) -> None:
    repo, credentials = _repository(tmp_path)
    link = repo / "toolsense.toml"
    link.symlink_to(credentials)
    for read in (read_config_section, load_config_file):
        with pytest.raises(ConfigFileError) as raised:
            read(link)
        assert str(raised.value) == f"{link} is not read: {LINKED_CONFIG}"


def test_cli_check_refuses_the_linked_configuration_and_prints_no_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, credentials = _repository(tmp_path)
    (repo / "toolsense.toml").symlink_to(os.path.relpath(credentials, repo))
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, ".", "--format", "json")
    assert code == 1  # the defaults apply: TS2xx on the tool's bad type
    assert err == f"toolsense: {repo / 'toolsense.toml'} is not read: {LINKED_CONFIG}\n"
    assert SECRET not in out + err
    assert {finding["path"] for finding in json.loads(out)} == {"tools/a.json"}  # the root stayed in the repository


def test_cli_config_option_refuses_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, credentials = _repository(tmp_path)
    (repo / "mine.toml").symlink_to(credentials)
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, ".", "--config", "mine.toml")
    assert (code, out) == (2, "")
    assert err == f"toolsense: mine.toml is not read: {LINKED_CONFIG}\n"


def test_a_wrong_typed_setting_names_the_types_never_the_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, _ = _repository(tmp_path)
    (repo / "toolsense.toml").write_text(f'[registry]\ntoken = "{SECRET}"\n', encoding="utf-8")
    monkeypatch.chdir(repo)
    code, _, err = run(capsys, ".")
    assert code == 2
    assert err == (
        "toolsense: invalid configuration: toolsense.toml: setting 'registry': expected a string (found table)\n"
    )
    mapping = {"trusted": SECRET, "profiles": [SECRET], "limits": {"max_file_mb": SECRET}}
    _, problems = settings_from_mapping(mapping, "x")
    assert sorted(str(problem) for problem in problems) == [
        "x: setting 'limits.max_file_mb': expected a number (found string)",
        "x: setting 'profiles.0': expected one of 'anthropic', 'anthropic-strict', 'openai', 'openai-strict', "
        "'gemini', 'mcp', 'mcp-quality', 'mcp-security' (found string)",
        "x: setting 'trusted': expected true or false (found string); treated as false (not trusted)",
    ]


def test_a_link_swapped_in_after_the_check_is_not_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file is opened without following a link, so one that appears between the check and the read (the
    check is skipped here to stand for that moment) is refused by the operating system."""
    import toolsense.config_files as settings_module

    repo, credentials = _repository(tmp_path)
    link = repo / "toolsense.toml"
    link.symlink_to(credentials)
    monkeypatch.setattr(settings_module, "config_link_reason", lambda path: None)
    with pytest.raises(ConfigFileError) as raised:
        read_config_section(link)
    assert str(raised.value) == f"{link}: cannot read configuration: Too many levels of symbolic links"
