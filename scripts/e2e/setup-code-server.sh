#!/usr/bin/env bash
# setup-code-server.sh [TARGET_DIR]   (default .ci/work/code-server)
#
# Installs code-server 4.100.3 (VS Code 1.100, the last line that runs on Node 20) from the npm
# registry plus Debian packages only -- nothing from GitHub -- and Chromium for the UI tests.
# Idempotent: a second run is a quick no-op.
#
# code-server's own postinstall would `npm install` lib/vscode, whose @vscode/ripgrep downloads
# rg from GitHub. Instead everything installs with --ignore-scripts, Debian's rg is placed where
# @vscode/ripgrep looks (its postinstall then does nothing), the native modules are rebuilt, and
# the symlinks postinstall.sh would make are made here.
#
# Env: CS_VERSION (4.100.3)  WITH_CHROMIUM (1)  SKIP_APT (1: leave apt alone)  FORCE (1: redo lib/vscode)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TARGET="${1:-$ROOT/.ci/work/code-server}"
CS_VERSION="${CS_VERSION:-4.100.3}"
WITH_CHROMIUM="${WITH_CHROMIUM:-1}"
mkdir -p "$TARGET"
TARGET="$(cd "$TARGET" && pwd)"
CS="$TARGET/node_modules/code-server"
VS="$CS/lib/vscode"
MARKER="$VS/.kubesim-offline-setup-ok"
export JOBS="${JOBS:-$(nproc)}"
# node-pty's install script runs `npx node-gyp`; a user npmrc with yes=false would stop it.
export npm_config_yes=true
NPM_FLAGS=(--no-audit --no-fund --loglevel=warn)
T0=$(date +%s)
say() { echo "=== [setup-code-server $(( $(date +%s) - T0 ))s] $*"; }
die() { echo "setup-code-server: $*" >&2; exit 1; }

[ "$(node -p 'process.versions.node.split(".")[0]')" = 20 ] || die "code-server $CS_VERSION needs Node 20 (found $(node -v))"

# node-gyp uses the local Node headers when they match, instead of downloading them.
if [ -z "${npm_config_nodedir:-}" ]; then
  NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  HDR="$NODE_PREFIX/include/node/node_version.h"
  if [ -f "$HDR" ]; then
    HV="$(awk '/define NODE_(MAJOR|MINOR|PATCH)_VERSION/{printf "%s%s",s,$3; s="."}' "$HDR")"
    [ "v$HV" = "$(node -v)" ] && export npm_config_nodedir="$NODE_PREFIX"
  fi
fi

if [ "${SKIP_APT:-0}" != 1 ]; then
  PKGS=(build-essential python3 pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev ripgrep curl)
  [ "$WITH_CHROMIUM" = 1 ] && PKGS+=(chromium)
  MISSING=()
  for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || MISSING+=("$p")
  done
  if [ "${#MISSING[@]}" -gt 0 ]; then
    say "apt-get install ${MISSING[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${MISSING[@]}" >/dev/null
  fi
fi
RG="$(command -v rg)" || die "ripgrep (rg) not found: apt-get install ripgrep"

[ -f "$TARGET/package.json" ] || echo '{ "name": "kubesim-code-server", "private": true }' > "$TARGET/package.json"
HAVE="$(node -p "try{require('$CS/package.json').version}catch(e){''}")"
if [ "$HAVE" != "$CS_VERSION" ]; then
  say "npm install code-server@$CS_VERSION (no scripts)"
  rm -f "$MARKER"
  (cd "$TARGET" && npm install "${NPM_FLAGS[@]}" --ignore-scripts --omit=dev --save-exact "code-server@$CS_VERSION")
fi

# argon2 is loaded at startup; its prebuilt download would go to GitHub, so build it here.
if ! (cd "$TARGET" && node -e 'require("argon2")' 2>/dev/null); then
  say "build argon2"
  (cd "$TARGET" && npm rebuild "${NPM_FLAGS[@]}" argon2 --build-from-source)
fi

if [ -f "$MARKER" ] && [ "${FORCE:-0}" != 1 ]; then
  say "code-server $CS_VERSION already set up in $TARGET"
  exit 0
fi

say "lib/vscode dependencies (no scripts)"
(cd "$VS" && npm install "${NPM_FLAGS[@]}" --omit=dev --ignore-scripts)
mkdir -p "$VS/node_modules/@vscode/ripgrep/bin"
cp -f "$RG" "$VS/node_modules/@vscode/ripgrep/bin/rg"
say "native modules (npm rebuild)"
(cd "$VS" && npm rebuild "${NPM_FLAGS[@]}")

say "postinstall links and built-in extensions' dependencies"
ln -sfn node_modules "$VS/node_modules.asar"
ln -sfn code-linux.sh "$VS/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$VS/bin/helpers/browser.sh"
(cd "$VS/extensions" && npm install "${NPM_FLAGS[@]}" --omit=dev --ignore-scripts && node ./postinstall.mjs >/dev/null)

say "verify"
(cd "$VS" && node -e '
  for (const m of ["@vscode/spdlog", "node-pty", "kerberos", "native-watchdog", "@parcel/watcher", "@vscode/deviceid"]) require(m);
  require("child_process").execFileSync(require("@vscode/ripgrep").rgPath, ["--version"]);')
# code-server writes ~/.config/code-server even for --version; its stdout is lost when piped.
VHOME="$(mktemp -d)"
HOME="$VHOME" "$TARGET/node_modules/.bin/code-server" --version > "$VHOME/version" 2>/dev/null || true
grep -q "with Code" "$VHOME/version" || { rm -rf "$VHOME"; die "code-server --version failed"; }
say "$(grep -m1 "with Code" "$VHOME/version")"
rm -rf "$VHOME"
touch "$MARKER"
say "done ($(du -sh "$TARGET" | cut -f1) in $TARGET)"
