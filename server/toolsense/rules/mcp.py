"""MCP specifics: behaviour hints that contradict or cannot apply, and a `title` that disagrees with
`annotations.title`. (`outputSchema` validity — a JSON Schema with an object root — is checked by the JSON
Schema rules; the MCP name pattern by the name rules.)"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.catalog import CATALOG
from ..engine.context import CheckContext
from ..engine.findings import Finding, Fix, RemoveMember, Severity
from ..engine.units import Unit
from .structure import short_repr
from .tooldef import tool_view

FAMILY = "Tool definitions: MCP"

IGNORED_HINT = CATALOG.rule(
    "TS250",
    "mcp-ignored-hint",
    Severity.HINT,
    "`destructiveHint`/`idempotentHint` mean nothing when `readOnlyHint` is true.",
    FAMILY,
    "remove the hint (safe)",
)
CONTRADICTION = CATALOG.rule(
    "TS251",
    "mcp-contradictory-hints",
    Severity.WARNING,
    "`readOnlyHint: true` with `destructiveHint: true`: a read-only tool cannot be destructive.",
    FAMILY,
)
TITLE = CATALOG.rule(
    "TS252",
    "mcp-title-mismatch",
    Severity.INFORMATION,
    "`title` and `annotations.title` differ; clients show `title`.",
    FAMILY,
)


@CATALOG.unit_check("tool")
def mcp_specifics(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = tool_view(unit)
    if view is None or view.dialect != "mcp":
        return
    annotations = view.value.get("annotations")
    if not isinstance(annotations, dict):
        return
    if annotations.get("readOnlyHint") is True:
        if annotations.get("destructiveHint") is True:
            yield Finding(
                CONTRADICTION.code,
                "destructiveHint is true but readOnlyHint is true: a read-only tool does not modify anything",
                ("annotations", "destructiveHint"),
                "member",
            )
        for hint in ("destructiveHint", "idempotentHint"):
            if hint in annotations and not (hint == "destructiveHint" and annotations[hint] is True):
                fix = Fix(f"Remove {hint}", (RemoveMember(("annotations", hint)),), safe=True, preferred=True)
                yield Finding(
                    IGNORED_HINT.code,
                    f"{hint} has no meaning when readOnlyHint is true",
                    ("annotations", hint),
                    "key",
                    fixes=(fix,),
                )
    title, inner = view.value.get("title"), annotations.get("title")
    if isinstance(title, str) and isinstance(inner, str) and title != inner:
        yield Finding(
            TITLE.code,
            f"annotations.title {short_repr(inner)} differs from title {short_repr(title)}; clients show title",
            ("annotations", "title"),
        )
