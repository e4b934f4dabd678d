"""An enum used before it is registered: the error says how to register it."""

from __future__ import annotations

from enum import Enum

import pytest

from toolsense.models import ENUM_SCHEMAS, EnumSchemaRegistry, UnregisteredEnumError, enum_field


class Shade(str, Enum):
    DARK = "dark"


def test_enum_field_of_an_unregistered_enum_says_how_to_register_it() -> None:
    with pytest.raises(UnregisteredEnumError) as caught:
        enum_field(Shade)
    assert str(caught.value) == (
        "enum Shade is not registered in ENUM_SCHEMAS: register it once, before the models that use it, with "
        'ENUM_SCHEMAS.register(Shade, "<description>") (from toolsense.models import ENUM_SCHEMAS); for a one-off '
        'schema fragment without registering, use enum_schema(Shade, "<description>")'
    )
    assert "Shade" not in ENUM_SCHEMAS.names()


def test_it_is_still_a_key_error_and_names_a_private_registry() -> None:
    registry = EnumSchemaRegistry()
    with pytest.raises(KeyError) as caught:
        enum_field(Shade, registry=registry)
    assert str(caught.value).startswith("enum Shade is not registered in registry: register it once, before the models")
    assert 'registry.register(Shade, "<description>");' in str(caught.value)
    registry.register(Shade, "How dark")
    assert enum_field(Shade, registry=registry).description == "How dark"
