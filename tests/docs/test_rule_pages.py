"""The rule pages (docs/rules/TSxxx.md, scripts/rule_pages.py): every rule has one, each is up to date, and each
page's wrong example gets the finding it states while its right example does not, as `toolsense check` sees them."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from clirun import run

from toolsense.rules import CATALOG

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rule_pages", ROOT / "scripts" / "rule_pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rule_pages"] = module
    spec.loader.exec_module(module)
    return module


rule_pages = _load()
DOCS = rule_pages.load_docs()
RUNNABLE = sorted(code for code, doc in DOCS.items() if doc.wrong is not None)

NOT_RUNNABLE = {
    "TS002": "a file that is not UTF-8",
    "TS003": "only the editor stops checking a large file",
    "TS006": "thousands of nested brackets",
    "TS019": "a baseline file from an earlier run",
    "TS107": "reported under TS237, TS309 and TS219",
    "TS266": "129 tool definitions",
    "TS802": "a module that takes seconds to import",
    "TS805": "an untrusted editor workspace",
    "TS900": "a bug in toolsense",
    "TS920": "a live MCP server",
    "TS921": "a live MCP server",
    "TS922": "a live MCP server",
    "TS923": "a live MCP server",
    "TS924": "a live MCP server",
    "TS925": "a live MCP server and a snapshot",
    "TS926": "a live MCP server and a snapshot",
    "TS927": "a live MCP server and a snapshot",
}
"""The pages whose example cannot run here, and why: this list may only shrink."""


def test_every_rule_is_documented_and_the_pages_are_up_to_date() -> None:
    """Regenerate with `python scripts/rule_pages.py`."""
    assert set(DOCS) == set(CATALOG.rules)
    wanted = rule_pages.pages()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "rules").glob("TS*.md")}
    assert sorted(on_disk) == sorted(wanted), "run `python scripts/rule_pages.py`"
    stale = [name for name, text in wanted.items() if on_disk[name] != text]
    assert not stale, f"stale pages (run `python scripts/rule_pages.py`): {stale}"


def test_only_the_listed_pages_have_no_runnable_example() -> None:
    without = {code: doc.not_runnable for code, doc in DOCS.items() if doc.wrong is None or doc.right is None}
    assert sorted(without) == sorted(NOT_RUNNABLE), "a page without a runnable example must be listed, with why"
    assert all(reason for reason in without.values())


def _check(example: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """The diagnostics `toolsense check --format json` gives the example's workspace."""
    files = {example.file: example.json, **example.extra}
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    args = [str(tmp_path), "--format", "json", "--jobs", "1"]
    if example.config:
        config = tmp_path / "toolsense.toml"
        config.write_text(example.config, encoding="utf-8")
        args += ["--config", str(config)]
    code, out, err = run(capsys, *args)
    assert code in (0, 1), err
    diagnostics: list[dict[str, Any]] = json.loads(out)
    return diagnostics


@pytest.mark.parametrize("code", RUNNABLE)
def test_the_wrong_example_gets_the_finding(code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = DOCS[code].wrong
    found = _check(example, tmp_path, capsys)
    shown = (tmp_path / example.file).resolve()
    ours = [d for d in found if d["code"] == code and Path(d["path"]).resolve() == shown]
    assert ours, f"{code} not reported in {example.file}: {[(d['code'], d['message']) for d in found]}"
    assert any(example.message in d["message"] for d in ours), [d["message"] for d in ours]


@pytest.mark.parametrize("code", RUNNABLE)
def test_the_right_example_does_not(code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = _check(DOCS[code].right, tmp_path, capsys)
    assert not [d for d in found if d["code"] == code], [(d["code"], d["message"]) for d in found]
