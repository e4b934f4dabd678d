"""What the MCP server's tools do, without the MCP SDK: plain functions from arguments to JSON-able results.

Each works in one project (its settings and root, found at start-up as `toolsense check` finds them). Paths are
relative to the project root (or absolute inside it) and never leave it. Nothing is written: `fix` returns the
fixed text and the agent writes it with its own edit tool, so the change shows in its diff and review like any
other edit.
"""

from __future__ import annotations

import difflib
import io
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ..document.document import Document
from ..engine.catalog import Rule, UnitKind
from ..engine.checker import Diagnostic, UnitCache, check_document
from ..engine.context import CheckContext
from ..engine.findings import Severity
from ..engine.registry_files import load_registry_extras
from ..engine.units import forced_dialect, kind_from_path
from ..engine.workspace import LoadedFile, Workspace, document_tools, path_to_uri
from ..fixes import Checker, fix_document
from ..models.tool_schema import generate_schema, tool_definition
from ..rules import CATALOG
from ..settings import Settings
from ..usermodels import SETTINGS_UNTRUSTED, load_models, load_models_for_cli, split_target

DEFAULT_INLINE_NAME = "input.json"
"""A name that forces no kind: the content says whether the text is tools, calls or automations."""


class ToolError(Exception):
    """A request the tool cannot answer; the message goes back to the agent as an error result."""


