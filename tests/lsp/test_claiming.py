"""In the editor, a JSON file that is not ours gets nothing at all; one a folder glob points at gets one note."""

from __future__ import annotations

from conftest import Session
from lsprotocol import types


async def test_a_json_file_that_is_not_ours_gets_nothing(session: Session) -> None:
    await session.start("neovim")
    broken = session.open("config/settings.json", '{"compilerOptions": {"strict": tru')  # broken, and not ours
    catalogue = session.open("tools/catalogue.json", '[{"name": "CycloneDX Core", "publisher": "CycloneDX"}]')
    assert await session.diagnostics(broken, 1) == []
    (note,) = await session.diagnostics(catalogue, 1)
    assert (note.code, note.severity) == ("TS007", types.DiagnosticSeverity.Information)
    assert note.range == types.Range(types.Position(0, 0), types.Position(0, 1))
    assert note.message.startswith("Not checked: the folder suggests tool definitions")
