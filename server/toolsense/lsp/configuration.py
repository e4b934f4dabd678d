"""Settings: the workspace's toolsense.toml / pyproject.toml, then the client's options on top.

The client's options are `initializationOptions` (same keys as `[tool.toolsense]`, plus `trusted`), then the
answer to `workspace/configuration` (section "toolsense") when the client supports it, then whatever
`workspace/didChangeConfiguration` sends. Each source is validated on its own so a problem names where it came
from; an invalid key is reported with `window/showMessage` (key, expected type) and its default is used.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from lsprotocol import types

from ..config_files import ConfigFileError, discover_config, read_config_section
from ..settings import SettingsProblem, cap_repository_limits, client_trust, settings_from_mapping
from .server import ToolsenseServer

log = logging.getLogger(__name__)

SECTION = "toolsense"
INIT_SOURCE = "initializationOptions"
CLIENT_SOURCE = "client settings (toolsense)"


def _merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = _merge(result[key], value)
        else:
            result[key] = value
    return result


def _valid_part(data: Any, source: str) -> tuple[dict[str, Any], list[SettingsProblem]]:
    """The keys of one source that validate (as a plain mapping), and the problems of the others."""
    settings, problems = settings_from_mapping(data, source)
    return settings.model_dump(mode="json", exclude_unset=True), problems


def _file_part(server: ToolsenseServer) -> tuple[dict[str, Any], list[SettingsProblem]]:
    """The keys of the workspace's configuration file that validate, its `[limits]` kept under the caps a
    repository may set (the client's settings, the user's own, may go higher), and the problems."""
    source = str(server.config_path) if server.config_path is not None else "configuration file"
    settings, problems = settings_from_mapping(server.file_options, source)
    settings, capped = cap_repository_limits(settings, source)
    notes = [SettingsProblem(p.source, FILE_KEY, f"setting '{p.key}': {p.message}") for p in capped]
    return settings.model_dump(mode="json", exclude_unset=True), problems + notes


def read_config_file(server: ToolsenseServer) -> list[SettingsProblem]:
    """Find and read the workspace's configuration file into `server.file_options`."""
    root = server.roots[0] if server.roots else None
    search = discover_config(root, workspace=root) if root is not None else None
    server.config_path = search.path if search is not None else None
    server.file_options = {}
    skipped = [SettingsProblem("configuration", FILE_KEY, note) for note in (search.skipped if search else ())]
    if server.config_path is None:
        return skipped
    try:
        section = read_config_section(server.config_path)
    except ConfigFileError as error:
        server.config_path = None  # refused or unreadable: nothing of it applies, nothing is written into it
        return [*skipped, SettingsProblem("configuration", FILE_KEY, str(error))]
    server.file_options = section if isinstance(section, dict) else {}
    return skipped


def apply_settings(server: ToolsenseServer, extra_problems: list[SettingsProblem] | None = None) -> bool:
    """Validate and merge every source; report new problems; True when the effective settings changed."""
    problems = list(extra_problems or [])
    file_part, file_problems = _file_part(server)
    client_part, client_problems = _valid_part(server.client_options, server.client_source)
    problems += file_problems + client_problems
    settings, merge_problems = settings_from_mapping(_merge(file_part, client_part), "settings")
    problems += merge_problems
    trust = client_trust(server.init_options)
    if (trust is False or (trust is None and server.remote)) and settings.trusted:
        # Trust is the client's decision at start-up; nothing later (a settings push or pull, the workspace's
        # own toolsense.toml) raises it. A client that is granted trust restarts the server (the extension does).
        # Anything but the boolean true (`"false"`, `0`) is not trusted, and over TCP neither is silence.
        settings = settings.model_copy(update={"trusted": False})
    outside = _config_outside_workspace(server)
    if outside is not None and settings.trusted and (settings.models or settings.enums):
        problems.append(SettingsProblem(str(outside), FILE_KEY, OUTSIDE_NOTE.format(root=server.roots[0])))
        settings = settings.model_copy(update={"trusted": False})
    report_problems(server, problems)
    old = server.settings
    if settings == old:
        return False
    server.settings = settings
    for hook in server.settings_hooks:
        try:
            hook(old, settings)
        except Exception:
            log.exception("settings hook failed")
    for od in server.documents.values():
        od.kind_hint = server.kind_hint(od.uri)
    server.recheck_all("settings")
    return True


