#!/usr/bin/env bash
# vsix-smoke.sh [VSIX] [OUT_DIR]: installs the packaged extension (default dist/kubesim.vsix) into
# a fresh code-server and checks in the real workbench that it activates on a YAML file, its
# language server puts a diagnostic in the Problems panel, and "KubeSim: Apply Current Manifest"
# runs examples/web.yaml on the engine the .vsix carries, its pods Running in the sidebar
# (test/e2e/ui.mjs --installed).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
VSIX="$(realpath "${1:-dist/kubesim.vsix}")"
OUT="${2:-$ROOT/.ci/work/e2e}"
RUN="$OUT/vsix"
[ -f "$VSIX" ] || { echo "vsix-smoke: $VSIX not found (npm run package)" >&2; exit 1; }
rm -rf "$RUN"
trap 'scripts/e2e/stop-code-server.sh "$RUN"' EXIT
PORT="$(node scripts/e2e/free-port.mjs)"
scripts/e2e/start-code-server.sh "$PORT" "$RUN" "$VSIX"
ls -d "$RUN"/exts/kubesim.kubesim-* > /dev/null || { echo "vsix-smoke: the .vsix did not install" >&2; exit 1; }
node test/e2e/ui.mjs --url "http://127.0.0.1:$PORT" --installed --folder examples --shots "$OUT/screenshots" --prefix vsix-
