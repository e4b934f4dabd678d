"""Tool-combination risk, offline (TS295, in the `mcp-security` profile): the tools of a workspace (its servers'
snapshots, listings and definitions together) that read untrusted input, read private data and can send data out.

With all three, text a tool fetched (a web page, an e-mail, an issue comment) can tell the model to read private
data and send it away: no single tool is at fault, the combination is. Each tool is labelled from its name, its
description and its parameters; the finding names one tool per leg, and sits on this file's first tool of a leg.
Destructive tools are labelled too (named when the combination is reported).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...engine.context import CheckContext, ToolInfo
from ...engine.findings import Finding, Related, Severity
from ...engine.units import Unit
from ..catalog import CATALOG
from .mcp_profiles import SECURITY, words

COMBINATION = CATALOG.rule(
    "TS295",
    "mcp-tool-combination-risk",
    Severity.WARNING,
    "mcp-security: the workspace's tools together read untrusted input, read private data and can send data out "
    "(names one tool of each): injected text can make the model move private data out.",
    "Tool definitions: hidden and deceptive text",
)

UNTRUSTED, PRIVATE, OUTBOUND, DESTRUCTIVE = "reads untrusted input", "reads private data", "can send out", "destroys"
_READ = frozenset({"get", "read", "list", "search", "fetch", "find", "query", "browse", "view", "show", "open", "cat"})
_UNTRUSTED_WORDS = frozenset(
    {"fetch", "browse", "scrape", "crawl", "navigate", "web", "url", "rss", "inbox", "email", "emails", "mail",
     "issue", "issues", "comment", "comments", "webpage", "page", "tweet", "tweets", "slack", "message", "messages"}
)  # fmt: skip
_PRIVATE_WORDS = frozenset(
    {"file", "files", "directory", "dir", "db", "database", "sql", "secret", "secrets", "credential", "credentials",
     "password", "passwords", "vault", "env", "keychain", "contacts", "calendar", "notes", "drive", "document",
     "documents", "repository", "repo"}
)  # fmt: skip
_SEND_WORDS = frozenset(
    {"send", "post", "upload", "publish", "share", "webhook", "tweet", "notify", "reply", "forward", "email", "mail",
     "http", "push", "comment", "dm", "sms", "message"}
)  # fmt: skip
_DESTRUCTIVE_WORDS = frozenset({"delete", "remove", "drop", "destroy", "purge", "wipe", "truncate", "kill", "rm"})
_UNTRUSTED_TEXT = re.compile(r"\b(fetch(es)?|brows(e|es)|scrap(e|es))\b[^.]{0,40}\b(url|web|page|site|internet)", re.I)
_SEND_TEXT = re.compile(
    r"\b(sends?|posts?|uploads?)\b[^.]{0,40}\b(to|a|an)\b[^.]{0,20}\b(url|webhook|email|channel)", re.I
)


def labels(name: str, description: str | None) -> set[str]:
    """What a tool can do, from its name first and its description second."""
    parts = words(name)
    verb = parts[0] if parts else ""
    found: set[str] = set()
    reading = verb in _READ or verb in ("scrape", "crawl", "navigate", "visit")
    if reading and (set(parts[1:]) & _UNTRUSTED_WORDS or (description and _UNTRUSTED_TEXT.search(description))):
        found.add(UNTRUSTED)
    if verb in _READ and set(parts) & _PRIVATE_WORDS:
        found.add(PRIVATE)
    if (verb in _SEND_WORDS and verb != "message") or (
        description and _SEND_TEXT.search(description) and verb not in _READ
    ):
        found.add(OUTBOUND)
    if verb in _DESTRUCTIVE_WORDS:
        found.add(DESTRUCTIVE)
    return found


@CATALOG.file_check("tool")
def tool_combinations(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    if SECURITY not in {str(p) for p in ctx.settings.profiles} or not units:
        return
    legs: dict[str, list[ToolInfo]] = {UNTRUSTED: [], PRIVATE: [], OUTBOUND: [], DESTRUCTIVE: []}
    for name in sorted(ctx.registry.names()):
        for info in ctx.registry.definitions(name):
            for label in labels(info.name, info.description):
                legs[label].append(info)
    if not all(legs[leg] for leg in (UNTRUSTED, PRIVATE, OUTBOUND)):
        return
    mine = next(
        ((leg, info) for leg in (UNTRUSTED, PRIVATE, OUTBOUND) for info in legs[leg] if info.uri == ctx.uri), None
    )
    if mine is None:
        return
    chosen = {leg: _prefer_here(legs[leg], ctx.uri) for leg in (UNTRUSTED, PRIVATE, OUTBOUND)}
    named = "; ".join(f"{leg}: '{info.name}' ({ctx.display_path(info.uri)})" for leg, info in chosen.items())
    destroys = legs[DESTRUCTIVE]
    extra = f"; and '{destroys[0].name}' destroys" if destroys else ""
    related = tuple(
        Related(f"{leg}: '{info.name}'", info.pointer, info.uri, "value")
        for leg, info in chosen.items()
        if info.uri != ctx.uri
    )
    yield Finding(
        COMBINATION.code,
        f"The workspace's tools together read untrusted input, read private data and can send data out ({named}"
        f"{extra}): text one tool fetches can make the model send private data away; split them across agents or "
        "ask before each call",
        mine[1].name_pointer,
        related=related,
    )


def _prefer_here(infos: list[ToolInfo], uri: str) -> ToolInfo:
    return next((info for info in infos if info.uri == uri), infos[0])
