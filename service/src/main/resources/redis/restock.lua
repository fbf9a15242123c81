-- Mirror into the hot store a change of total the database has already made and journaled
-- (a restock, or an operator raising the total). The hot store's journaled sum moves with its
-- available stock, so the exact drift R - D - (J - A) stays what it was; no outbox entry is
-- written, because the database's own event already records the change.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:b  bucket hash
-- ARGV[1..n] the change of available stock of bucket 0..n-1 (units, each >= 0)
-- Returns {'OK', total available after} | {'NOT_LOADED'} | {'BUCKETS', n} when ARGV does not
--   hold one change per bucket
local meta, buckets = KEYS[1], KEYS[2]
local n = tonumber(redis.call('HGET', meta, 'n') or '0')
if n == 0 then return {'NOT_LOADED'} end
if #ARGV ~= n then return {'BUCKETS', n} end
local total = 0
for i = 0, n - 1 do
  local delta = tonumber(ARGV[i + 1])
  if delta < 0 then return redis.error_reply('restock deltas must not be negative') end
  if delta > 0 then
    redis.call('HINCRBY', buckets, i .. ':a', delta)
    redis.call('HINCRBY', buckets, i .. ':j', delta)
  end
  total = total + tonumber(redis.call('HGET', buckets, i .. ':a') or '0')
end
return {'OK', total}
