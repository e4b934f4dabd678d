"""The MCP registry's `server.json` (TS950), checked against the registry's own schema (vendored beside this
module, MIT: `server.schema.LICENSE`), as its publisher checks it before accepting a server: the name's reverse-DNS
format, a package version that is not `latest` (nor a range), the description's length, packages and remotes.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError, best_match

from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.units import Unit, mcp_config_dialect
from ...jsonvalue import short_repr
from ..catalog import CATALOG

SERVER_JSON = CATALOG.rule(
    "TS950",
    "mcp-server-json-invalid",
    Severity.ERROR,
    "An MCP registry `server.json` the registry rejects: name not `namespace/name`, a package version `latest` or a "
    "range, a description over 100 characters, a package or remote missing what it needs.",
    "MCP configuration files",
)
_RANGE = re.compile(r"^[\^~<>=]|\.(x|\*)$|\s\|\|\s|^\*$")


@functools.cache
def _validator() -> Draft7Validator:
    text = resources.files(__package__).joinpath("server.schema.json").read_text(encoding="utf-8")
    return Draft7Validator(json.loads(text))


def _words(error: ValidationError) -> str:
    where = ".".join(str(p) for p in error.absolute_path) or "the file"
    value = error.instance
    if error.validator == "pattern" and list(error.absolute_path) == ["name"]:
        return (
            f"The name {short_repr(value)} is not reverse-DNS `namespace/name` with one slash (io.github.user/weather)"
        )
    if error.validator == "not":
        return f"`{where}` is {short_repr(value)}: a package needs a specific version"
    if error.validator == "maxLength" and isinstance(value, str):
        return f"`{where}` has {len(value)} characters; the registry accepts at most {error.validator_value}"
    if error.validator == "anyOf" and error.context:
        names = " or ".join(f"'{e.message.split(' is a required')[0].strip(chr(39))}'" for e in error.context)
        return f"`{where}` needs {names}"
    if error.validator == "required":
        return f"`{where}` lacks {error.message.split(' is a required')[0]}"
    if error.validator == "additionalProperties":
        return f"`{where}`: {error.message}"
    return f"`{where}`: {short_repr(error.message, 120)[1:-1]}"


def _errors(errors: Any) -> Iterator[ValidationError]:
    """The errors worth reading: of `anyOf` branches, those of the branch the value meant (the one whose `type`
    it has), else the best match; an `anyOf` of `required` sets as one error."""
    for error in errors:
        if error.validator not in ("anyOf", "oneOf") or not error.context:
            yield error
            continue
        if all(e.validator == "required" for e in error.context):
            yield error
            continue
        branches: dict[Any, list[ValidationError]] = {}
        for inner in error.context:
            branches.setdefault(inner.relative_schema_path[0], []).append(inner)
        meant = [
            branch
            for branch in branches.values()
            if not any(e.validator in ("enum", "const") and list(e.relative_path)[-1:] == ["type"] for e in branch)
        ]
        yield from _errors(meant[0]) if len(meant) == 1 else [best_match(error.context)]


@CATALOG.unit_check("mcp_config")
def server_json_rules(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not isinstance(value, dict) or mcp_config_dialect(value) != "server-json":
        return
    for error in _errors(_validator().iter_errors(value)):
        pointer = tuple(error.absolute_path)
        target = "parent" if error.validator in ("required", "anyOf") else "value"
        yield Finding(SERVER_JSON.code, _words(error), pointer, target)  # type: ignore[arg-type]
    packages = value.get("packages")
    for index, package in enumerate(packages if isinstance(packages, list) else []):
        version = package.get("version") if isinstance(package, dict) else None
        if isinstance(version, str) and _RANGE.search(version.strip()):
            yield Finding(
                SERVER_JSON.code,
                f"`packages.{index}.version` is the range {short_repr(version)}: the registry rejects ranges; "
                "give the exact version",
                ("packages", index, "version"),
            )
