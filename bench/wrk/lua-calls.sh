#!/usr/bin/env bash
# What a redis.call costs inside a script (see lua-calls.py), on a Redis of the project's own
# (the binary the tests and the bench run), started here on a free port and stopped by pid after,
# also on Ctrl-C. Run it on a quiet machine: Redis's figures are wall time.
#
#   bench/wrk/lua-calls.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
work="$(mktemp -d)"
pid=""
stop() { [ -n "$pid" ] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; rm -rf "$work"; }
trap stop EXIT
trap 'exit 130' INT TERM
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
STOCKGUARD_NO_BUILD="${STOCKGUARD_NO_BUILD:-}" "$ROOT/stockguard" redis --port="$port" >"$work/redis.log" 2>&1 &
pid=$!
for _ in $(seq 1 60); do grep -q "is ready" "$work/redis.log" 2>/dev/null && break; sleep 1; done
grep -q "is ready" "$work/redis.log" || { echo "Redis did not start:" >&2; cat "$work/redis.log" >&2; exit 1; }
python3 "$ROOT/bench/wrk/lua-calls.py" "$port"
