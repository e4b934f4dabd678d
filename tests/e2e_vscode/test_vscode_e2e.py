"""The VS Code extension in a real VS Code: code-server + Chromium, driven by Playwright (drive.js).

Packages vscode-extension/ into a .vsix, installs it into fresh user-data and extensions directories, starts
code-server on a copy of examples/ and checks through the UI that
  (a) the diagnostics of a wrong file appear in the Problems panel with source toolsense,
  (b) completion at an enum position offers the enum values and accepting one changes the text,
  (c) a quick fix removes its diagnostic,
  (d) the status item says ready,
and, beyond that, that a killed server is restarted (e), that a settings change reaches the server (g), and that
a Python without toolsense is reported with the install command in the status item and a notification (f).

Prerequisites (Chromium, Node 24, code-server, playwright-core) come from scripts/install-vscode-e2e.sh, cached
under $TOOLSENSE_E2E_CACHE (default ~/.cache/toolsense-e2e). Environment:
  TOOLSENSE_REQUIRE_E2E=1       run the install script if needed; missing prerequisites FAIL instead of skip
  TOOLSENSE_E2E_INSTALL=1       run the install script if needed (skip if it fails)
  TOOLSENSE_UPDATE_SCREENSHOT=1 copy the screenshot to vscode-extension/images/screenshot.png
  TOOLSENSE_E2E_INTERPRETER     the Python that runs the server (default: this test's sys.executable)
  TOOLSENSE_E2E_REUSE_VSIX=1    use vscode-extension/toolsense-<version>.vsix as is when it exists
Artifacts (screenshots, logs, results.json) go to tests/e2e_vscode/artifacts/ (gitignored).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.client

# --- What to check, relative to the copy of examples/ -------------------------------------------------
# (a) A wrong file whose toolsense diagnostics must reach the Problems panel; EXPECT_TEXT must occur in one of
#     the rows (the Problems panel shows "message  toolsense(code) [Ln, Col]").
DIAGNOSTICS_FILE = "wrong/typos.tool.json"
DIAGNOSTICS_EXPECT_TEXT = "descripton"
# (b) An Anthropic tool definition with `"type": "<value>"` inside input_schema: on the first line containing
#     COMPLETION_LINE_CONTAINS, the JSON string right after COMPLETION_ANCHOR is deleted, completion is requested
#     there, it must offer COMPLETION_VALUES, and accepting COMPLETION_CHOOSE must make the file match
#     COMPLETION_EXPECT.
COMPLETION_FILE = "wrong/typos.tool.json"
COMPLETION_LINE_CONTAINS = '"title": {"type": "string"'
COMPLETION_ANCHOR = '"type": '
COMPLETION_VALUES = ["string", "number", "integer", "boolean", "object", "array"]
COMPLETION_CHOOSE = "integer"
COMPLETION_EXPECT = r'"title": \{"type": "integer"'
# (c) An unknown key in a tool definition with a "Rename to 'description'" / "Remove property" quick fix; the
#     quick fix whose title matches QUICKFIX_TITLE is applied and must make the file match QUICKFIX_EXPECT.
QUICKFIX_FILE = "wrong/typos.tool.json"
QUICKFIX_KEY = "descripton"
QUICKFIX_TITLE = r"rename.*description"  # JavaScript RegExp, case-insensitive
QUICKFIX_EXPECT = r'"description"\s*:\s*"Create a support ticket\."'
# (g) Turning a rule off in the workspace settings ("toolsense.severity": {code: "off"}) removes its problem
#     from SETTINGS_FILE (still present after the quick fix above).
SETTINGS_FILE = "wrong/typos.tool.json"
SETTINGS_CODE = "TS105"

# Written into the workspace copy when examples/ lacks the file (examples/ is maintained elsewhere).
FALLBACK_FILES = {
    "wrong/typos.tool.json": """{
  "name": "create_ticket",
  "descripton": "Create a support ticket.",
  "input_schema": {
    "type": "object",
    "properties": {
      "title": {"type": "string", "description": "Short summary"},
      "priority": {"type": "string", "description": "Urgency", "enum": ["low", "normal", "high"]}
    },
    "required": ["title"],
    "additionalProperties": false
  },
  "strict": "true"
}
""",
}

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EXTENSION_DIR = REPO / "vscode-extension"
EXAMPLES = REPO / "examples"
ARTIFACTS = HERE / "artifacts"
CACHE = Path(os.environ.get("TOOLSENSE_E2E_CACHE", str(Path.home() / ".cache" / "toolsense-e2e")))
NODE24 = CACHE / "node24" / "package" / "bin" / "node"
CODE_SERVER_ENTRY = CACHE / "code-server" / "node_modules" / "code-server" / "out" / "node" / "entry.js"
CHROMIUM = Path("/usr/bin/chromium")
INSTALL_SCRIPT = REPO / "scripts" / "install-vscode-e2e.sh"

RUN_TIMEOUT_S = 180


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0", "false", "no")


def _missing_prerequisites() -> list[str]:
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (Debian package chromium)")
    if not NODE24.exists():
        missing.append(f"Node 24 at {NODE24}")
    if not CODE_SERVER_ENTRY.exists():
        missing.append(f"code-server at {CODE_SERVER_ENTRY}")
    if not (HERE / "node_modules" / "playwright-core" / "package.json").exists():
        missing.append(f"playwright-core in {HERE / 'node_modules'}")
    if shutil.which("npm") is None:
        missing.append("npm (to build the .vsix)")
    return missing


@pytest.fixture(scope="module")
def prerequisites() -> str | None:
    """None when everything is there; otherwise skip, or (TOOLSENSE_REQUIRE_E2E=1) the problem for the test to
    fail with (failing in the test body, not in a fixture, makes it a FAILED test rather than an ERROR)."""
    require = _flag("TOOLSENSE_REQUIRE_E2E")
    missing = _missing_prerequisites()
    if missing and (require or _flag("TOOLSENSE_E2E_INSTALL")):
        run = subprocess.run(["bash", str(INSTALL_SCRIPT)], capture_output=True, text=True, timeout=1200)
        missing = _missing_prerequisites()
        if run.returncode != 0:
            missing.insert(0, f"{INSTALL_SCRIPT.name} exited with {run.returncode}:\n{run.stderr[-3000:]}")
    if missing:
        message = "VS Code e2e prerequisites missing: " + "; ".join(missing)
        if require:
            return message + f"\n(run {INSTALL_SCRIPT} as root, or unset TOOLSENSE_REQUIRE_E2E)"
        pytest.skip(message + f" — run {INSTALL_SCRIPT} (or set TOOLSENSE_E2E_INSTALL=1)")
    return None


def _extension_version() -> str:
    return str(json.loads((EXTENSION_DIR / "package.json").read_text(encoding="utf-8"))["version"])


@pytest.fixture(scope="module")
def vsix(prerequisites: str | None) -> Path | None:
    """`npm ci && npm run package` in vscode-extension (npm ci only when node_modules is missing)."""
    if prerequisites is not None:
        return None
    target = EXTENSION_DIR / f"toolsense-{_extension_version()}.vsix"
    if _flag("TOOLSENSE_E2E_REUSE_VSIX") and target.exists():
        return target
    npm = shutil.which("npm")
    assert npm is not None
    if not (EXTENSION_DIR / "node_modules" / ".bin" / "vsce").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=EXTENSION_DIR, check=True, timeout=600)
    run = subprocess.run([npm, "run", "package"], cwd=EXTENSION_DIR, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"npm run package failed:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}"
    assert target.exists(), f"{target} was not produced:\n{run.stdout[-2000:]}"
    return target


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _position(text: str, line_contains: str, anchor: str, after: bool = True) -> tuple[int, int, str]:
    """1-based (line, column) of the anchor on the first line containing line_contains (column after the anchor
    when `after`), and the rest of that line from there."""
    for number, line in enumerate(text.split("\n"), start=1):
        if line_contains in line:
            index = line.index(anchor, line.index(line_contains)) + (len(anchor) if after else 0)
            return number, index + 1, line[index:]
    raise AssertionError(f"no line containing {line_contains!r}: update the constants at the top of {__file__}")


def _kill_group(process: subprocess.Popen[bytes], name: str) -> None:
    """Stop a process started with start_new_session=True and everything in its process group."""
    pgid = process.pid  # start_new_session=True: the leader's pid is the group id (and outlives the leader)
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            continue
        break
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL above
        print(f"{name} (pid {process.pid}) did not exit", file=sys.stderr)


@dataclass
class Workspace:
    root: Path
    user_data: Path
    extensions: Path
    notes: list[str]


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "examples"
    notes: list[str] = []
    if EXAMPLES.is_dir():
        shutil.copytree(EXAMPLES, root, ignore=shutil.ignore_patterns("__pycache__", ".venv", "node_modules"))
    else:
        root.mkdir()
        notes.append("examples/ does not exist; using the built-in files only")
    for rel, content in FALLBACK_FILES.items():
        target = root / rel
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
            notes.append(f"{rel}: not in examples/, wrote the built-in version")
    user_data = tmp_path / "user-data"
    (user_data / "User").mkdir(parents=True)
    interpreter = os.environ.get("TOOLSENSE_E2E_INTERPRETER") or sys.executable
    settings = {
        "json.validate.enable": False,
        "toolsense.interpreter": interpreter,
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.enableExperiments": False,
        "workbench.welcomePage.walkthroughs.openOnInstall": False,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "workbench.colorTheme": "Default Dark Modern",
        "chat.disableAIFeatures": True,
        "chat.commandCenter.enabled": False,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "extensions.ignoreRecommendations": True,
        "security.workspace.trust.enabled": False,
        "files.autoSave": "off",
        "editor.quickSuggestions": {"other": False, "comments": False, "strings": False},
        "editor.suggestOnTriggerCharacters": False,
        "editor.minimap.enabled": False,
        "editor.lightbulb.enabled": "off",
        "window.zoomLevel": 0,
        "toolsense.trace.server": "messages",
    }
    (user_data / "User" / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")
    # toolsense.interpreter is machine-overridable: in a remote window (code-server) VS Code ignores it in the
    # (browser-side) User settings; the server-side "Remote" settings live in USER_DATA/Machine.
    (user_data / "Machine").mkdir()
    (user_data / "Machine" / "settings.json").write_text(
        json.dumps({"toolsense.interpreter": interpreter}, indent=2), encoding="utf-8"
    )
    return Workspace(root=root, user_data=user_data, extensions=tmp_path / "extensions", notes=notes)


def _code_server_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{NODE24.parent}{os.pathsep}{env.get('PATH', '')}"
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp / var.lower())
    env.pop("VSCODE_IPC_HOOK_CLI", None)
    return env


def _collect_logs(ws: Workspace, dest: Path) -> str:
    """Copy the extension's log channel and the exthost logs to artifacts; return the toolsense log's tail."""
    tail = ""
    logs = ws.user_data / "logs"
    if logs.is_dir():
        shutil.copytree(logs, dest / "vscode-logs", dirs_exist_ok=True)
        for log in sorted(logs.rglob("*.log")):
            if "toolsense" in str(log.relative_to(logs)).lower():
                tail += f"--- {log.relative_to(logs)}\n" + log.read_text(encoding="utf-8", errors="replace")[-6000:]
    return tail


@pytest.fixture
def code_server(
    prerequisites: str | None, vsix: Path | None, workspace: Workspace, tmp_path: Path
) -> Iterator[tuple[str, Workspace, int] | None]:
    if prerequisites is not None or vsix is None:
        yield None
        return
    env = _code_server_env(tmp_path)
    base = [
        str(NODE24),
        str(CODE_SERVER_ENTRY),
        "--user-data-dir",
        str(workspace.user_data),
        "--extensions-dir",
        str(workspace.extensions),
    ]
    install = subprocess.run(
        [*base, "--install-extension", str(vsix), "--force"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        start_new_session=True,
    )
    assert install.returncode == 0, f"installing {vsix.name} failed:\n{install.stdout}\n{install.stderr}"
    installed = list(workspace.extensions.glob("toolsense.toolsense-*"))
    assert installed, f"{vsix.name} is not in {workspace.extensions}:\n{install.stdout}\n{install.stderr}"

    port = _free_port()
    config = tmp_path / "code-server.yaml"
    config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n", encoding="utf-8")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log = (ARTIFACTS / "code-server.log").open("wb")
    process = subprocess.Popen(
        [
            *base,
            "--config",
            str(config),
            "--bind-addr",
            f"127.0.0.1:{port}",
            "--auth",
            "none",
            "--disable-telemetry",
            "--disable-update-check",
            "--disable-workspace-trust",
            "--disable-getting-started-override",
            str(workspace.root),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # setsid: one process group for code-server, the extension host and the server
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                output = (ARTIFACTS / "code-server.log").read_text(errors="replace")[-3000:]
                raise AssertionError(f"code-server did not come up on port {port}:\n{output}")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/?folder={workspace.root}", workspace, process.pid
    finally:
        _kill_group(process, "code-server")
        log.close()


def test_vscode_extension_end_to_end(
    prerequisites: str | None, code_server: tuple[str, Workspace, int] | None, tmp_path: Path
) -> None:
    if prerequisites is not None:
        pytest.fail(prerequisites, pytrace=False)
    assert code_server is not None
    url, ws, pgid = code_server
    # A real interpreter without toolsense: `python -S` has no site-packages.
    no_toolsense = tmp_path / "python-without-toolsense"
    no_toolsense.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n', encoding="utf-8")
    no_toolsense.chmod(0o755)
    started = time.monotonic()
    comp_text = (ws.root / COMPLETION_FILE).read_text(encoding="utf-8")
    comp_line, comp_col, rest = _position(comp_text, COMPLETION_LINE_CONTAINS, COMPLETION_ANCHOR)
    value = re.match(r'"(?:[^"\\]|\\.)*"', rest)
    assert value, f"no JSON string after {COMPLETION_ANCHOR!r} in {COMPLETION_FILE} line {comp_line}"
    fix_text = (ws.root / QUICKFIX_FILE).read_text(encoding="utf-8")
    fix_line, fix_col, _ = _position(fix_text, f'"{QUICKFIX_KEY}"', f'"{QUICKFIX_KEY}"', after=False)
    config = {
        "url": url,
        "workspace": str(ws.root),
        "artifacts": str(ARTIFACTS),
        "chromium": str(CHROMIUM),
        "timeoutMs": 30_000,
        "diagnostics": {"path": DIAGNOSTICS_FILE, "expectText": DIAGNOSTICS_EXPECT_TEXT},
        "completion": {
            "path": COMPLETION_FILE,
            "line": comp_line,
            "column": comp_col,
            "deleteChars": len(value.group(0)),
            "values": COMPLETION_VALUES,
            "choose": COMPLETION_CHOOSE,
            "expectRegex": COMPLETION_EXPECT,
        },
        "quickfix": {
            "path": QUICKFIX_FILE,
            "line": fix_line,
            "column": fix_col,
            "key": QUICKFIX_KEY,
            "titleRegex": QUICKFIX_TITLE,
            "expectRegex": QUICKFIX_EXPECT,
        },
        "recovery": {"pgid": pgid, "logsDir": str(ws.user_data / "logs")},
        "settings": {
            "path": SETTINGS_FILE,
            "code": SETTINGS_CODE,
            "settingsFile": str(ws.root / ".vscode" / "settings.json"),
        },
        "missing": {"settingsFile": str(ws.root / ".vscode" / "settings.json"), "interpreter": str(no_toolsense)},
    }
    config_file = tmp_path / "drive.json"
    config_file.write_text(json.dumps(config, indent=2), encoding="utf-8")
    for old in ARTIFACTS.glob("*.png"):
        old.unlink()
    shutil.rmtree(ARTIFACTS / "vscode-logs", ignore_errors=True)

    driver = subprocess.Popen(
        [str(NODE24), str(HERE / "drive.js"), str(config_file)],
        cwd=HERE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        stdout, stderr = driver.communicate(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        _kill_group(driver, "drive.js")
        stdout, stderr = driver.communicate()
    finally:
        _kill_group(driver, "drive.js")
    drive_log = stderr.decode(errors="replace")
    (ARTIFACTS / "drive.log").write_text(drive_log, encoding="utf-8")
    server_log = _collect_logs(ws, ARTIFACTS)
    elapsed = time.monotonic() - started

    match = re.search(r"^RESULT (.*)$", stdout.decode(errors="replace"), re.MULTILINE)
    assert match, f"drive.js gave no result (exit {driver.returncode}):\n{drive_log[-5000:]}\n{server_log[-3000:]}"
    result = json.loads(match.group(1))
    checks: dict[str, dict[str, object]] = result["checks"]

    screenshot = ARTIFACTS / "screenshot.png"
    if _flag("TOOLSENSE_UPDATE_SCREENSHOT") and screenshot.exists() and checks.get("diagnostics", {}).get("ok"):
        shutil.copyfile(screenshot, EXTENSION_DIR / "images" / "screenshot.png")

    summary = "\n".join(
        f"  {'ok  ' if c.get('ok') else 'FAIL'} {name} ({c.get('ms')} ms): {str(c.get('detail'))[:1500]}"
        for name, c in checks.items()
    )
    report = (
        f"VS Code e2e ({elapsed:.1f} s in the browser; timings {result.get('timings')}):\n{summary}\n"
        + ("notes: " + "; ".join(ws.notes) + "\n" if ws.notes else "")
        + f"artifacts: {ARTIFACTS}"
    )
    print(report)
    expected = ("diagnostics", "completion", "quickfix", "status", "recovery", "settings", "missing-toolsense")
    failed = [name for name, check in checks.items() if not check["ok"]]
    missing = [name for name in expected if name not in checks]
    assert not failed and not missing, (
        f"{report}\nmissing checks: {missing}\n--- toolsense log ---\n{server_log[-4000:]}"
    )
