"""An edit storm on a 5 MB tool-definition file, over stdio against the real server.

1,000 incremental `didChange` notifications within about two seconds, completion requests interleaved: the server
keeps answering completion, publishes diagnostics for the final version and never for a stale one, and its
memory comes back to about where it was before the storm.

"Keeps answering" is an order, not a time: every completion is answered before the diagnostics of the final
version arrive, so no completion waits for a whole check (a wall-clock bound failed on a loaded CI machine and says
nothing a benchmark does not; the latencies are printed and go to the hardening report).
"""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from rawrpc import ServerProcess, position_of
from toolgen import tools_text
from waiting import until

STORM_EDITS = int(os.environ.get("TOOLSENSE_STORM_EDITS", "1000"))
STORM_SECONDS = 2.0
COMPLETION_EVERY = 25
DIAGNOSTICS_BOUND_S = 60.0
RSS_SETTLE_S = 30.0

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmRSS from /proc")


def _completion_target(text: str) -> tuple[int, str]:
    """An enum value inside an early tool's `input_examples` (before the edited area: the edits never move it)."""
    tools = json.loads(text)
    tool = tools[len(tools) // 5]
    start = text.index(f'"name": "{tool["name"]}"')
    examples = text.index('"input_examples": [', start)
    value = tool["input_examples"][0]["field_0"]
    at = text.index(f'"field_0": "{value}"', examples) + len('"field_0": "')
    return at, value


def _storm_edits(text: str, at: int, count: int) -> list[tuple[int, int, str]]:
    """(column start, column end, new text) edits on one line inside a description string: typing, deleting,
    and every so often an unbalanced quote (a syntax error) that the next edit takes back."""
    edits: list[tuple[int, int, str]] = []
    column = position_of(text, at)["character"]
    typed = 0
    letters = "abcdefghij"
    for i in range(count):
        if i % 97 == 50:
            edits.append((column, column, '"'))  # breaks the file: an unclosed string
            edits.append((column, column + 1, ""))  # ...and takes it back
            continue
        if len(edits) >= count:
            break
        if i % 7 == 6 and typed:
            column -= 1
            typed -= 1
            edits.append((column, column + 1, ""))
        else:
            edits.append((column, column, letters[i % len(letters)]))
            column += 1
            typed += 1
    return edits[:count]


@pytest.mark.timeout(420)
@pytest.mark.parametrize("debounce_ms", [100, 0], ids=["debounce-100ms", "no-debounce"])
def test_edit_storm_on_a_5mb_file(tmp_path: Path, debounce_ms: int) -> None:
    """With the default debounce the storm is checked once at its end; with none, the server checks while edits
    keep arriving — every publish must still carry the version it was computed for, in order."""
    text = tools_text(5_000_000)
    assert len(text.encode()) >= 5_000_000
    path = tmp_path / "storm.tools.json"
    path.write_text(text, encoding="utf-8")
    completion_at, expected_value = _completion_target(text)
    completion_pos = position_of(text, completion_at)
    tools = json.loads(text)
    middle = tools[len(tools) // 2]
    edit_at = text.index('"description": "', text.index(f'"name": "{middle["name"]}"')) + len('"description": "') + 4
    edit_line = position_of(text, edit_at)["line"]
    edits = _storm_edits(text, edit_at, STORM_EDITS)
    del tools, middle
    gc.collect()

    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": debounce_ms}})
        uri = server.open(path, text, version=1)
        first = server.wait_diagnostics(uri, 180, lambda p: p.get("version") == 1)
        assert isinstance(first["diagnostics"], list)
        # Warm up (unit index, schema caches), then let the server settle and take its memory.
        for _ in range(3):
            ident = server.completion_async(uri, completion_pos["line"], completion_pos["character"])
            answer = server.response(ident, 120)
            labels = [item["label"] for item in (answer.get("result") or {}).get("items", [])]
            assert any(expected_value in label for label in labels), labels
        server.settle()
        rss_before = server.rss_kb()

        # The storm: 1,000 didChange notifications in about two seconds; a completion every 25 of them.
        sent_versions: list[int] = [1]
        completions: list[tuple[int, float]] = []
        started = time.monotonic()
        interval = STORM_SECONDS / len(edits)
        version = 1
        for i, (start_col, end_col, new_text) in enumerate(edits):
            version += 1
            server.change(
                uri,
                version,
                [
                    {
                        "range": {
                            "start": {"line": edit_line, "character": start_col},
                            "end": {"line": edit_line, "character": end_col},
                        },
                        "text": new_text,
                    }
                ],
            )
            sent_versions.append(version)
            if i % COMPLETION_EVERY == COMPLETION_EVERY - 1:
                sent = time.perf_counter()
                completions.append(
                    (server.completion_async(uri, completion_pos["line"], completion_pos["character"]), sent)
                )
            delay = started + (i + 1) * interval - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        storm_seconds = time.monotonic() - started
        final_version = version

        # Every completion was answered, with the enum value still offered.
        answers: list[float] = []
        for ident, _ in completions:
            arrived, message = server.response_at(ident, DIAGNOSTICS_BOUND_S)
            assert "error" not in message, message
            answers.append(arrived)
            labels = [item["label"] for item in (message.get("result") or {}).get("items", [])]
            assert any(expected_value in label for label in labels), labels
        latencies = [arrived - sent for arrived, (_, sent) in zip(answers, completions, strict=True)]
        slowest = max(latencies)

        # Diagnostics for the final version arrive; none for a version that was never sent, none out of order.
        server.wait_diagnostics(uri, DIAGNOSTICS_BOUND_S, lambda p: p.get("version") == final_version)
        final_published = min(
            arrived
            for arrived, message in server.received
            if message.get("method") == "textDocument/publishDiagnostics"
            and message["params"]["uri"] == uri
            and message["params"].get("version") == final_version
        )
        late = [i for i, arrived in enumerate(answers) if arrived > final_published]
        assert not late, f"completions {late} of {len(answers)} waited for the final version's whole check"
        server.settle()  # anything published late (a pending check of an older text) would be a stale result
        published = [int(p["version"]) for p in server.diagnostics_for(uri)]
        assert set(published) <= set(sent_versions), published
        assert published == sorted(published), f"a publish went back to an older version: {published}"
        assert published[-1] == final_version

        # Memory returns near its level before the storm (allocator slack allowed).
        bound_kb = max(rss_before * 1.5, rss_before + 150 * 1024)
        try:
            rss_after = until(lambda: (rss := server.rss_kb()) <= bound_kb and rss, "memory back", RSS_SETTLE_S, 1.0)
        except AssertionError:
            rss_after = server.rss_kb()
        report = (
            f"storm (debounce {debounce_ms} ms): {len(edits)} edits in {storm_seconds:.2f} s, "
            f"{len(completions)} completions "
            f"(median {sorted(latencies)[len(latencies) // 2] * 1000:.0f} ms, slowest {slowest * 1000:.0f} ms), "
            f"{len(published)} publishes {published[:3]}…{published[-3:]}, "
            f"RSS before {rss_before / 1024:.0f} MB after {rss_after / 1024:.0f} MB "
            f"(peak {_hwm(server.pid) / 1024:.0f} MB)"
        )
        print(report)
        _record(report)
        assert rss_after <= bound_kb, report
        assert server.process.poll() is None, server.stderr_text()[-2000:]
    finally:
        server.close()


def _hwm(pid: int) -> int:
    from rawrpc import read_status

    try:
        return read_status(pid, "VmHWM")
    except (OSError, KeyError):
        return 0


_lock = threading.Lock()


def _record(line: str) -> None:
    """Measured figures go to $TOOLSENSE_HARDENING_REPORT when set (for the report), else nowhere."""
    target = os.environ.get("TOOLSENSE_HARDENING_REPORT")
    if not target:
        return
    with _lock, open(target, "a", encoding="utf-8") as out:
        out.write(line + "\n")


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_long_edit_storm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The long run: ten storms back to back (10,000 edits), memory still back near its level at the end."""
    monkeypatch.setattr(sys.modules[__name__], "STORM_EDITS", 10_000)
    monkeypatch.setattr(sys.modules[__name__], "STORM_SECONDS", 20.0)
    test_edit_storm_on_a_5mb_file(tmp_path, 100)
