"""`toolsense check --stats`: what each tool costs in tokens, with totals per file, per MCP server and overall.

Written to stderr beside the files/s line, so standard output keeps only the report (valid JSON or SARIF
whatever --stats says). A file is a server's when it carries the server's `serverInfo` (a `tools/list` snapshot,
as `--snapshot` writes them); a server listed in several files is added up once per file.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from ..engine.token_costs import ToolCost, document_costs, total
from ..engine.units import forced_dialect, kind_from_path
from ..engine.workspace import load_file
from ..jsonvalue import loads
from ..settings import Settings
from ..tokens import ENCODING_NAME, TokenCount


def _tokens(count: TokenCount) -> str:
    return f"{'' if count.exact else '≈'}{count.tokens:,}"


def _server_name(data: bytes) -> str | None:
    if b'"serverInfo"' not in data:
        return None
    try:
        value = loads(data.decode("utf-8"))
    except ValueError:
        return None
    info = value.get("serverInfo") if isinstance(value, dict) else None
    name = info.get("name") if isinstance(info, dict) else None
    return name if isinstance(name, str) and name else None


def file_costs(paths: Iterable[Path], settings: Settings) -> list[tuple[Path, str | None, list[ToolCost]]]:
    """Each file that defines tools: its path, its MCP server (when it says), its tools' costs."""
    found: list[tuple[Path, str | None, list[ToolCost]]] = []
    for path in sorted(paths):
        loaded = load_file(path)
        if loaded.document is None:
            continue
        where = str(path.resolve())
        kind = kind_from_path(where, settings)
        costs = document_costs(loaded.document, kind, forced_dialect(where, settings))
        if costs:
            found.append((path, _server_name(bytes(loaded.document.data)), costs))
    return found


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def write_token_stats(paths: Iterable[Path], settings: Settings, err: TextIO) -> None:
    files = file_costs([p for p in paths if p.is_file()], settings)
    if not files:
        err.write("toolsense: no tool definitions: no token counts\n")
        return
    rows: list[tuple[str, str]] = []
    servers: dict[str, list[ToolCost]] = {}
    for path, server, costs in files:
        label = f"{_display(path)} ({len(costs)} tool{'s' if len(costs) != 1 else ''})"
        rows.append((label, _tokens(total(costs))))
        rows += [(f"  {cost.name}", _tokens(cost.count)) for cost in costs]
        if server is not None:
            servers.setdefault(server, []).extend(costs)
    for server, costs in sorted(servers.items()):
        rows.append((f"server {server} ({len(costs)} tool{'s' if len(costs) != 1 else ''})", _tokens(total(costs))))
    every = [cost for _, _, costs in files for cost in costs]
    rows.append(
        (f"total: {len(every)} tools in {len(files)} file{'s' if len(files) != 1 else ''}", _tokens(total(every)))
    )
    width = max(len(label) for label, _ in rows)
    numbers = max(len("tokens"), *(len(tokens) for _, tokens in rows))
    err.write(f"toolsense: tokens per tool ({ENCODING_NAME}; ≈ marks an estimate: exact for OpenAI dialects only)\n")
    err.write(f"{'file / tool':<{width}}  {'tokens':>{numbers}}\n")
    for label, tokens in rows:
        err.write(f"{label:<{width}}  {tokens:>{numbers}}\n")
