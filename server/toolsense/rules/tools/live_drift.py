"""The drift the editor found between a running server and its committed snapshot, shown in the snapshot file
(TS925–TS927 and the security review of the new version): kept in `ToolRegistry.live` by the "Check this server's
tools" command, until "Accept these tools" writes the new snapshot or the snapshot's tools change."""

from __future__ import annotations

from collections.abc import Iterator

from ...domain.live import drift_key, tools_digest
from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.units import Unit
from ..catalog import CATALOG


@CATALOG.file_check("tool")
def live_drift(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    found = ctx.registry.live.get(drift_key(ctx.uri))
    if not isinstance(found, dict) or found.get("digest") != tools_digest([unit.value for unit in units]):
        return
    for item in found.get("findings", []):
        severity = item.get("severity")
        yield Finding(
            str(item["code"]),
            str(item["message"]),
            tuple(item["pointer"]),
            item.get("target", "value"),
            Severity(severity) if isinstance(severity, int) else None,
        )
