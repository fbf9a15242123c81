-- Load a SKU into the hot store from the database: on preheat (only if it is not there yet) and
-- on rebase (replacing what is there, under a new epoch). Every bucket's sequence restarts at 0
-- in the new epoch; the journaled sum starts at the database's applied sum, so the exact drift
-- starts at 0.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:b  bucket hash
-- KEYS[3]  sg:{sku}:x  outbox stream: must be empty (drained into the database) to load
-- ARGV[1]  PREHEAT (only if absent) | REBASE (replace; the epoch must be newer)
-- ARGV[2]  bucket count n   ARGV[3]  epoch   ARGV[4]  mode (NORMAL | THROTTLED | FROZEN)
-- ARGV[5..] per bucket 0..n-1: available, reserved, sold, applied sum (4 values each)
-- ARGV[5 + 4n] optional: reservations per second while THROTTLED (0 = none)
-- Returns {'LOADED'} | {'PRESENT', epoch} (preheat of a loaded SKU) | {'STALE', epoch} (rebase
--   with an epoch not newer than the loaded one) | {'OUTBOX', length} (changes not yet applied
--   to the database: loading now would lose them from the hot store)
local meta, buckets, outbox = KEYS[1], KEYS[2], KEYS[3]
local how, n, epoch, mode = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local current = redis.call('HGET', meta, 'epoch')
if current and how == 'PREHEAT' then return {'PRESENT', tonumber(current)} end
if current and tonumber(current) >= epoch then return {'STALE', tonumber(current)} end
local pending = redis.call('XLEN', outbox)
if pending > 0 then return {'OUTBOX', pending} end
redis.call('DEL', buckets)
for i = 0, n - 1 do
  local base = 5 + i * 4
  redis.call('HSET', buckets, i .. ':a', ARGV[base], i .. ':r', ARGV[base + 1], i .. ':s', ARGV[base + 2],
    i .. ':j', ARGV[base + 3], i .. ':q', 0)
end
redis.call('HSET', meta, 'n', n, 'epoch', epoch, 'mode', mode)
local rate = ARGV[5 + 4 * n]
if rate then
  redis.call('HSET', meta, 'rate', rate, 'tk', rate)
  redis.call('HDEL', meta, 'ts')
end
return {'LOADED'}
