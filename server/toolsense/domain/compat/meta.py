"""A schema against a JSON Schema meta-schema, as the targets that validate with one see it: jsonschema's own
words (OpenAI's messages are Python jsonschema's), each place once, by content and fast (most schemas pass the
plain-Python check of `domain.meta_schema` without a validator run)."""

from __future__ import annotations

import functools
import json

from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.protocols import Validator

from ...document.jsontree import Pointer
from ...jsonvalue import JsonValue
from ..meta_schema import flat_2020_12_meta_schema, quick_valid
from ..validators import canonical, offline_registry

MetaErrors = tuple[tuple[Pointer, str], ...]


def meta_errors(schema: JsonValue, draft7: bool = False) -> MetaErrors:
    """(place in the schema, message) for each place the meta-schema rejects; () when valid."""
    if quick_valid(schema, Draft7Validator if draft7 else Draft202012Validator):
        return ()
    try:
        text = canonical(schema)
    except (RecursionError, ValueError):
        return (((), "the schema nests too deeply to check"),)
    return _errors(text, draft7)


@functools.lru_cache(maxsize=1024)
def _errors(text: str, draft7: bool) -> MetaErrors:
    found: dict[Pointer, str] = {}
    try:
        errors = list(_validator(draft7).iter_errors(json.loads(text)))
    except RecursionError:
        return (((), "the schema nests too deeply to check"),)
    for error in errors:
        found.setdefault(tuple(error.absolute_path), error.message)
    return tuple(found.items())


@functools.lru_cache(maxsize=2)
def _validator(draft7: bool) -> Validator:
    if draft7:
        return Draft7Validator(Draft7Validator.META_SCHEMA, registry=offline_registry())
    return Draft202012Validator(flat_2020_12_meta_schema(), registry=offline_registry())
