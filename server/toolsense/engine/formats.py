"""The `format`s toolsense asserts, on values a model is shown or sends (input examples, tool calls, defaults and
`examples` in a schema), as warnings.

JSON Schema 2020-12 makes `format` an annotation unless a validator opts in; draft-07 leaves it to the
implementation. toolsense asserts the subset that has one exact, well-known grammar, where a value outside it is
a wrong contract for the model (an example date-time of "tomorrow at noon" teaches the model to send that):

- `date`, `date-time` (RFC 3339, leap seconds at 23:59:60 UTC only), `ipv4` (dotted decimal, no leading
  zeros), `ipv6` (RFC 4291, no zone, no brackets), `uuid` (RFC 4122's hyphenated hex), and `regex` (ECMA-262,
  by toolsense's own pattern engine: what a JavaScript client accepts).

Every other format (email, hostname, uri, time, duration, json-pointer…) stays an annotation: their grammars
are large and validators disagree on them, so a warning could be wrong. Only ASCII digits count as digits.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
from collections.abc import Callable

from . import regexes

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})", re.ASCII)
_DATE_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))", re.ASCII
)
_IPV4 = re.compile(r"(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def _is_date(text: str) -> bool:
    found = _DATE.fullmatch(text)
    if found is None:
        return False
    try:
        datetime.date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        return False
    return True


def _is_date_time(text: str) -> bool:
    found = _DATE_TIME.fullmatch(text)
    if found is None or not _is_date(text[:10]):
        return False
    hour, minute, second = int(found[4]), int(found[5]), int(found[6])
    offset_hours, offset_minutes = (int(found[9]), int(found[10])) if found[8] else (0, 0)
    if hour > 23 or minute > 59 or second > 60 or offset_hours > 23 or offset_minutes > 59:
        return False
    if second == 60:  # a leap second is 23:59:60 in UTC
        sign = -1 if found[8] == "+" else 1
        utc = (hour * 60 + minute + sign * (offset_hours * 60 + offset_minutes)) % (24 * 60)
        return utc == 23 * 60 + 59
    return True


def _is_ipv4(text: str) -> bool:
    return _IPV4.fullmatch(text) is not None


def _is_ipv6(text: str) -> bool:
    if not text.isascii() or "%" in text or "/" in text or text.strip() != text:
        return False
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def _is_uuid(text: str) -> bool:
    return _UUID.fullmatch(text) is not None


ASSERTED: dict[str, Callable[[str], bool]] = {
    "date": _is_date,
    "date-time": _is_date_time,
    "ipv4": _is_ipv4,
    "ipv6": _is_ipv6,
    "uuid": _is_uuid,
    "regex": regexes.is_ecma,
}


def conforms(format_name: object, value: object) -> bool:
    """Whether value conforms to the format: True for a format toolsense does not assert and for a value that
    is not a string (a format applies to strings only)."""
    check = ASSERTED.get(format_name) if isinstance(format_name, str) else None
    return check is None or not isinstance(value, str) or check(value)
