#!/usr/bin/env bash
# How soon a subscriber hears that a SKU sold out: the time from the answer to the reservation that
# took a SKU's last unit to the SOLD_OUT delivery arriving at a webhook receiver (run here, on the
# same clock), over N SKUs sold out one after another. Prints p50, p99 and max, with the
# sample interval they depend on.
#
#   bench/wrk/stock-levels.sh db|redis|kafka [SKUs, default 300] [sample interval, default 500ms]
#
# Needs a built service jar (./mvnw -pl service -am package) and python3.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tier="${1:?usage: stock-levels.sh db|redis|kafka [SKUs] [sample interval]}"
skus="${2:-300}"
interval="${3:-500ms}"
case "$tier" in db|redis|kafka) ;; *) echo "tier must be db, redis or kafka" >&2; exit 2 ;; esac

receiver_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
extra_args=("--stockguard.stock-levels.sample-interval=$interval"
  "--stockguard.stock-levels.webhooks[0].name=bench"
  "--stockguard.stock-levels.webhooks[0].url=http://127.0.0.1:$receiver_port/hook"
  "--stockguard.stock-levels.webhooks[0].secret=bench-secret-0123456789")
# shellcheck source=tier.sh
source "$ROOT/bench/wrk/tier.sh"

KEY="$(sed -n 's/^stockguard.security.api-keys=order-service://p' "$work/data/credentials.properties")"
echo "tier $tier, $skus SKUs, sample interval $interval, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$port" "$KEY" "$skus" "$receiver_port" <<'PY'
import http.server, json, statistics, sys, threading, time, urllib.request
port, key, count, receiver_port = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
base = f"http://localhost:{port}"
arrived = {}

class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if body["type"] == "SOLD_OUT":
            arrived.setdefault(body["skuId"], time.time())
        self.send_response(204)
        self.end_headers()
    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", receiver_port), Hook)
threading.Thread(target=server.serve_forever, daemon=True).start()

def call(method, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method,
        headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status

run = str(int(time.time()))
names = [f"LVL-{run}-{i:05d}" for i in range(count)]
for name in names:
    call("PUT", f"/api/v1/skus/{name}", {"total": 1, "buckets": 1})
time.sleep(3)  # the watcher records each new SKU's level before it is sold out (a bench may wait)
acknowledged = {}
for i, name in enumerate(names):
    call("POST", "/api/v1/reservations", {"orderId": f"lvl-{run}-{i}", "lines": [{"skuId": name, "qty": 1}]})
    acknowledged[name] = time.time()
    time.sleep(0.02)
deadline = time.time() + 60
while len(arrived) < count and time.time() < deadline:
    time.sleep(0.1)
late = sorted((arrived[n] - acknowledged[n]) * 1000 for n in names if n in arrived)
if len(late) < count:
    print(f"only {len(late)} of {count} SOLD_OUT events arrived within 60 s")
q = statistics.quantiles(late, n=100)
print(f"stock change -> webhook received, {len(late)} SOLD_OUT events: "
      f"p50 {q[49]:.0f} ms, p99 {q[98]:.0f} ms, max {late[-1]:.0f} ms")
PY
