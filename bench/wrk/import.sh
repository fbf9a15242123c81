#!/usr/bin/env bash
# How fast a catalogue loads: a bulk import of N new SKUs (default 100,000, 8 buckets each) against
# the baseline of creating SKUs one PUT at a time over 64 connections (wrk), on one tier started
# fresh. The import runs first, on an empty catalogue; the PUTs then run for a fixed time on top of
# it. Prints both rates, the ratio, and the time the import took (from its own job record).
#
#   bench/wrk/import.sh db|redis|kafka [SKUs, default 100000] [seconds of PUTs, default 20]
#
# Needs wrk (apt-get install wrk) and a built service jar (./mvnw -pl service -am package).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: import.sh db|redis|kafka [SKUs] [seconds of PUTs]}"
skus="${2:-100000}"
seconds="${3:-20}"
case "$tier" in db|redis|kafka) ;; *) echo "tier must be db, redis or kafka" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 2; }

# shellcheck source=tier.sh
source "$ROOT/bench/wrk/tier.sh"

KEY="$(sed -n 's/^stockguard.security.api-keys=order-service://p' "$work/data/credentials.properties")"
ADMIN="$(sed -n 's/^stockguard.security.admin-keys=admin://p' "$work/data/credentials.properties")"
url="http://localhost:$port"
awk -v n="$skus" 'BEGIN { print "sku,total,buckets,safetyStock";
  for (i = 0; i < n; i++) printf "IMP-%07d,%d,8,%d\n", i, 100 + i % 900, i % 10 }' >"$work/skus.csv"

echo "tier $tier, $skus SKUs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$ROOT/stockguard" import "$work/skus.csv" --url="$url" --key="$ADMIN" >"$work/import.out" 2>&1 \
  || { cat "$work/import.out" >&2; exit 1; }
job="$(curl -sf -H "Authorization: Bearer $ADMIN" "$url/api/v1/admin/skus:import" \
  | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)[0]))')"
read -r import_seconds created failed <<<"$(python3 -c '
import datetime, json, sys
job = json.loads(sys.argv[1])
t = lambda s: datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))
print(round((t(job["finishedAt"]) - t(job["startedAt"])).total_seconds(), 1), job["created"], job["failed"])' "$job")"
import_rate="$(awk -v n="$created" -v s="$import_seconds" 'BEGIN { printf "%.0f", n / s }')"

export KEY
out="$(wrk -t2 -c64 -d"${seconds}s" --timeout 10s -s "$ROOT/bench/wrk/create.lua" "$url")"
put_rate="$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$out")"
bad="$(awk '/Non-2xx/ {print $5}' <<<"$out")"

printf 'import          %8s SKUs in %6s s  %8s SKUs/s  (%s failed)\n' "$created" "$import_seconds" "$import_rate" "$failed"
printf 'PUT x 64 conns  %8s s of PUTs        %8s SKUs/s  (%s non-2xx)\n' "$seconds" "$put_rate" "${bad:-0}"
awk -v a="$import_rate" -v b="$put_rate" -v n="$skus" 'BEGIN {
  printf "import / PUTs   %.1fx; %d SKUs by PUT would take %.0f s\n", a / b, n, n / b }'
