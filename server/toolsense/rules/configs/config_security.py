"""Security of MCP client configuration files (TS940–TS944): what a committed `.vscode/mcp.json`, `.mcp.json`,
`.cursor/mcp.json`, `opencode.json`, Zed or Gemini CLI settings, … (every client of `models.mcp_clients`) gives
away or lets run. Each entry is read as its client means it (`mcp_live.config.EntryView`: opencode's command
array, Windsurf's `serverUrl`, Codex's `http_headers`), so every rule applies to every client.

- TS940 a secret written inline (a token in `env`, `Bearer …` in `headers`, `--api-key …` in `args`, a key in the
  URL) where an `inputs` entry (VS Code) or an environment reference would keep it out of the file;
- TS941 a package run unpinned (`npx -y pkg`, `pkg@latest`, `uvx pkg`, a docker image without a tag): every start
  runs whatever was published last (opt-in: the `mcp-security` profile);
- TS942 a shell pipeline that downloads and runs code (`bash -c "curl … | sh"`);
- TS943 plain `http://` to a host that is not this machine;
- TS944 a filesystem server given the whole disk or the home folder.

Secrets are never quoted in a message: only their place and a few first characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.units import Unit
from ...mcp_live.config import EntryView, Pointer, dialect_of, entry_view, server_entries
from ...textsafety import visible
from ..catalog import CATALOG

FAMILY = CATALOG.security_family("MCP configuration files: security")
PROFILE = "mcp-security"

INLINE_SECRET = CATALOG.rule(
    "TS940",
    "mcp-config-inline-secret",
    Severity.ERROR,
    "A secret written into the configuration file (a token in `env`, `Bearer …` in `headers`, `--api-key` in "
    "`args`, a key in the URL): use VS Code's `inputs` (`${input:…}`, password: true) or an environment reference. "
    "The same for a request's remote MCP server (OpenAI's hosted `mcp` tool, Anthropic's `mcp_servers`).",
    FAMILY,
)
UNPINNED = CATALOG.rule(
    "TS941",
    "mcp-config-unpinned-package",
    Severity.WARNING,
    "mcp-security: a package run without a pinned version (`npx -y pkg`, `@latest`, `uvx pkg`, a docker image "
    "without a tag): each start runs whatever was published last.",
    FAMILY,
)
SHELL_PIPELINE = CATALOG.rule(
    "TS942",
    "mcp-config-shell-pipeline",
    Severity.ERROR,
    'A server started through a shell that downloads and runs code (`bash -c "curl … | sh"`).',
    FAMILY,
)
PLAIN_HTTP = CATALOG.rule(
    "TS943",
    "mcp-config-plain-http",
    Severity.WARNING,
    "A server URL with plain `http://` to a host other than this machine: requests and tokens travel readable "
    "(in a client's configuration, OpenAI's hosted `mcp` tool or Anthropic's `mcp_servers`).",
    FAMILY,
)
FILESYSTEM_ROOT = CATALOG.rule(
    "TS944",
    "mcp-config-filesystem-root",
    Severity.WARNING,
    "A filesystem server (or a container mount) given `/`, a drive root or the home folder: every file is in reach "
    "of the model.",
    FAMILY,
)

_TOKEN_FORMATS = re.compile(
    r"\b(sk-(ant-|proj-)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|"
    r"xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20}|"
    r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,})"
)
_SECRET_NAME = re.compile(
    r"(token|secret|password|passwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|(^|[_-])pat$|"
    r"auth|bearer|client[_-]?secret)",
    re.IGNORECASE,
)
_REFERENCE = re.compile(r"\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_]+%|\{\{[^}]*\}\}|\{[A-Za-z_]+\}")
_PLACEHOLDER = re.compile(
    r"^(<[^>]*>|\[[^\]]*\]|your[\s_-].*|.*\byour\b.*|x{3,}|\*{3,}|\.{3}|…|changeme|change-me|todo|placeholder|"
    r"replace[_-]?me|none|null|true|false|optional|required|\d{1,6}|)$",
    re.IGNORECASE,
)
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh"})
_PIPELINE = re.compile(
    r"\b(curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|;&]*\|\s*(sudo\s+)?((ba|z|da)?sh|iex|"
    r"invoke-expression|python3?|node|perl|ruby)\b|"
    r"\b(iex|invoke-expression)\b|\b(ba)?sh\s+<\(\s*(curl|wget)",
    re.IGNORECASE,
)
_LOOPBACK = re.compile(r"^(localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0|[\w.-]+\.localhost|host\.docker\.internal)$")
_HOME_OR_ROOT = re.compile(
    r"^(/|~/?|\$HOME/?|\$\{HOME\}/?|\$\{userHome\}/?|%USERPROFILE%\\?|[A-Za-z]:[\\/]?|/home/[^/]+/?|/Users/[^/]+/?|"
    r"/root/?)$"
)


def _url_part(url: str, part: str) -> str:
    """A part of a URL; empty when the URL does not parse (`urlsplit` raises on a broken IPv6 host)."""
    try:
        return str(getattr(urlsplit(url), part) or "")
    except ValueError:
        return ""


def _profiles(ctx: CheckContext) -> set[str]:
    return {str(name) for name in ctx.settings.profiles}


def _literal_secret(value: str, named_secret: bool) -> bool:
    """A value that is a secret itself, not a reference to one or a placeholder."""
    if _TOKEN_FORMATS.search(value):
        return True
    if not named_secret or _REFERENCE.search(value):
        return False
    bare = value.strip()
    if bare.lower().startswith(("bearer ", "basic ", "token ")):
        bare = bare.split(None, 1)[1] if len(bare.split(None, 1)) > 1 else ""
    return len(bare) >= 8 and not _PLACEHOLDER.match(bare) and " " not in bare and token_shaped(bare)


_WORDS = re.compile(r"[A-Za-z]+(?:[_.-][A-Za-z]+)+|[a-z]+|[A-Z]+")
"""Letters-only words, alone or joined by `_`, `-` or `.` (`your_github_token`, `INSERT-KEY-HERE`, `password`)."""


def token_shaped(value: str) -> bool:
    """Whether a value has the shape of a secret rather than of a placeholder for one, in any language: printable
    ASCII (a phrase such as "你的GitHub令牌" is a note to the reader), not letters-only words (`tu_token_de_github`),
    and varied like a generated token (two of lower case, upper case and digits, or 20 characters or more)."""
    if not value.isascii() or not value.isprintable() or _WORDS.fullmatch(value):
        return False
    classes = sum((any(c.islower() for c in value), any(c.isupper() for c in value), any(c.isdigit() for c in value)))
    return classes >= 2 or len(value) >= 20


def _redacted(value: str) -> str:
    bare = value.split(None, 1)[-1] if value.lower().startswith("bearer ") else value
    return visible(bare[:4], 10)[:-1] + f'…" ({len(bare)} characters)'


_HINT = {
    "vscode": 'declare it in `inputs` (password: true) and write "${input:…}" here',
    "codex": "name the variable instead: `env_vars` (stdio), `bearer_token_env_var` or `env_http_headers` (http)",
    "other": "pass it from the environment (`${env:NAME}` or the client's own env file) instead",
}


@CATALOG.unit_check("mcp_config")
def config_security_rules(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not isinstance(value, dict):
        return
    dialect = dialect_of(unit.dialect, value)
    hint = _HINT["vscode" if dialect in ("vscode", "devcontainer") else dialect if dialect in _HINT else "other"]
    for entry in server_entries(value, dialect):
        view = entry_view(entry.value, dialect)
        yield from _secrets(entry.pointer, view, hint)
        yield from _launch(entry.name, entry.pointer, view, PROFILE in _profiles(ctx))
        yield from _plain_http(entry.name, entry.pointer, view)


REQUEST_HINT = "send it from your secret store when the request is made, not from a file"
"""What to do instead, for a secret written in a request body (a hosted MCP tool, Anthropic's `mcp_servers`)."""


def remote_server_findings(
    name: str,
    pointer: Pointer,
    view: EntryView,
    tokens: tuple[tuple[str, Any, Pointer], ...] = (),
    hint: str = REQUEST_HINT,
    https_only: str | None = None,
) -> Iterator[Finding]:
    """TS940 and TS943 for a remote MCP server named outside a client's configuration: a provider's hosted `mcp`
    tool, an entry of Anthropic's `mcp_servers`. `view` holds its URL and headers; `tokens` the members that hold a
    credential by definition (`authorization`, `authorization_token`: name, value, where). `https_only` names who
    refuses plain http (TS943 is then an error that says so, not a risk)."""
    yield from _secrets(pointer, view, hint)
    for key, text, at in tokens:
        if isinstance(text, str) and _literal_secret(text, True):
            yield Finding(
                INLINE_SECRET.code,
                f"A secret is written inline in `{key}` ({_redacted(text)}): anyone who reads the file has it; {hint}",
                (*pointer, *at),
            )
    yield from _plain_http(name, pointer, view, https_only)


def _plain_http(name: str, pointer: Pointer, view: EntryView, https_only: str | None = None) -> Iterator[Finding]:
    url = view.url
    if url is not None and url.lower().startswith("http://"):
        host = _url_part(url, "hostname")
        if not _LOOPBACK.match(host):
            advice = "use https://" if https_only is None else f"{https_only} accepts https:// only"
            yield Finding(
                PLAIN_HTTP.code,
                f"Server '{name}' is reached over plain http at {visible(host, 60)}: requests, answers and "
                f"any token travel readable and changeable; {advice}",
                (*pointer, *view.url_pointer),
                severity=None if https_only is None else Severity.ERROR,
            )


def _secrets(pointer: Pointer, view: EntryView, hint: str) -> Iterator[Finding]:
    for values, at in ((view.env, view.env_pointer), (view.headers, view.headers_pointer)):
        section = ".".join(str(part) for part in at)
        for name, text in values.items():
            if isinstance(text, str) and _literal_secret(text, bool(_SECRET_NAME.search(name))):
                yield Finding(
                    INLINE_SECRET.code,
                    f"A secret is written inline in `{section}.{visible(name, 40)[1:-1]}` ({_redacted(text)}): "
                    f"anyone who reads the file has it; {hint}",
                    (*pointer, *at, name),
                )
    words = view.words
    for index, (arg, at) in enumerate(words):
        if index == 0 or (len(at) == 1 and at[0] == "command"):
            continue  # the program (or a word of a command line written in one string)
        flag, _, attached = arg.partition("=")
        previous = words[index - 1][0]
        named = bool(_SECRET_NAME.search(flag) and attached) or bool(
            previous.startswith("-") and _SECRET_NAME.search(previous)
        )
        secret = attached if attached and _SECRET_NAME.search(flag) else arg
        if _literal_secret(secret, named):
            where = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if n else str(p)) for n, p in enumerate(at))
            yield Finding(
                INLINE_SECRET.code,
                f"A secret is written inline in `{where}` ({_redacted(secret)}): anyone who reads the file "
                f"has it; {hint}",
                (*pointer, *at),
            )
    url = view.url
    if url is not None:
        for key, text in parse_qsl(_url_part(url, "query")):
            if _literal_secret(text, bool(_SECRET_NAME.search(key) or key.lower() in ("key", "sig"))):
                yield Finding(
                    INLINE_SECRET.code,
                    f"A secret is written inline in the URL's `{visible(key, 30)[1:-1]}` parameter "
                    f"({_redacted(text)}): it also ends up in server and proxy logs; {hint}",
                    (*pointer, *view.url_pointer),
                )


