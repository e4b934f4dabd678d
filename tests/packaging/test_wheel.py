"""The Python package as published: wheel and sdist build, pass `twine check`, and the wheel installed into a
fresh venv runs `toolsense check`; the version is written in one place."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from packkit import REPO, Dist, make_venv

import toolsense

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

pytestmark = pytest.mark.timeout(900)

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]

WRONG_TOOL = """{
  "name": "get_weather",
  "descripton": "Current weather for a city.",
  "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
}
"""


def test_twine_check_passes(dist: Dist) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(dist.wheel), str(dist.sdist)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("PASSED") == 2


def test_wheel_and_sdist_contents(dist: Dist) -> None:
    assert dist.wheel.name == f"toolsense-{VERSION}-py3-none-any.whl"
    names = zipfile.ZipFile(dist.wheel).namelist()
    packages = {p.parent.relative_to(REPO / "server").as_posix() for p in (REPO / "server" / "toolsense").rglob("*.py")}
    assert packages <= {n.rsplit("/", 1)[0] for n in names}, "a subpackage is missing from the wheel"
    assert "toolsense/py.typed" in names
    # The token encoding ships with the package (counting never downloads it), under tiktoken's licence.
    assert {"toolsense/tokens/data/o200k_base.tiktoken.gz", "toolsense/tokens/data/LICENSE-tiktoken"} <= set(names)
    entry_points = zipfile.ZipFile(dist.wheel).read(f"toolsense-{VERSION}.dist-info/entry_points.txt").decode()
    assert "toolsense = toolsense.cli.app:main" in entry_points
    with tarfile.open(dist.sdist) as archive:
        sdist = archive.getnames()
    members = ("pyproject.toml", "README.md", "LICENSE", "server/toolsense/__init__.py", "server/toolsense/py.typed")
    for member in members:
        assert f"toolsense-{VERSION}/{member}" in sdist, member


def test_the_wheel_in_a_fresh_venv_runs_toolsense_check(dist: Dist, tmp_path: Path) -> None:
    bin_dir = make_venv(tmp_path / "venv")
    install = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(dist.wheel)],
        capture_output=True,
        text=True,
        timeout=600,
        env=dist.offline_env(),
    )
    assert install.returncode == 0, install.stderr[-3000:]
    project = tmp_path / "project"
    (project / "tools").mkdir(parents=True)
    (project / "tools" / "weather.json").write_text(WRONG_TOOL, encoding="utf-8")
    env = dist.offline_env()
    version = subprocess.run([str(bin_dir / "toolsense"), "--version"], capture_output=True, text=True, env=env)
    assert version.stdout.strip() == f"toolsense {VERSION}"
    check = subprocess.run(
        [str(bin_dir / "toolsense"), "check", "--format", "json", "."],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=120,
    )
    assert check.returncode == 1, check.stderr
    findings = json.loads(check.stdout)
    assert [(f["path"], f["code"], f["range"]["start"]) for f in findings if f["severity"] == "error"] == [
        ("tools/weather.json", "TS101", {"line": 2, "character": 2})
    ]
    stats = subprocess.run(
        [str(bin_dir / "toolsense"), "check", "--stats", "."],
        capture_output=True,
        text=True,
        cwd=project,
        env={**env, "TIKTOKEN_CACHE_DIR": str(tmp_path / "empty-cache")},
        timeout=120,
    )
    assert "tools/weather.json (1 tool)" in stats.stderr, stats.stderr
    # It is the wheel's code that ran, not this checkout's.
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import toolsense; print(toolsense.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert str(tmp_path / "venv") in where.stdout


def test_the_version_is_written_once() -> None:
    # pyproject.toml is the only place; the package reads it back from the installed metadata, and the VS Code
    # extension (released together with the wheel it bundles) carries the same version.
    init = (REPO / "server" / "toolsense" / "__init__.py").read_text(encoding="utf-8")
    assert VERSION not in init
    assert toolsense.__version__ == VERSION
    package_json = json.loads((REPO / "vscode-extension" / "package.json").read_text(encoding="utf-8"))
    assert package_json["version"] == VERSION


def test_the_dev_extra_has_the_packaging_tools() -> None:
    dev = " ".join(PYPROJECT["project"]["optional-dependencies"]["dev"])
    for tool in ("build", "twine", "pre-commit", "check-jsonschema"):
        assert tool in dev, tool
