"""What a tool definition costs the model, in tokens.

A tool definition is sent with every request; its cost is counted on its compact JSON (no spaces, keys in the
file's order, non-ASCII characters as they are), the text an SDK serializes.

- OpenAI dialects (`openai`, `openai-flat`): tiktoken's `o200k_base`, the encoding of GPT-4o, GPT-4.1, o-series
  and GPT-5 models: the count is exact for the JSON (OpenAI wraps tools in a few tokens of its own framing).
- Every other dialect (Anthropic, MCP, Gemini, Bedrock): the same `o200k_base` count, labelled an estimate. Those
  providers' tokenizers are not published; o200k_base counts of JSON are close to theirs (within about 10-20%),
  which is enough to say which tool is heavy and how a change moves the total.

The encoding ships inside the package (`data/o200k_base.tiktoken.gz`, tiktoken's MIT licence beside it) and is
checked against tiktoken's published SHA-256, so counting never reaches for the network.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import tiktoken

ENCODING_NAME = "o200k_base"
ENCODING_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
"""tiktoken's expected hash of o200k_base.tiktoken (tiktoken_ext/openai_public.py)."""

EXACT_DIALECTS = frozenset({"openai", "openai-flat"})

# The split pattern and special tokens of o200k_base, as tiktoken_ext/openai_public.py defines them (MIT).
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_O200K_SPECIAL = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}


class EncodingUnavailable(RuntimeError):
    """The shipped encoding file is missing or damaged (a broken installation)."""


@dataclass(frozen=True)
class TokenCount:
    tokens: int
    exact: bool

    @property
    def tokenizer(self) -> str:
        """The tokenizer as shown to users: `o200k_base`, or `o200k_base estimate`."""
        return ENCODING_NAME if self.exact else f"{ENCODING_NAME} estimate"

    def label(self) -> str:
        prefix = "" if self.exact else "≈"
        return f"{prefix}{self.tokens:,} token{'s' if self.tokens != 1 else ''} ({self.tokenizer})"


def read_ranks() -> dict[bytes, int]:
    """The mergeable ranks of o200k_base from the shipped file, verified against tiktoken's hash."""
    # Imported here: the CLI's start-up imports this module (the rules do) but counts nothing unless asked.
    import base64
    import gzip
    import hashlib
    from importlib import resources

    resource = resources.files(__package__).joinpath("data", f"{ENCODING_NAME}.tiktoken.gz")
    try:
        contents = gzip.decompress(resource.read_bytes())
    except (OSError, EOFError) as error:
        raise EncodingUnavailable(f"cannot read the shipped {ENCODING_NAME} encoding: {error}") from error
    if hashlib.sha256(contents).hexdigest() != ENCODING_SHA256:
        raise EncodingUnavailable(f"the shipped {ENCODING_NAME} encoding does not match tiktoken's hash")
    ranks: dict[bytes, int] = {}
    for line in contents.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@functools.cache
def encoding() -> tiktoken.Encoding:
    """o200k_base, built once per process from the shipped file (no download, no cache directory)."""
    import tiktoken

    return tiktoken.Encoding(
        name=ENCODING_NAME, pat_str=_O200K_PATTERN, mergeable_ranks=read_ranks(), special_tokens=_O200K_SPECIAL
    )


def encoding_ready() -> bool:
    """Whether the encoding is built already (building it takes about a second and 70 MB, once per process)."""
    return encoding.cache_info().currsize > 0


_LONG_WHITESPACE = 250_000
r"""tiktoken splits a text with fancy-regex, which gives up on a whitespace run of about a million characters
(its backtrack limit: `\s+(?!\S)`) and panics. From this length on, a run is split by tiktoken's own Python
reading of the same pattern (the `regex` module), which has no such limit and gives the same pieces."""


def count_text(text: str) -> int:
    """o200k_base tokens of a text; special-token strings count as the plain text they are."""
    if len(text) >= _LONG_WHITESPACE and _longest_whitespace_run(text) >= _LONG_WHITESPACE:
        return len(encoding()._encode_only_native_bpe(text))
    try:
        return len(encoding().encode_ordinary(text))
    except BaseException as error:
        # A Rust panic arrives as pyo3's PanicException, a BaseException: only that one is taken (never
        # KeyboardInterrupt or SystemExit), and the text is split in Python instead.
        if type(error).__name__ != "PanicException":
            raise
        return len(encoding()._encode_only_native_bpe(text))


def _longest_whitespace_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"\s+", text)), default=0)


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def count_tool(value: Any, dialect: str | None) -> TokenCount:
    """The tokens of one tool definition (its compact JSON), exact for OpenAI dialects, an estimate elsewhere."""
    return TokenCount(count_text(compact_json(value)), dialect in EXACT_DIALECTS)