FILE_KEY = "<file>"
OUTSIDE_NOTE = (
    "registered models are not imported: this configuration is above the workspace folder {root} "
    "(open the folder that holds it to use them)"
)


def _config_outside_workspace(server: ToolsenseServer) -> Path | None:
    """The configuration file when it was found above the workspace folder (its settings apply; it does not
    make the server import user code)."""
    if server.config_path is None or not server.roots:
        return None
    root = server.roots[0].resolve()
    folder = server.config_path.resolve().parent
    return server.config_path if folder != root and folder in root.parents else None


def report_problems(server: ToolsenseServer, problems: list[SettingsProblem]) -> None:
    for problem in problems:
        if problem.key == FILE_KEY:
            text = f"toolsense: {problem.source}: {problem.message}"
        else:
            text = (
                f"toolsense: invalid setting '{problem.key}' in {problem.source}: {problem.message}. Using the default."
            )
        if text in server.shown_problems:
            continue
        server.shown_problems.add(text)
        log.warning("%s", text)
        server.show(text)


def _options(value: Any) -> dict[str, Any] | None:
    """A settings mapping from a client payload: `{...}` or `{"toolsense": {...}}`; None when absent."""
    if not isinstance(value, dict):
        return None
    if set(value) == {SECTION} and isinstance(value[SECTION], dict):
        return dict(value[SECTION])
    return dict(value)


async def pull_configuration(server: ToolsenseServer) -> bool:
    """Ask the client for the "toolsense" section; True when it answered with settings."""
    if not server.caps.configuration:
        return False
    scope = server.roots[0].as_uri() if server.roots else None
    try:
        result = await server.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(scope_uri=scope, section=SECTION)])
        )
    except Exception:
        log.warning("workspace/configuration failed", exc_info=True)
        return False
    answer = _options(result[0] if isinstance(result, (list, tuple)) and result else None)
    if not answer:
        return False
    server.client_options = _merge(server.init_options, answer)
    server.client_source = CLIENT_SOURCE
    return True


def register(server: ToolsenseServer) -> None:
    @server.feature(types.INITIALIZE)
    @server.guard(lambda: None)
    def initialize(params: types.InitializeParams) -> None:
        server.read_client_capabilities(params.capabilities)
        server.set_roots(params)
        options = _options(params.initialization_options) or {}
        server.init_options = options
        server.client_options = options
        server.client_source = INIT_SOURCE
        problems = read_config_file(server)
        # Validate now (the first checks need the settings); messages wait for `initialized`.
        file_part, _ = _file_part(server)
        client_part, _ = _valid_part(options, INIT_SOURCE)
        server.settings, _ = settings_from_mapping(_merge(file_part, client_part), "settings")
        server.pending_problems = problems

    @server.feature(types.INITIALIZED)
    @server.guard(lambda: None)
    async def initialized(params: types.InitializedParams) -> None:
        await pull_configuration(server)
        apply_settings(server, server.pending_problems)
        for hook in server.startup_hooks:
            server.spawn(hook(), getattr(hook, "__name__", "startup"))
        server.started = True

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @server.guard(lambda: None)
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        options = _options(params.settings)
        if options:
            server.client_options = options
            server.client_source = CLIENT_SOURCE
        elif not await pull_configuration(server):
            return
        apply_settings(server)


async def reload_config_file(server: ToolsenseServer) -> None:
    """The configuration file changed on disk."""
    problems = read_config_file(server)
    apply_settings(server, problems)


def config_root(server: ToolsenseServer) -> Path:
    if server.config_path is not None:
        return server.config_path.parent
    return server.roots[0] if server.roots else Path.cwd()
