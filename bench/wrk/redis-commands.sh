#!/usr/bin/env bash
# What Redis does for a Redis tier, per reservation and at rest: starts the tier as ladder.sh does
# (fresh data directory, one SKU that never sells out), warms it up the same way, then measures
# 15 s with no request at all (what runs by itself: sweepers, probes) and 15 s of reservations at
# each number of connections. Per window it prints the CPU the service's JVM, PostgreSQL and Redis
# spent (at rest in seconds, under load in ms a reservation) and Redis's own count of the commands it
# ran (INFO commandstats, reset before each window): calls per reservation, and the microseconds
# they took. Everything it started is stopped by pid when it ends, also on Ctrl-C.
#
#   bench/wrk/redis-commands.sh redis|kafka [connections, default "1 64"]
#
# NETWORK=remote and JAVA_OPTS work as in ladder.sh. Needs wrk and python3.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: redis-commands.sh redis|kafka [connections]}"
ladder="${2:-1 64}"
case "$tier" in redis|kafka) ;; *) echo "tier must be redis or kafka" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }

# shellcheck source=tier.sh
source "$ROOT/bench/wrk/tier.sh"

# One command to the tier's Redis, its reply printed (bulk strings as their text).
redis_command() { python3 "$ROOT/bench/wrk/resp.py" "$redis_port" "$@"; }
# Calls and microseconds per command since the last reset, costliest first: "name calls usec".
command_stats() {
  redis_command INFO commandstats | sed -n 's/^cmdstat_\([a-z|]*\):calls=\([0-9]*\),usec=\([0-9]*\),.*/\1 \2 \3/p' |
    sort -k3,3nr
}

hot_sku_warmed_up

echo "tier $tier, network $network, Redis keys $(redis_command DBSIZE)"
redis_command CONFIG RESETSTAT >/dev/null
read -r jvm0 others0 pg0 <<<"$(cpu_ticks)"
sleep 15
read -r jvm1 others1 pg1 <<<"$(cpu_ticks)"
awk -v j=$((jvm1 - jvm0)) -v o=$((others1 - others0)) -v g=$((pg1 - pg0)) -v hz="$hz" 'BEGIN {
  printf "at rest, 15 s: CPU s: service JVM %.2f, PostgreSQL %.2f, Redis and the rest %.2f\n", j / hz, g / hz, (o - g) / hz }'
command_stats | awk '{ printf "  %-12s %8d calls %10.1f ms\n", $1, $2, $3 / 1000 }' | head -8

for conns in $ladder; do
  redis_command CONFIG RESETSTAT >/dev/null
  read -r jvm0 others0 pg0 <<<"$(cpu_ticks)"
  out="$(wrk -t"$(( conns < 2 ? 1 : 2 ))" -c"$conns" -d15s --timeout 10s --latency -s "$ROOT/bench/wrk/reserve.lua" \
    "http://localhost:$port")"
  read -r jvm1 others1 pg1 <<<"$(cpu_ticks)"
  requests="$(awk '/requests in/ {print $1}' <<<"$out")"
  awk -v c="$conns" -v n="$requests" -v r="$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    -v p="$(awk '$1=="50%" {print $2}' <<<"$out")" -v j=$((jvm1 - jvm0)) -v o=$((others1 - others0)) \
    -v g=$((pg1 - pg0)) -v hz="$hz" 'BEGIN {
    printf "%s connections, 15 s: %s reservations/s, p50 %s; CPU ms a reservation: service JVM %.3f, PostgreSQL %.3f, Redis and the rest %.3f\n",
      c, r, p, j * 1000 / hz / n, g * 1000 / hz / n, (o - g) * 1000 / hz / n }'
  command_stats | awk -v n="$requests" '{ printf "  %-12s %8.2f calls %8.1f us a reservation\n", $1, $2 / n, $3 / n }' | head -12
done
