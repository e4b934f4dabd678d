"""`FrameReader` tells the length of each frame it accepts before reading the body (the server starts the
worker process while a large document's message is still being read); refused frames are not announced."""

from __future__ import annotations

import io

from toolsense.lsp.transport import FrameReader


def _frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_each_accepted_frame_is_announced_before_its_body_is_read() -> None:
    stream = io.BytesIO(_frame(b'{"a":1}') + _frame(b"x" * 100) + _frame(b'{"b":22}'))
    announced: list[tuple[int, int]] = []
    reader = FrameReader(stream, lambda: 50, lambda length: announced.append((length, stream.tell())))
    assert reader.next_body() == b'{"a":1}'
    assert reader.next_body() == b'{"b":22}', "the 100-byte frame is over the limit: skipped"
    assert reader.next_body() is None
    first_header = len(b"Content-Length: 7\r\n\r\n")
    third_header_end = len(_frame(b'{"a":1}') + _frame(b"x" * 100)) + len(b"Content-Length: 8\r\n\r\n")
    assert announced == [(7, first_header), (8, third_header_end)]
    assert reader.skipped == 1
