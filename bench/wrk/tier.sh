# Sourced by the scripts of bench/wrk: starts one tier of the service (and the Redis / Kafka it
# needs) on a fresh data directory under $work, and stops everything it started by pid when the
# script ends, also on Ctrl-C. Expects $ROOT and $tier (db, redis, kafka, or ceiling: the HTTP
# ceiling, the database tier with a ledger in memory); sets $port and $service_pid. JAVA_OPTS
# reaches the service's JVM; settings in the array extra_args reach the service.
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
# CPU ticks so far of the service's JVM, of the servers beside it (every other process this script
# started, wrk aside, and the embedded PostgreSQL, which detaches from the service), and of
# PostgreSQL's processes among those (the postmaster and its backends all name themselves postgres).
cpu_ticks() {
  local jvm=0 others=0 postgres=0 p t postmaster comm
  postmaster="$(head -1 "$work/data/postgres/postmaster.pid" 2>/dev/null || true)"
  for p in $(descendants $$; [ -n "$postmaster" ] && { echo "$postmaster"; descendants "$postmaster"; }); do
    comm="$(cat "/proc/$p/comm" 2>/dev/null)" || continue
    [ "$comm" = wrk ] && continue
    t="$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null)" || continue
    [ -n "$t" ] || continue
    if [ "$p" = "$service_pid" ]; then jvm=$t; else others=$((others + t)); fi
    [ "$comm" = postgres ] && postgres=$((postgres + t))
  done
  echo "$jvm $others $postgres"
}
hz="$(getconf CLK_TCK)"

await_log() { # await_log FILE SECONDS: until a trial server says it is ready
  for _ in $(seq 1 "$2"); do grep -q "is ready" "$1" 2>/dev/null && return 0; sleep 1; done
  echo "no 'is ready' in $1 within $2 s" >&2; cat "$1" >&2; return 1
}

# NETWORK=remote plays the servers as a shop runs them: the database (a PostgreSQL of the bench's,
# every commit flushed) behind 1 ms of round trip and Redis behind 0.2 ms, through the testkit's
# latency link; Kafka stays local. The links run beside the service, so their CPU counts as servers'.
network="${NETWORK:-local}"
case "$network" in local|remote) ;; *) echo "NETWORK is local or remote, not $network" >&2; exit 2 ;; esac
# The links, the bench's PostgreSQL and the ceiling run on this JVM: $JAVA_HOME's, else the one on PATH.
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
java_at_least_21() {
  local v; v="$("$java_bin" -version 2>&1 | awk -F '"' '/version/ {print $2; exit}')"
  [ "${v%%.*}" -ge 21 ] 2>/dev/null || { echo "needs a JDK 21 or newer: set JAVA_HOME (found $java_bin: ${v:-none})" >&2; exit 2; }
}
# Always started in the background: exec makes $! the JVM's own pid, so stop() ends the JVM (and
# the bench's PostgreSQL with it, by its shutdown hook), not only the subshell that started it.
testkit_java() {
  [ -f "$ROOT/testkit/target/classpath.txt" ] || { echo "needs the testkit built: ./mvnw -pl bench -am package" >&2; exit 2; }
  java_at_least_21
  exec "$java_bin" -cp "$ROOT/testkit/target/classes:$(cat "$ROOT/testkit/target/classpath.txt")" "$@"
}
link() { # link NAME PORT MICROS: starts a latency link to PORT; sets linked_port, the port to use instead
  testkit_java io.stockguard.testkit.TrialServer link --to="$2" --round-trip-micros="$3" >"$work/$1-link.log" 2>&1 &
  pids+=($!)
  await_log "$work/$1-link.log" 60
  linked_port="$(sed -n 's/^link is ready at 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$1-link.log")"
}

# Checked here, in this shell: a check inside a background start would only stop that start.
if [ "$network" = remote ] || [ "$tier" = ceiling ]; then java_at_least_21; fi

port="$(free_port)"
args=("--server.port=$port" "--stockguard.data-dir=$work/data" "--logging.level.root=WARN")
if [ "$network" = remote ]; then
  testkit_java io.stockguard.testkit.TrialServer postgres >"$work/postgres.log" 2>&1 &
  pids+=($!)
  await_log "$work/postgres.log" 120
  jdbc="$(sed -n 's/^postgres is ready at \([^ ]*\) .*/\1/p' "$work/postgres.log")"
  pg_port="$(sed -n 's|^jdbc:postgresql://[^:]*:\([0-9]*\)/.*|\1|p' <<<"$jdbc")"
  link postgres "$pg_port" 1000
  pg_link="$linked_port"
  # An external database: the service generates no keys, so the script makes them, where the
  # scripts read them on the embedded tier.
  mkdir -p "$work/data"
  api_key="order-service:$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
  admin_key="admin:$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
  printf 'stockguard.security.api-keys=%s\nstockguard.security.admin-keys=%s\n' "$api_key" "$admin_key" \
    >"$work/data/credentials.properties"
  args+=("--spring.datasource.url=${jdbc/:$pg_port\//:$pg_link/}" "--spring.datasource.username=postgres"
    "--spring.datasource.password=" "--stockguard.security.api-keys=$api_key"
    "--stockguard.security.admin-keys=$admin_key")
