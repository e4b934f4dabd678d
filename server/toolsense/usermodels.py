"""Registered user models (`[tool.toolsense.models]`, `[tool.toolsense.enums]`): imported only when trusted.

settings.models maps a tool name to `"package.module:Model"` (a pydantic model of the tool's input);
settings.enums maps a schema name (a `$defs` key or `title`, or `tool#/json/pointer`) to `"package.module:Enum"`.
`python_path` entries (relative to the project root) are added to the import path.

User code must never freeze or kill toolsense, so importing is done in two steps, both bounded by
`limits.model_import_timeout_s`:
1. a *probe* in a child process imports each module; one that hangs, loops, exits or crashes is found there
   and never imported here;
2. modules that imported cleanly in the probe are imported here in a daemon thread; the caller waits at most
   the timeout and carries on either way.
Every failure is a `ModelProblem` (reported as a diagnostic by the rules, and by the CLI on stderr), never an
exception. What user code writes to standard output never reaches toolsense's: the probe child points its fd 1
at stderr, and the CLI and the server do the same for the whole process (`cli.own_stdout`).
`start_loading` does it all in the background and calls back when done (the language server's
way); `load_models` waits for it (the CLI's way).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import itertools
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel

from .config_files import config_link_reason
from .modelprobe import probe_modules
from .models.model_schema import model_schema
from .settings import Settings

IMPORT_FAILED = "TS801"
IMPORT_TIMEOUT = "TS802"
NOT_A_MODEL = "TS803"
BAD_TARGET = "TS804"


@dataclass(frozen=True)
class LoadedModel:
    """A registered pydantic model: the class, where it is defined, and its JSON Schema."""

    tool: str
    target: str
    model: type[BaseModel]
    location: str
    """`module:Qualname (path/to/file.py:LINE)`"""
    schema: dict[str, Any]
    """`model_json_schema()` with `additionalProperties: false` closed and Python member names beside enums."""
    locations: dict[str, str] = field(default_factory=dict)
    """`$defs` name → location of the nested model or enum class."""

    def location_of(self, definition: str | None) -> str:
        if definition is not None and definition in self.locations:
            return self.locations[definition]
        return self.location


@dataclass(frozen=True)
class LoadedEnum:
    key: str
    target: str
    enum: type[Enum]
    location: str

    @property
    def values(self) -> list[Any]:
        return [member.value for member in self.enum]


@dataclass(frozen=True)
class ModelProblem:
    """A registered model or enum that could not be used, and why."""

    section: str
    """"models" or "enums"."""
    key: str
    target: str
    code: str
    message: str


_registry_serials = itertools.count(1)


@dataclass
class ModelRegistry:
    """What was loaded, what failed, and where the registration lives (for placing problems)."""

    models: dict[str, LoadedModel] = field(default_factory=dict)
    enums: dict[str, LoadedEnum] = field(default_factory=dict)
    problems: list[ModelProblem] = field(default_factory=list)
    config_path: Path | None = None
    serial: int = field(default_factory=lambda: next(_registry_serials), compare=False)
    """Unique per registry (a load makes a new one): cached findings remember which models they were made with."""

    def model_for(self, tool: str) -> LoadedModel | None:
        return self.models.get(tool)

    def problem_for(self, key: str, section: str = "models") -> ModelProblem | None:
        for problem in self.problems:
            if problem.key == key and problem.section == section:
                return problem
        return None


def setting_location(config_path: Path, section: str, key: str) -> tuple[int, int, int] | None:
    """(line, start column, end column), 0-based, of a registration's key in a TOML config file, for placing
    a problem on the settings entry. Finds `key = ...` inside `[..models]` / `[..enums]`, or `models = {..}`."""
    try:
        lines = config_path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    in_section = False
    candidates = (f'"{key}"', f"'{key}'", key)
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("["):
            header = stripped.strip("[]").strip()
            in_section = header in (section, f"tool.toolsense.{section}")
            continue
        if in_section or stripped.startswith(f"{section} ") or stripped.startswith(f"{section}="):
            for candidate in candidates:
                column = line.find(candidate)
                if column >= 0:
                    after = line[column + len(candidate) :].lstrip()
                    if after.startswith("="):
                        return number, column, column + len(candidate)
    return None


# --- where a target lives ----------------------------------------------------------------------------------


def split_target(target: str) -> tuple[str, str] | None:
    module, sep, qualname = target.partition(":")
    if not sep or not module or not qualname or not all(p.isidentifier() for p in module.split(".")):
        return None
    if not all(part.isidentifier() for part in qualname.split(".")):
        return None
    return module, qualname


def import_paths(settings: Settings, root: Path) -> list[str]:
    paths = [str((root / entry).resolve()) for entry in settings.python_path]
    return paths or [str(root.resolve())]


def _location(obj: Any) -> str:
    module = getattr(obj, "__module__", "?")
    qualname = getattr(obj, "__qualname__", getattr(obj, "__name__", "?"))
    try:
        file = inspect.getsourcefile(obj)
        _, line = inspect.getsourcelines(obj)
    except (OSError, TypeError):
        return f"{module}:{qualname}"
    shown = file or "?"
    with contextlib.suppress(ValueError):
        shown = os.path.relpath(shown)
    return f"{module}:{qualname} ({shown}:{line})"


# --- step 2: importing here ---------------------------------------------------------------------------------


def _import_in_thread(modules: list[str], paths: list[str], timeout: float) -> dict[str, Any]:
    """module → the module object, or an exception / None (timed out)."""
    for path in reversed(paths):
        if path not in sys.path:
            sys.path.insert(0, path)
    found: dict[str, Any] = {}

    def work() -> None:
        for module in modules:
            try:
                found[module] = importlib.import_module(module)
            except BaseException as error:  # SystemExit at import time must not end toolsense either
                found[module] = error

    thread = threading.Thread(target=work, name="toolsense-import-models", daemon=True)
    thread.start()
    thread.join(timeout)
    return dict(found)


def _resolve(module: Any, qualname: str) -> Any:
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def load_models(
    settings: Settings,
    root: Path,
    config_path: Path | None = None,
    timeout: float | None = None,
) -> ModelRegistry:
    """Import the registered models and enums (the caller decides about trust). Bounded by the timeout."""
    timeout = settings.limits.model_import_timeout_s if timeout is None else timeout
    registry = ModelRegistry(config_path=config_path)
    entries = [("models", k, v) for k, v in settings.models.items()] + [
        ("enums", k, v) for k, v in settings.enums.items()
    ]
    if not entries:
        return registry
    parsed: list[tuple[str, str, str, str, str]] = []
    for section, key, target in entries:
        split = split_target(target)
        if split is None:
            registry.problems.append(
                ModelProblem(section, key, target, BAD_TARGET, f"'{target}' is not of the form package.module:Name")
            )
            continue
        parsed.append((section, key, target, *split))
    paths = import_paths(settings, root)
    modules = list(dict.fromkeys(module for *_, module, _ in parsed))
    probed = probe_modules(modules, paths, timeout)
    clean = [m for m in modules if probed.get(m) is None]
    imported = _import_in_thread(clean, paths, timeout) if clean else {}
    for section, key, target, module_name, qualname in parsed:
        module = imported.get(module_name)
        problem = probed.get(module_name)
        if problem is not None:
            code = IMPORT_TIMEOUT if "longer than" in problem else IMPORT_FAILED
            registry.problems.append(
                ModelProblem(section, key, target, code, f"cannot import '{module_name}': {problem}")
            )
            continue
        if module is None:
            registry.problems.append(
                ModelProblem(
                    section, key, target, IMPORT_TIMEOUT, f"importing '{module_name}' took longer than {timeout:g} s"
                )
            )
            continue
        if isinstance(module, BaseException):
            text = f"{type(module).__name__}: {module}"
            registry.problems.append(
                ModelProblem(section, key, target, IMPORT_FAILED, f"cannot import '{module_name}': {text}")
            )
            continue
        try:
            obj = _resolve(module, qualname)
        except AttributeError:
            registry.problems.append(
                ModelProblem(section, key, target, IMPORT_FAILED, f"'{module_name}' has no '{qualname}'")
            )
            continue
        if section == "models":
            if not (isinstance(obj, type) and issubclass(obj, BaseModel)):
                registry.problems.append(
                    ModelProblem(section, key, target, NOT_A_MODEL, f"'{target}' is not a pydantic model class")
                )
                continue
            try:
                registry.models[key] = _loaded_model(key, target, obj)
            except Exception as error:  # a model whose schema cannot be generated
                registry.problems.append(
                    ModelProblem(
                        section,
                        key,
                        target,
                        NOT_A_MODEL,
                        f"'{target}' has no JSON Schema: {type(error).__name__}: {error}",
                    )
                )
        else:
            if not (isinstance(obj, type) and issubclass(obj, Enum)):
                registry.problems.append(
                    ModelProblem(section, key, target, NOT_A_MODEL, f"'{target}' is not an Enum class")
                )
                continue
            registry.enums[key] = LoadedEnum(key, target, obj, _location(obj))
    return registry


def _loaded_model(tool: str, target: str, model: type[BaseModel]) -> LoadedModel:
    from .models.base import close_objects

    schema = json.loads(json.dumps(model_schema(model)))
    close_objects(schema)
    return LoadedModel(tool, target, model, _location(model), schema, _definition_locations(model))


def _definition_locations(model: type[BaseModel]) -> dict[str, str]:
    """`$defs` names (pydantic uses class names) → where the nested models and enums are defined."""
    from typing import get_args

    found: dict[str, str] = {}
    stack: list[Any] = [model]
    seen: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, type) and issubclass(current, (BaseModel, Enum)):
            found.setdefault(current.__name__, _location(current))
            if issubclass(current, BaseModel):
                for info in current.model_fields.values():
                    stack.append(info.annotation)
            continue
        stack.extend(get_args(current))
    return found


# --- the two ways of calling -----------------------------------------------------------------------------


class Loading:
    """A background load: `result()` waits (bounded), `done` says whether it finished."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._registry: ModelRegistry | None = None

    @property
    def done(self) -> bool:
        return self._event.is_set()

    def _finish(self, registry: ModelRegistry) -> None:
        self._registry = registry
        self._event.set()

    def result(self, timeout: float | None = None) -> ModelRegistry | None:
        self._event.wait(timeout)
        return self._registry


