-- Change a SKU's total in the hot store, as its owner: a restock (goods received) or an operator's
-- adjustment. Journaled like a reservation (outbox entries with the epoch and each bucket's
-- sequence), so the database learns it from the owner and never changes the SKU behind its back.
-- An addition is spread evenly over the buckets; a removal takes from the buckets in proportion
-- to what they have and is refused
-- when the SKU has less available than it removes: stock already reserved or sold is never taken.
-- Idempotent by request id: the same id again replays, another change with it is a conflict.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:b  bucket hash
-- KEYS[3]  sg:{sku}:x  outbox stream
-- KEYS[4]  sg:{sku}:rq:<request id> (any key of the slot if none): "<fingerprint>|<entries>|<epoch>",
--          the outbox entries of the change (for a retry to journal them if the attempt that made them
--          died) and the epoch it was made under. A record of another epoch is not believed: the caller
--          asked the database first, which does not know the request, and the load that began this
--          epoch emptied the outbox, so that change never reached the database and is made afresh
-- KEYS[5]  sg:{sku}:g  gives not yet journaled (reserve.lua): every stock change is one
-- ARGV[1]  RESTOCK | ADJUST   ARGV[2]  DELTA | SET   ARGV[3]  the signed change, or the new total (units)
-- ARGV[4]  request id ('' if none)   ARGV[5]  request fingerprint   ARGV[6]  the epoch the caller may change at
-- ARGV[7]  now (epoch ms)   ARGV[8]  trace id ('' if none)   ARGV[9]  actor
-- ARGV[10] request record lifetime (seconds)   ARGV[11] outbox length above which it refuses
-- ARGV[12..] fresh event ids, one per bucket
-- Returns {'OK', epoch, total before, total after, gives, events...} where gives are the entry ids
--   (comma-separated) of the gives made before this change and not yet journaled (the caller journals
--   them first: a removal may take what they put back), and each event is 10 values (entry
--   id, event id, bucket, op, delta available, 0, 0, sequence, available after, journaled sum after) |
--   {'REPLAYED', total, entries} | {'CONFLICT'} | {'SHORT', available} | {'NOT_LOADED'} |
--   {'NOT_LOADED', 'HISTORY'} (a copy of another Redis history: history.lua) | {'STALE', epoch} |
--   {'BACKLOG', length}
local meta, buckets, outbox, request, gives = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local op, how, amount = ARGV[1], ARGV[2], tonumber(ARGV[3])
local requestId, fingerprint, expected = ARGV[4], ARGV[5], ARGV[6]
local now, trace, actor, keep, outboxMax = ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10]), tonumber(ARGV[11])

local m = redis.call('HMGET', meta, 'n', 'epoch', 'h')
if not m[1] then return {'NOT_LOADED'} end
if m[3] ~= sg_history() then return {'NOT_LOADED', 'HISTORY'} end
local n, epoch = tonumber(m[1]), m[2]
if epoch ~= expected then return {'STALE', tonumber(epoch)} end
local available, total = {}, 0
for i = 0, n - 1 do
  local b = redis.call('HMGET', buckets, i .. ':a', i .. ':r', i .. ':s')
  available[i] = tonumber(b[1] or '0')
  total = total + available[i] + tonumber(b[2] or '0') + tonumber(b[3] or '0')
end
if requestId ~= '' then
  local seen = redis.call('GET', request)
  local known, pending, made = string.match(seen or '', '^([^|]*)|?([^|]*)|?(%d*)$')
  -- No epoch: written before request records carried theirs (an upgrade under way), believed as then.
  if seen and known and (made == '' or made == epoch) then
    if known == fingerprint then return {'REPLAYED', total, pending} end
    return {'CONFLICT'}
  end
end
local backlog = redis.call('XLEN', outbox)
if backlog >= outboxMax then return {'BACKLOG', backlog} end

local delta = amount
if how == 'SET' then delta = amount - total end
local sum = 0
for i = 0, n - 1 do sum = sum + available[i] end
if delta < 0 and sum < -delta then return {'SHORT', sum} end

-- The same split as the database ledger's (BucketShares): even shares with the first buckets
-- taking the remainder; a removal proportional to what each bucket has, never more than it has,
-- the rounding made exact by taking from (or giving back to) the fullest buckets.
local shares = {}
if delta >= 0 then
  local base = math.floor(delta / n)
  for i = 0, n - 1 do
    shares[i] = base
    if i < delta - base * n then shares[i] = base + 1 end
  end
else
  local need, taken = -delta, 0
  for i = 0, n - 1 do
    shares[i] = math.min(available[i], math.floor(need * available[i] / sum))
    taken = taken + shares[i]
  end
  while taken ~= need do
    local pick = -1
    for i = 0, n - 1 do
      local room = available[i] - shares[i]
      if taken < need and room > 0 and (pick < 0 or room > available[pick] - shares[pick]) then pick = i end
      if taken > need and shares[i] > 0 and (pick < 0 or shares[i] > shares[pick]) then pick = i end
    end
    if taken < need then shares[pick] = shares[pick] + 1 else shares[pick] = shares[pick] - 1 end
    taken = taken + (taken < need and 1 or -1)
  end
  for i = 0, n - 1 do shares[i] = -shares[i] end
end

-- Numbers go to Redis as integer text: Lua's own formatting would write 10^12 as 1e+12.
local function int(x) return string.format('%d', x) end
local sku = string.match(meta, '^sg:{(.*)}:m$')
local result = {'OK', tonumber(epoch), total, total + delta, table.concat(redis.call('SMEMBERS', gives), ',')}
local own = {}
local nextId = 12
for i = 0, n - 1 do
  local da = shares[i]
  if da ~= 0 then
    local after = redis.call('HINCRBY', buckets, i .. ':a', int(da))
    local journaled = redis.call('HINCRBY', buckets, i .. ':j', int(da))
    local seq = redis.call('HINCRBY', buckets, i .. ':q', 1)
    local id = ARGV[nextId]
    nextId = nextId + 1
    local entry = redis.call('XADD', outbox, '*', 'id', id, 'sku', sku, 'b', i, 'op', op, 'o', '',
      'rq', requestId, 'q', int(math.abs(da)), 'da', int(da), 'dr', 0, 'ds', 0, 'ep', epoch, 'sq', seq, 'tr', trace,
      'ac', actor, 'at', now, 'fp', fingerprint, 'ex', '0', 'ha', after, 'hj', journaled)
    own[#own + 1] = entry
    redis.call('SADD', gives, entry)
    for _, v in ipairs({entry, id, i, op, da, 0, 0, seq, after, journaled}) do result[#result + 1] = v end
  end
end
if requestId ~= '' then
  redis.call('SET', request, fingerprint .. '|' .. table.concat(own, ',') .. '|' .. epoch, 'EX', keep)
end
return result
