#!/usr/bin/env bash
# What a per-customer limit costs a reservation, over HTTP: one hot SKU with a limit no customer
# reaches (so every request is a sale, and only the check is measured), reserved by orders for
# nobody and by orders for one of 10,000 customers, alternately on the same running tier. Prints,
# per round, latency at one connection (p50 / p99) and throughput at 64 connections, then the
# medians' ratios (with customers / without).
#
#   bench/wrk/customer-limit-cost.sh db|redis|kafka [seconds per run, default 10]
#
# Needs wrk (apt-get install wrk) and a built service jar (./mvnw -pl service -am package).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: customer-limit-cost.sh db|redis|kafka [seconds]}"
seconds="${2:-10}"
case "$tier" in db|redis|kafka) ;; *) echo "tier must be db, redis or kafka" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 2; }
# shellcheck source=tier.sh
source "$ROOT/bench/wrk/tier.sh"
KEY="$(sed -n 's/^stockguard.security.api-keys=order-service://p' "$work/data/credentials.properties")"
url="http://localhost:$port"
curl -sf -X PUT "$url/api/v1/skus/WRK-LIMITED" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"total": 100000000, "buckets": 8, "limitPerCustomer": 1000000}' >/dev/null
export KEY SKU=WRK-LIMITED

run() { # run CUSTOMERS CONNECTIONS: prints "p50_ms p99_ms requests_per_s"
  CUSTOMERS="$1" wrk -t"$(( $2 < 2 ? 1 : 2 ))" -c"$2" -d"${seconds}s" --timeout 10s --latency \
    -s "$ROOT/bench/wrk/reserve.lua" "$url" | awk '
      function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
      / 50%/ { p50 = ms($2) } / 99%/ { p99 = ms($2) } /Requests\/sec/ { rps = $2 }
      END { printf "%.2f %.2f %.0f\n", p50, p99, rps }'
}

echo "tier $tier, ${seconds} s per run, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
run 0 64 >/dev/null # warm-up: the JIT, the pools, the SKU loaded into the hot store
lat_without=(); lat_with=(); rps_without=(); rps_with=()
for round in 1 2 3; do
  read -r p50 p99 _ < <(run 0 1); lat_without+=("$p50"); echo "round $round: nobody     1 conn p50 $p50 ms p99 $p99 ms"
  read -r p50 p99 _ < <(run 10000 1); lat_with+=("$p50"); echo "round $round: customers  1 conn p50 $p50 ms p99 $p99 ms"
  read -r _ _ rps < <(run 0 64); rps_without+=("$rps"); echo "round $round: nobody    64 conn $rps reservations/s"
  read -r _ _ rps < <(run 10000 64); rps_with+=("$rps"); echo "round $round: customers 64 conn $rps reservations/s"
done
python3 -c '
import statistics, sys
lw, lc, rw, rc = ([float(x) for x in a.split()] for a in sys.argv[1:5])
m = statistics.median
print(f"median p50 at 1 connection: nobody {m(lw):.2f} ms, customers {m(lc):.2f} ms, ratio {m(lc)/m(lw):.2f}")
print(f"median throughput at 64 connections: nobody {m(rw):.0f}/s, customers {m(rc):.0f}/s, ratio {m(rc)/m(rw):.2f}")
' "${lat_without[*]}" "${lat_with[*]}" "${rps_without[*]}" "${rps_with[*]}"
