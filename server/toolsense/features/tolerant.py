"""A forgiving JSON reader for half-typed text: reads as much of a value as makes sense and stops.

Used only for the unit under the cursor when `json.loads` rejects it and no earlier good value is known (a
file opened already broken): a truncated tool still yields its `input_schema`, so completion inside its
`input_examples` works. Missing commas are tolerated, an unterminated string ends at the end of its line,
comments are skipped, and anything else unexpected ends the read with what was gathered so far.
"""

from __future__ import annotations

import json

from ..jsonvalue import JsonObject, JsonValue, loads

_WS = b" \t\r\n"
_DELIMITERS = b' \t\r\n,:{}[]"/'
_MAX_DEPTH = 200


class _Stop(Exception):
    """The text cannot be read further; the values gathered so far stand."""


class _Reader:
    def __init__(self, data: bytes | bytearray, start: int, end: int) -> None:
        self.data = data
        self.i = start
        self.end = end

    def skip(self) -> int | None:
        data, end = self.data, self.end
        while self.i < end:
            byte = data[self.i]
            if byte in _WS:
                self.i += 1
            elif byte == 0x2F and self.i + 1 < end and data[self.i + 1] in b"/*":
                if data[self.i + 1] == 0x2F:
                    found = data.find(b"\n", self.i, end)
                    self.i = end if found < 0 else found
                else:
                    found = data.find(b"*/", self.i + 2, end)
                    self.i = end if found < 0 else found + 2
            else:
                return byte
        return None

    def string(self) -> str:
        data, end = self.data, self.end
        start = self.i
        i = start + 1
        while i < end:
            byte = data[i]
            if byte == 0x5C:
                i += 2
                continue
            if byte == 0x22:
                self.i = i + 1
                try:
                    value = json.loads(bytes(data[start : i + 1]))
                except ValueError:
                    return bytes(data[start + 1 : i]).decode("utf-8", "replace")
                return value if isinstance(value, str) else ""
            if byte in (0x0A, 0x0D):
                break
            i += 1
        self.i = i
        raw = bytes(data[start + 1 : i]).decode("utf-8", "replace")
        raise _Partial(raw)

    def word(self) -> JsonValue:
        data, end = self.data, self.end
        start = self.i
        while self.i < end and data[self.i] not in _DELIMITERS:
            self.i += 1
        text = bytes(data[start : self.i]).decode("utf-8", "replace")
        if text in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[text]
        try:
            return loads(text)
        except ValueError:
            raise _Stop from None

    def value(self, depth: int) -> JsonValue:
        if depth > _MAX_DEPTH:
            raise _Stop
        byte = self.skip()
        if byte is None:
            raise _Stop
        if byte == 0x7B:
            return self.obj(depth)
        if byte == 0x5B:
            return self.array(depth)
        if byte == 0x22:
            return self.string()
        return self.word()

    def obj(self, depth: int) -> JsonObject:
        result: JsonObject = {}
        self.i += 1
        while True:
            byte = self.skip()
            if byte is None:
                raise _Incomplete(result)
            if byte == 0x7D:
                self.i += 1
                return result
            if byte == 0x2C:
                self.i += 1
                continue
            if byte != 0x22:
                raise _Incomplete(result)
            try:
                key = self.string()
            except _Partial:
                raise _Incomplete(result) from None
            if self.skip() != 0x3A:
                raise _Incomplete(result)
            self.i += 1
            try:
                result[key] = self.value(depth + 1)
            except _Incomplete as inner:
                result[key] = inner.value
                raise _Incomplete(result) from None
            except _Partial as partial:
                result[key] = partial.text
                raise _Incomplete(result) from None
            except _Stop:
                raise _Incomplete(result) from None

    def array(self, depth: int) -> list[JsonValue]:
        result: list[JsonValue] = []
        self.i += 1
        while True:
            byte = self.skip()
            if byte is None:
                raise _Incomplete(result)
            if byte == 0x5D:
                self.i += 1
                return result
            if byte == 0x2C:
                self.i += 1
                continue
            try:
                result.append(self.value(depth + 1))
            except _Incomplete as inner:
                result.append(inner.value)
                raise _Incomplete(result) from None
            except _Partial as partial:
                result.append(partial.text)
                raise _Incomplete(result) from None
            except _Stop:
                raise _Incomplete(result) from None


class _Incomplete(Exception):
    """A container cut short; `value` holds what was read of it."""

    def __init__(self, value: JsonValue) -> None:
        super().__init__()
        self.value = value


class _Partial(Exception):
    """An unterminated string; `text` is what it held."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


def read_partial(data: bytes | bytearray, start: int, end: int | None = None) -> JsonValue:
    """The value starting at `start`, as far as it can be read (None when nothing can)."""
    reader = _Reader(data, start, len(data) if end is None else min(end, len(data)))
    try:
        return reader.value(0)
    except _Incomplete as cut:
        return cut.value
    except _Partial as partial:
        return partial.text
    except (_Stop, RecursionError):
        return None