def start_loading(
    settings: Settings,
    root: Path,
    on_done: Callable[[ModelRegistry], None] | None = None,
    config_path: Path | None = None,
) -> Loading:
    """Load in a daemon thread and return at once; `on_done(registry)` runs in that thread when finished."""
    loading = Loading()

    def work() -> None:
        try:
            registry = load_models(settings, root, config_path)
        except Exception as error:  # never let loading user code take anything down
            registry = ModelRegistry(config_path=config_path)
            registry.problems.append(
                ModelProblem("models", "*", "", IMPORT_FAILED, f"loading registered models failed: {error!r}")
            )
        loading._finish(registry)
        if on_done is not None:
            on_done(registry)

    threading.Thread(target=work, name="toolsense-load-models", daemon=True).start()
    return loading


SETTINGS_UNTRUSTED = "the settings say trusted = false"


def load_models_for_cli(
    settings: Settings, root: Path, err: TextIO, untrusted_because: str = SETTINGS_UNTRUSTED
) -> ModelRegistry | None:
    """The CLI is trusted (unless the settings say `trusted = false`); returns the loaded model registry, or
    None when no models or enums are registered. Problems are printed to err (and reported as diagnostics)."""
    if not settings.models and not settings.enums:
        return None
    config_path = _config_file(root)
    if not settings.trusted:
        err.write(f"toolsense: registered models are not imported: {untrusted_because}\n")
        return None
    started = time.monotonic()
    loading = start_loading(settings, root, config_path=config_path)
    limit = 3 * settings.limits.model_import_timeout_s + 5
    registry = loading.result(limit)
    if registry is None:
        err.write(f"toolsense: registered models still loading after {time.monotonic() - started:.0f} s; skipped\n")
        return None
    for problem in registry.problems:
        where = ""
        if config_path is not None:
            found = setting_location(config_path, problem.section, problem.key)
            if found is not None:
                where = f"{config_path}:{found[0] + 1}:{found[1] + 1}: "
        err.write(f"toolsense: {where}{problem.section[:-1]} '{problem.key}' ({problem.target}): {problem.message}\n")
    return registry


def _config_file(root: Path) -> Path | None:
    """The configuration file in root that messages point into (never one that is a link: it is not read)."""
    for name in ("toolsense.toml", "pyproject.toml"):
        candidate = root / name
        if config_link_reason(candidate) is None and candidate.is_file():
            return candidate
    return None
