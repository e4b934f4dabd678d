"""MCP client configuration security (TS940–TS944) on the hand-written configuration files of the security corpus:
every named problem found, with its message; the negative controls clean; no secret ever quoted whole."""

from __future__ import annotations

from pathlib import Path

from tests.support.checking import diagnostics

from toolsense.settings import Settings

CONFIGS = Path(__file__).resolve().parents[2] / "corpus" / "security" / "configs"
SECURITY = Settings.model_validate({"profiles": ["mcp-security"]})


def messages(path: Path, name: str, settings: Settings | None = None) -> list[tuple[str, str]]:
    found = diagnostics(path.read_text(encoding="utf-8"), name, settings)
    return [(d.code, d.message) for d in found if d.code.startswith("TS94")]


def test_the_issues_scenarios_in_an_mcp_json() -> None:
    found = messages(CONFIGS / "claude" / ".mcp.json", ".mcp.json", SECURITY)
    hint = "pass it from the environment (`${env:NAME}` or the client's own env file) instead"
    assert found == [
        (
            "TS941",
            'Server \'github\' runs "@modelcontextprotocol/server-github@latest" at the floating version "latest": '
            "each start runs whatever was published last; pin an exact version",
        ),
        (
            "TS940",
            'A secret is written inline in `env.GITHUB_PERSONAL_ACCESS_TOKEN` ("ghp_…" (40 characters)): anyone who '
            f"reads the file has it; {hint}",
        ),
        (
            "TS941",
            "Server 'files' runs \"@modelcontextprotocol/server-filesystem\" without a version: each start runs "
            "whatever was published last; pin an exact version",
        ),
        (
            "TS944",
            "Server 'files' is given \"/\": every file of the disk is in the model's reach; give it the project "
            "folder only",
        ),
        (
            "TS944",
            "Server 'home' is given \"~\": every file of the home folder is in the model's reach; give it the "
            "project folder only",
        ),
        (
            "TS943",
            "Server 'remote' is reached over plain http at \"mcp.example.com\": requests, answers and any token travel "
            "readable and changeable; use https://",
        ),
        (
            "TS940",
            f'A secret is written inline in `headers.Authorization` ("sk-l…" (28 characters)): anyone who reads '
            f"the file has it; {hint}",
        ),
        (
            "TS942",
            "Server 'setup' starts through a shell that downloads and runs code (\"curl -fsSL "
            'https://install.example.com/mcp.sh | sh"): whatever the URL serves runs with your rights at each start; '
            "install a pinned package instead",
        ),
        (
            "TS941",
            "Server 'fetch' runs \"mcp-server-fetch\" without a version: each start runs whatever was published "
            "last; pin an exact version",
        ),
        (
            "TS944",
            "Server 'db' mounts \"/\" into its container: every file under it is in the model's reach; mount the "
            "project folder only",
        ),
        (
            "TS941",
            "Server 'db' runs \"mcp/postgres\" without a tag: each start runs whatever was published last; pin an "
            "exact version",
        ),
        (
            "TS940",
            'A secret is written inline in the URL\'s `api_key` parameter ("AIza…" (39 characters)): it also '
            f"ends up in server and proxy logs; {hint}",
        ),
    ]


def test_unpinned_packages_only_with_the_security_profile() -> None:
    found = messages(CONFIGS / "claude" / ".mcp.json", ".mcp.json")
    assert "TS941" not in {code for code, _ in found}
    assert {code for code, _ in found} == {"TS940", "TS942", "TS943", "TS944"}


def test_vs_code_is_told_to_use_inputs() -> None:
    found = messages(CONFIGS / "vscode" / ".vscode" / "mcp.json", ".vscode/mcp.json", SECURITY)
    assert [code for code, _ in found] == ["TS941", "TS940", "TS941", "TS940", "TS942"]
    assert found[1][1] == (
        'A secret is written inline in `args[3]` ("jira…" (21 characters)): anyone who reads the file has it; declare '
        'it in `inputs` (password: true) and write "${input:…}" here'
    )
    assert "iwr https://get.example.com/mcp.ps1 | iex" in found[4][1]
