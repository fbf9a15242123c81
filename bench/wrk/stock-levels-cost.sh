#!/usr/bin/env bash
# What watching stock levels costs the hot path: reservations per second over 64 connections,
# spread over a catalogue of N SKUs (so the watcher has as many SKUs to look at as it can get), with
# stock-level events on and off, on one tier started fresh for each run. Runs on, off, on, off and
# prints each rate and the medians' ratio.
#
#   bench/wrk/stock-levels-cost.sh db|redis|kafka [SKUs, default 10000] [seconds per run, default 15]
#
# Needs wrk (apt-get install wrk) and a built service jar (./mvnw -pl service -am package).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: stock-levels-cost.sh db|redis|kafka [SKUs] [seconds]}"
skus="${2:-10000}"
seconds="${3:-15}"
case "$tier" in db|redis|kafka) ;; *) echo "tier must be db, redis or kafka" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 2; }

one_run() { # one_run true|false: prints reservations per second
  (
    extra_args=("--stockguard.stock-levels.enabled=$1")
    # shellcheck source=tier.sh
    source "$ROOT/bench/wrk/tier.sh"
    KEY="$(sed -n 's/^stockguard.security.api-keys=order-service://p' "$work/data/credentials.properties")"
    ADMIN="$(sed -n 's/^stockguard.security.admin-keys=admin://p' "$work/data/credentials.properties")"
    awk -v n="$skus" 'BEGIN { print "sku,total,buckets"; for (i = 0; i < n; i++) printf "MANY-%07d,1000000,8\n", i }' \
      >"$work/skus.csv"
    "$ROOT/stockguard" import "$work/skus.csv" --url="http://localhost:$port" --key="$ADMIN" >/dev/null 2>&1
    if [ "$tier" != db ]; then # measured once the import's preheat has loaded the catalogue into Redis
      for _ in $(seq 1 300); do
        curl -sf -H "Authorization: Bearer $ADMIN" "http://localhost:$port/api/v1/admin/preheat" \
          | grep -q '"state":"RUNNING"' || break
        sleep 1
      done
    fi
    export KEY SKU=MANY SKUS="$skus"
    wrk -t2 -c64 -d"${seconds}s" --timeout 10s -s "$ROOT/bench/wrk/reserve.lua" "http://localhost:$port" \
      | awk '/Requests\/sec/ {printf "%.0f\n", $2}'
  )
}

echo "tier $tier, $skus SKUs, ${seconds} s per run, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
on=(); off=()
for round in 1 2; do
  on+=("$(one_run true)"); echo "round $round: events on  ${on[-1]} reservations/s"
  off+=("$(one_run false)"); echo "round $round: events off ${off[-1]} reservations/s"
done
python3 -c '
import statistics, sys
on, off = [float(x) for x in sys.argv[1].split()], [float(x) for x in sys.argv[2].split()]
print(f"median on {statistics.median(on):.0f}/s, off {statistics.median(off):.0f}/s, on/off {statistics.median(on)/statistics.median(off):.2f}")
' "${on[*]}" "${off[*]}"
