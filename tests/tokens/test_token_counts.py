"""Token counts with the encoding shipped in the package: known strings, counted with the network unreachable
and tiktoken's download cache empty (a fresh process, so nothing was loaded before)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolsense import tokens
from toolsense.tokens import ENCODING_SHA256, TokenCount, count_text, count_tool, read_ranks

OFFLINE_SCRIPT = """
import json, socket

def refuse(*args, **kwargs):
    raise OSError("network unreachable (test)")

socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

from toolsense.tokens import count_text, count_tool, encoding

print(json.dumps({
    "hello": encoding().encode("hello world"),
    "greeting": count_text("Hello, world!"),
    "special": count_text("<|endoftext|>"),
    "tool": count_tool({"name": "get_weather", "description": "Get the weather."}, "openai").tokens,
}))
"""


def test_known_strings_offline_with_an_empty_tiktoken_cache(tmp_path: Path) -> None:
    empty = tmp_path / "tiktoken-cache"
    empty.mkdir()
    sources = str(Path(__file__).resolve().parents[2] / "server")
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(empty), "PYTHONPATH": sources, "NO_PROXY": "", "HTTPS_PROXY": ""}
    result = subprocess.run(
        [sys.executable, "-c", OFFLINE_SCRIPT], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    counts = json.loads(result.stdout)
    assert counts["hello"] == [24912, 2375]  # o200k_base's ids, as tiktoken's own download gives them
    assert counts["greeting"] == 4  # "Hello" "," " world" "!"
    assert counts["special"] == 7  # a special token's text in a definition is plain text, not one token
    assert counts["tool"] == 13  # {" name ":" get _weather "," description ":" Get  the  weather ." }
    assert list(empty.iterdir()) == []  # tiktoken's cache was never used


def test_the_shipped_file_is_tiktokens_o200k_base() -> None:
    ranks = read_ranks()  # raises when the file does not hash to tiktoken's published SHA-256
    assert len(ranks) == 199_998 and ENCODING_SHA256.startswith("446a9538")
    assert ranks[b"hello"] == 24912


def test_openai_counts_are_exact_and_the_others_an_estimate() -> None:
    tool = {"name": "get_weather", "description": "Get the weather."}
    assert count_tool(tool, "openai") == TokenCount(13, exact=True)
    assert count_tool(tool, "openai").label() == "13 tokens (o200k_base)"
    assert count_tool(tool, "anthropic").label() == "≈13 tokens (o200k_base estimate)"
    assert count_tool(tool, "gemini").exact is False


def test_a_million_spaces_are_counted_not_a_panic() -> None:
    # tiktoken's fancy-regex gives up on a whitespace run of about a million characters and raises pyo3's
    # PanicException (a BaseException). The run is split in Python instead, with the same pieces: 128 spaces
    # are one token, so 1,024,000 are 8,000 (and "Gets it." before them 3).
    assert count_text(" " * 128) == 1 and count_text("Gets it.") == 3
    assert count_text("Gets it." + " " * 1_024_000) == 3 + 8_000
    assert count_text("\u3000" * 16) == 1
    assert count_text("Gets it." + "\u3000" * 1_000_000) == 3 + 62_500  # IDEOGRAPHIC SPACE, the same limit


class PanicException(BaseException):
    """Named as pyo3's (`pyo3_runtime.PanicException`), which cannot be imported before a panic."""


class _Panicking:
    def __init__(self, error: BaseException) -> None:
        self.error = error

    def encode_ordinary(self, text: str) -> list[int]:
        raise self.error

    def _encode_only_native_bpe(self, text: str) -> list[int]:
        return [1, 2]


def test_a_panic_falls_back_to_the_python_split_and_nothing_else_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "encoding", lambda: _Panicking(PanicException("StackOverflow")))
    assert tokens.count_text("hello") == 2
    for error in (KeyboardInterrupt(), SystemExit(1), ValueError("x")):
        monkeypatch.setattr(tokens, "encoding", lambda error=error: _Panicking(error))
        with pytest.raises(type(error)):
            tokens.count_text("hello")
