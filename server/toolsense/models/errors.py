"""All validation errors at once, and the opt-in coercions for common LLM mistakes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BeforeValidator, ValidationError
from pydantic_core import ErrorDetails

_MISSING = object()


@dataclass(frozen=True)
class ValidationIssue:
    """One pydantic error, flattened: path, message, what was received."""

    loc: tuple[int | str, ...]
    message: str
    error_type: str
    received: Any = _MISSING
    expected: str | None = None

    @property
    def field(self) -> str:
        return ".".join(str(part) for part in self.loc) or "<root>"

    @property
    def has_input(self) -> bool:
        return self.received is not _MISSING

    @property
    def received_type(self) -> str:
        return type(self.received).__name__ if self.has_input else "unknown"

    def describe(self) -> str:
        if not self.has_input:
            return f"{self.field}: {self.message}"
        return f"{self.field}: {self.message} (received {self.received_type}: {self.received!r})"


def validation_issues(error: ValidationError) -> list[ValidationIssue]:
    return [_issue(detail) for detail in error.errors(include_url=False)]


def _issue(detail: ErrorDetails) -> ValidationIssue:
    ctx = detail.get("ctx") or {}
    expected = ctx.get("expected")
    return ValidationIssue(
        loc=tuple(detail["loc"]),
        message=detail["msg"],
        error_type=detail["type"],
        received=detail.get("input", _MISSING),
        expected=str(expected) if expected is not None else None,
    )


def format_validation_errors(error: ValidationError, context: str = "parameters") -> str:
    """Every pydantic error in one message: dotted field path, message, received type and value."""
    issues = validation_issues(error)
    if len(issues) == 1:
        issue = issues[0]
        received = repr(issue.received) if issue.has_input else "nothing"
        return f"Invalid {context}: {issue.field} - {issue.message} (received: {received})"
    lines = [f"Invalid {context} - {len(issues)} errors:"]
    lines.extend(f"  • {issue.describe()}" for issue in issues)
    lines.append("\nPlease fix all errors and retry with correct types.")
    return "\n".join(lines)


# --- coercions -------------------------------------------------------------------------------------------

_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


def coerce_bool(value: Any) -> Any:
    """`"true"`/`"yes"`/`"1"` → True, `"false"`/`"no"`/`"0"` → False; anything else unchanged."""
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
    return value


def coerce_int(value: Any) -> Any:
    """`"80"` → 80; anything else unchanged (pydantic then reports it)."""
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return value
    return value


def coerce_float(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return value
    return value


CoercedBool = Annotated[bool, BeforeValidator(coerce_bool)]
CoercedInt = Annotated[int, BeforeValidator(coerce_int)]
CoercedFloat = Annotated[float, BeforeValidator(coerce_float)]


@dataclass(frozen=True)
class Coercion:
    """A value an LLM sent as the wrong JSON type that would be coerced: the JSON it should have been."""

    json_type: str
    replacement: Any

    @property
    def replacement_json(self) -> str:
        import json

        return json.dumps(self.replacement)


def coercion_for(value: Any, json_types: set[str]) -> Coercion | None:
    """If value is a string that is really one of json_types (`"80"`, `"true"`, `"null"`), say what it is."""
    if not isinstance(value, str) or "string" in json_types:
        return None
    text = value.strip()
    if "boolean" in json_types and text.lower() in ("true", "false"):
        return Coercion("boolean", text.lower() == "true")
    if "null" in json_types and text.lower() in ("null", "none"):
        return Coercion("null", None)
    if "integer" in json_types:
        try:
            return Coercion("integer", int(text))
        except ValueError:
            pass
    if "number" in json_types:
        try:
            number = float(text)
        except ValueError:
            return None
        if number == number and number not in (float("inf"), float("-inf")):
            return Coercion("number", int(number) if number.is_integer() and "." not in text else number)
    return None
