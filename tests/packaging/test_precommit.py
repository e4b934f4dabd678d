"""The pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit itself on a temporary git repository that
uses a copy of this repository as its hook repository."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packkit import Dist, copy_source

pytestmark = pytest.mark.timeout(900)

BROKEN_TOOL = """{
  "name": "create_ticket",
  "description": "Create a support ticket.",
  "input_schema": {
    "type": "object",
    "properties": {"title": {"type": "string"}, "urgent": {"type": "boolean"}},
    "required": ["title"], "additionalProperties": false
  },
  "input_examples": [{"title": "Printer on fire", "urgent": "true"}]
}
"""


def _git(cwd: Path, *args: str) -> str:
    run = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout.strip()


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A git repository holding this checkout's hooks and package, as pre-commit would clone it."""
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    repo = copy_source(tmp_path_factory.mktemp("hook-repo"))
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "toolsense")
    return repo, _git(repo, "rev-parse", "HEAD")


def _project(tmp_path: Path, hook_repo: tuple[Path, str], hook: str) -> Path:
    project = tmp_path / "project"
    (project / "tools").mkdir(parents=True)
    (project / "tools" / "ticket.json").write_text(BROKEN_TOOL, encoding="utf-8")
    repo, rev = hook_repo
    config = {"repos": [{"repo": str(repo), "rev": rev, "hooks": [{"id": hook}]}]}
    # JSON is YAML: no YAML writer needed.
    (project / ".pre-commit-config.yaml").write_text(json.dumps(config, indent=2), encoding="utf-8")
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    return project


def _pre_commit(project: Path, dist: Dist, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
        env=dist.offline_env(PRE_COMMIT_HOME=str(home)),
    )


def test_toolsense_check_hook_fails_on_a_wrong_file_and_passes_once_fixed(
    hook_repo: tuple[Path, str], dist: Dist, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    project = _project(tmp_path, hook_repo, "toolsense-check")
    home = tmp_path_factory.getbasetemp() / "pre-commit-home"
    run = _pre_commit(project, dist, home)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "toolsense check" in run.stdout and "Failed" in run.stdout
    assert "tools/ticket.json:9:" in run.stdout, run.stdout
    assert "TS" in run.stdout
    # The hook does not modify files.
    assert (project / "tools" / "ticket.json").read_text(encoding="utf-8") == BROKEN_TOOL

    fixed = BROKEN_TOOL.replace('"urgent": "true"', '"urgent": true')
    (project / "tools" / "ticket.json").write_text(fixed, encoding="utf-8")
    again = _pre_commit(project, dist, home)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Passed" in again.stdout


def test_toolsense_fix_hook_applies_the_safe_fixes(
    hook_repo: tuple[Path, str], dist: Dist, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    project = _project(tmp_path, hook_repo, "toolsense-fix")
    home = tmp_path_factory.getbasetemp() / "pre-commit-home"
    run = _pre_commit(project, dist, home)
    # pre-commit fails a hook that changed files, so that the fix is reviewed and staged.
    assert run.returncode == 1, run.stdout + run.stderr
    assert "files were modified by this hook" in run.stdout
    assert (project / "tools" / "ticket.json").read_text(encoding="utf-8") == BROKEN_TOOL.replace(
        '"urgent": "true"', '"urgent": true'
    )
    _git(project, "add", "-A")
    again = _pre_commit(project, dist, home)
    assert again.returncode == 0, again.stdout + again.stderr
