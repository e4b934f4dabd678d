"""Completion and hover in MCP configuration files, from the JSON Schemas of their models
(`mcp_live.config`): the same shapes the TS93x rules validate."""

from __future__ import annotations

import copy
import functools
from typing import Any

from ..document.jsontree import Pointer
from ..domain.validation import model_schema
from ..jsonvalue import JsonObject
from ..mcp_live.config import CONFIG_MODELS, dialect_of
from . import completion, hover
from .providers import PROVIDERS, CompletionCandidate, CursorQuery, HoverAnswer
from .sites import Site


def config_site(query: CursorQuery, pointer: Pointer | None = None) -> Site | None:
    unit = query.unit
    if unit is None or unit.kind != "mcp_config":
        return None
    dialect = dialect_of(unit.dialect, unit.value)
    if dialect not in CONFIG_MODELS:
        return None  # the registry's server.json
    model = CONFIG_MODELS[dialect]
    pointer = query.relative if pointer is None else pointer
    return Site("envelope", _help_schema(dialect), pointer, (), model.__doc__ or "", model)


@functools.cache
def _help_schema(dialect: str) -> JsonObject:
    """The model's schema without the `null` branches of optional keys: the clients accept a key or its absence,
    so help offers a string, not `null`."""

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            branches = node.get("anyOf")
            if isinstance(branches, list) and {"type": "null"} in branches:
                rest = [b for b in branches if b != {"type": "null"}]
                merged = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
                node = {**rest[0], **merged} if len(rest) == 1 else {**merged, "anyOf": rest}
            return {key: strip(value) for key, value in node.items()}
        if isinstance(node, list):
            return [strip(item) for item in node]
        return node

    schema: JsonObject = strip(copy.deepcopy(model_schema(CONFIG_MODELS[dialect])))
    return schema


def config_completion(query: CursorQuery) -> list[CompletionCandidate] | None:
    context = query.cursor
    if context.container == "none":
        return None
    site = config_site(query)
    if site is None:
        return None
    if context.slot == "key":
        return completion._property_candidates(query, site)
    if context.slot == "value":
        return completion._value_candidates(query, site)
    return None


def config_hover(query: CursorQuery) -> HoverAnswer | None:
    found = hover.hovered_pointer(query)
    if found is None:
        return None
    pointer, part = found
    site = config_site(query, pointer)
    if site is None:
        return None
    text = hover._field_text(query, site, pointer, part)
    return HoverAnswer(text, (query.cursor.replace_start, query.cursor.replace_end)) if text else None


PROVIDERS.completion(config_completion)
PROVIDERS.hover(config_hover)