def _launch(name: str, pointer: Pointer, view: EntryView, profile: bool) -> Iterator[Finding]:
    if not view.words:
        return
    words = [word for word, _ in view.words]
    places = [at for _, at in view.words]
    program = words[0].replace("\\", "/").rsplit("/", 1)[-1].lower()
    if program in _SHELLS or _PIPELINE.search(" ".join(words)):
        match = _PIPELINE.search(" ".join(words))
        if match is not None:
            script = next((at for at in places[1:] if at != places[0]), places[0])
            yield Finding(
                SHELL_PIPELINE.code,
                f"Server '{name}' starts through a shell that downloads and runs code ({visible(match.group(), 60)}): "
                "whatever the URL serves runs with your rights at each start; install a pinned package instead",
                (*pointer, *_section(script)),
            )
    for index, word in enumerate(words[1:], start=1):
        if _HOME_OR_ROOT.match(word) and _is_filesystem(words):
            yield Finding(
                FILESYSTEM_ROOT.code,
                f"Server '{name}' is given {visible(word, 30)}: every file of the "
                + ("disk" if word in ("/",) or re.match(r"^[A-Za-z]:", word) else "home folder")
                + " is in the model's reach; give it the project folder only",
                (*pointer, *places[index]),
            )
        mount = re.match(r"^(?:-v|--volume=?)?\s*([^:]+):", word) if words[index - 1] in ("-v", "--volume") else None
        if mount is not None and _HOME_OR_ROOT.match(mount.group(1)):
            yield Finding(
                FILESYSTEM_ROOT.code,
                f"Server '{name}' mounts {visible(mount.group(1), 30)} into its container: every file under it is in "
                "the model's reach; mount the project folder only",
                (*pointer, *places[index]),
            )
    if profile:
        unpinned = _unpinned(program, words[1:])
        if unpinned is not None:
            index, package, why = unpinned
            yield Finding(
                UNPINNED.code,
                f"Server '{name}' runs {visible(package, 60)} {why}: each start runs whatever was published last; "
                "pin an exact version",
                (*pointer, *places[index]),
            )


