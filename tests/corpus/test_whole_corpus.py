"""`toolsense check` over all of ../shared/corpus finishes without a crash (the detailed findings are pinned by
tests/corpus, written with the rules)."""

from __future__ import annotations

import json

import pytest
from checking import CORPUS, EXAMPLES
from clirun import run_cli


@pytest.mark.corpus
@pytest.mark.timeout(600)
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not here ({CORPUS})")
def test_check_the_whole_corpus_without_a_crash() -> None:
    done = run_cli(["check", str(CORPUS), "--format", "json"], timeout=600)
    assert done.returncode in (0, 1), done.stderr  # 2 = usage/I-O, 3 = toolsense failed
    assert "Traceback" not in done.stderr
    diagnostics = json.loads(done.stdout)
    assert diagnostics, "the corpus has known violations (BFCL's non-standard types, …)"
    assert not [d for d in diagnostics if d["code"] == "TS900"], "a rule raised inside toolsense"


def test_check_the_examples() -> None:
    done = run_cli(["check", str(EXAMPLES), "--format", "json"], timeout=300)
    assert done.returncode == 1, done.stderr  # examples/wrong shows what toolsense catches
    diagnostics = json.loads(done.stdout)
    assert not [d for d in diagnostics if d["code"] in ("TS900", "TS006")]
    erroneous = {d["path"].split("examples/")[-1] for d in diagnostics if d["severity"] == "error"}
    # The tool definitions in the three dialects are the "right" examples; examples/wrong shows mistakes.
    assert not erroneous & {"tools/weather.tools.json", "tools/health.mcp.tools.json", "tools/messaging.openai.json"}
    assert {"wrong/typos.tool.json", "wrong/broken.automation.json"} <= erroneous
