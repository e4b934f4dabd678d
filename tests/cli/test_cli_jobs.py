"""`toolsense check --jobs N`: worker processes give exactly the output of one process, in every format."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from checking import EXAMPLES, ROOT
from clirun import run_cli

from generate import write_workspace


def check_folder(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`toolsense check .` in `folder`, a child process running this checkout's toolsense."""
    return run_cli(["check", ".", *args], folder, 300, env={"PYTHONPATH": str(ROOT / "server")})


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("workspace")
    write_workspace(folder, 60)
    # One file of each kind that is not a small tool file: broken JSON, not ours, an automation.
    (folder / "pkg_0000" / "broken.tools.json").write_text('[{"name": "x", "input_schema": {', encoding="utf-8")
    (folder / "package.json").write_text('{"name": "not ours"}', encoding="utf-8")
    automation = EXAMPLES / "automations" / "morning-weather.json"
    (folder / "morning.automation.json").write_text(automation.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


@pytest.mark.parametrize("output", ["text", "json", "sarif"])
def test_two_jobs_print_what_one_prints_on_a_generated_workspace(generated: Path, output: str) -> None:
    one = check_folder(generated, "--format", output, "--jobs", "1")
    two = check_folder(generated, "--format", output, "--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert two.stdout == one.stdout
    assert two.stderr == one.stderr == ""
    if output == "text":
        assert one.stdout.endswith("Checked 63 files: 10 errors\n")
        assert "error TS230 Unknown property 'unexpected' in input example 1" in one.stdout
        assert "morning.automation.json:9:15: error TS403 Unknown tool 'get_weather'" in one.stdout
        assert "error TS303 Unknown property 'unexpected' in the input of" in one.stdout
        assert "pkg_0000/broken.tools.json:1:" in one.stdout


def test_two_jobs_print_what_one_prints_on_the_examples() -> None:
    # The examples register user models: each worker imports them as the single process does.
    one = check_folder(EXAMPLES, "--jobs", "1")
    two = check_folder(EXAMPLES, "--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert two.stdout == one.stdout and two.stdout.count("\n") > 30
    assert two.stderr == one.stderr


def test_stats_print_the_throughput_on_stderr_only(generated: Path) -> None:
    done = check_folder(generated, "--jobs", "2", "--stats")
    lines = done.stderr.splitlines()
    # The throughput line, then the table of tokens per tool (cli/token_stats.py), all on stderr.
    assert lines[0].startswith("toolsense: 63 files in ")
    assert lines[1].startswith("toolsense: tokens per tool (o200k_base")
    assert lines[0].endswith(" files/s (2 processes)")
    assert "files/s" not in done.stdout
    quiet = check_folder(generated, "--format", "json", "--stats")
    # A machine format keeps stdout a report: no throughput line; the asked-for token table goes to stderr.
    assert "files/s" not in quiet.stderr and quiet.stdout.startswith("[")
    assert quiet.stderr.startswith("toolsense: tokens per tool")


def test_jobs_must_be_positive(generated: Path) -> None:
    done = check_folder(generated, "--jobs", "0")
    assert done.returncode == 2
    assert "expected a positive number of jobs, got '0'" in done.stderr


def test_a_worker_reads_each_file_once_unless_another_file_changes_its_result(tmp_path: Path) -> None:
    from toolsense.engine.parallel import PoolCheck
    from toolsense.rules import CATALOG
    from toolsense.settings import Settings

    tool = '{"name": "%s", "description": "Does it.", "input_schema": {"type": "object", "properties": {}}}'
    (tmp_path / "a.tools.json").write_text(f"[{tool % 'dup'}, {tool % 'only_a'}]", encoding="utf-8")
    other = tool.replace('"properties": {}', '"properties": {"q": {"type": "string"}}')  # not a verbatim copy
    (tmp_path / "b.tools.json").write_text(f"[{other % 'dup'}]", encoding="utf-8")
    (tmp_path / "c.tools.json").write_text(f"[{tool % 'only_c'}]", encoding="utf-8")
    call = '{"type": "tool_use", "id": "toolu_1", "name": "only_a", "input": {"x": 1}}'
    (tmp_path / "d.toolcall.json").write_text(call, encoding="utf-8")
    paths = sorted(tmp_path.iterdir())
    pool = PoolCheck(paths, Settings(), CATALOG, tmp_path, 2)
    results = pool.check()
    # a and b name a tool each other defines, d calls a tool of a: their results depend on other files.
    assert pool.rechecked == 3
    assert {path.name for path in results} == {"a.tools.json", "b.tools.json", "c.tools.json", "d.toolcall.json"}
    one = check_folder(tmp_path, "--format", "json", "--jobs", "1")
    two = check_folder(tmp_path, "--format", "json", "--jobs", "2")
    assert two.stdout == one.stdout
