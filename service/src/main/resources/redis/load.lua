-- Load a SKU into the hot store from the database, under the epoch the database gives the hot store
-- as it makes it the SKU's owner (DATABASE -> HOT, committed only once this returns). The same epoch
-- may come twice (a load whose answer was lost is repeated): nobody sold at an epoch the database
-- never committed, so it is simply loaded again. Whatever an older epoch left here is
-- replaced: its counters, and its outbox, whose changes the database has either applied or refused
-- by now (the hand-over that ended that epoch waited for it). Every bucket's sequence restarts at 0;
-- the journaled sum starts at the database's applied sum, so the exact drift starts at 0. The copy is
-- stamped with this server's history (history.lua): only this history may sell from it.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:b  bucket hash
-- KEYS[3]  sg:{sku}:x  outbox stream      KEYS[4]  sg:{sku}:c  customer hash
-- KEYS[5]  sg:{sku}:g  gives not yet journaled (reserve.lua), emptied with the outbox
-- ARGV[1]  bucket count n   ARGV[2]  epoch   ARGV[3]  mode (NORMAL | THROTTLED | FROZEN)
-- ARGV[4..] per bucket 0..n-1: available, reserved, sold, applied sum (4 values each)
-- ARGV[4 + 4n] reservations per second while THROTTLED (0 = none)
-- ARGV[5 + 4n] units one customer may hold and have bought (0 = no limit)
-- ARGV[6 + 4n] replicas Redis must report connected for the load (stockguard.redis.wait-replicas; 0: none)
-- ARGV[7 + 4n] now (epoch ms)
-- ARGV[8 + 4n] after a loss or a hand-back, for how long (ms) a reservation of an order the hot store has no line of asks
--          the database first (0: never, the synchronous journal's database refuses such a sale itself)
-- ARGV[9 + 4n ..] pairs: customer, units held or sold (the database's count, which has everything an
--          older epoch acknowledged)
-- A load follows a loss when the copy it replaces is of another Redis history (history.lua) or is gone
-- though the SKU was loaded before (epoch > 1): the order and line records made before the loss may be
-- gone too, and with Kafka a client's replay of such an order would be sold again before the database
-- could say it exists. A load that replaces an older epoch's copy follows the database's ownership:
-- the orders the database sold meanwhile were never in Redis (only their open holds are put back), so
-- a repeat of one that was confirmed or cancelled would be sold again the same way. After either,
-- until the window ends (meta 'rc', epoch ms) reserve.lua asks its caller to look such an order up in
-- the database first; a load at the same epoch (a repeated one) keeps the window it found.
-- Returns {'LOADED'} | {'STALE', epoch} (the hot store already has a newer epoch: the database's
--   ownership is behind the hot store, which must not happen; nothing is changed) |
--   {'NO_REPLICAS', connected} (fewer replicas connected than asked for: the database keeps selling)
local meta, buckets, outbox, customers, gives = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local n, epoch, mode = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local found = redis.call('HMGET', meta, 'epoch', 'h', 'rc')
local current = found[1]
if current and tonumber(current) > epoch then return {'STALE', tonumber(current)} end
local now, window = tonumber(ARGV[7 + 4 * n]), tonumber(ARGV[8 + 4 * n])
local lost = (current and found[2] ~= sg_history()) or (not current and epoch > 1)
local handedBack = current and tonumber(current) < epoch
local checkUntil = 0
if lost or handedBack then checkUntil = now + window elseif current then checkUntil = tonumber(found[3] or '0') end
local wanted = tonumber(ARGV[6 + 4 * n])
if wanted > 0 then
  local connected = tonumber(string.match(redis.call('INFO', 'replication'), 'connected_slaves:(%d+)'))
  if connected < wanted then return {'NO_REPLICAS', connected} end
end
redis.call('DEL', buckets, outbox, customers, gives)
for i = 0, n - 1 do
  local base = 4 + i * 4
  redis.call('HSET', buckets, i .. ':a', ARGV[base], i .. ':r', ARGV[base + 1], i .. ':s', ARGV[base + 2],
    i .. ':j', ARGV[base + 3], i .. ':q', 0)
end
redis.call('DEL', meta)
local rate = ARGV[4 + 4 * n]
redis.call('HSET', meta, 'n', n, 'epoch', epoch, 'mode', mode, 'rate', rate, 'tk', rate, 'h', sg_history(),
  'rc', string.format('%d', checkUntil))
local limit = tonumber(ARGV[5 + 4 * n])
if limit > 0 then redis.call('HSET', meta, 'lim', limit) end
-- In slices, so a SKU with many customers does not need one huge HSET.
local first, last = 9 + 4 * n, #ARGV
while first <= last do
  local upto = math.min(last, first + 199)
  local slice = {}
  for i = first, upto do slice[#slice + 1] = ARGV[i] end
  redis.call('HSET', customers, unpack(slice))
  first = upto + 1
end
return {'LOADED'}
