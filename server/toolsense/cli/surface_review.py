"""The security rules run on both versions of a tool surface: a finding the new version has and the old did not
is a risky change (a description that now carries instructions to the model, invisible characters, a look-alike
name, a tool that shadows another's). The same checks as `toolsense check`, on the text `git show` or the files
gave: a finding is matched across versions by tool, pointer inside the tool and code, never by line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache

from ..domain.changes import Change, ChangeClass
from ..engine.catalog import Catalog
from ..engine.checker import Diagnostic, check_document
from ..engine.context import CheckContext, ToolRegistry
from ..engine.workspace import tool_infos
from ..rules import CATALOG
from ..settings import Settings
from .surface_sources import SourceFile

FindingKey = tuple[str, str, tuple[str | int, ...], str]
"""(file, tool, pointer inside the tool, code)."""


def _is_security(check: Callable[..., object]) -> bool:
    # A rule module names its family in `FAMILY`; the security families are marked in the catalog.
    return getattr(sys.modules.get(check.__module__), "FAMILY", None) in CATALOG.security_families


@cache
def security_catalog() -> Catalog:
    """The catalog with only the checks of the security families (the rest would cost a whole `toolsense check`
    of both versions for findings that are dropped)."""
    only = Catalog()
    only.rules = dict(CATALOG.rules)
    only.security_families = set(CATALOG.security_families)
    for kind, checks in CATALOG.unit_checks.items():
        only.unit_checks[kind] = [check for check in checks if _is_security(check)]
    for kind, file_checks in CATALOG.file_checks.items():
        only.file_checks[kind] = [check for check in file_checks if _is_security(check)]
    return only


def security_diagnostics(files: list[SourceFile]) -> list[tuple[str, Diagnostic]]:
    """Each file's diagnostics from the security rules, the files' tools registered together (a tool that shadows
    another server's is found across the files of a folder)."""
    registry = ToolRegistry()
    for file in files:
        registry.set_file(file.document.uri, tool_infos(file.document.uri, file.units))
    codes = CATALOG.security_codes
    found: list[tuple[str, Diagnostic]] = []
    for file in files:
        context = CheckContext(Settings(), registry, file.document.uri, False, catalog=security_catalog())
        report = check_document(file.document, context, None)
        found.extend((file.label, d) for d in report.diagnostics if d.code in codes and d.subject is not None)
    return found


def new_security_findings(
    old: list[SourceFile], new: list[SourceFile], renamed: dict[str, str], single: bool
) -> list[Change]:
    """A risky change for each security finding of the new version that the old version did not have (`renamed`:
    new name -> old name, so a renamed tool is compared with itself)."""
    before: set[FindingKey] = set()
    for label, diagnostic in security_diagnostics(old):
        assert diagnostic.subject is not None
        before.add(("" if single else label, diagnostic.subject.name, diagnostic.subject.pointer, diagnostic.code))
    changes = []
    for label, diagnostic in security_diagnostics(new):
        subject = diagnostic.subject
        assert subject is not None
        file = "" if single else label
        name = renamed.get(subject.name, subject.name)
        if (file, name, subject.pointer, diagnostic.code) in before:
            continue
        pointer = diagnostic.finding.pointer if diagnostic.finding is not None else None
        message = f"{diagnostic.code} {diagnostic.message}"
        changes.append(Change(ChangeClass.RISKY, "security-finding", subject.name, message, None, pointer, file=file))
    return changes
