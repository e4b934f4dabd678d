"""Issue 34 §2: the GitHub Action's `toolsense diff` step, run with bash as GitHub runs a composite step, writes the
pull-request summary of the tool surface's changes to $GITHUB_STEP_SUMMARY and fails on a breaking change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
OLD = {"tools": [{"name": "search", "description": "Search.", "inputSchema": {"type": "object", "properties": {}}}]}


def _diff_step() -> dict[str, object]:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    (step,) = [s for s in action["runs"]["steps"] if s.get("id") == "diff"]
    assert step["if"] == "${{ !cancelled() && inputs.diff-base != '' }}"
    defaults = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    assert (defaults["diff-base"], defaults["diff-paths"], defaults["diff-fail-on"]) == (
        "",
        ".toolsense/mcp",
        "breaking",
    )
    return dict(step)


def _run_step(workspace: Path, tmp_path: Path, inputs: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], str]:
    step = _diff_step()
    shim = tmp_path / "bin" / "toolsense"  # what the install step puts on PATH: this checkout's toolsense
    shim.parent.mkdir(exist_ok=True)
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m toolsense "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    summary = tmp_path / "summary.md"
    summary.write_text("", encoding="utf-8")
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}", "GITHUB_STEP_SUMMARY": str(summary)}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "server"), os.environ.get("PYTHONPATH", "")])
    for name, value in dict(step["env"]).items():  # type: ignore[call-overload]
        expression = str(value)
        assert expression.startswith("${{ inputs.") and expression.endswith(" }}"), expression
        env[name] = inputs[expression[len("${{ inputs.") : -3]]
    script = str(step["run"])
    assert "${{" not in script, "inputs go through env, never into the script text"
    run = subprocess.run(
        ["bash", "-e", "-c", script], cwd=workspace, env=env, capture_output=True, text=True, timeout=120
    )
    return run, summary.read_text(encoding="utf-8")


def _git(cwd: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, timeout=60)


def test_the_diff_step_writes_the_job_summary(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    snapshot = workspace / ".toolsense" / "mcp" / "search.tools.json"
    snapshot.parent.mkdir(parents=True)
    snapshot.write_text(json.dumps(OLD), encoding="utf-8")
    _git(workspace, "init", "-q")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "tools as reviewed")
    snapshot.write_text(json.dumps({"tools": []}), encoding="utf-8")  # the pull request drops the tool
    inputs = {"diff-base": "HEAD", "diff-paths": ".toolsense/mcp", "diff-fail-on": "breaking"}
    run, summary = _run_step(workspace, tmp_path, inputs)
    assert run.returncode == 1, run.stderr
    assert summary.startswith("### Tool surface: major version bump suggested\n")
    row = (
        "| \\.toolsense/mcp/search\\.tools\\.json: search | removed | `.toolsense/mcp/search.tools.json#/tools/0` | — |"
    )
    assert row in summary.splitlines()
    run, summary = _run_step(workspace, tmp_path, {**inputs, "diff-fail-on": "never"})
    assert run.returncode == 0 and "#### Breaking (1)" in summary
    run, summary = _run_step(workspace, tmp_path, {**inputs, "diff-base": "no-such-ref"})
    assert run.returncode == 2 and summary == ""
    assert "toolsense diff: no-such-ref:.toolsense/mcp: invalid object name 'no-such-ref'." in run.stderr
