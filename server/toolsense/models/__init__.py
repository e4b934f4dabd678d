"""The shared strict models and helpers: the same code validates in the editor, the CLI and at run time."""

from .base import (
    ENUM_SCHEMAS,
    EnumSchema,
    EnumSchemaRegistry,
    StrictModel,
    UnregisteredEnumError,
    close_objects,
    enum_field,
    enum_schema,
    strict_json_schema,
)
from .errors import (
    CoercedBool,
    CoercedFloat,
    CoercedInt,
    Coercion,
    ValidationIssue,
    coerce_bool,
    coerce_float,
    coerce_int,
    coercion_for,
    format_validation_errors,
    validation_issues,
)

__all__ = [
    "ENUM_SCHEMAS",
    "CoercedBool",
    "CoercedFloat",
    "CoercedInt",
    "Coercion",
    "EnumSchema",
    "EnumSchemaRegistry",
    "StrictModel",
    "UnregisteredEnumError",
    "ValidationIssue",
    "close_objects",
    "coerce_bool",
    "coerce_float",
    "coerce_int",
    "coercion_for",
    "enum_field",
    "enum_schema",
    "format_validation_errors",
    "strict_json_schema",
    "validation_issues",
]
