"""`check --fix` never loses a file: it writes atomically (a temporary file in the same folder, fsync, rename),
keeps the file's mode, never writes through a symbolic link, and a failed write is exit 2 with a message and the
original intact (issue 26: X1)."""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run

from toolsense import safe_write
from toolsense.safe_write import RefusedPath, write_file_atomically

FIXABLE = [
    {
        "name": f"t{i}",
        "description": "Get the weather for a city, with a long description to take some room.",
        "input_schema": {"type": "object", "properties": {"unit": {"type": "string", "enum": ["c", "c", "f"]}}},
    }
    for i in range(60)
]


def _tools(folder: Path) -> Path:
    (folder / "tools").mkdir(parents=True)
    path = folder / "tools" / "x.tools.json"
    path.write_text(json.dumps(FIXABLE, indent=2))
    return path


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_write_that_fails_part_way_leaves_the_file_whole_and_exits_2(tmp_path: Path) -> None:
    path = _tools(tmp_path)
    original = path.read_bytes()
    limit = len(original) - 1  # the fixed file is larger: its write fails part-way (like a full disk)

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    result = subprocess.run(
        [sys.executable, "-m", "toolsense", "check", "--fix", "tools"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=small_files,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "toolsense: cannot write tools/x.tools.json: File too large; the file is unchanged" in result.stderr
    assert path.read_bytes() == original
    assert _leftovers(path.parent) == []


def test_a_failure_before_the_rename_keeps_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b'{"old": true}')

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safe_write.os, "fsync", no_space)
    with pytest.raises(OSError, match="No space left"):
        write_file_atomically(path, b'{"new": true}' * 1000)
    assert path.read_bytes() == b'{"old": true}'
    assert _leftovers(tmp_path) == []


def test_the_mode_is_kept_and_the_file_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"old")
    path.chmod(0o640)
    write_file_atomically(path, b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert _leftovers(tmp_path) == []


def test_a_link_a_folder_or_a_fifo_is_never_written(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("keep")
    (tmp_path / "link.json").symlink_to(outside)
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nothing.json")
    (tmp_path / "folder.json").mkdir()
    os.mkfifo(tmp_path / "fifo.json")
    for name in ("link.json", "dangling.json", "folder.json", "fifo.json"):
        with pytest.raises(RefusedPath):
            write_file_atomically(tmp_path / name, b"{}")
    assert outside.read_text() == "keep"
    assert not (tmp_path / "nothing.json").exists()
    assert (tmp_path / "link.json").is_symlink()


def test_fix_on_a_symlink_named_on_the_command_line_leaves_the_target_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside" / "settings.json"
    outside.parent.mkdir()
    outside.write_text(json.dumps(FIXABLE[:1]))
    original = outside.read_bytes()
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    (repo / "tools" / "x.tools.json").symlink_to(Path("..", "..", "outside", "settings.json"))
    monkeypatch.chdir(repo)
    code, _out, err = run(capsys, "--fix", "--unsafe-fixes", "tools/x.tools.json")
    assert code == 2
    assert "toolsense: cannot write tools/x.tools.json: it is a symbolic link" in err
    assert outside.read_bytes() == original
    assert (repo / "tools" / "x.tools.json").is_symlink()


def test_a_successful_fix_still_exits_on_the_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _tools(tmp_path)
    path.chmod(0o600)
    monkeypatch.chdir(tmp_path)
    code, _out, err = run(capsys, "--fix", "tools")
    assert code in (0, 1)
    assert err.startswith("Fixed ")
    assert json.loads(path.read_text())[0]["input_schema"]["properties"]["unit"]["enum"] == ["c", "f"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert _leftovers(path.parent) == []


@pytest.mark.parametrize("named", ["tools/x.tools.json", "tools"])
def test_fix_never_writes_through_a_linked_folder_out_of_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], named: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "x.tools.json"
    target.write_text(json.dumps(FIXABLE[:1]))
    original = target.read_bytes()
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "tools").symlink_to(Path("..", "outside"))
    monkeypatch.chdir(repo)
    code, _out, err = run(capsys, "--fix", named)
    assert code == 2
    assert "cannot write tools/x.tools.json: a folder on the way is a symbolic link out of the current folder" in err
    assert target.read_bytes() == original
