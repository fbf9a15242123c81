#!/usr/bin/env python3
"""Reads `jfr print` output of a profile.sh recording and says where the service's time went.

  cpu    each CPU sample is charged to the innermost layer on its stack (the HTTP server, Spring MVC,
         security, JSON, observation, the store's driver, StockGuard's own code), so the shares add
         up to 100 % and a tier's profile can be laid beside the ceiling's
  waits  the time request threads spent parked, blocked or reading a socket, by the StockGuard code
         that waited (its first two frames): where a request queues when the CPU is not the limit

usage: jfr print --events jdk.ExecutionSample --stack-depth 200 F.jfr | profile-layers.py cpu
       jfr print --events jdk.ThreadPark,jdk.JavaMonitorEnter,jdk.SocketRead --stack-depth 60 F.jfr \
         | profile-layers.py waits
"""
import collections
import re
import sys

# First match wins, innermost frame first: a JDBC call made from StockGuard code is the driver's.
LAYERS = [
    ("database driver and pool", r"^(org\.postgresql|org\.mariadb|com\.zaxxer|org\.springframework\.jdbc)"),
    ("Redis client (Lettuce, Netty)", r"^(io\.lettuce|io\.netty)"),
    ("Kafka client", r"^org\.apache\.kafka"),
    ("JSON (Jackson)", r"^(com\.fasterxml|tools\.jackson)"),
    ("observation (Micrometer, tracing)", r"^(io\.micrometer|io\.opentelemetry)"),
    ("API key check", r"^io\.stockguard\.access"),
    ("StockGuard", r"^io\.stockguard"),
    ("Spring Security and Session", r"^org\.springframework\.(security|session)"),
    ("Spring MVC and filters", r"^org\.springframework\.web"),
    ("HTTP server (Tomcat)", r"^org\.apache\.(coyote|tomcat|catalina)"),
    ("logging", r"^(ch\.qos|org\.slf4j)"),
]
FRAME = re.compile(r"^\s+([\w.$<>]+)\(", re.M)


def events(text):
    return [e for e in re.split(r"\n(?=jdk\.\w+ \{)", text) if re.match(r"jdk\.\w+ \{", e)]


def cpu(text):
    counts = collections.Counter()
    samples = events(text)
    for sample in samples:
        layer = "JDK and the rest"
        for frame in FRAME.findall(sample):
            hit = next((name for name, pattern in LAYERS if re.search(pattern, frame)), None)
            if hit:
                layer = hit
                break
        counts[layer] += 1
    total = max(len(samples), 1)
    print(f"{len(samples)} CPU samples, charged to the innermost layer on their stack")
    for layer, n in counts.most_common():
        print(f"  {layer:36s} {n:6d} {100 * n / total:5.1f} %")


UNITS = {"s": 1000.0, "ms": 1.0, "us": 0.001, "ns": 0.000001}


def waits(text):
    spent = collections.Counter()
    times = collections.Counter()
    for event in events(text):
        thread = re.search(r'eventThread = "([^"]+)"', event)
        duration = re.search(r"duration = ([\d.]+) (s|ms|us|ns)\b", event)
        if not thread or not duration or not thread.group(1).startswith("http-nio"):
            continue
        if "TaskQueue." in event or "NioEndpoint$Poller" in event:
            # A pool thread waiting for a request, not a request waiting.
            continue
        frames = [f for f in FRAME.findall(event) if f.startswith("io.stockguard")][:2]
        key = (event.split(" ", 1)[0], " <- ".join(frames) or "(outside StockGuard's code)")
        spent[key] += float(duration.group(1)) * UNITS[duration.group(2)]
        times[key] += 1
    total = sum(spent.values()) or 1
    print(f"request threads' waits: {total / 1000:.0f} s in all")
    for (kind, where), ms in spent.most_common(12):
        print(f"  {ms / 1000:8.1f} s {100 * ms / total:5.1f} % {times[(kind, where)]:7d}x  {kind:22s} {where}")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what not in ("cpu", "waits"):
        sys.exit(__doc__)
    (cpu if what == "cpu" else waits)(sys.stdin.read())
