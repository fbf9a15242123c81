-- Move available stock from one bucket of a SKU to another, journaled as TRANSFER_OUT and
-- TRANSFER_IN with one transfer id. Used to rebalance a SKU whose buckets drifted apart; a
-- reservation makes the same move itself when its home bucket is short.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:b  bucket hash
-- KEYS[3]  sg:{sku}:x  outbox stream
-- ARGV[1]  from bucket   ARGV[2]  to bucket   ARGV[3]  quantity (units, > 0)
-- ARGV[4]  transfer id   ARGV[5]  now (epoch ms)   ARGV[6]  trace id ('' if none)   ARGV[7]  actor
-- ARGV[8], ARGV[9]  fresh event ids for the two events
-- Returns {'OK', out entry, in entry, out sequence, in sequence} | {'SHORT', available in from} |
--   {'NOT_LOADED'} | {'BUCKETS', n}
local meta, buckets, outbox = KEYS[1], KEYS[2], KEYS[3]
local from, to, q = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local transfer, now, trace, actor = ARGV[4], ARGV[5], ARGV[6], ARGV[7]

local m = redis.call('HMGET', meta, 'n', 'epoch')
if not m[1] then return {'NOT_LOADED'} end
local n, epoch = tonumber(m[1]), m[2]
if from < 0 or from >= n or to < 0 or to >= n or from == to or q <= 0 then return {'BUCKETS', n} end
local available = tonumber(redis.call('HGET', buckets, from .. ':a') or '0')
if available < q then return {'SHORT', available} end
local sku = string.match(meta, '^sg:{(.*)}:m$')

local function emit(b, op, da, id)
  local after = redis.call('HINCRBY', buckets, b .. ':a', da)
  local journaled = redis.call('HINCRBY', buckets, b .. ':j', da)
  local seq = redis.call('HINCRBY', buckets, b .. ':q', 1)
  local entry = redis.call('XADD', outbox, '*', 'id', id, 'sku', sku, 'b', b, 'op', op, 'o', '',
    'rq', transfer, 'q', q, 'da', da, 'dr', 0, 'ds', 0, 'ep', epoch, 'sq', seq, 'tr', trace, 'ac', actor,
    'at', now, 'fp', '', 'ex', '0', 'ha', after, 'hj', journaled)
  return entry, seq
end
local outEntry, outSeq = emit(from, 'TRANSFER_OUT', -q, ARGV[8])
local inEntry, inSeq = emit(to, 'TRANSFER_IN', q, ARGV[9])
return {'OK', outEntry, inEntry, outSeq, inSeq}