@dataclass(frozen=True)
class Project:
    settings: Settings
    root: Path
    untrusted_because: str = SETTINGS_UNTRUSTED
    """Why the project's code is not imported, when `settings.trusted` is false."""

    def resolve(self, given: str) -> Path:
        """A path given by the agent (relative to the project root, or absolute inside it), never leaving the
        root: no `..`, no way out through a symbolic link."""
        pure = PurePosixPath(given.replace("\\", "/"))
        if not given.strip() or ".." in pure.parts:
            raise ToolError(f"expected a path inside the project without '..', got {given!r}")
        _nameable(given, "path")
        root = self.root.resolve()
        try:
            path = (root / Path(given)).resolve()
            if not path.is_relative_to(root):
                raise ToolError(f"{given!r} is outside the project root {root}")
            if not path.exists():
                raise ToolError(f"no such file or directory in the project: {given!r}")
        except (OSError, ValueError) as error:  # a name too long for the file system, say
            raise ToolError(f"cannot use the path {given!r}: {_reason(error)}") from error
        return path

    def display(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()


def _nameable(given: str, what: str) -> None:
    """Refuse a path no file system can name: a NUL ends a C string (Python refuses it with ValueError)."""
    if "\0" in given:
        raise ToolError(f"expected a {what} without NUL characters, got {given!r}")


def _reason(error: Exception) -> str:
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


def _inline_path(project: Project, file_name: str | None) -> Path:
    name = file_name or DEFAULT_INLINE_NAME
    pure = PurePosixPath(name.replace("\\", "/"))
    _nameable(name, "file name")
    root = project.root.resolve()
    try:
        path = (root / pure).resolve() if not pure.is_absolute() else Path(name).resolve()
    except (OSError, ValueError) as error:
        raise ToolError(f"cannot use the file name {name!r}: {_reason(error)}") from error
    if ".." in pure.parts or not path.is_relative_to(root):
        raise ToolError(f"expected a file name inside the project without '..', got {name!r}")
    return path


def _workspace(project: Project, paths: list[Path], inline: tuple[Path, str] | None) -> tuple[Workspace, list[str]]:
    """The files checked together (each one's tools known to the others), with the notes of loading them."""
    settings = project.settings
    workspace = Workspace(settings, CATALOG)
    notes = io.StringIO()
    workspace.models = load_models_for_cli(settings, project.root, notes, project.untrusted_because)
    workspace.add(paths)
    if inline is not None:
        path, text = inline
        uri = path_to_uri(path)
        document = Document(uri, bytearray(text.encode("utf-8", "surrogatepass")))  # as the editor reads text
        kind = kind_from_path(str(path), settings)
        workspace.files[path] = LoadedFile(path, uri, document)
        workspace.kinds[path] = kind
        workspace.registry.set_file(uri, document_tools(document, kind, forced_dialect(str(path), settings)))
    problems = load_registry_extras(workspace.registry, settings, project.root)
    if problems:
        raise ToolError("invalid configuration: " + "; ".join(str(problem) for problem in problems))
    return workspace, [line.removeprefix("toolsense: ") for line in notes.getvalue().splitlines() if line]


def _summary(results: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    counts = {severity.label: 0 for severity in Severity}
    for findings in results.values():
        for finding in findings:
            counts[finding["severity"]] += 1
    return {"files": len(results), **counts}


def check(project: Project, paths: list[str], text: str | None, file_name: str | None) -> dict[str, Any]:
    """The findings of the files and the inline text, as `toolsense check --format json` reports them."""
    if not paths and text is None:
        raise ToolError("give 'paths' (files or folders in the project) or 'text' (the JSON to check)")
    resolved = [project.resolve(path) for path in paths]
    inline = (_inline_path(project, file_name), text) if text is not None else None
    workspace, notes = _workspace(project, resolved, inline)
    results = workspace.check_all()
    shown: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(results):
        name = project.display(path)
        shown[name] = [diagnostic.to_json(name) for diagnostic in results[path]]
    findings = [finding for file_findings in shown.values() for finding in file_findings]
    return {"findings": findings, "summary": _summary(shown), "notes": notes}


def _checker(context: CheckContext, kind: UnitKind | None) -> Checker:
    cache = UnitCache()

    def run(document: Document) -> list[Diagnostic]:
        return check_document(document, context, kind, cache).diagnostics

    return run


def fix(
    project: Project, path: str | None, text: str | None, file_name: str | None, unsafe: bool = False
) -> dict[str, Any]:
    """The text with the safe fixes applied (also the unsafe ones when asked), and what remains; writes nothing."""
    if (path is None) == (text is None):
        raise ToolError("give either 'path' (a file in the project) or 'text' (the JSON to fix)")
    if path is not None:
        resolved = project.resolve(path)
        if not resolved.is_file():
            raise ToolError(f"{path!r} is not a file")
        try:
            text = resolved.read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise ToolError(f"cannot read {path!r}: {error}") from error
        target = resolved
    else:
        target = _inline_path(project, file_name)
    assert text is not None
    workspace, notes = _workspace(project, [], (target, text))
    loaded = workspace.files[target]
    assert loaded.document is not None
    kind = workspace.kinds[target]
    context = workspace.context(loaded.uri)
    outcome = fix_document(loaded.document, _checker(context, kind), unsafe)
    name = project.display(target)
    return {
        "text": outcome.data.decode("utf-8", "surrogatepass") if outcome.changed else text,
        "changed": outcome.changed,
        "applied": outcome.applied,
        "remaining": [diagnostic.to_json(name) for diagnostic in outcome.diagnostics],
        "notes": notes,
    }


def rule_json(rule: Rule) -> dict[str, Any]:
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.label,
        "family": rule.family,
        "summary": rule.summary,
        "fix": rule.fix or None,
        "docs": rule.url,
    }


def explain_rule(project: Project, code: str) -> dict[str, Any]:
    """A rule by code (`TS220`) or name (`schema-type-missing`), with the severity this project gives it."""
    wanted = code.strip()
    by_name = {rule.name: rule for rule in CATALOG.rules.values()}
    rule = CATALOG.rules.get(wanted.upper()) or by_name.get(wanted.lower())
    if rule is None:
        close = difflib.get_close_matches(wanted.upper(), list(CATALOG.rules), n=3)
        close += difflib.get_close_matches(wanted.lower(), list(by_name), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ToolError(f"no rule {wanted!r}{hint}")
    explained = rule_json(rule)
    explained["project_severity"] = project.settings.severity.get(rule.code, rule.severity.label)
    return explained


def schema_for_model(
    project: Project, model: str, tool_name: str | None, description: str | None, dialect: str
) -> dict[str, Any]:
    """The strict JSON Schema (or, with a tool name, a whole tool definition) of a model the project's settings
    register under `[tool.toolsense.models]`: only those are imported, never an arbitrary module."""
    settings = project.settings
    registered = dict(settings.models)
    target = registered.get(model, model)
    if target not in registered.values():
        known = ", ".join(sorted(set(registered.values()))) or "none"
        raise ToolError(f"{model!r} is not a model registered in the project's settings (registered: {known})")
    if split_target(target) is None:
        raise ToolError(f"expected package.module:Model, got {target!r}")
    if not settings.trusted:
        raise ToolError(f"registered models are not imported: {project.untrusted_because}")
    key = tool_name or "model"
    python_path = settings.python_path or (".",)
    loaded_models = load_models(Settings(models={key: target}, python_path=python_path), project.root)
    loaded = loaded_models.model_for(key)
    if loaded is None:
        problems = "; ".join(problem.message for problem in loaded_models.problems) or "it could not be imported"
        raise ToolError(f"{target}: {problems}")
    if tool_name is None:
        return {"model": target, "schema": generate_schema(loaded.model)}
    if description is None and not (loaded.model.__doc__ or "").strip():
        raise ToolError("the model has no docstring: give 'description'")
    try:
        definition = tool_definition(loaded.model, tool_name, description, dialect)
    except ValueError as error:
        raise ToolError(str(error)) from error
    return {"model": target, "schema": definition}
