"""The scheduler's phase machine: the table its docstring shows is the one it runs, and a change of the registry
(another file's tools) leaves the keystroke fast path open while the full check is due."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from toolsense.lsp import phases
from toolsense.lsp.app import create_server
from toolsense.lsp.phases import TRANSITIONS, Event
from toolsense.lsp.state import Phase

TOOLS = (
    '[\n  {"name": "a", "input_schema": {"type": "object"}},\n  {"name": "b", "input_schema": {"type": "object"}}\n]\n'
)


def _documented() -> dict[Phase, dict[Event, Phase]]:
    """The table in the module docstring, read back (`R_` stands for `RUNNING_`, `-` for no transition)."""
    doc = phases.__doc__ or ""
    lines = [line.split() for line in doc.splitlines() if line.startswith("    ")]
    header, rows = lines[0], lines[1:]
    events = [Event[name] for name in header[3:]]  # after "phase \\ event"
    table: dict[Phase, dict[Event, Phase]] = {}
    for row in rows:
        names = [name.replace("R_", "RUNNING_", 1) if name.startswith("R_") else name for name in row]
        table[Phase[names[0]]] = {
            event: Phase[name] for event, name in zip(events, names[1:], strict=True) if name != "-"
        }
    return table


def test_the_documented_table_is_the_one_that_runs() -> None:
    assert _documented() == TRANSITIONS
    assert set(TRANSITIONS) == set(Phase)


def test_after_a_registry_change_a_keystroke_still_takes_the_fast_path() -> None:
    async def run() -> None:
        server = create_server()
        published: list[types.PublishDiagnosticsParams] = []
        server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign,assignment]
        try:
            od = server.open("file:///w/tools/a.tools.json", TOOLS, 1, "json")
            server.check(od, "open")
            assert od.phase is Phase.CURRENT
            server.scheduler.dependents_changed(origin="file:///w/tools/other.tools.json")
            assert od.phase is Phase.PROVISIONAL  # a full check is due; the diagnostics still sit right
            edit = types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(1, 12), types.Position(1, 13)), text="c"
            )
            server.change(od, 2, [edit])
            assert od.phase is Phase.EDITED
            server.scheduler.cancel_timer(od)
            server.check(od, "edit")
            assert od.phase is Phase.PROVISIONAL, "the keystroke waited for a full check"
            assert published[-1].version == 2
            server.check(od, "registry")
            assert od.phase is Phase.CURRENT
        finally:
            server.stop_work()

    asyncio.run(run())
