#!/usr/bin/env bash
# run-all.sh: the extension's end-to-end checks in a real VS Code (code-server 4.100.3 = VS Code
# 1.100) driven by headless Chromium -- set up code-server, build, package the .vsix, run the
# extension-host mocha suites and the UI run against the development folder, then install the
# .vsix into a fresh code-server and check it works. Screenshots and logs go to E2E_OUT
# (default .ci/work/e2e). With CI=true a missing code-server or Chromium fails the run; without,
# the run is skipped with a message.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
OUT="${E2E_OUT:-$ROOT/.ci/work/e2e}"
mkdir -p "$OUT"
T0=$(date +%s)
step() { echo "=== [e2e $(( $(date +%s) - T0 ))s] $*"; }
trap 'scripts/e2e/stop-code-server.sh "$OUT/dev"' EXIT

unavailable() {
  if [ "${CI:-}" = true ]; then echo "e2e: $*" >&2; exit 1; fi
  echo "e2e: skipped: $*"; exit 0
}

step "code-server and Chromium"
scripts/e2e/setup-code-server.sh > "$OUT/setup.log" 2>&1 || { tail -20 "$OUT/setup.log" >&2; unavailable "code-server could not be set up (see $OUT/setup.log)"; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || unavailable "Chromium not found at ${CHROMIUM:-/usr/bin/chromium}"

step "build, package, bundle the extension-host suites"
npm run package --silent > "$OUT/package.log" 2>&1 || { cat "$OUT/package.log" >&2; exit 1; }
node scripts/e2e/build-vscode-tests.mjs || exit 1
# What a user downloads: the .vsix's size and what it holds (the activation time is printed by the
# extension-host suites below, as {"bench":"extension-activation",...}).
grep -E 'Packaged:' "$OUT/package.log" || true
node -e 'const fs=require("fs");const b=fs.statSync("dist/kubesim.vsix").size;const files=fs.readdirSync("dist").filter(f=>/^(extension|language-client|panel|webview)\.js$|^(engine-worker|server|chunk-.*)\.mjs$|^webview\.css$/.test(f)).sort();console.log(JSON.stringify({bench:"vsix",bytes:b,bundleBytes:Object.fromEntries(files.map(f=>[f,fs.statSync("dist/"+f).size]))}))'

FAILED=()
step "code-server with the development extension"
PORT="$(node scripts/e2e/free-port.mjs)"
rm -rf "$OUT/dev"
scripts/e2e/start-code-server.sh "$PORT" "$OUT/dev" || exit 1

step "extension-host suites"
if node test/e2e/run-ext-tests.mjs --url "http://127.0.0.1:$PORT" > "$OUT/ext-tests.log" 2>&1; then
  grep -E '^\s+(✔|[0-9]+ (passing|pending))|exit code|"bench"' "$OUT/ext-tests.log" || true
else
  FAILED+=("extension-host suites")
  tail -80 "$OUT/ext-tests.log"
fi

step "UI run"
node test/e2e/ui.mjs --url "http://127.0.0.1:$PORT" --shots "$OUT/screenshots" || FAILED+=("UI run")

step "UI run: the cluster map, scheduler verdicts, replay and filters"
node test/e2e/ui-map.mjs --url "http://127.0.0.1:$PORT" --shots "$OUT/screenshots" || FAILED+=("UI map run")

step "UI run: the story of an apply, Step to next change"
node test/e2e/ui-story.mjs --url "http://127.0.0.1:$PORT" --shots "$OUT/screenshots" || FAILED+=("UI story run")

step "UI run: the object graph during a rolling update"
node test/e2e/ui-graph.mjs --url "http://127.0.0.1:$PORT" --shots "$OUT/screenshots" || FAILED+=("UI graph run")

step "UI run: the guided start (walkthrough) step by step"
node test/e2e/ui-walkthrough.mjs --url "http://127.0.0.1:$PORT" --shots "$OUT/screenshots" || FAILED+=("UI walkthrough run")

step "UI run: the etcd view, the sidebar's etcd actions (stop the leader, a new one elected)"
node test/e2e/ui-etcd.mjs --url "http://127.0.0.1:$PORT" --shots "$OUT/screenshots" || FAILED+=("UI etcd run")

step "UI run: Reload Window keeps the cluster and the story the panel tells"
node test/e2e/ui-reload.mjs --url "http://127.0.0.1:$PORT" --shots "$OUT/screenshots" || FAILED+=("UI reload run")
scripts/e2e/stop-code-server.sh "$OUT/dev"

step "panel with 100,000 records in Chromium (virtualized lists, time travel, state across reloads)"
node test/e2e/panel-perf.mjs --shots "$OUT/screenshots" > "$OUT/panel-perf.log" 2>&1 || FAILED+=("panel perf")
grep -E '^(PASS|FAIL|scroll:|panel perf)' "$OUT/panel-perf.log" | cut -c1-160

step ".vsix installed into a fresh code-server"
scripts/e2e/vsix-smoke.sh dist/kubesim.vsix "$OUT" || FAILED+=("vsix smoke")

step "done"
if [ "${#FAILED[@]}" -gt 0 ]; then
  echo "e2e FAILED: ${FAILED[*]} (logs in $OUT)" >&2
  exit 1
fi
echo "e2e passed; screenshots in $OUT/screenshots"
