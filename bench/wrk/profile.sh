#!/usr/bin/env bash
# Where a request's time goes on one tier: starts the tier as ladder.sh does (fresh data directory,
# one SKU that never sells out), warms it up the same way, then records the service's JVM with Java
# Flight Recorder while wrk sends one kind of request, and prints where the time went: the CPU by
# layer (HTTP server, MVC, security, JSON, observation, the store's client, StockGuard's own code),
# the request threads' waits by the code that waited, the hottest methods, and the recording.
# Run it for a tier and for the ceiling (the same stack with no store) to see what the store adds.
# Everything it started is stopped by pid when it ends, also on Ctrl-C.
#
#   bench/wrk/profile.sh db|redis|kafka|ceiling reserve|read [connections, default 64] [seconds, default 15]
#
# NETWORK=remote and JAVA_OPTS work as in ladder.sh. The recording is kept in bench/target/profiles
# (PROFILE_DIR to put it elsewhere): open it in JDK Mission Control, or with `jfr view`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: profile.sh db|redis|kafka|ceiling reserve|read [connections] [seconds]}"
what="${2:?usage: profile.sh db|redis|kafka|ceiling reserve|read [connections] [seconds]}"
conns="${3:-64}"
seconds="${4:-15}"
case "$tier" in db|redis|kafka|ceiling) ;; *) echo "tier must be db, redis, kafka or ceiling" >&2; exit 2 ;; esac
case "$what" in reserve|read) ;; *) echo "what must be reserve or read" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 2; }

# shellcheck source=tier.sh
source "$ROOT/bench/wrk/tier.sh"
command -v jcmd >/dev/null || { echo "needs the JDK's jcmd and jfr on PATH" >&2; exit 2; }

hot_sku_warmed_up

profiles="${PROFILE_DIR:-$ROOT/bench/target/profiles}"
mkdir -p "$profiles"
recording="$profiles/$tier-$what-$conns-$(date +%Y%m%d-%H%M%S).jfr"
# Every wait, however short: at one connection a request waits well under the usual 10 ms threshold.
jcmd "$service_pid" JFR.start name=profile settings=profile filename="$recording" \
  "jdk.ThreadPark#threshold=0ms" "jdk.SocketRead#threshold=0ms" "jdk.JavaMonitorEnter#threshold=0ms" >/dev/null
rate="$(wrk_rate "$what" "$conns" "$seconds")"
jcmd "$service_pid" JFR.stop name=profile >/dev/null

echo "tier $tier, network $network, $what at $conns connections for $seconds s: $rate requests/s"
jfr print --events jdk.ExecutionSample --stack-depth 200 "$recording" | "$ROOT/bench/wrk/profile-layers.py" cpu
jfr print --events jdk.ThreadPark,jdk.JavaMonitorEnter,jdk.SocketRead --stack-depth 60 "$recording" \
  | "$ROOT/bench/wrk/profile-layers.py" waits
jfr view --width 160 hot-methods "$recording" | head -20
echo "recording: $recording"
