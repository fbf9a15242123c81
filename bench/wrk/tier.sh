# Sourced by the scripts of bench/wrk: starts one tier of the service (and the Redis / Kafka it
# needs) on a fresh data directory under $work, and stops everything it started by pid when the
# script ends, also on Ctrl-C. Expects $ROOT and $tier (db, redis or kafka); sets $port and
# $service_pid. JAVA_OPTS reaches the service's JVM; settings in the array extra_args reach the service.
work="$(mktemp -d)"
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
await_up() { # await_up URL SECONDS
  for _ in $(seq 1 "$2"); do curl -sf -o /dev/null "$1" && return 0; sleep 1; done
  echo "nothing answered at $1 within $2 s (logs in $work)" >&2; return 1
}

descendants() { local c; for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
# CPU ticks so far of the service's JVM and of the servers beside it: every other process this
# script started (wrk aside), and the embedded PostgreSQL, which detaches from the service.
cpu_ticks() {
  local jvm=0 others=0 p t postmaster
  postmaster="$(head -1 "$work/data/postgres/postmaster.pid" 2>/dev/null || true)"
  for p in $(descendants $$; [ -n "$postmaster" ] && { echo "$postmaster"; descendants "$postmaster"; }); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = wrk ] && continue
    t="$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null)" || continue
    [ -n "$t" ] || continue
    if [ "$p" = "$service_pid" ]; then jvm=$t; else others=$((others + t)); fi
  done
  echo "$jvm $others"
}
hz="$(getconf CLK_TCK)"

await_log() { # await_log FILE SECONDS: until a trial server says it is ready
  for _ in $(seq 1 "$2"); do grep -q "is ready" "$1" 2>/dev/null && return 0; sleep 1; done
  echo "no 'is ready' in $1 within $2 s" >&2; cat "$1" >&2; return 1
}

port="$(free_port)"
args=("--server.port=$port" "--stockguard.data-dir=$work/data" "--logging.level.root=WARN")
if [ "$tier" != db ]; then
  redis_port="$(free_port)"
  STOCKGUARD_NO_BUILD=1 "$ROOT/stockguard" redis --port="$redis_port" >"$work/redis.log" 2>&1 &
  pids+=($!)
  await_log "$work/redis.log" 60
  args+=("--stockguard.ledger=redis" "--stockguard.redis.url=redis://localhost:$redis_port")
fi
if [ "$tier" = kafka ]; then
  kafka_port="$(free_port)"
  STOCKGUARD_NO_BUILD=1 "$ROOT/stockguard" kafka --port="$kafka_port" >"$work/kafka.log" 2>&1 &
  pids+=($!)
  await_log "$work/kafka.log" 90
  # One broker: topics of one replica (the defaults, 3 and 2, need three brokers; with fewer every
  # event would fall back to the database journal and the run would measure that instead).
  args+=("--stockguard.journal=kafka" "--stockguard.kafka.bootstrap-servers=localhost:$kafka_port"
    "--stockguard.kafka.replication-factor=1" "--stockguard.kafka.min-insync-replicas=1")
fi
# A script may add settings of its own in extra_args before sourcing this file.
[ -n "${extra_args+set}" ] && args+=("${extra_args[@]}")
STOCKGUARD_NO_BUILD=1 "$ROOT/stockguard" run "${args[@]}" >"$work/service.log" 2>&1 &
service_pid=$!
pids+=($service_pid)
await_up "http://localhost:$port/actuator/health/liveness" 120

