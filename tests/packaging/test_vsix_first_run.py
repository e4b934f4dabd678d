"""The platform .vsix sets its server up offline with any supported Python, not only the one that built it.

`scripts/bundle-wheel.js --wheelhouse` (what `npm run package` runs) builds the bundled/ folder the .vsix carries
into a temporary extension folder: the toolsense wheel and the wheels of every dependency for Python 3.10–3.13.
Then the extension's own first-run code (src/bundled.ts's install steps, driven by test/support/firstRun.ts, bundled
with esbuild) sets up the private environment with a Python other than this test's — each of pyenv's 3.10, 3.12 and
3.13 — with pip unable to reach any index (an index nobody listens on, no configuration, no find-links, an empty
cache); the server it installed must start and answer `initialize`.

The Pythons are found on PATH (`python3.X`) or under pyenv; a missing one skips, or fails with
TOOLSENSE_REQUIRE_E2E=1 (scripts/test.sh sets it).
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from packkit import REPO

from lspclient import LspClient

pytestmark = [pytest.mark.client, pytest.mark.timeout(1800)]

EXTENSION = REPO / "vscode-extension"
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
BUILDER = f"{sys.version_info.major}.{sys.version_info.minor}"
# The dependencies with compiled parts: each must have a wheel for every supported Python (an abi3 wheel serves all).
COMPILED = ("pydantic_core", "tree_sitter", "numpy", "regex", "google_re2", "tiktoken", "rpds_py")


def _python(version: str) -> str | None:
    """pyenv's Python of that version, else a `python3.X` on PATH that runs (a pyenv shim of an inactive version
    does not)."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [str(path) for path in sorted(pyenv.glob(f"{version}.*/bin/python{version}"), reverse=True)]
    candidates += [found for found in [shutil.which(f"python{version}")] if found]
    for candidate in candidates:
        if subprocess.run([candidate, "-c", "pass"], capture_output=True, timeout=60).returncode == 0:
            return candidate
    return None


def _require(what: str) -> None:
    if os.environ.get("TOOLSENSE_REQUIRE_E2E", "").strip() not in ("", "0"):
        pytest.fail(what, pytrace=False)
    pytest.skip(what)


def _offline(tmp: Path) -> dict[str, str]:
    """pip as on a machine without network: an index nobody listens on, no configuration, an empty cache."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(
        PIP_INDEX_URL=f"http://127.0.0.1:{port}/simple",
        PIP_CONFIG_FILE=os.devnull,
        PIP_FIND_LINKS="",
        PIP_RETRIES="0",
        PIP_TIMEOUT="5",
        PIP_CACHE_DIR=str(tmp / "empty-pip-cache"),
    )
    return env


@pytest.fixture(scope="module")
def extension(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the .vsix installs: package.json and the bundled/ folder, built as `npm run package` does."""
    node = shutil.which("node")
    if node is None:
        _require("node is needed to build the bundled folder")
    root = tmp_path_factory.mktemp("extension")
    shutil.copy2(EXTENSION / "package.json", root / "package.json")
    run = subprocess.run(
        [str(node), str(EXTENSION / "scripts" / "bundle-wheel.js"), "--wheelhouse", "--out", str(root / "bundled")],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
        timeout=1500,
        env={**os.environ, "PYTHON": sys.executable},
    )
    assert run.returncode == 0, f"bundle-wheel.js failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}"
    return root


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """test/support/firstRun.ts bundled with the extension's own esbuild."""
    esbuild = EXTENSION / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        _require(f"{esbuild} is missing: npm ci in vscode-extension")
    out = tmp_path_factory.mktemp("first-run") / "firstRun.js"
    subprocess.run(
        [str(esbuild), "test/support/firstRun.ts", "--bundle", "--platform=node", "--format=cjs", f"--outfile={out}"],
        cwd=EXTENSION,
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


def test_the_wheelhouse_has_each_compiled_dependency_for_every_supported_python(extension: Path) -> None:
    wheels = [path.name for path in (extension / "bundled" / "wheels").glob("*.whl")]
    for project in COMPILED:
        mine = [name for name in wheels if name.startswith(f"{project}-")]
        for version in SUPPORTED:
            tag = f"cp{version.replace('.', '')}"
            assert any(f"-{tag}-" in name or "-abi3-" in name for name in mine), (project, version, mine)
    # What pip leaves out when it evaluates markers for the builder's Python (scripts/wheelhouse.py adds them).
    assert any(name.startswith("tomli-") for name in wheels)
    assert any(name.startswith("exceptiongroup-") for name in wheels)
    assert not any(name.startswith("toolsense-") for name in wheels)


def test_the_supported_pythons_are_the_packages() -> None:
    classifiers = re.findall(
        r'"Programming Language :: Python :: (3\.\d+)"', (REPO / "pyproject.toml").read_text(encoding="utf-8")
    )
    script = (EXTENSION / "scripts" / "bundle-wheel.js").read_text(encoding="utf-8")
    listed = re.search(r"const SUPPORTED_PYTHONS = \[([^\]]*)\]", script)
    assert listed is not None
    assert tuple(json.loads(f"[{listed.group(1).replace(chr(39), chr(34))}]")) == tuple(classifiers) == SUPPORTED


@pytest.mark.parametrize("version", [v for v in ("3.10", "3.12", "3.13") if v != BUILDER])
def test_the_first_run_sets_up_the_server_offline_with_another_python(
    version: str, extension: Path, first_run: Path, tmp_path: Path
) -> None:
    python = _python(version)
    if python is None:
        _require(f"no Python {version} (python{version} on PATH or under pyenv)")
    assert python is not None
    storage = tmp_path / "globalStorage"
    storage.mkdir()
    run = subprocess.run(
        ["node", str(first_run), str(extension), str(storage), python],
        capture_output=True,
        text=True,
        timeout=900,
        env=_offline(tmp_path),
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["ok"], json.dumps(result["steps"], indent=2)[-5000:]
    install = result["steps"][1]["command"]
    assert "--no-index" in install and "--find-links" in install, install
    assert result["ready"] == result["server"]
    assert result["probe"]["kind"] == "ok", result["probe"]
    assert result["probe"]["python"].startswith(f"{version}."), result["probe"]
    version_of_package = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))["version"]
    assert result["probe"]["toolsense"] == version_of_package

    launch = result["launch"]
    client = LspClient([result["server"], *launch["args"]], cwd=launch["cwd"])
    try:
        _, answer = client.request(
            "initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}}, timeout=120
        )
        assert answer["result"]["serverInfo"] == {"name": "toolsense", "version": version_of_package}
        assert answer["result"]["capabilities"]["textDocumentSync"]
    finally:
        client.close()


def test_the_readme_states_the_size_of_the_platform_vsix(extension: Path) -> None:
    """The README's figure is the linux-x64 package (what this machine builds): the wheels, within a tenth."""
    if (sys.platform, platform.machine()) != ("linux", "x86_64"):
        pytest.skip("the README states the linux-x64 size; this machine builds another platform's wheels")
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    match = re.search(r"and 3\.13: (\d+) MB for linux-x64", readme)
    assert match, "the README's install section states the size of the linux-x64 .vsix"
    size_mb = sum(path.stat().st_size for path in (extension / "bundled").rglob("*.whl")) / 1e6
    assert abs(size_mb - int(match.group(1))) <= size_mb / 10, size_mb
