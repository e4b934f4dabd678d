"""Registered models in the language server: loaded in the background when the workspace is trusted
— never blocking a request, bounded by `limits.model_import_timeout_s` (see `toolsense.usermodels`) — and again
when the settings that name them change; then every open document is checked again. Problems (an import that
fails or hangs) are shown with the settings entry's place; the rules also report them on the tools and calls."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types

from ..settings import Settings
from ..textsafety import escape_controls
from ..usermodels import ModelRegistry, setting_location, start_loading
from .server import ToolsenseServer

log = logging.getLogger(__name__)


def _key(settings: Settings) -> tuple[Any, ...]:
    return (
        tuple(sorted(settings.models.items())),
        tuple(sorted(settings.enums.items())),
        settings.python_path,
        settings.trusted,
        settings.limits.model_import_timeout_s,
    )


def register(server: ToolsenseServer) -> None:
    generation = [0]

    def start() -> None:
        generation[0] += 1
        current = generation[0]
        settings = server.settings
        if not (settings.models or settings.enums) or not settings.trusted:
            _publish_on_config(None, [])
            if (settings.models or settings.enums) and not settings.trusted:
                server.show(
                    "toolsense: registered models are not imported: the workspace is not trusted "
                    "(tool calls are checked against the tools' input_schema instead)",
                    types.MessageType.Info,
                )
            if server.models is not None:
                server.models = None
                server.recheck_all("models")
            return
        if server.config_path is not None:
            root = server.config_path.parent
        else:
            root = server.roots[0] if server.roots else Path.cwd()
        loop = asyncio.get_event_loop()

        def done(registry: ModelRegistry) -> None:
            loop.call_soon_threadsafe(apply, registry, current)

        server.model_loading = start_loading(settings, root, done, server.config_path)

    published: list[str] = []

    def apply(registry: ModelRegistry, loaded_generation: int) -> None:
        if loaded_generation != generation[0]:
            return  # settings changed while loading: a newer load is on its way
        server.models = registry
        diagnostics: list[types.Diagnostic] = []
        for problem in registry.problems:
            where = ""
            found = None
            if registry.config_path is not None:
                found = setting_location(registry.config_path, problem.section, problem.key)
                if found is not None:
                    where = f" ({registry.config_path.name}:{found[0] + 1})"
            text = f"registered {problem.section[:-1]} '{problem.key}' ({problem.target}): {problem.message}"
            server.show(f"toolsense: {text}{where}")
            if found is not None:
                line, start, end = found
                diagnostics.append(
                    types.Diagnostic(
                        types.Range(types.Position(line, start), types.Position(line, end)),
                        escape_controls(text),
                        severity=types.DiagnosticSeverity.Error,
                        code=problem.code,
                        source="toolsense",
                    )
                )
        _publish_on_config(registry.config_path, diagnostics)
        server.recheck_all("models")

    def _publish_on_config(config_path: Path | None, diagnostics: list[types.Diagnostic]) -> None:
        """The problems on the settings entries themselves (the config file is not a document we check)."""
        uris = [config_path.resolve().as_uri()] if config_path is not None else []
        for uri in [*published, *uris]:
            try:
                server.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri, diagnostics if uri in uris else [])
                )
            except Exception:
                log.exception("could not publish the model problems")
        published[:] = uris if diagnostics else []

    async def load_on_startup() -> None:
        start()

    server.startup_hooks.append(load_on_startup)
    server.settings_hooks.append(lambda old, new: start() if _key(old) != _key(new) else None)
