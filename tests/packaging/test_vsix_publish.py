"""The .vsix as the registries get it, and the release workflow's publishing, run offline.

`scripts/package.js --universal` packs the extension (from a copy of this checkout) as the release workflow's universal
job does. Then:
- its page works offline: the icon is in the package, and the README's images are inlined (VS Code shows an
  extension's README in a webview that loads images from `https:` and `data:` only — microsoft/vscode
  src/vs/workbench/contrib/extensions/browser/extensionEditor.ts, `renderBody`, read 2026-12-07 — so a packaged
  image file shows broken, and a web one needs the network); the description names MCP configurations, `server.json`
  and the security rules;
- the two publish commands of `.github/workflows/release.yml` run as written against stand-in registries on this
  machine (`VSCE_MARKETPLACE_URL` for `vsce`, `OVSX_REGISTRY_URL` for `ovsx`: both tools read them), which must each
  receive the package byte for byte. `vsce` validates the manifest for the Marketplace before it uploads, `ovsx`
  reads the package's manifest for its namespace: what a real publish would refuse fails here.
"""

from __future__ import annotations

import base64
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from packkit import REPO, copy_source

pytestmark = [pytest.mark.client, pytest.mark.timeout(900)]

EXTENSION = REPO / "vscode-extension"
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
EXTENSION_FILES = (
    "package.json",
    "package-lock.json",
    "README.md",
    "CHANGELOG.md",
    "LICENSE",
    ".vscodeignore",
    "tsconfig.json",
    "images",
    "scripts",
    "src",
)
# Where the Marketplace's API (azure-devops-node-api GalleryApi.getExtension / createExtension) says its routes are.
GALLERY_LOCATIONS = [
    {
        "id": "e11ea35a-16fe-4b80-ab11-c4cab88a0966",
        "area": "gallery",
        "resourceName": "extensions",
        "routeTemplate": "_apis/public/{area}/publishers/{publisherName}/extensions/{extensionName}/{version}",
        "resourceVersion": 2,
        "minVersion": "1.0",
        "maxVersion": "7.2",
        "releasedVersion": "0.0",
    },
    {
        "id": "a41192c8-9525-4b58-bc86-179fa549d80d",
        "area": "gallery",
        "resourceName": "extensions",
        "routeTemplate": "_apis/{area}/{resource}",
        "resourceVersion": 2,
        "minVersion": "1.0",
        "maxVersion": "7.2",
        "releasedVersion": "0.0",
    },
]


class Registries(http.server.ThreadingHTTPServer):
    """The Visual Studio Marketplace and Open VSX, as far as publishing one new extension goes: every upload is kept."""

    uploads: dict[str, bytes]
    requests: list[str]


