"""A registry server.json is checked by the schema version its `$schema` names (every released one vendored),
and for what no version's schema says: a top-level member the registry drops (TS952) and a server's own flag
among the runtime's arguments (TS953)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.support.checking import D, check

from toolsense.engine.findings import RenameKey
from toolsense.rules.configs.server_json import NEWEST, RELEASED, SCHEMA_URL, _schema, declared_version

URI = "file:///work/project/server.json"


def server(version: str | None, **members: Any) -> dict[str, Any]:
    head: dict[str, Any] = {"$schema": SCHEMA_URL.format(version)} if version else {}
    return {
        **head,
        "name": "io.github.user/weather",
        "description": "Weather forecasts.",
        "version": "1.0.0",
        **members,
    }


def found(value: dict[str, Any], *codes: str) -> list[D]:
    diagnostics = check(json.dumps(value, indent=2), None, uri=URI)
    return [d for d in diagnostics if d.code in (codes or ("TS950", "TS951", "TS952", "TS953"))]


def brief(value: dict[str, Any], *codes: str) -> list[tuple[str, str, str]]:
    return [(d.code, d.text, d.message) for d in found(value, *codes)]


OCI = {"registryType": "oci", "identifier": "ghcr.io/user/weather:1.0.0", "transport": {"type": "stdio"}}
SNAKE = {"registry_type": "pypi", "identifier": "weather", "version": "1.0.0", "transport": {"type": "stdio"}}


@pytest.mark.parametrize("version", RELEASED)
def test_each_released_schema_is_vendored_and_chosen_by_its_own_url(version: str) -> None:
    assert _schema(version)["$id"] == SCHEMA_URL.format(version)
    assert declared_version({"$schema": SCHEMA_URL.format(version)}) == (version, None)


def test_an_oci_package_without_version_is_valid_from_2025_10_11_on() -> None:
    for version in ("2025-10-11", "2025-10-17", "2025-12-11"):
        assert brief(server(version, packages=[OCI])) == []
    for version in ("2025-09-16", "2025-09-29"):
        assert brief(server(version, packages=[OCI]), "TS950") == [("TS950", "{", "`packages.0` lacks 'version'")], (
            version
        )


def test_2025_07_09_is_snake_case_and_the_later_ones_camel_case() -> None:
    assert brief(server("2025-07-09", status="active", packages=[SNAKE])) == []
    assert [m for _, _, m in brief(server("2025-09-16", packages=[SNAKE]))] == [
        "`packages.0`: Additional properties are not allowed ('registry_type' was unexpected)",
        "`packages.0` lacks 'registryType'",
    ]


def test_status_is_a_member_until_2025_09_16_only() -> None:
    assert brief(server("2025-09-16", status="active")) == []
    assert brief(server("2025-09-29", status="active")) == [
        (
            "TS952",
            '"status"',
            "`status` is not a member of the registry's server.json (schema 2025-09-29): the registry drops it "
            "without a word",
        )
    ]


def test_2025_12_11_wants_an_http_url_for_a_remote() -> None:
    remote = {"type": "streamable-http", "url": "ftp://example.com/mcp"}
    assert brief(server("2025-10-17", remotes=[remote])) == []
    assert [(c, t) for c, t, _ in brief(server("2025-12-11", remotes=[remote]))] == [
        ("TS950", '"ftp://example.com/mcp"')
    ]


def test_no_schema_is_checked_against_the_newest_with_a_note() -> None:
    [note] = found(server(None, packages=[OCI]))
    assert (note.code, note.severity, note.range, note.text) == ("TS951", "information", (0, 0, 0, 1), "{")
    assert note.message == (
        f"No `$schema`: checked against the newest released registry schema, {NEWEST}; name the version the file "
        f'follows ("$schema": "{SCHEMA_URL.format(NEWEST)}")'
    )


def test_an_unreleased_schema_url_is_checked_against_the_newest_with_a_note() -> None:
    unreleased = "https://static.modelcontextprotocol.io/schemas/2025-11-01/server.schema.json"
    [note] = found({"$schema": unreleased, **server(None, packages=[OCI])})
    assert (note.code, note.range, note.text) == ("TS951", (1, 13, 1, 91), f'"{unreleased}"')
    assert note.message == (
        f'`$schema` "{unreleased}" names no released registry '
        "schema (2025-07-09, 2025-09-16, 2025-09-29, 2025-10-11, 2025-10-17, 2025-12-11): checked against the "
        "newest, 2025-12-11"
    )


def test_a_misspelt_top_level_member_is_dropped_by_the_registry() -> None:
    value = server("2025-12-11", icon=[{"src": "https://example.com/icon.png"}])
    [warning] = found(value)
    assert (warning.code, warning.severity, warning.range, warning.text) == ("TS952", "warning", (5, 2, 5, 8), '"icon"')
    assert warning.message == (
        "`icon` is not a member of the registry's server.json (schema 2025-12-11): the registry drops it without a "
        "word; did you mean `icons`?"
    )
    [fix] = warning.fixes
    assert fix.edits == (RenameKey(("icon",), "icons"),)


def test_a_snake_case_member_in_a_camel_case_version_names_its_camel_case_twin() -> None:
    [warning] = found(server("2025-12-11", website_url="https://example.com"))
    assert warning.message.endswith("did you mean `websiteUrl`?")
    # the same member is known where it was snake_case
    assert found(server("2025-07-09", website_url="https://example.com")) == []


def test_a_member_meant_but_already_present_is_not_suggested_again() -> None:
    value = server("2025-12-11", icons=[{"src": "https://example.com/a.png"}], icon=[])
    [warning] = found(value)
    assert warning.message.endswith("the registry drops it without a word")
    assert warning.fixes == ()


def npm(runtime_arguments: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    package = {
        "registryType": "npm",
        "identifier": "@user/weather",
        "version": "1.0.0",
        "transport": {"type": "stdio"},
        "runtimeArguments": runtime_arguments,
        **extra,
    }
    return server("2025-12-11", packages=[package])


def test_a_server_flag_among_the_runtime_arguments_is_a_warning() -> None:
    value = npm([{"type": "named", "name": "-y"}, {"type": "named", "name": "--port", "value": "8080"}])
    [warning] = found(value)
    assert (warning.code, warning.severity, warning.range, warning.text) == (
        "TS953",
        "warning",
        (20, 18, 20, 26),
        '"--port"',
    )
    assert warning.message == (
        '"--port" is not an option of `npx`: `runtimeArguments` go to `npx` before the package, so the server '
        "never sees it; a flag of the server belongs in `packageArguments`"
    )


def test_the_runtime_is_the_hint_else_the_registrys_and_a_positional_flag_counts() -> None:
    docker = {
        "registryType": "oci",
        "identifier": "ghcr.io/user/weather:1.0.0",
        "transport": {"type": "stdio"},
        "runtimeArguments": [
            {"type": "named", "name": "-e", "value": "TOKEN={token}"},
            {"type": "positional", "value": "--rm"},
            {"type": "positional", "value": "--stdio"},
            {"type": "positional", "value": "KEY=value"},
        ],
    }
    assert [(c, t) for c, t, _ in brief(server("2025-12-11", packages=[docker]))] == [("TS953", '"--stdio"')]
    assert "not an option of `docker`" in found(server("2025-12-11", packages=[docker]))[0].message
    # npm's own configuration keys (`--registry=…`, `--no-audit`) are npx's options
    assert (
        found(
            npm(
                [
                    {"type": "named", "name": "--registry=https://registry.example.com"},
                    {"type": "positional", "value": "--no-audit"},
                ]
            )
        )
        == []
    )
    # a runtime this rule does not know is left alone
    assert found(npm([{"type": "named", "name": "--port"}], runtimeHint="node")) == []


def test_snake_case_runtime_arguments_of_2025_07_09() -> None:
    package = {
        **SNAKE,
        "runtime_hint": "uvx",
        "runtime_arguments": [{"type": "named", "name": "--from"}, {"type": "named", "name": "--debug"}],
    }
    assert [(c, t) for c, t, _ in brief(server("2025-07-09", packages=[package]))] == [("TS953", '"--debug"')]
    assert found(server("2025-07-09", packages=[package]))[0].message.endswith("belongs in `package_arguments`")


def test_a_package_member_is_dropped_where_the_schema_leaves_packages_open() -> None:
    package = {**OCI, "registry_base_url": "https://ghcr.io"}
    [warning] = found(server("2025-12-11", packages=[package]))
    assert (warning.code, warning.text) == ("TS952", '"registry_base_url"')
    assert warning.message == (
        "`packages.0.registry_base_url` is not a member of the registry's package (schema 2025-12-11): the registry "
        "drops it without a word; did you mean `registryBaseUrl`?"
    )
    assert warning.fixes[0].edits == (RenameKey(("packages", 0, "registry_base_url"), "registryBaseUrl"),)
    # where the schema closes a package, what it does not name is its own error, said once
    closed = {**package, "version": "1.0.0"}
    assert [c for c, _, _ in brief(server("2025-09-29", packages=[closed]))] == ["TS950"]
