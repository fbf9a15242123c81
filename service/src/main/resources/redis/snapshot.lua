-- Read a SKU's hot state in one atomic step, for the exact drift R - D - (J - A): reading the
-- counters and the journaled sums at different moments would mix in whatever changed between.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:b  bucket hash
-- KEYS[3]  sg:{sku}:x  outbox stream
-- ARGV[1]  'ANY_HISTORY' to read a copy of another Redis history too (only to tell, after a
--          failover, how far behind the database it fell; nothing is sold on such a read)
-- Returns {'OK', epoch, mode, n, outbox length, then per bucket: available, reserved, sold,
--   journaled sum, sequence} | {'NOT_LOADED'} | {'NOT_LOADED', 'HISTORY'} (a copy of another Redis history,
--   which nothing may be read from: history.lua)
local meta, buckets, outbox = KEYS[1], KEYS[2], KEYS[3]
local m = redis.call('HMGET', meta, 'n', 'epoch', 'mode', 'h')
if not m[1] then return {'NOT_LOADED'} end
if m[4] ~= sg_history() and ARGV[1] ~= 'ANY_HISTORY' then return {'NOT_LOADED', 'HISTORY'} end
local n = tonumber(m[1])
local result = {'OK', tonumber(m[2]), m[3], n, redis.call('XLEN', outbox)}
for i = 0, n - 1 do
  local b = redis.call('HMGET', buckets, i .. ':a', i .. ':r', i .. ':s', i .. ':j', i .. ':q')
  for _, v in ipairs(b) do result[#result + 1] = tonumber(v or '0') end
end
return result
