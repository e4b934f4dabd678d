"""Dated facts about the 2026 tool features of the providers and of MCP: each value list with the source it was read
from and the date it was read (`READ_ON`), the way `mcp_clients` keeps each client's. The models of those features
(`tool_features`) and their rules (`rules.tools.features`, `rules.tools.mcp_meta`) read them from here only, so a
provider's new version is one edit here, and a list of every dated fact can be collected from `FACTS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

READ_ON = "2026-12-07"
"""When the sources below were read."""

ANTHROPIC_SDK = "anthropics/anthropic-sdk-python @009b035305e0724ce108ebd796935f91711fc6e1 (2026-08-07)"
OPENAI_SDK = "openai/openai-python @e43b422412a9e96c9cc5192c61fffbe2d7e04836 (2026-08-21)"
MCP_SPEC = "modelcontextprotocol/modelcontextprotocol"
MCP_APPS_SPEC = (
    "modelcontextprotocol/ext-apps specification/2026-01-26/apps.mdx @3719bd1386978bc326d4acafdf15e8ae462e6801 "
    "(SEP-1865, Stable 2026-01-26)"
)


@dataclass(frozen=True)
class DatedFact:
    """A list of values a provider or a specification allows, where it was read and when."""

    name: str
    values: tuple[str, ...]
    source: str
    read_on: str = READ_ON


# --- Anthropic ------------------------------------------------------------------------------------------

ANTHROPIC_SERVER_TOOLS: dict[str, str] = {
    "bash_20241022": "bash",
    "bash_20250124": "bash",
    "code_execution_20250522": "code_execution",
    "code_execution_20250825": "code_execution",
    "code_execution_20260120": "code_execution",
    "code_execution_20260521": "code_execution",
    "computer_20241022": "computer",
    "computer_20250124": "computer",
    "computer_20251124": "computer",
    "memory_20250818": "memory",
    "text_editor_20241022": "str_replace_editor",
    "text_editor_20250124": "str_replace_editor",
    "text_editor_20250429": "str_replace_based_edit_tool",
    "text_editor_20250728": "str_replace_based_edit_tool",
    "web_search_20250305": "web_search",
    "web_search_20260209": "web_search",
    "web_search_20260318": "web_search",
    "web_fetch_20250910": "web_fetch",
    "web_fetch_20260209": "web_fetch",
    "web_fetch_20260309": "web_fetch",
    "web_fetch_20260318": "web_fetch",
    "advisor_20260301": "advisor",
    "tool_search_tool_regex_20251119": "tool_search_tool_regex",
    "tool_search_tool_bm25_20251119": "tool_search_tool_bm25",
}
"""Every released Anthropic server (or Anthropic-defined) tool type, with the one `name` the API accepts for it."""
ANTHROPIC_SERVER_TOOLS_FACT = DatedFact(
    "Anthropic server tool types (type: fixed name)",
    tuple(f"{kind}: {name}" for kind, name in ANTHROPIC_SERVER_TOOLS.items()),
    f"{ANTHROPIC_SDK} src/anthropic/types/beta/beta_tool_union_param.py and each "
    "src/anthropic/types/beta/beta_*_2025MMDD_param.py (`type` and `name` Literals); GA subset in "
    "src/anthropic/types/tool_union_param.py",
)

ANTHROPIC_TOOL_SEARCH_TYPES = (
    "tool_search_tool_regex_20251119",
    "tool_search_tool_bm25_20251119",
    "tool_search_tool_regex",
    "tool_search_tool_bm25",
)
"""The tool-search tool's types (the SDK's Literal also takes each without its date)."""
ANTHROPIC_TOOL_SEARCH_FACT = DatedFact(
    "Anthropic tool-search tool types",
    ANTHROPIC_TOOL_SEARCH_TYPES,
    f"{ANTHROPIC_SDK} src/anthropic/types/beta/beta_tool_search_tool_regex_20251119_param.py, "
    "beta_tool_search_tool_bm25_20251119_param.py",
)

ANTHROPIC_ALLOWED_CALLERS = DatedFact(
    "Anthropic allowed_callers values",
    ("direct", "code_execution_20250825", "code_execution_20260120", "code_execution_20260521"),
    f"{ANTHROPIC_SDK} src/anthropic/types/beta/beta_tool_param.py (`allowed_callers: List[Literal[...]]`, the same "
    "on every server tool)",
)

ANTHROPIC_ALL_DEFERRED = (
    "All tools have defer_loading set. At least one tool must be non-deferred",
    "the Messages API's 400 answer, quoted in issue 31 (observed); the rule: "
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool (the tool-search tool itself "
    "is never deferred)",
)
"""The API's answer to a request whose every tool is deferred, and where it is documented."""

ANTHROPIC_MCP_SERVER_TYPES = DatedFact(
    "Anthropic mcp_servers entry types",
    ("url",),
    f"{ANTHROPIC_SDK} src/anthropic/types/beta/beta_request_mcp_server_url_definition_param.py (name, type, url, "
    "authorization_token, tool_configuration.allowed_tools/enabled); beta_mcp_toolset_param.py (mcp_toolset: "
    'mcp_server_name, default_config, configs, cache_control); the connector\'s `url` "Must start with https://" '
    "(Anthropic's MCP connector page, as copied in patrickcarmichael/claude-docs "
    "docs/ai-platforms/anthropic/formatted/329-mcp-server-configuration.md @a9add268a18e2590dacf9490541363c160df1733)",
)

# --- OpenAI Responses -----------------------------------------------------------------------------------