fi
if [ "$tier" != db ] && [ "$tier" != ceiling ]; then
  redis_port="$(free_port)"
  STOCKGUARD_NO_BUILD=1 "$ROOT/stockguard" redis --port="$redis_port" >"$work/redis.log" 2>&1 &
  pids+=($!)
  await_log "$work/redis.log" 60
  if [ "$network" = remote ]; then
    link redis "$redis_port" 200
    redis_port="$linked_port"
  fi
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
if [ "$tier" = ceiling ]; then
  # The HTTP ceiling: the service as the database tier starts it, its ledger a counter in memory
  # (bench/…/HttpCeiling.java), from the bench jar.
  [ -f "$ROOT/bench/target/stockguard-bench.jar" ] || { echo "needs the bench jar: ./mvnw -pl bench -am package" >&2; exit 2; }
  # shellcheck disable=SC2086
  "$java_bin" ${JAVA_OPTS:-} -cp "$ROOT/bench/target/stockguard-bench.jar" \
    -Dloader.main=io.stockguard.bench.stockguard.HttpCeiling org.springframework.boot.loader.launch.PropertiesLauncher \
    "${args[@]}" >"$work/service.log" 2>&1 &
else
  STOCKGUARD_NO_BUILD=1 "$ROOT/stockguard" run "${args[@]}" >"$work/service.log" 2>&1 &
fi
service_pid=$!
pids+=($service_pid)
await_up "http://localhost:$port/actuator/health/liveness" 120

# wrk_rate reserve|read CONNECTIONS SECONDS: one wrk run of that script against the service (one
# wrk thread at one connection, two otherwise: the machine has two cores); prints requests/s.
wrk_rate() {
  wrk -t"$(( $2 < 2 ? 1 : 2 ))" -c"$2" -d"$3s" --timeout 10s -s "$ROOT/bench/wrk/$1.lua" "http://localhost:$port" \
    | awk '/Requests\/sec/ {print $2}'
}

# The ladder's and the profile's subject: one SKU of 10^9 units (it never sells out) under the
# order service's key (exported as SKU and KEY for the wrk scripts), then an unmeasured warm-up
# that lasts until the JIT compiler has done its work. A fixed 30 s was not enough: on two busy
# cores the compiler was still at work after it, and the standard tier then served twice as many
# reservations a second 90 s later while the database tier gained a third, so a fixed warm-up
# measured the tiers at different stages of their compilation; nor is a rate that stops rising
# (it rose again after 30 s flat). Rounds of WARMUP_ROUND seconds (default 10) at 64
# connections, until one in which the service's compiler spent under 5 % of the round (jstat), at
# least 3 and at most WARMUP_ROUNDS (default 18); each round's rate and compile time go to stderr.
hot_sku_warmed_up() {
  KEY="$(sed -n 's/^stockguard.security.api-keys=order-service://p' "$work/data/credentials.properties")"
  SKU="WRK-HOT"
  curl -sf -X PUT "http://localhost:$port/api/v1/skus/$SKU" -H "Authorization: Bearer $KEY" \
    -H 'Content-Type: application/json' -d '{"total": 1000000000}' >/dev/null
  export SKU KEY
  local round_seconds="${WARMUP_ROUND:-10}" most="${WARMUP_ROUNDS:-18}" round=0 rate before after settled=0
  [[ "$round_seconds" =~ ^[1-9][0-9]*$ && "$most" =~ ^[1-9][0-9]*$ ]] \
    || { echo "WARMUP_ROUND and WARMUP_ROUNDS are whole numbers of at least 1" >&2; exit 2; }
  command -v jstat >/dev/null || { echo "needs the JDK's jstat on PATH (to see when the warm-up is done)" >&2; exit 2; }
  compile_seconds() { jstat -compiler "$service_pid" | awk 'NR == 2 {print $4}'; }
  while (( round < most )); do
    round=$((round + 1))
    before="$(compile_seconds)"
    rate="$(wrk -t2 -c64 -d"${round_seconds}s" -s "$ROOT/bench/wrk/reserve.lua" "http://localhost:$port" \
      | awk '/Requests\/sec/ {printf "%d", $2}')"
    after="$(compile_seconds)"
    echo "warm-up round $round: ${rate:-0} reservations/s, $(awk -v a="$after" -v b="$before" \
      'BEGIN {printf "%.1f", a - b}') s compiling" >&2
    if (( round >= 3 )) && awk -v a="$after" -v b="$before" -v r="$round_seconds" \
      'BEGIN {exit !(a - b < 0.05 * r)}'; then settled=1; break; fi
  done
  (( settled )) || echo "warm-up: the compiler was still busy after $most rounds; measuring anyway" >&2
  wrk -t2 -c8 -d5s -s "$ROOT/bench/wrk/read.lua" "http://localhost:$port" >/dev/null
}
