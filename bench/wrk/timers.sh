#!/usr/bin/env bash
# Where a request's time goes, by the service's own timers: starts one tier as ladder.sh does,
# waits for its compiler to settle, runs reservations at the given connections, and prints, for
# each timer that ran (the request, the operation, the journal's append, each Redis script, …),
# how many times it ran and its mean, from /actuator/prometheus read before and after the run.
# Means, not percentiles: they add up along a request, and a timer's count says how often it ran
# per request. Everything it started is stopped by pid when it ends.
#
#   bench/wrk/timers.sh db|redis|kafka [connections, default 1] [seconds, default 10]
#
# NETWORK=remote as in ladder.sh. Needs wrk and a built service jar (./mvnw -pl service -am package).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: timers.sh db|redis|kafka [connections] [seconds]}"
conns="${2:-1}"
seconds="${3:-10}"
case "$tier" in db|redis|kafka) ;; *) echo "tier must be db, redis or kafka" >&2; exit 2 ;; esac
[[ "$conns" =~ ^[1-9][0-9]*$ && "$seconds" =~ ^[1-9][0-9]*$ ]] \
  || { echo "connections and seconds are whole numbers of at least 1" >&2; exit 2; }
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 2; }

# shellcheck source=tier.sh
source "$ROOT/bench/wrk/tier.sh"

hot_sku_warmed_up

admin="$(sed -n 's/^stockguard.security.admin-keys=admin://p' "$work/data/credentials.properties")"
timers() { # the sums and counts of every timer, one per line
  curl -sf "http://localhost:$port/actuator/prometheus" -H "Authorization: Bearer $admin" \
    | grep -E '^[a-z_]+_seconds_(sum|count)\{' || true
}
timers > "$work/timers-before.txt"
rate="$(wrk_rate reserve "$conns" "$seconds")"
timers > "$work/timers-after.txt"

echo "tier $tier, network $network, reservations at $conns connections for $seconds s: $rate requests/s"
printf '%8s %9s  %s\n' count "mean ms" timer
# count and mean of each timer over the run: (after - before), biggest total time first
awk '
  FNR == 1 { file++ }
  { value = $NF; key = substr($0, 1, length($0) - length($NF) - 1) }
  file == 1 { before[key] = value; next }
  { after[key] = value }
  END {
    for (key in after) {
      if (key !~ /_seconds_count\{/) continue
      sum = key; sub(/_seconds_count\{/, "_seconds_sum{", sum)
      n = after[key] - before[key]
      if (n <= 0) continue
      name = key; sub(/_seconds_count\{/, "{", name)
      total = after[sum] - before[sum]
      printf "%.9f\t%8d %9.3f  %s\n", total, n, total / n * 1000, name
    }
  }' "$work/timers-before.txt" "$work/timers-after.txt" \
  | sort -t$'\t' -k1,1gr | cut -f2- | head -25
