"""The GitHub Action (action.yml) and the release workflow: valid against their published JSON schemas (the
SchemaStore schemas that check-jsonschema vendors), and the action's steps run as GitHub would run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from packkit import REPO, Dist, copy_source

pytestmark = pytest.mark.timeout(900)

WRONG_CALL_PROJECT = {
    "tools/weather.tools.json": '[{"name": "get_weather", "description": "Weather for a city.", '
    '"input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]\n',
    "calls/weather.json": '{"name": "get_weather", "input": {"town": "Oslo"}}\n',
}


@pytest.mark.parametrize(
    ("path", "schema"),
    [("action.yml", "vendor.github-actions"), (".github/workflows/release.yml", "vendor.github-workflows")],
)
def test_valid_against_the_published_schema(path: str, schema: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, str(REPO / path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_schemas_catch_a_broken_file(tmp_path: Path) -> None:
    # Proof that the check above can fail: an action without `runs`.
    broken = tmp_path / "action.yml"
    broken.write_text("name: x\ndescription: y\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-actions", str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert "runs" in run.stdout


def _action_steps() -> list[dict[str, object]]:
    # check-jsonschema brings ruamel.yaml; pre-commit brings PyYAML. Either reads the action.
    import yaml

    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    return list(action["runs"]["steps"])


def test_the_action_installs_toolsense_and_annotates_and_writes_sarif(dist: Dist, tmp_path: Path) -> None:
    """Runs the action's `run` steps with bash, with the environment GitHub gives a composite action."""
    action_path = copy_source(tmp_path / "action")
    workspace = tmp_path / "workspace"
    for rel, text in WRONG_CALL_PROJECT.items():
        (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
        (workspace / rel).write_text(text, encoding="utf-8")
    github_path = tmp_path / "GITHUB_PATH"
    github_output = tmp_path / "GITHUB_OUTPUT"
    github_path.touch()
    github_output.touch()
    inputs = {"paths": ".", "version": "", "python-version": "", "sarif-file": "toolsense.sarif", "args": ""}
    inputs.update({"diff-base": "", "diff-paths": ".toolsense/mcp", "diff-fail-on": "breaking"})
    base_env = dist.offline_env(
        GITHUB_ACTION_PATH=str(action_path),
        GITHUB_PATH=str(github_path),
        GITHUB_OUTPUT=str(github_output),
        RUNNER_TEMP=str(tmp_path / "runner-temp"),
    )
    (tmp_path / "runner-temp").mkdir()
    results = []
    for step in _action_steps():
        if "uses" in step:
            assert step.get("if") == "inputs.python-version != ''"
            continue
        if step.get("id") == "diff":
            assert step.get("if") == "${{ !cancelled() && inputs.diff-base != '' }}"
            continue  # diff-base is empty: GitHub skips it (tests/cli/test_diff_action.py runs it)
        env = dict(base_env)
        # The runner puts GITHUB_PATH's directories first on PATH for later steps.
        extra_path = [line for line in github_path.read_text().splitlines() if line]
        env["PATH"] = os.pathsep.join([*extra_path, env["PATH"]])
        for name, value in dict(step.get("env", {})).items():  # type: ignore[call-overload]
            expression = str(value)
            assert expression.startswith("${{ inputs.") and expression.endswith(" }}"), expression
            env[name] = inputs[expression[len("${{ inputs.") : -3]]
        script = str(step["run"])
        assert "${{" not in script, "inputs go through env, never into the script text"
        command = ["bash", "-e", "-c", script]
        run = subprocess.run(command, cwd=workspace, env=env, capture_output=True, text=True, timeout=600)
        results.append(run)
    install, check = results
    assert install.returncode == 0, install.stderr[-3000:]
    assert check.returncode == 1, check.stdout + check.stderr
    annotations = [line for line in check.stdout.splitlines() if line.startswith("::")]
    assert annotations, check.stdout
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in annotations), check.stdout
    assert any("file=calls/weather.json" in line for line in annotations), annotations
    sarif = json.loads((workspace / "toolsense.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert sarif["runs"][0]["tool"]["driver"]["name"] == "toolsense"
    assert any("calls/weather.json" in json.dumps(r["locations"]) for r in sarif["runs"][0]["results"])
    assert github_output.read_text().strip() == "sarif-file=toolsense.sarif"
