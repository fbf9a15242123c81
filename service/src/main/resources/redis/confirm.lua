-- Turn one held order line into a sale: reserved to sold in its bucket, journaled.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:b  bucket hash
-- KEYS[3]  sg:{sku}:o:<order>  line record
--          "<state>|<bucket>|<qty>|<epoch>|<entries of its last change>|<customer>"
-- KEYS[4]  sg:{sku}:x  outbox stream
-- ARGV[1]  order id   ARGV[2]  now (epoch ms)   ARGV[3]  trace id ('' if none)   ARGV[4]  actor
-- ARGV[5]  line record lifetime (seconds)      ARGV[6]  a fresh event id
-- ARGV[7]  the epoch the caller may change the SKU at
-- Returns {'OK', entry id, event id, bucket, qty, sequence, epoch, available after, journaled sum after} |
--   {'ALREADY', entries} | {'STATE', state} | {'NONE'} (no such line) | {'NOT_LOADED'} |
--   {'NOT_LOADED', 'HISTORY'} (a copy of another Redis history: history.lua) | {'STALE', epoch loaded} |
--   {'FOREIGN', state, bucket, qty, epoch} (a record of another epoch: ask the database)
local meta, buckets, line, outbox = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local order, now, trace, actor, keep, id = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), ARGV[6]

local m = redis.call('HMGET', meta, 'epoch', 'h')
local epoch = m[1]
if not epoch then return {'NOT_LOADED'} end
if m[2] ~= sg_history() then return {'NOT_LOADED', 'HISTORY'} end
if epoch ~= ARGV[7] then return {'STALE', tonumber(epoch)} end
local record = redis.call('GET', line)
if not record then return {'NONE'} end
local state, b, q, at, pending, customer = string.match(record, '^(%u+)|(%-?%d+)|(%d+)|?(%d*)|?([^|]*)|?(.*)$')
if at ~= epoch then return {'FOREIGN', state, tonumber(b), tonumber(q), tonumber(at) or 0} end
if state == 'CONFIRMED' then return {'ALREADY', pending} end
if state ~= 'RESERVED' then return {'STATE', state} end
q = tonumber(q)

redis.call('HINCRBY', buckets, b .. ':r', -q)
redis.call('HINCRBY', buckets, b .. ':s', q)
local seq = redis.call('HINCRBY', buckets, b .. ':q', 1)
local after = tonumber(redis.call('HGET', buckets, b .. ':a') or '0')
local journaled = tonumber(redis.call('HGET', buckets, b .. ':j') or '0')
local sku = string.match(meta, '^sg:{(.*)}:m$')
local entry = redis.call('XADD', outbox, '*', 'id', id, 'sku', sku, 'b', b, 'op', 'CONFIRM', 'o', order,
  'rq', '', 'q', q, 'da', 0, 'dr', -q, 'ds', q, 'ep', epoch, 'sq', seq, 'tr', trace, 'ac', actor, 'at', now,
  'fp', '', 'ex', '0', 'ha', after, 'hj', journaled)
-- A sale still counts against the customer's limit: the record keeps who it was for.
redis.call('SET', line, 'CONFIRMED|' .. b .. '|' .. q .. '|' .. epoch .. '|' .. entry .. '|' .. (customer or ''),
  'EX', keep)
return {'OK', entry, id, tonumber(b), q, seq, tonumber(epoch), after, journaled}
