"""What `client.list_tools` runs or connects to: a command line (stdio) or a URL (Streamable HTTP), with the values
that are secrets. Below the client and its transports (`stdio`, `http`), which all name them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StdioTarget:
    command: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    hidden: tuple[str, ...] = ()
    """Values filled in from the environment (`${env:NAME}`): secrets, like `env`'s."""

    def label(self) -> str:
        return " ".join((self.command, *self.args))


@dataclass(frozen=True)
class HttpTarget:
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    hidden: tuple[str, ...] = ()
    """Values filled in from the environment (`${env:NAME}`, in the URL or a header): secrets."""

    def label(self) -> str:
        return _strip_userinfo(self.url)


Target = StdioTarget | HttpTarget


def _strip_userinfo(url: str) -> str:
    return re.sub(r"^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@]*@", r"\1", url)