def _section(at: Pointer) -> Pointer:
    """The array (`args`, opencode's `command`) a word of the command line is in: a script spans several."""
    return at[:-1] if at and isinstance(at[-1], int) else at


def _is_filesystem(words: list[str]) -> bool:
    return any("filesystem" in word.lower() or word.lower() in ("mcp-server-fs", "fs-mcp") for word in words)


_NPM_RUNNERS = {"npx": (), "bunx": (), "pnpx": (), "pnpm": ("dlx",), "yarn": ("dlx",), "bun": ("x",)}
_PY_RUNNERS = {"uvx": (), "pipx": ("run",), "uv": ("tool", "run")}
_FLOATING = frozenset({"latest", "next", "canary", "beta", "alpha", "rc", "nightly", "main", "master"})


def _package(words: list[str], lead: tuple[str, ...]) -> tuple[int, str] | None:
    position = 0
    for word in lead:
        if position < len(words) and words[position] == word:
            position += 1
    while position < len(words):
        word = words[position]
        if word in ("-p", "--package", "--from", "--with", "--python", "--index-url"):
            if word in ("-p", "--package", "--from"):
                return (position + 2, words[position + 1]) if position + 1 < len(words) else None
            position += 2
        elif word.startswith("-"):
            position += 1
        else:
            return position + 1, word
    return None


