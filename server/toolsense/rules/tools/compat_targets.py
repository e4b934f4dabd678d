"""`targets = [...]`: a rejection by a chosen client or API is an error at the keyword it rejects (TS264).

The verdicts come from the compat oracle (`domain.compat`): each rests on a captured rejection or a documented
limit, quoted with its source. The quick fix rewrites the schema into what every chosen target accepts, when the
oracle's rewrites reach that; its title says what it gives up when it is not exact.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...domain.compat import TARGETS, Source, assess
from ...domain.compat.portable import make_portable
from ...domain.tool import tool_view
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, Severity, Target
from ...engine.units import Unit
from ..catalog import CATALOG

FAMILY = "Tool definitions: provider profiles"

TARGET_REJECTS = CATALOG.rule(
    "TS264",
    "target-rejects-tool",
    Severity.ERROR,
    "A client or API chosen in `targets` rejects the tool here, with the message it gives (each verdict rests on a "
    "captured rejection or a documented limit: docs/compat.md).",
    FAMILY,
    "make portable: rewrite the schema into what every chosen target accepts",
)


def _evidence(sources: tuple[Source, ...], target: str, documented: bool) -> str:
    """The source to quote: for a captured message the newest fixture of this target (else an issue), for a
    documented limit its page."""
    if documented:
        kept = [s for s in sources if "github.com" not in s.url or "/blob/" in s.url]
    else:
        kept = [s for s in sources if s.fixture.startswith(f"{target}/")]
        kept = kept or [s for s in sources if not s.fixture and "github.com" in s.url]
    newest = max(kept or sources, key=lambda s: s.date)
    return f"{newest.url}, {newest.date}"


@CATALOG.unit_check("tool")
def chosen_targets(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    targets = ctx.settings.targets
    if not targets:
        return
    view = tool_view(unit)
    if view is None:
        return
    findings = [f for target in targets for f in assess(view, target).findings if f.verdict == "rejected"]
    if not findings:
        return
    portable = make_portable(view, targets)
    fixes: tuple[Fix, ...] = ()
    if portable is not None:
        fixes = (Fix(portable.title(targets), portable.edits, safe=portable.exact, preferred=portable.exact),)
    plain = (view.name_pointer, view.description_pointer)
    for finding in findings:
        label = TARGETS[finding.target].label
        kind = "documented limit" if finding.documented else "evidence"
        evidence = _evidence(finding.sources, finding.target, finding.documented)
        message = f"{label} rejects this: {finding.message} ({kind}: {evidence})"
        at_value = finding.pointer in plain or not finding.pointer or isinstance(finding.pointer[-1], int)
        where: Target = "value" if at_value else "key"
        yield Finding(
            TARGET_REJECTS.code, message, finding.pointer, where, fixes=fixes, data={"target": finding.target}
        )
