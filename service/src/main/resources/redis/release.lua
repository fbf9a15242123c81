-- Give one order line's stock back. Three ways, by ARGV[2]:
--   CANCEL     the customer cancelled: reserved or sold stock returns, journaled. Cancelling a
--              line this bucket never saw leaves a tombstone, so a reserve still in flight for
--              it is refused (I7).
--   EXPIRE     the hold outlived its TTL: reserved stock returns, journaled; a sold line stays.
--   UNRESERVE  a reservation that was never acknowledged (a later line of its order failed, or
--              the journal refused it) is undone as if it never happened: its outbox entries
--              are deleted and its counters restored, nothing is journaled. Only possible while
--              all its entries are still in the outbox; otherwise it answers JOURNALED and the
--              caller cancels instead.
--   DISCARD    as UNRESERVE, for a reservation the database refused (it is known never applied):
--              whatever of its outbox entries is left is deleted, and its counters restored.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:b  bucket hash
-- KEYS[3]  sg:{sku}:o:<order>  line record
--          "<state>|<bucket>|<qty>|<epoch>|<entries of its last change>|<customer>"
-- KEYS[4]  sg:{sku}:x  outbox stream      KEYS[5]  sg:{sku}:c  customer hash (units held or sold)
-- KEYS[6]  sg:{sku}:g  gives not yet journaled (reserve.lua): a cancel or expiry is one
-- ARGV[1]  order id   ARGV[2]  CANCEL | EXPIRE | UNRESERVE   ARGV[3]  now (epoch ms)
-- ARGV[4]  trace id ('' if none)   ARGV[5]  actor   ARGV[6]  line record lifetime (seconds)
-- ARGV[7]  a fresh event id       ARGV[8]  the epoch the caller may change the SKU at
-- ARGV[9..] UNRESERVE, DISCARD: the outbox entry ids of the reservation
-- Returns {'OK', entry id, event id, bucket, qty, sequence, da, dr, ds, epoch, available after,
--   journaled sum after} | {'UNRESERVED'} |
--   {'TOMBSTONE'} | {'NONE'} | {'ALREADY', state, entries} | {'JOURNALED'} | {'NOT_LOADED'} |
--   {'NOT_LOADED', 'HISTORY'} (a copy of another Redis history: history.lua) |
--   {'STALE', epoch loaded} | {'FOREIGN', state, bucket, qty, epoch} (a record of another epoch)
local meta, buckets, line, outbox, customers, gives = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local order, how, now, trace, actor = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local keep, id = tonumber(ARGV[6]), ARGV[7]

local m = redis.call('HMGET', meta, 'epoch', 'h')
local epoch = m[1]
if not epoch then return {'NOT_LOADED'} end
if m[2] ~= sg_history() then return {'NOT_LOADED', 'HISTORY'} end
if epoch ~= ARGV[8] then return {'STALE', tonumber(epoch)} end
local record = redis.call('GET', line)
if not record then
  if how == 'CANCEL' then
    redis.call('SET', line, 'CANCELLED|-1|0|' .. epoch .. '|', 'EX', keep)
    return {'TOMBSTONE'}
  end
  return {'NONE'}
end
local state, b, q, at, pending, customer = string.match(record, '^(%u+)|(%-?%d+)|(%d+)|?(%d*)|?([^|]*)|?(.*)$')
if at ~= epoch then return {'FOREIGN', state, tonumber(b), tonumber(q), tonumber(at) or 0} end
q = tonumber(q)
customer = customer or ''
-- The units go back to the customer with the stock: a cancelled or expired order frees its share
-- of a per-customer limit.
local function unhold()
  if customer == '' then return end
  if redis.call('HINCRBY', customers, customer, -q) <= 0 then redis.call('HDEL', customers, customer) end
end
if state ~= 'RESERVED' and state ~= 'CONFIRMED' then return {'ALREADY', state, pending} end
if how == 'EXPIRE' and state ~= 'RESERVED' then return {'ALREADY', state, ''} end

if how == 'UNRESERVE' or how == 'DISCARD' then
  local entries = {}
  for i = 9, #ARGV do entries[#entries + 1] = ARGV[i] end
  if how == 'UNRESERVE' then
    for _, entry in ipairs(entries) do
      if #redis.call('XRANGE', outbox, entry, entry) == 0 then return {'JOURNALED'} end
    end
  end
  if #entries > 0 then redis.call('XDEL', outbox, unpack(entries)) end
  redis.call('HINCRBY', buckets, b .. ':a', q)
  redis.call('HINCRBY', buckets, b .. ':j', q)
  if state == 'RESERVED' then redis.call('HINCRBY', buckets, b .. ':r', -q)
  else redis.call('HINCRBY', buckets, b .. ':s', -q) end
  unhold()
  redis.call('SET', line, 'UNRESERVED|' .. b .. '|' .. q .. '|' .. epoch .. '||' .. customer, 'EX', keep)
  return {'UNRESERVED'}
end

local dr, ds = 0, 0
if state == 'RESERVED' then dr = -q else ds = -q end
redis.call('HINCRBY', buckets, b .. ':a', q)
if dr ~= 0 then redis.call('HINCRBY', buckets, b .. ':r', dr) end
if ds ~= 0 then redis.call('HINCRBY', buckets, b .. ':s', ds) end
local journaled = redis.call('HINCRBY', buckets, b .. ':j', q)
local seq = redis.call('HINCRBY', buckets, b .. ':q', 1)
local after = tonumber(redis.call('HGET', buckets, b .. ':a'))
local sku = string.match(meta, '^sg:{(.*)}:m$')
local entry = redis.call('XADD', outbox, '*', 'id', id, 'sku', sku, 'b', b, 'op', how, 'o', order,
  'rq', '', 'q', q, 'da', q, 'dr', dr, 'ds', ds, 'ep', epoch, 'sq', seq, 'tr', trace, 'ac', actor,
  'at', now, 'fp', '', 'ex', '0', 'ha', after, 'hj', journaled)
redis.call('SADD', gives, entry)
local final = 'CANCELLED'
if how == 'EXPIRE' then final = 'EXPIRED' end
unhold()
redis.call('SET', line, final .. '|' .. b .. '|' .. q .. '|' .. epoch .. '|' .. entry .. '|' .. customer,
  'EX', keep)
return {'OK', entry, id, tonumber(b), q, seq, q, dr, ds, tonumber(epoch), after, journaled}
