#!/usr/bin/env python3
"""What a redis.call costs inside a script, on an idle Redis: runs small scripts (none, 1, 4 and 16
HINCRBY calls, an HMGET and HSET of four fields, the history fence's INFO, TIME) 20,000 times each,
pipelined 200 at a time, and prints Redis's own time per script call and per command inside it
(INFO commandstats, reset before each script). The gap between the two is what the call itself
costs beyond its command. Redis must be empty of other work: its figures are wall time.

usage: lua-calls.py PORT
"""
import re
import sys

from resp import Connection

SCRIPTS = {
    "empty": "return 1",
    "1 HINCRBY": "redis.call('HINCRBY', KEYS[1], 'f1', 1) return 1",
    "4 HINCRBY": "for i = 1, 4 do redis.call('HINCRBY', KEYS[1], 'f' .. i, 1) end return 1",
    "16 HINCRBY": "for i = 1, 16 do redis.call('HINCRBY', KEYS[1], 'f' .. i, 1) end return 1",
    "HMGET + HSET of 4": "local v = redis.call('HMGET', KEYS[1], 'f1', 'f2', 'f3', 'f4') "
                         "redis.call('HSET', KEYS[1], 'f1', (tonumber(v[1]) or 0) + 1, 'f2', (tonumber(v[2]) or 0) + 1, "
                         "'f3', (tonumber(v[3]) or 0) + 1, 'f4', (tonumber(v[4]) or 0) + 1) return 1",
    "INFO replication": "return string.match(redis.call('INFO', 'replication'), 'master_replid:(%x+)')",
    "TIME": "local t = redis.call('TIME') return 1",
}
CALLS, PIPELINE = 20_000, 200


def main(port):
    redis = Connection(port)
    print(f"{'script':20s} {'µs a script call':>17s}   µs a command inside")
    for name, body in SCRIPTS.items():
        sha = redis.command("SCRIPT", "LOAD", body)
        redis.command("CONFIG", "RESETSTAT")
        for _ in range(CALLS // PIPELINE):
            redis.send(*[("EVALSHA", sha, "1", "lua-calls")] * PIPELINE)
            for _ in range(PIPELINE):
                redis.read()
        stats = redis.command("INFO", "commandstats")
        calls, usec = re.search(r"cmdstat_evalsha:calls=(\d+),usec=(\d+)", stats).groups()
        inner = ", ".join(f"{m.group(1)} {int(m.group(3)) / int(m.group(2)):.2f}" for m in
                          re.finditer(r"cmdstat_(hincrby|hset|hmget|info|time):calls=(\d+),usec=(\d+)", stats))
        print(f"{name:20s} {int(usec) / int(calls):17.2f}   {inner}")
    redis.command("DEL", "lua-calls")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(int(sys.argv[1]))
