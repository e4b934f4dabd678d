"""The documentation site (mkdocs.yml, MkDocs with Material, from docs/) builds in strict mode, every internal link
and anchor checked, without the network; and a broken link fails that build."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    # Material 9.7+ prints a banner about its successor on every build (not a warning of the build): off.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(site)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )


BUILD_WARNING = re.compile(r"^WARNING\s+-", re.MULTILINE)
"""A warning of the build itself, as MkDocs logs it (`WARNING -  Doc file … contains a link …`)."""


def test_the_site_builds_in_strict_mode_with_every_link_found(tmp_path: Path) -> None:
    done = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert BUILD_WARNING.search(done.stderr) is None, done.stderr
    assert (tmp_path / "site" / "rules" / "TS292" / "index.html").is_file()
    assert not (tmp_path / "site" / "rule-source").exists()


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    shutil.copy(ROOT / "mkdocs.yml", config)
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("accuracy.md", "design.md", "rules.md"):
        (docs / name).write_text("# Page\n", encoding="utf-8")
    (docs / "index.md").write_text("# Home\n\n[a rule](rules/TS999.md)\n", encoding="utf-8")
    done = build(config, tmp_path / "site")
    assert done.returncode == 1
    assert (
        "Doc file 'index.md' contains a link 'rules/TS999.md', but the target is not found among documentation files."
        in done.stderr
    )
    (docs / "index.md").write_text("# Home\n\n[a family](rules.md#no-such-family)\n", encoding="utf-8")
    done = build(config, tmp_path / "site")
    assert done.returncode == 1
    assert "contains a link 'rules.md#no-such-family', but the doc 'rules.md' does not contain an anchor" in done.stderr
