#!/usr/bin/env bash
# start-code-server.sh PORT RUN_DIR [VSIX ...]
# Starts code-server (from scripts/e2e/setup-code-server.sh; CS_ROOT, default .ci/work/code-server)
# in its own process group, isolated under RUN_DIR (HOME, TMPDIR, config, user data, extensions),
# after installing the given .vsix files. Waits for /healthz. The process group id is written to
# RUN_DIR/cs.pgid: stop it with scripts/e2e/stop-code-server.sh RUN_DIR.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PORT="${1:?usage: $0 PORT RUN_DIR [VSIX ...]}"; RUN="${2:?usage: $0 PORT RUN_DIR [VSIX ...]}"; shift 2
CS_ROOT="${CS_ROOT:-$ROOT/.ci/work/code-server}"
CS="$CS_ROOT/node_modules/.bin/code-server"
[ -x "$CS" ] || { echo "code-server not installed in $CS_ROOT (run scripts/e2e/setup-code-server.sh)" >&2; exit 1; }
mkdir -p "$RUN"/{home,tmp,ud/User,exts}
RUN="$(cd "$RUN" && pwd)"
# code-server and VS Code write config, logs and ipc sockets under HOME and TMPDIR.
export HOME="$RUN/home" TMPDIR="$RUN/tmp"
cat > "$RUN/ud/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "telemetry.telemetryLevel": "off",
  "security.workspace.trust.enabled": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "update.mode": "none",
  "git.enabled": false
}
JSON
COMMON=(--config "$RUN/config.yaml" --user-data-dir "$RUN/ud" --extensions-dir "$RUN/exts")
for vsix in "$@"; do "$CS" "${COMMON[@]}" --force --install-extension "$vsix" >> "$RUN/install.log" 2>&1; done
setsid "$CS" "${COMMON[@]}" --auth none --bind-addr "127.0.0.1:$PORT" \
  --disable-telemetry --disable-update-check --disable-workspace-trust \
  > "$RUN/cs.log" 2>&1 < /dev/null &
echo $! > "$RUN/cs.pgid"
for _ in $(seq 1 150); do
  curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && exit 0
  kill -0 "$(cat "$RUN/cs.pgid")" 2>/dev/null || break
  sleep 0.2
done
echo "code-server did not come up on port $PORT; see $RUN/cs.log" >&2
exit 1
