#!/usr/bin/env bash
# The HTTP connection ladder with an independent client (wrk): starts one tier of the service on a
# fresh data directory (and the Redis / Kafka it needs), creates one SKU of 10^9 units so it never
# sells out, and runs reservations and stock reads at 1, 8, 64 and 256 connections. Prints one
# line per run, with the CPU time each request cost the service's JVM and the servers beside it
# (PostgreSQL, Redis, Kafka): on a shared, noisy machine that is steadier than the rate (servers
# that stop during a run, such as PostgreSQL backends, are not counted), and PostgreSQL's share of
# those apart (with Redis or Kafka beside it, the rest is theirs). Everything
# it started is stopped by pid when it ends, also on Ctrl-C.
#
#   bench/wrk/ladder.sh db|redis|kafka|ceiling [seconds per run, default 15] [connections, default "1 8 64 256"]
#
# The runs start once the service's compiler has settled (see hot_sku_warmed_up in tier.sh).
# ROUNDS=n (default 1) makes each run n times in a row, one line each: take their median.
#
# ceiling is the HTTP ceiling: the service as the database tier starts it, with its ledger replaced
# by a counter in memory (needs the bench jar: ./mvnw -pl bench -am package). Each tier's rates as a
# share of the ceiling's, measured the same day, say what its store costs over the HTTP stack's own.
#
# NETWORK=remote puts the database behind 1 ms of round trip and Redis behind 0.2 ms (see tier.sh).
# Needs wrk (apt-get install wrk) and a built service jar (./mvnw -pl service -am package).
# JAVA_OPTS reaches the service's JVM (e.g. -Dspring.threads.virtual.enabled=true to try a setting).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: ladder.sh db|redis|kafka|ceiling [seconds] [connections]}"
seconds="${2:-15}"
ladder="${3:-1 8 64 256}"
rounds="${ROUNDS:-1}"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS is a whole number of at least 1" >&2; exit 2; }
case "$tier" in db|redis|kafka|ceiling) ;; *) echo "tier must be db, redis, kafka or ceiling" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 2; }

# shellcheck source=tier.sh
source "$ROOT/bench/wrk/tier.sh"

hot_sku_warmed_up

echo "tier $tier, network $network, $seconds s per run, wrk $(wrk --version 2>&1 | head -1 | awk '{print $2}')"
printf '%-8s %6s %10s %9s %9s %9s %8s %12s %14s %12s\n' what conns "req/s" "p50 ms" "p99 ms" "max ms" non2xx \
  "jvm cpu ms/req" "servers ms/req" "of which pg"
for script in reserve read; do
  for conns in $ladder; do
    for _ in $(seq 1 "$rounds"); do
      threads=$(( conns < 2 ? 1 : 2 ))
      read -r jvm0 others0 pg0 <<<"$(cpu_ticks)"
      out="$(wrk -t"$threads" -c"$conns" -d"${seconds}s" --timeout 10s --latency -s "$ROOT/bench/wrk/$script.lua" \
        "http://localhost:$port")"
      read -r jvm1 others1 pg1 <<<"$(cpu_ticks)"
      rate="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
      requests="$(awk '/requests in/ {print $1}' <<<"$out")"
      per() { awk -v t="$1" -v n="$requests" -v hz="$hz" 'BEGIN { if (n > 0) printf "%.2f", t * 1000 / hz / n; else print "-" }'; }
      p50="$(awk '$1=="50%" {print $2}' <<<"$out")"
      p99="$(awk '$1=="99%" {print $2}' <<<"$out")"
      max="$(awk '/Latency/ && !done {print $4; done=1}' <<<"$out")"
      bad="$(awk '/Non-2xx/ {print $5}' <<<"$out")"
      ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) printf "%.2f", v/1000; else if (v ~ /ms$/) printf "%.2f", v+0; else if (v ~ /s$/) printf "%.0f", v*1000; else print v }'; }
      printf '%-8s %6s %10s %9s %9s %9s %8s %12s %14s %12s\n' "$script" "$conns" "$rate" "$(ms "$p50")" "$(ms "$p99")" \
        "$(ms "$max")" "${bad:-0}" "$(per $((jvm1 - jvm0)))" "$(per $((others1 - others0)))" "$(per $((pg1 - pg0)))"
    done
  done
done
