"""`toolsense check --fix / --diff / --unsafe-fixes` on temporary copies of the examples."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clirun import run
from fixing import WORKSPACE, loads

TYPOS = Path("wrong/typos.tool.json")
BROKEN = Path("wrong/broken.automation.json")


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(WORKSPACE, root)
    monkeypatch.chdir(root)
    return root


def snapshot(root: Path) -> dict[Path, bytes]:
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*.json"))}


def test_fix_applies_only_safe_fixes(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(ws)
    code, out, err = run(capsys, "--fix", ".")
    after = snapshot(ws)
    changed = {p for p in before if before[p] != after[p]}
    assert changed == {TYPOS, BROKEN}
    typos = after[TYPOS].decode()
    assert typos == before[TYPOS].decode().replace('"strict": "true"', '"strict": true')  # coerced (safe)
    assert '"descripton"' in typos  # rename is unsafe: not applied
    broken = after[BROKEN].decode()
    assert broken == before[BROKEN].decode().replace("{{event_data.text}}", "{{trigger_data.text}}")
    assert '"op": "EQUALS"' in broken  # a did-you-mean is unsafe
    assert "Fixed 2 problems in 2 files." in err
    assert "more fixes available with --unsafe-fixes" in err
    # The report is about what remains, at the positions of the fixed text.
    assert "TS105" not in out and "TS502" not in out
    assert "wrong/typos.tool.json:3:3: error TS101" in out
    assert code == 1


def test_unsafe_fixes_apply_the_preferred_candidate(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--fix", "--unsafe-fixes", ".")
    typos = (ws / TYPOS).read_text()
    assert '"description": "Create a support ticket."' in typos and '"strict": true' in typos
    assert '"op": "eq"' in (ws / BROKEN).read_text()
    assert "error" not in out
    assert code == 0, out
    assert "Fixed 4 problems in 2 files." in err


def test_diff_writes_nothing(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(ws)
    code, out, err = run(capsys, "--diff", ".")
    assert snapshot(ws) == before
    assert "--- a/wrong/typos.tool.json\n+++ b/wrong/typos.tool.json\n" in out
    assert '-  "strict": "true"\n+  "strict": true\n' in out
    assert '+      "parameters": {"channel": "#alerts", "text": "{{trigger_data.text}}"}\n' in out
    assert "Would fix 2 problems in 2 files." in err
    assert code == 1


def test_diff_with_unsafe_fixes(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(ws)
    _, out, _ = run(capsys, "--diff", "--unsafe-fixes", str(TYPOS))
    assert snapshot(ws) == before
    assert '-  "descripton": "Create a support ticket.",\n+  "description": "Create a support ticket.",\n' in out


def test_diff_is_a_patch_that_applies(ws: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import subprocess

    if shutil.which("patch") is None:
        pytest.skip("no patch(1)")
    _, out, _ = run(capsys, "--diff", "--unsafe-fixes", ".")
    patch = "".join(line for line in out.splitlines(keepends=True) if not line.startswith(("wrong/", "Checked ")))
    subprocess.run(["patch", "-p1", "--quiet"], input=patch.encode(), cwd=ws, check=True)
    assert '"description"' in (ws / TYPOS).read_text()
    assert '"op": "eq"' in (ws / BROKEN).read_text()


def test_fix_keeps_crlf_tabs_bom_and_comments(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = ws / "tools" / "tabs.tool.json"
    text = (
        "// a comment before the tool\r\n"
        '{\r\n\t"name": "ping",\r\n\t"description": "Ping a host and report the round trip time.",\r\n'
        '\t"input_schema": {"type": "object", "properties": {}, "additionalProperties": false},\r\n'
        '\t"strict": "false" /* why a string? */\r\n}\r\n'
    )
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    run(capsys, "--fix", str(path))
    assert path.read_bytes() == b"\xef\xbb\xbf" + text.replace('"strict": "false"', '"strict": false').encode()


def test_fix_never_touches_a_file_with_a_syntax_error(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = ws / "wrong" / "typos.tool.json"
    broken = path.read_text().replace('"required": ["title"],', '"required": ["title"],,')
    path.write_text(broken)
    code, out, err = run(capsys, "--fix", "--unsafe-fixes", str(path))
    assert path.read_text() == broken
    assert "TS001" in out and code == 1
    assert "No fixes applied." in err


def test_fix_is_idempotent(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "--fix", "--unsafe-fixes", ".")
    once = snapshot(ws)
    _, _, err = run(capsys, "--fix", "--unsafe-fixes", ".")
    assert snapshot(ws) == once
    assert "No fixes applied." in err


def test_fix_with_json_output(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--fix", "--format", "json", str(TYPOS))
    reported = json.loads(out)
    codes = [d["code"] for d in reported]
    assert "TS101" in codes and "TS105" not in codes
    assert code == 1


def test_fix_to_a_fixed_point_across_files(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Fixes that overlap, that create the same key, and a fix revealing another all settle in one run."""
    cases = Path(__file__).resolve().parents[1] / "fixes" / "cases"
    for name in ("tools.automation.json", "structure.automation.json", "calls.toolcall.json", "schemas.tools.json"):
        shutil.copy(cases / name, ws / name)
    run(capsys, "--fix", "--unsafe-fixes", ".")
    for name in ("tools.automation.json", "structure.automation.json", "calls.toolcall.json", "schemas.tools.json"):
        fixed = (ws / name).read_bytes()
        loads(fixed)
        assert fixed.count(b'"title"') <= (cases / name).read_bytes().count(b'"title"') + 2
    automation = json.loads((ws / "tools.automation.json").read_text())
    push = automation["actions"][1]["parameters"]
    assert push["title"] == "Sleep" and push["priority"] == "high"
    assert automation["trigger_config"]["source_tool"] == "oura_get_daily_sleep"
    assert automation["actions"][0]["tool"] == "get_weather"
    calls = json.loads((ws / "calls.toolcall.json").read_text())
    assert calls[0]["name"] == "get_weather" and "nme" not in calls[0]
    assert "extra" not in calls[1]
    schemas = json.loads((ws / "schemas.tools.json").read_text())
    assert schemas["tools"][0]["input_schema"]["type"] == "object"
    assert schemas["tools"][3]["input_schema"]["properties"]["unit"]["enum"] == ["c", "f"]


def test_nothing_to_fix(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(ws)
    code, _, err = run(capsys, "--fix", "tools")
    assert snapshot(ws) == before
    assert code == 0 and "No fixes applied." in err


def test_a_misplaced_required_is_moved_with_unsafe_fixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "misplaced.tools.json"
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    function = {"name": "f", "description": "d", "parameters": schema}
    text = json.dumps([{"type": "function", "function": {**function, "required": ["a"]}}], indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert f"{path}:16:7: error TS101 'required' belongs inside 'parameters'" in out
    run(capsys, "--fix", str(path))
    assert path.read_text(encoding="utf-8") == text  # moving changes what is validated: not a safe fix
    run(capsys, "--fix", "--unsafe-fixes", str(path))
    assert path.read_text(encoding="utf-8") == text.replace(
        '        "additionalProperties": false\n      },\n      "required": [\n        "a"\n      ]\n',
        '        "additionalProperties": false,\n        "required": ["a"]\n      }\n',
    )
