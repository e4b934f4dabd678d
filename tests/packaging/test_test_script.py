"""scripts/test.sh installs only into the project's own virtual environment, and `--help` installs nothing.

The script runs in a copy of its folder with recording stand-ins first on PATH: `python3` (which makes a
recording virtual environment when asked `-m venv DIR`), `pip`, `pip3`, `apt-get`, `sudo` and `npm`. Each appends
what it was asked to a log, so the test sees every install the script asked for, and of which interpreter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

RECORDER = """#!/usr/bin/env bash
echo "{name} $*" >> "$TS_RECORD"
"""

FAKE_PYTHON = r"""#!/usr/bin/env bash
echo "python3 $*" >> "$TS_RECORD"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  venv="$3"
  mkdir -p "$venv/bin"
  for name in python python3; do
    printf '#!/usr/bin/env bash\necho "venv-%s $*" >> "$TS_RECORD"\n' "$name" > "$venv/bin/$name"
    chmod +x "$venv/bin/$name"
  done
  absolute="$(cd "$venv" && pwd)"
  printf 'export VIRTUAL_ENV="%s"\nexport PATH="%s/bin:$PATH"\n' "$absolute" "$absolute" > "$venv/bin/activate"
fi
"""


def _sandbox(tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy2(REPO / "scripts" / "test.sh", checkout / "scripts" / "test.sh")
    # The system packages and editors are not what this test is about: their installer only records its call.
    (checkout / "scripts" / "install-test-deps.sh").write_text(RECORDER.format(name="install-test-deps"))
    fakes = tmp_path / "bin"
    fakes.mkdir()
    for name in ("pip", "pip3", "apt-get", "sudo", "npm"):
        (fakes / name).write_text(RECORDER.format(name=name))
    (fakes / "python3").write_text(FAKE_PYTHON)
    for fake in fakes.iterdir():
        fake.chmod(0o755)
    record = tmp_path / "record.log"
    record.touch()
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "TOOLSENSE_TEST_VENV"}}
    env |= {"PATH": f"{fakes}:/usr/bin:/bin", "TS_RECORD": str(record)}
    return checkout, env, record


def test_help_prints_usage_and_installs_nothing(tmp_path: Path) -> None:
    checkout, env, record = _sandbox(tmp_path)
    run = subprocess.run(
        ["bash", "scripts/test.sh", "--help"], cwd=checkout, env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("usage: scripts/test.sh [pytest args]")
    assert "--setup-only" in run.stdout and ".venv/" in run.stdout
    assert record.read_text() == ""
    assert not (checkout / ".venv").exists()


def test_setup_installs_only_into_the_projects_own_environment(tmp_path: Path) -> None:
    checkout, env, record = _sandbox(tmp_path)
    run = subprocess.run(
        ["bash", "scripts/test.sh", "--setup-only"], cwd=checkout, env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert record.read_text().splitlines() == [
        "python3 -m venv .venv",
        "venv-python3 -m pip install --quiet -e .[dev]",
        "install-test-deps ",
    ]


def test_an_active_foreign_environment_is_left_alone_and_a_made_one_reused(tmp_path: Path) -> None:
    checkout, env, record = _sandbox(tmp_path)
    subprocess.run(["python3", "-m", "venv", ".venv"], cwd=checkout, env=env, check=True)
    record.write_text("")
    foreign = tmp_path / "someone-elses-venv"
    (foreign / "bin").mkdir(parents=True)
    for name in ("python3", "pip"):
        (foreign / "bin" / name).write_text(RECORDER.format(name=f"foreign-{name}"))
        (foreign / "bin" / name).chmod(0o755)
    env |= {"VIRTUAL_ENV": str(foreign), "PATH": f"{foreign / 'bin'}:{env['PATH']}"}
    run = subprocess.run(
        ["bash", "scripts/test.sh", "--setup-only"], cwd=checkout, env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert record.read_text().splitlines() == ["venv-python3 -m pip install --quiet -e .[dev]", "install-test-deps "]
