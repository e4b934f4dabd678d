"""A large dataset (read from its outline, checked in the worker process) gets the same diagnostics inside its
`tools` strings as the CLI gives."""

from __future__ import annotations

import json

from checking import check
from lspkit import Session

TOOL = {"name": "get_weather", "description": "Weather now", "parameters": {"type": "dict", "properties": {}}}
LINE = json.dumps({"messages": [{"role": "user", "content": "x" * 2000}], "tools": json.dumps([TOOL])})
TEXT = "".join(LINE.replace("get_weather", f"get_weather_{i}") + "\n" for i in range(700))  # about 1.5 MB


async def test_a_large_dataset_in_the_editor(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("data/large.jsonl", TEXT)
    published = await session.diagnostics(uri, timeout=120)
    expected = sorted((d.code, *d.range) for d in check(TEXT, None, uri=uri))
    got = sorted(
        (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
        for d in published
    )
    assert len(TEXT) > 1_000_000 and len(expected) == 700
    assert got == expected
