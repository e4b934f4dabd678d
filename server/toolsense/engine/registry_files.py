"""Extra registry sources named in settings: a registry file of tool definitions and sample outputs.

Read when the registry is built (CLI start, language-server initialisation or settings change), never inside a
rule. Paths are relative to the workspace / configuration root, and must stay under it (symlinks followed).

- `registry = "tools/registry.json"`: any file toolsense reads as tool definitions (one tool, an array,
  `{"tools": [...]}`, an MCP `tools/list` result); its tools join the workspace's.
- `[samples] oura_get_daily_sleep = "samples/sleep.json"`: what a tool returned once (its decoded JSON), for
  the automation preflight when the tool has no `outputSchema`. A webhook payload sample uses the key
  `webhook:<service>:<event_type>` (e.g. `"webhook:Gmail:message.created"`).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from ..settings import Settings
from .context import ToolRegistry
from .workspace import document_tools, load_file

REGISTRY_SOURCE = "registry"


@dataclasses.dataclass(frozen=True)
class RegistryProblem:
    key: str
    path: Path
    message: str

    def __str__(self) -> str:
        return f"setting '{self.key}': {self.path}: {self.message}"


def load_registry_extras(registry: ToolRegistry, settings: Settings, root: Path) -> list[RegistryProblem]:
    """Add the registry file's tools and the sample outputs to registry; problems are returned, never raised."""
    problems: list[RegistryProblem] = []
    if settings.registry:
        path = _resolve(root, settings.registry)
        loaded = load_file(path) if _inside(root, path) else None
        if loaded is None:
            problems.append(RegistryProblem("registry", path, _OUTSIDE.format(root=root)))
        elif loaded.problem is not None or loaded.document is None:
            message = loaded.problem.message if loaded.problem is not None else "cannot read"
            problems.append(RegistryProblem("registry", path, message))
        else:
            tools = [dataclasses.replace(t, source=REGISTRY_SOURCE) for t in document_tools(loaded.document, "tool")]
            if not tools:
                problems.append(RegistryProblem("registry", path, "no tool definitions found in this file"))
            registry.set_file(loaded.uri, tools)
    samples: dict[str, Any] = {}
    for name, relative in settings.samples.items():
        path = _resolve(root, relative)
        if not _inside(root, path):
            problems.append(RegistryProblem(f"samples.{name}", path, _OUTSIDE.format(root=root)))
            continue
        try:
            samples[name] = json.loads(path.read_text(encoding="utf-8-sig"))
        except OSError as error:
            problems.append(RegistryProblem(f"samples.{name}", path, f"cannot read: {error.strerror}"))
        except (UnicodeDecodeError, ValueError) as error:
            problems.append(RegistryProblem(f"samples.{name}", path, f"not valid JSON: {error}"))
    registry.set_samples(samples)
    return problems


_OUTSIDE = "outside the workspace ({root}); not read (toolsense reads no file outside the workspace)"


def _inside(root: Path, path: Path) -> bool:
    """Whether path (symlinks followed) lies under root: a repository's settings must not make toolsense read
    (and echo) files elsewhere on the machine, such as ~/.ssh or a CI runner's credentials."""
    try:
        path.resolve().relative_to(root.resolve())
    except (OSError, ValueError, RuntimeError):
        return False
    return True


def _resolve(root: Path, relative: str) -> Path:
    path = Path(relative).expanduser()
    return path if path.is_absolute() else root / path
