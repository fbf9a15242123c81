#!/usr/bin/env bash
# Which of the service's threads spend its CPU: starts one tier as ladder.sh does, waits for its
# compiler to settle, runs reservations at the given connections, and prints the CPU each group of
# the service JVM's threads spent per reservation (user and system time, from /proc, read before and
# after the run), and the JVM's context switches per reservation. The JFR profile (profile.sh)
# says what the Java code did; this says where the rest went: system calls, the garbage collector,
# the compiler, the threads that answer no request (Lettuce's event loop, the journal's applier).
# Everything it started is stopped by pid when it ends. Linux only (/proc).
#
#   bench/wrk/jvm-threads.sh db|redis|kafka|ceiling [connections, default 64] [seconds, default 15]
#
# NETWORK=remote as in ladder.sh. Needs wrk and a built service jar (./mvnw -pl service -am package).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: jvm-threads.sh db|redis|kafka|ceiling [connections] [seconds]}"
conns="${2:-64}"
seconds="${3:-15}"
case "$tier" in db|redis|kafka|ceiling) ;; *) echo "tier must be db, redis, kafka or ceiling" >&2; exit 2 ;; esac
[[ "$conns" =~ ^[1-9][0-9]*$ && "$seconds" =~ ^[1-9][0-9]*$ ]] \
  || { echo "connections and seconds are whole numbers of at least 1" >&2; exit 2; }
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 2; }
[ -d /proc/self/task ] || { echo "needs Linux's /proc" >&2; exit 2; }

# shellcheck source=tier.sh
source "$ROOT/bench/wrk/tier.sh"

hot_sku_warmed_up

# One line per thread: its id, its name (spaces made underscores), user ticks, system ticks,
# voluntary and involuntary context switches. Keyed by id: the kernel keeps the first 15 characters
# of a name, so every Tomcat request thread is called the same. The name in /proc's stat may hold
# spaces and parentheses, so its fields are counted from after the last ")". A thread that ends
# during the run is missed; the service's threads that matter here live as long as it does.
threads_now() {
  local t name
  for t in /proc/"$service_pid"/task/*; do
    name="$(tr ' ' '_' < "$t/comm" 2>/dev/null)" || continue
    echo "${t##*/} $name $(sed 's/.*) //' "$t/stat" 2>/dev/null | awk '{print $12, $13}') $(awk '
      /^voluntary_ctxt_switches/ {v = $2} /^nonvoluntary_ctxt_switches/ {n = $2} END {print v + 0, n + 0}' \
      "$t/status" 2>/dev/null)"
  done
}
threads_now > "$work/threads-before.txt"
rate="$(wrk_rate reserve "$conns" "$seconds")"
threads_now > "$work/threads-after.txt"

echo "tier $tier, network $network, reservations at $conns connections for $seconds s: $rate requests/s"
# Threads are grouped by their name without its number (http-nio-8080-exec-12 and -13 are one
# group; the kernel keeps the first 15 characters of a name, so Tomcat's request threads, poller
# and acceptor share one).
awk -v rate="$rate" -v seconds="$seconds" -v hz="$hz" '
  FNR == 1 { file++ }
  NF < 6 { next }
  { name = $2; sub(/[-#_]?[0-9]+$/, "", name) }
  file == 1 { u0[$1] = $3; s0[$1] = $4; v0[$1] = $5; n0[$1] = $6; next }
  {
    # A thread started during the run counts from 0.
    user[name] += $3 - u0[$1]; sys[name] += $4 - s0[$1]
    vol += $5 - v0[$1]; invol += $6 - n0[$1]
  }
  END {
    n = rate * seconds
    if (n <= 0) { print "no reservation answered"; exit 1 }
    printf "%-20s %14s %14s\n", "threads", "user ms/res", "system ms/res"
    fflush()  # before the sort below writes its lines to the same output
    for (name in user) {
      if (user[name] + sys[name] <= 0) continue
      printf "%-20s %14.3f %14.3f\n", name, user[name] * 1000 / hz / n, sys[name] * 1000 / hz / n | "sort -k2,2gr"
      tu += user[name]; ts += sys[name]
    }
    close("sort -k2,2gr")
    printf "%-20s %14.3f %14.3f\n", "all", tu * 1000 / hz / n, ts * 1000 / hz / n
    printf "context switches per reservation: %.2f voluntary, %.2f involuntary\n", vol / n, invol / n
  }' "$work/threads-before.txt" "$work/threads-after.txt"