class Handler(http.server.BaseHTTPRequestHandler):
    server: Registries

    def log_message(self, format: str, *args: Any) -> None:
        self.server.requests.append(f"{self.command} {self.path}")

    def _body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", ""):
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                chunk = self.rfile.read(size + 2)[:size]
                if size == 0:
                    return body
                body += chunk
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def _json(self, status: int, value: Any) -> None:
        payload = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_OPTIONS(self) -> None:
        self.log_message("")
        if self.path.rstrip("/") == "/_apis/gallery":
            self._json(200, {"count": len(GALLERY_LOCATIONS), "value": GALLERY_LOCATIONS})
        else:
            self._json(404, {"message": "no such area"})

    def do_GET(self) -> None:
        self.log_message("")
        self._json(404, {"message": "not published yet"})

    def do_POST(self) -> None:
        self.log_message("")
        body = self._body()
        if self.path.startswith("/_apis/gallery/extensions"):
            self.server.uploads["marketplace"] = body
            self._json(200, {"extensionName": "toolsense", "publisher": {"publisherName": "toolsense"}})
        elif self.path.startswith("/api/-/publish"):
            self.server.uploads["open-vsx"] = body
            self._json(
                201, {"namespace": "toolsense", "name": "toolsense", "version": "0", "targetPlatform": "universal"}
            )
        else:
            self._json(404, {"message": "no such route"})


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the copy of vscode-extension/, the universal .vsix packed there)."""
    npm = shutil.which("npm")
    if npm is None or not (EXTENSION / "node_modules" / ".bin" / "ovsx").exists():
        message = "npm and vscode-extension/node_modules with ovsx are needed (npm ci in vscode-extension)"
        if os.environ.get("TOOLSENSE_REQUIRE_E2E", "").strip() not in ("", "0"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    assert npm is not None
    root = copy_source(tmp_path_factory.mktemp("checkout") / "toolsense")
    extension = root / "vscode-extension"
    extension.mkdir()
    for name in EXTENSION_FILES:
        source = EXTENSION / name
        if source.is_dir():
            shutil.copytree(source, extension / name)
        else:
            shutil.copy2(source, extension / name)
    (extension / "node_modules").symlink_to(EXTENSION / "node_modules")
    subprocess.run([npm, "run", "-s", "bundle"], cwd=extension, check=True, capture_output=True, timeout=300)
    out = tmp_path_factory.mktemp("vsix")
    run = subprocess.run(
        ["node", "scripts/package.js", "--universal", "--out", str(out)],
        cwd=extension,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHON": sys.executable},
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    (vsix,) = out.glob("*.vsix")
    return extension, vsix


def test_the_extension_page_shows_everything_offline(packed: tuple[Path, Path]) -> None:
    _, vsix = packed
    with zipfile.ZipFile(vsix) as archive:
        names = archive.namelist()
        manifest = archive.read("extension.vsixmanifest").decode("utf-8")
        readme = archive.read("extension/readme.md").decode("utf-8")
        package = json.loads(archive.read("extension/package.json"))
    icon = re.search(r"<Icon>([^<]+)</Icon>", manifest)
    assert icon is not None and icon.group(1) in names
    assert package["galleryBanner"] == {"color": "#1c2a3a", "theme": "dark"}
    # One README, whatever the file system's case rules (a README.md beside readme.md would clash on Windows).
    assert [name for name in names if name.lower() == "extension/readme.md"] == ["extension/readme.md"]
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme)
    assert images, "the README shows the screenshot"
    assert all(image.startswith("data:image/png;base64,") for image in images), [i[:60] for i in images]
    screenshot = (EXTENSION / "images" / "screenshot.png").read_bytes()
    assert base64.b64decode(images[0].split(",", 1)[1]) == screenshot
    links = [link for link in re.findall(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)", readme) if not link.startswith("#")]
    assert links and all(link.startswith("https://") for link in links), links
    for words in ("MCP client configurations", "server.json", "security rules"):
        assert words in package["description"], words


def _publish_commands() -> list[str]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    steps = workflow["jobs"]["publish"]["steps"]
    script = next(step["run"] for step in steps if step.get("name") == "Publish")
    return [line.strip() for line in script.splitlines() if line.strip().startswith("npx ")]


@pytest.fixture
def registries() -> Iterator[Registries]:
    server = Registries(("127.0.0.1", 0), Handler)
    server.uploads = {}
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_the_release_publishes_to_both_registries(packed: tuple[Path, Path], registries: Registries) -> None:
    extension, vsix = packed
    commands = _publish_commands()
    assert commands == [
        "npx vsce publish --packagePath artifacts/*.vsix",
        "npx ovsx publish --packagePath artifacts/*.vsix",
    ]
    artifacts = extension / "artifacts"
    artifacts.mkdir(exist_ok=True)
    shutil.copy2(vsix, artifacts / vsix.name)
    url = f"http://127.0.0.1:{registries.server_address[1]}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VSCE_", "OVSX_"))}
    env.update(VSCE_PAT="stand-in", OVSX_PAT="stand-in", VSCE_MARKETPLACE_URL=url, OVSX_REGISTRY_URL=url)
    env["npm_config_offline"] = "true"  # npx must run the pinned local tools, never fetch one
    for command in commands:
        run = subprocess.run(
            ["bash", "-c", command], cwd=extension, capture_output=True, text=True, timeout=300, env=env
        )
        assert run.returncode == 0, f"{command}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}\n{registries.requests}"
        assert "Published toolsense.toolsense" in run.stdout + run.stderr, run.stdout + run.stderr
    package = vsix.read_bytes()
    assert registries.uploads == {"marketplace": package, "open-vsx": package}, registries.requests
