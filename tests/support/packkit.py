"""Helpers of the packaging tests. The `dist` fixture (conftest.py) is built once per session: the wheel and sdist
from this checkout, and a wheelhouse of their dependencies.

Everything that installs toolsense into a fresh environment (the wheel test, pre-commit, the GitHub Action's
install step, the README's commands) installs from these with `--no-index --find-links`, so only the wheelhouse
touches the package index (through pip's cache), once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# What a source checkout needs to build and run: copied for the tests that must not write into the worktree.
SOURCE_FILES = ("pyproject.toml", "README.md", "LICENSE", "server", "examples", ".pre-commit-hooks.yaml", "action.yml")


@dataclass(frozen=True)
class Dist:
    wheel: Path
    sdist: Path
    wheelhouse: Path

    def offline_env(self, **extra: str) -> dict[str, str]:
        """The environment for pip to install toolsense and its dependencies with no package index."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV")}
        env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=f"{self.wheelhouse} {self.wheel.parent}", **extra)
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        return env


def copy_source(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in SOURCE_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        elif source.exists():
            shutil.copy2(source, dest / name)
    return dest


def build_dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    root = tmp_path_factory.mktemp("dist")
    source = copy_source(root / "source")
    out = root / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(source)], capture_output=True, text=True, timeout=600
    )
    assert build.returncode == 0, f"python -m build failed:\n{build.stdout[-3000:]}\n{build.stderr[-3000:]}"
    (wheel,) = out.glob("toolsense-*.whl")
    (sdist,) = out.glob("toolsense-*.tar.gz")
    wheelhouse = root / "wheelhouse"
    # The dependencies of the wheel, and a build backend for installs from source (pip install -e .).
    download = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(wheelhouse), str(wheel), "setuptools>=77"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert download.returncode == 0, f"pip download failed:\n{download.stderr[-3000:]}"
    (wheelhouse / wheel.name).unlink(missing_ok=True)
    return Dist(wheel=wheel, sdist=sdist, wheelhouse=wheelhouse)


def make_venv(path: Path) -> Path:
    """A fresh venv (with pip); returns its bin directory."""
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=300)
    return path / ("Scripts" if os.name == "nt" else "bin")
