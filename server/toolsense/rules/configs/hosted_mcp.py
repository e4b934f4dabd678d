"""Remote MCP servers named in a request rather than in a client's configuration: OpenAI's hosted `mcp` tool
(`server_url`, `headers`, `authorization`) and Anthropic's `mcp_servers` entries (`url`, `authorization_token`),
with the `mcp_toolset` tool that names one. They get the client configurations' security rules (TS940 a secret
written inline, TS943 plain http: `config_security.remote_server_findings`), and the entries their model.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ...domain.validation import model_findings
from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.units import Unit
from ...jsonvalue import short_repr
from ...mcp_live.config import EntryView
from ...models.tool_features import AnthropicMcpServer
from ..catalog import CATALOG
from .config_security import remote_server_findings

FAMILY = "Tool definitions: 2026 features"

TOOLSET_SERVER = CATALOG.rule(
    "TS249",
    "mcp-toolset-unknown-server",
    Severity.ERROR,
    "An Anthropic `mcp_toolset` tool names a server (`mcp_server_name`) that the request's `mcp_servers` does not "
    "list.",
    FAMILY,
)


def _view(url: Any, url_key: str, headers: Any = None) -> EntryView:
    return EntryView(
        "http",
        (),
        {},
        ("env",),
        url if isinstance(url, str) else None,
        (url_key,),
        {k: v for k, v in headers.items() if isinstance(k, str)} if isinstance(headers, dict) else {},
        ("headers",),
        None,
        None,
        False,
    )


@CATALOG.unit_check("tool")
def hosted_mcp_security(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    """OpenAI's hosted `mcp` tool: its URL, headers and OAuth token, as a client's entry's would be judged."""
    value = unit.value
    if unit.dialect is not None or not isinstance(value, dict) or value.get("type") != "mcp":
        return
    label = value.get("server_label")
    name = label if isinstance(label, str) else "mcp"
    view = _view(value.get("server_url"), "server_url", value.get("headers"))
    yield from remote_server_findings(
        name, (), view, (("authorization", value.get("authorization"), ("authorization",)),)
    )


@CATALOG.unit_check("tool")
def toolset_server(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    """An `mcp_toolset` must name one of the request's `mcp_servers` (the API rejects a name it does not know)."""
    value = unit.value
    if unit.dialect is not None or not isinstance(value, dict) or value.get("type") != "mcp_toolset":
        return
    name = value.get("mcp_server_name")
    servers = _servers(ctx)
    if not isinstance(name, str) or servers is None:
        return  # a tools file without its request: the servers are elsewhere
    names = [s.get("name") for s in servers if isinstance(s, dict) and isinstance(s.get("name"), str)]
    if name not in names:
        listed = ", ".join(short_repr(n) for n in names) or "none"
        yield Finding(
            TOOLSET_SERVER.code,
            f"mcp_toolset names the server {short_repr(name)}, which the request's mcp_servers does not list "
            f"(listed: {listed})",
            ("mcp_server_name",),
        )


def _servers(ctx: CheckContext) -> list[Any] | None:
    text = ctx.facts.mcp_servers
    if text is None:
        return None
    value = ctx.memo.of(json.loads)(text)  # read once per check, whichever rule asks first (only read)
    return value if isinstance(value, list) else None


@CATALOG.file_check("tool")
def mcp_servers_entries(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    """Each entry of an Anthropic request's `mcp_servers`: its model, then the security rules."""
    servers = _servers(ctx)
    if not servers:
        return
    for index, entry in enumerate(servers):
        pointer = ("mcp_servers", index)
        if not isinstance(entry, dict):
            continue
        name = entry.get("name") if isinstance(entry.get("name"), str) else f"mcp_servers[{index}]"
        for finding in model_findings(AnthropicMcpServer, entry, f"mcp_servers entry '{name}'"):
            yield finding.under(pointer)
        token = (("authorization_token", entry.get("authorization_token"), ("authorization_token",)),)
        # Anthropic's connector takes https:// only (ANTHROPIC_MCP_SERVER_TYPES' source): refused, not risky.
        yield from remote_server_findings(
            str(name), pointer, _view(entry.get("url"), "url"), token, https_only="Anthropic's MCP connector"
        )
