"""The README's commands and example, run as written.

- The first of the "Two commands" runs verbatim with bash in a copy of the checkout. It installs into a fresh
  `.venv` from the package index as written; the test points pip at the session's wheelhouse instead
  (PIP_NO_INDEX/PIP_FIND_LINKS in the environment, the command text unchanged) so that it runs offline.
- The second (`./scripts/test.sh`) is this very test suite: the test only checks that the command names a script
  that exists and is executable, and that CI runs it.
- The "Use the models in your code" example runs and prints exactly the output shown under it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from packkit import REPO, Dist, copy_source

pytestmark = pytest.mark.timeout(900)

README = (REPO / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.MULTILINE | re.DOTALL)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def test_the_quick_start_command_works_as_written(dist: Dist, tmp_path: Path) -> None:
    first, second = _blocks(_section("Two commands"), "sh")
    assert first.strip() == (
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/toolsense check examples"
    ), "update this test together with the README"
    checkout = copy_source(tmp_path / "toolsense")
    run = subprocess.run(
        ["bash", "-c", first],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=600,
        env=dist.offline_env(PATH=f"{Path(sys.executable).parent}:/usr/bin:/bin"),
    )
    # Status 1 on purpose, as the README says: examples/ holds deliberately wrong files.
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    findings = [line for line in run.stdout.splitlines() if re.match(r"^examples/\S+:\d+:\d+: ", line)]
    assert findings, run.stdout
    assert re.search(r"^Checked \d+ files: \d+ errors", run.stdout + run.stderr, re.MULTILINE)
    # "Every diagnostic printed is in one of those files."
    outside = [f for f in findings if not re.match(r"^examples/(wrong/|calls/[^/:]*-bad\.json:)", f)]
    assert not outside, outside
    assert (checkout / ".venv" / "bin" / "toolsense").exists()

    assert second.strip() == "./scripts/test.sh"
    script = REPO / "scripts" / "test.sh"
    assert script.exists() and script.stat().st_mode & 0o111
    assert "scripts/test.sh" in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_the_models_example_prints_what_the_page_shows(tmp_path: Path) -> None:
    """docs/models.md (the README's former section "Use the models in your code")."""
    section = (REPO / "docs" / "models.md").read_text(encoding="utf-8")
    (code,) = _blocks(section, "python")
    (expected,) = _blocks(section, "text")
    example = tmp_path / "example.py"
    example.write_text(code, encoding="utf-8")
    run = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected


def test_readme_links_the_extension_docs_and_the_screenshot() -> None:
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if not target.startswith("http"):
            assert (REPO / target).exists(), f"README links to {target}, which does not exist"
    assert "vscode-extension/DEVELOPMENT.md" in README
    assert "vscode-extension/images/screenshot.png" in README


def _constant(path: Path, name: str) -> str:
    match = re.search(rf"const {name}(?:: [^=]+)? = ([^;\n]+)", path.read_text(encoding="utf-8"))
    assert match, f"no {name} in {path}"
    return match.group(1).strip()


def test_the_install_section_says_how_the_extension_starts_and_sets_itself_up() -> None:
    """Activation by content with the budgets src/activation.ts has, the offline first run with every Python the
    wheelhouse is built for (scripts/bundle-wheel.js), and none of what stopped being true (a folder glob starting
    it, the first run going to the package index). The size is held by tests/packaging/test_vsix_first_run.py."""
    extension = REPO / "vscode-extension"
    text = " ".join(_section("Install").split("### The CLI", 1)[0].split())
    files = int(_constant(extension / "src" / "activation.ts", "FILE_BUDGET"))
    seconds = int(_constant(extension / "src" / "activation.ts", "TIME_BUDGET_MS")) / 1000
    assert f"at most {files:,} files, {seconds:g} s" in text
    assert "A folder of unrelated JSON sees nothing" in text
    events = json.loads((extension / "package.json").read_text(encoding="utf-8"))["activationEvents"]
    assert {"onLanguage:json", "onLanguage:jsonc", "onLanguage:jsonl"} <= set(events)
    assert "JSON, JSON with Comments and JSON Lines" in text
    pythons = json.loads(_constant(extension / "scripts" / "bundle-wheel.js", "SUPPORTED_PYTHONS").replace("'", '"'))
    assert f"each of Python {', '.join(pythons[:-1])} and {pythons[-1]}" in text
    assert "pip install --no-index --find-links" in text
    for stale in ("about a minute", "When a folder has toolsense files", "from the package index (a progress"):
        assert stale not in text, stale
