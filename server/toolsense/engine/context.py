"""What a rule may know besides its unit: settings and the workspace's tools. No positions, no I/O."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..document.jsontree import Pointer
from ..settings import Settings
from .schemas import closest


@dataclass(frozen=True)
class ToolInfo:
    """A tool known to the workspace: where it is defined and what it accepts and returns."""

    name: str
    uri: str
    pointer: Pointer
    name_pointer: Pointer
    dialect: str
    input_schema: dict[str, Any] | None
    output_schema: dict[str, Any] | None = None
    description: str | None = None
    schema_pointer: Pointer = ()
    source: str = "workspace"


@dataclass
class ToolRegistry:
    """The tools an automation or a tool call may name: tool files (open or on disk) and extra registries.

    `version` changes whenever the set of tools changes, so cached results that depend on it are dropped.
    """

    by_uri: dict[str, list[ToolInfo]] = field(default_factory=dict)
    version: int = 0
    samples: dict[str, Any] = field(default_factory=dict)
    """Sample outputs (settings `samples`): tool name (or `webhook:<service>:<event_type>`) -> decoded JSON."""
    live: dict[str, Any] = field(default_factory=dict)
    """What the editor learnt by running something when asked (a live MCP server's check summary), by key."""
    changes_by_uri: dict[str, int] = field(default_factory=dict, repr=False)
    """How many of the `version` bumps came from each file's tools (see `version_excluding`)."""
    _by_name: dict[str, list[ToolInfo]] | None = field(default=None, repr=False)

    def set_file(self, uri: str, tools: Iterable[ToolInfo]) -> bool:
        """Replace the tools of one file; True when that changed anything."""
        new = list(tools)
        if self.by_uri.get(uri, []) == new:
            return False  # none before and none now is no change (two tool-less files re-checked each other forever)
        if new:
            self.by_uri[uri] = new
        else:
            self.by_uri.pop(uri, None)
        self.version += 1
        self.changes_by_uri[uri] = self.changes_by_uri.get(uri, 0) + 1
        self._by_name = None
        return True

    def version_excluding(self, uri: str) -> int:
        """The registry's version ignoring changes made by one file's own tools.

        A file's units read their own tools from the file itself; only other files' tools are outside
        knowledge. So a keystroke in a tool file that updates its own registry entry must not invalidate the
        cached results of every other unit of that same file (each keystroke would re-check them all).
        """
        return self.version - self.changes_by_uri.get(uri, 0)

    def remove_file(self, uri: str) -> bool:
        return self.set_file(uri, [])

    def set_samples(self, samples: dict[str, Any]) -> bool:
        """Replace the sample outputs; True when that changed anything (cached results are then dropped)."""
        if samples == self.samples:
            return False
        self.samples = dict(samples)
        self.version += 1
        return True

    def set_live(self, key: str, value: Any) -> None:
        """Remember a live result (cached results are dropped: rules read it)."""
        self.live = {**self.live, key: value}
        self.version += 1

    def _index(self) -> dict[str, list[ToolInfo]]:
        if self._by_name is None:
            index: dict[str, list[ToolInfo]] = {}
            for uri in sorted(self.by_uri):
                for tool in self.by_uri[uri]:
                    index.setdefault(tool.name, []).append(tool)
            self._by_name = index
        return self._by_name

    def lookup(self, name: str) -> ToolInfo | None:
        found = self._index().get(name)
        return found[0] if found else None

    def definitions(self, name: str) -> list[ToolInfo]:
        return list(self._index().get(name, []))

    def names(self) -> list[str]:
        return sorted(self._index())

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        return closest(name, self._index(), limit=limit, cutoff=0.5)

    def tools_by_dependents(self) -> dict[str, list[str]]:
        """uri -> tool names it defines (for re-checking dependents when a file changes)."""
        return {uri: [t.name for t in tools] for uri, tools in self.by_uri.items()}


@dataclass(frozen=True)
class CheckContext:
    settings: Settings
    registry: ToolRegistry
    uri: str = ""
    trusted: bool = True
    models: Any = None
    """Registered user models (toolsense.usermodels.ModelRegistry) when loaded; None otherwise."""

    def fingerprint(self) -> tuple[int, int, int]:
        """Changes whenever something a cached unit result depends on changes."""
        return (id(self.settings), self.registry.version_excluding(self.uri), id(self.models))