OPENAI_ALLOWED_CALLERS = DatedFact(
    "OpenAI Responses allowed_callers values",
    ("direct", "programmatic"),
    f"{OPENAI_SDK} src/openai/types/responses/function_tool_param.py, custom_tool_param.py, tool_param.py (Mcp)",
)

OPENAI_GRAMMAR_SYNTAXES = DatedFact(
    "OpenAI custom tool grammar syntaxes",
    ("lark", "regex"),
    f"{OPENAI_SDK} src/openai/types/shared_params/custom_tool_input_format.py (Grammar.syntax); the Lark dialect "
    "is llguidance's (microsoft/llguidance parser/src/lark/README.md: no lookarounds, no lazy `?`, no priorities or "
    "templates, no import but `%import common`; Rust `regex` crate syntax)",
)

OPENAI_MCP_CONNECTORS = DatedFact(
    "OpenAI hosted MCP connector_id values",
    (
        "connector_dropbox",
        "connector_gmail",
        "connector_googlecalendar",
        "connector_googledrive",
        "connector_microsoftteams",
        "connector_outlookcalendar",
        "connector_outlookemail",
        "connector_sharepoint",
    ),
    f"{OPENAI_SDK} src/openai/types/responses/tool_param.py (Mcp: server_label, server_url | connector_id | "
    "tunnel_id, authorization, headers, require_approval, allowed_tools, server_description, defer_loading, "
    "allowed_callers)",
)

OPENAI_NAMESPACE = (
    "defer_loading applies to the functions inside a namespace, not to the namespace object",
    f"{OPENAI_SDK} src/openai/types/responses/namespace_tool_param.py (NamespaceToolParam: type, name, "
    "description, tools; defer_loading on each inner function); "
    "https://developers.openai.com/api/docs/guides/tools-tool-search",
)

# --- MCP -------------------------------------------------------------------------------------------------

MCP_META_RESERVED_LABELS = DatedFact(
    "MCP _meta prefixes reserved for MCP (second label)",
    ("modelcontextprotocol", "mcp"),
    f"{MCP_SPEC} docs/specification/2026-07-28/basic/index.mdx @760b26f64887631238a6d7880ee13cc4159f35d6 "
    "(General fields: `_meta`); the same rules in schema/2026-07-28/schema.json MetaObject",
)
META_LABEL = re.compile(r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?")
"""A label of a `_meta` key's prefix: starts with a letter, ends with a letter or digit, hyphens inside."""
META_NAME = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?")
"""A `_meta` key's name: empty, or alphanumeric at both ends with `-`, `_`, `.` inside."""

MCP_REMOTE_REF_VERSION = "2026-07-28"
MCP_REMOTE_REF = (
    "Implementations MUST NOT automatically dereference `$ref` values that resolve to a network URI; schemas that "
    "fail to validate due to an unresolved external `$ref` SHOULD be rejected",
    f"{MCP_SPEC} docs/specification/2026-07-28/basic/index.mdx @760b26f64887631238a6d7880ee13cc4159f35d6 "
    "(`$ref` Resolution; SEP-2106)",
)

MCP_APPS_UI_SCHEME = "ui://"
MCP_APPS_VISIBILITY = DatedFact("MCP Apps tool _meta.ui.visibility values", ("model", "app"), MCP_APPS_SPEC)
MCP_APPS_TOOL_KEYS = DatedFact("MCP Apps tool _meta.ui keys", ("resourceUri", "visibility"), MCP_APPS_SPEC)
MCP_APPS_RESOURCE_KEYS = DatedFact(
    "MCP Apps resource _meta.ui keys (on the UI resource, not the tool)",
    ("csp", "permissions", "domain", "prefersBorder"),
    MCP_APPS_SPEC,
)
MCP_APPS_CSP_KEYS = DatedFact(
    "MCP Apps _meta.ui.csp keys",
    ("connectDomains", "resourceDomains", "wasmUnsafeEval", "frameDomains", "baseUriDomains"),
    MCP_APPS_SPEC,
)
MCP_APPS_PERMISSIONS = DatedFact(
    "MCP Apps _meta.ui.permissions keys",
    ("camera", "microphone", "geolocation", "clipboardWrite"),
    MCP_APPS_SPEC,
)

FACTS: tuple[DatedFact, ...] = (
    ANTHROPIC_SERVER_TOOLS_FACT,
    ANTHROPIC_TOOL_SEARCH_FACT,
    ANTHROPIC_ALLOWED_CALLERS,
    ANTHROPIC_MCP_SERVER_TYPES,
    OPENAI_ALLOWED_CALLERS,
    OPENAI_GRAMMAR_SYNTAXES,
    OPENAI_MCP_CONNECTORS,
    MCP_META_RESERVED_LABELS,
    MCP_APPS_VISIBILITY,
    MCP_APPS_TOOL_KEYS,
    MCP_APPS_RESOURCE_KEYS,
    MCP_APPS_CSP_KEYS,
    MCP_APPS_PERMISSIONS,
)
"""Every dated value list of this module (the standards page can list them)."""


def server_tool_family(kind: str) -> str | None:
    """`web_search` for `web_search_20991231`: the family a dated type belongs to, when some released version of it
    is known; None for a family toolsense does not know."""
    family = kind.rsplit("_", 1)[0] if re.search(r"_20\d{6}$", kind) else None
    if family is None:
        return None
    return family if any(known.rsplit("_", 1)[0] == family for known in ANTHROPIC_SERVER_TOOLS) else None
