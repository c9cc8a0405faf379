#!/usr/bin/env bash
# stop-code-server.sh RUN_DIR: ends the process group start-code-server.sh started (code-server,
# its extension hosts and file watchers, which would otherwise outlive it for a few seconds).
set -uo pipefail
RUN="${1:?usage: $0 RUN_DIR}"
[ -f "$RUN/cs.pgid" ] || exit 0
PGID="$(cat "$RUN/cs.pgid")"
kill -TERM -- "-$PGID" 2>/dev/null || true
for _ in $(seq 1 25); do kill -0 -- "-$PGID" 2>/dev/null || break; sleep 0.2; done
kill -KILL -- "-$PGID" 2>/dev/null || true
rm -f "$RUN/cs.pgid"