def _unpinned(program: str, words: list[str]) -> tuple[int, str, str] | None:
    name = program.removesuffix(".cmd").removesuffix(".exe")
    if name in _NPM_RUNNERS:
        found = _package(words, _NPM_RUNNERS[name])
        if found is None or found[1].startswith((".", "/", "file:", "http", "git+")):
            return None
        index, package = found
        version = (package[1:] if package.startswith("@") else package).partition("@")[2]
        if not version:
            return index, package, "without a version"
        if version in _FLOATING or re.search(r"[\^~*x><=|]", version):
            return index, package, f"at the floating version {visible(version, 20)}"
        return None
    if name in _PY_RUNNERS:
        found = _package(words, _PY_RUNNERS[name])
        if found is None or found[1].startswith((".", "/", "git+", "http")):
            return None
        index, package = found
        if "==" in package or re.search(r"@\d", package):
            return None
        return index, package, "without a version" if "@latest" not in package else "at the floating version latest"
    if name in ("docker", "podman") and words[:1] == ["run"]:
        for index, word in enumerate(words[1:], start=2):
            previous = words[index - 2]
            if word.startswith("-") or previous in ("-e", "-v", "--env", "--volume", "--name", "--network", "-p"):
                continue
            if "@sha256:" in word:
                return None
            tag = word.rsplit("/", 1)[-1].partition(":")[2]
            if not tag or tag in _FLOATING:
                return index, word, "without a tag" if not tag else "at the floating tag latest"
            return None
    return None
