-- Reserve one order line of one SKU, atomically: freeze gate, idempotency by order, check,
-- transfer into the home bucket when it is short but the SKU is not (I8), take, bump each
-- changed bucket's journal sum and sequence, and append every change to the SKU's outbox.
--
-- All keys of a SKU share the hash tag {<sku>}, so this script touches one slot.
-- KEYS[1]  sg:{sku}:m          meta hash: n (bucket count), epoch, mode, lim (units one customer may
--                              hold and have bought, absent: no limit), and while THROTTLED the
--                              token bucket: rate (per second), tk tokens, ts last refill (ms)
-- KEYS[2]  sg:{sku}:b          bucket hash: <i>:a available, <i>:r reserved, <i>:s sold,
--                              <i>:j journaled sum of available deltas, <i>:q sequence
-- KEYS[3]  sg:{sku}:o:<order>  the line's record: "<state>|<bucket>|<qty>|<epoch>|<entries>|<customer>",
--          the entries being the outbox entry ids of its last change (for a retry to journal them if
--          the attempt that made them died first)
-- KEYS[4]  sg:{sku}:x          outbox stream: changes not yet applied to the database
-- KEYS[5]  sg:{sku}:c          customer hash: <customer> -> units of the SKU held or sold to them
--                              (every named customer's, so a limit set later counts right at once)
-- KEYS[6]  sg:{sku}:g          gives: the outbox entries not yet journaled that put stock back into a
--                              bucket (cancel, expiry, restock, adjustment, transfer); a change that
--                              takes stock is journaled after those made before it, never before (a
--                              sale acknowledged on stock a lost cancel returned would never fit)
-- ARGV[1]  order id            ARGV[2]  quantity (units)     ARGV[3]  home bucket
-- ARGV[4]  1 = reserve and confirm in one step, 0 = hold
-- ARGV[5]  now (epoch milliseconds)       ARGV[6]  hold ends (epoch milliseconds, 0 with commit)
-- ARGV[7]  order fingerprint   ARGV[8]  trace id ('' if none)   ARGV[9]  actor
-- ARGV[10] line record lifetime (seconds)  ARGV[11] outbox length above which it refuses
-- ARGV[12] the epoch the caller may sell at (its view of who owns the SKU)
-- ARGV[13] the customer the order is for ('' none)
-- ARGV[14] '1' when the database was asked and does not know the order (see ASK_DATABASE), else ''
-- ARGV[15..] fresh event ids, at least 2 * n (one per change the script may make)
-- Returns {'OK', home, epoch, gives, events...} where gives are the entry ids (comma-separated) of the
--   gives made before this reservation and not yet journaled (the caller journals them first), and each
--   event is 10 values: stream entry id, event
--   id, bucket, op, delta available, delta reserved, delta sold, sequence, the bucket's available
--   and journaled sum after the change (the database checks R - J against its D - A); or
--   {'ALREADY', bucket, state, entries} | {'SHORT', available} | {'FROZEN'} | {'CANCELLED'} |
--   {'EXPIRED'} | {'NOT_LOADED'} | {'NOT_LOADED', 'HISTORY'} (the copy here was loaded under another Redis
--   history: history.lua) | {'STALE', epoch loaded} (not the caller's epoch: it must not sell
--   here) | {'FOREIGN', state, bucket, qty, epoch} (the line's record was written under another
--   epoch: only the database can say what became of it) | {'BACKLOG', length} |
--   {'THROTTLED', retry after (milliseconds)} | {'LIMIT', limit, units the customer holds} |
--   {'ASK_DATABASE'} (no line of the order here, and the copy was loaded after a loss (load.lua): the
--   order may be one the lost records had; the caller looks it up in the database, then calls again)
local meta, buckets, line, outbox, customers, gives = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local order, qty, home = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local commit, now, expires = ARGV[4] == '1', ARGV[5], ARGV[6]
local fingerprint, trace, actor, keep = ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10])
local outboxMax, expected, customer, nextId = tonumber(ARGV[11]), ARGV[12], ARGV[13], 15
local databaseAsked = ARGV[14] == '1'

local m = redis.call('HMGET', meta, 'n', 'epoch', 'mode', 'lim', 'h', 'rc')
if not m[1] then return {'NOT_LOADED'} end
if m[5] ~= sg_history() then return {'NOT_LOADED', 'HISTORY'} end
local n, epoch, mode = tonumber(m[1]), m[2], m[3]
if epoch ~= expected then return {'STALE', tonumber(epoch)} end
local sku = string.match(meta, '^sg:{(.*)}:m$')

local existing = redis.call('GET', line)
if existing then
  local state, bucket, q, at, pending = string.match(existing, '^(%u+)|(%-?%d+)|(%d+)|?(%d*)|?([^|]*)|?(.*)$')
  if at ~= epoch then return {'FOREIGN', state, tonumber(bucket), tonumber(q), tonumber(at) or 0} end
  if state == 'RESERVED' or state == 'CONFIRMED' then return {'ALREADY', tonumber(bucket), state, pending} end
  if state == 'CANCELLED' then return {'CANCELLED'} end
  if state == 'EXPIRED' then return {'EXPIRED'} end
elseif not databaseAsked and tonumber(m[6] or '0') > tonumber(now) then
  return {'ASK_DATABASE'}
end
if mode == 'FROZEN' then return {'FROZEN'} end
local backlog = redis.call('XLEN', outbox)
if backlog >= outboxMax then return {'BACKLOG', backlog} end

-- One HMGET for every bucket's count: a call from a script costs about as much as a small command.
local fields = {}
for i = 0, n - 1 do fields[i + 1] = i .. ':a' end
local counts = redis.call('HMGET', buckets, unpack(fields))
local available, total = {}, 0
for i = 0, n - 1 do
  available[i] = tonumber(counts[i + 1] or '0')
  total = total + available[i]
end
if total < qty then return {'SHORT', total} end

-- Checked with the stock, in the same script: two orders of one customer cannot both pass.
local held = 0
if customer ~= '' then
  held = tonumber(redis.call('HGET', customers, customer) or '0')
  local limit = tonumber(m[4] or '0')
  if limit > 0 and held + qty > limit then return {'LIMIT', limit, held} end
end

if mode == 'THROTTLED' then
  -- One token bucket per SKU in the hot store, so the rate holds for all instances together.
  -- Only a reservation that will succeed takes a token (sold-out and backlog refusals are cheap).
  -- Time comes from the caller; a clock behind the last refill adds nothing rather than going back,
  -- and one ahead starves the others a little: the error is on the side of selling less.
  local rate = tonumber(redis.call('HGET', meta, 'rate') or '0')
  if rate > 0 then
    local t = redis.call('HMGET', meta, 'tk', 'ts')
    local nowMs = tonumber(now)
    local tokens, stamp = tonumber(t[1] or rate), tonumber(t[2] or nowMs)
    if nowMs > stamp then
      tokens = math.min(rate, tokens + (nowMs - stamp) * rate / 1000)
      stamp = nowMs
    end
    if tokens < 1 then return {'THROTTLED', math.ceil((1 - tokens) * 1000 / rate)} end
    redis.call('HSET', meta, 'tk', tostring(tokens - 1), 'ts', stamp)
  end
end
local result = {'OK', home, tonumber(epoch), table.concat(redis.call('SMEMBERS', gives), ',')}
local own = {}
local function emit(b, op, q, da, dr, ds, request)
  local after
  if da ~= 0 then
    after = redis.call('HINCRBY', buckets, b .. ':a', da)
  else
    after = tonumber(redis.call('HGET', buckets, b .. ':a'))
  end
  if dr ~= 0 then redis.call('HINCRBY', buckets, b .. ':r', dr) end
  if ds ~= 0 then redis.call('HINCRBY', buckets, b .. ':s', ds) end
  local journaled = redis.call('HINCRBY', buckets, b .. ':j', da)
  local seq = redis.call('HINCRBY', buckets, b .. ':q', 1)
  local id = ARGV[nextId]
  nextId = nextId + 1
  local isOrder = op == 'RESERVE' or op == 'CONFIRM'
  local entry = redis.call('XADD', outbox, '*', 'id', id, 'sku', sku, 'b', b, 'op', op,
    'o', isOrder and order or '', 'rq', request or '', 'q', q, 'da', da, 'dr', dr, 'ds', ds,
    'ep', epoch, 'sq', seq, 'tr', trace, 'ac', actor, 'at', now,
    'fp', op == 'RESERVE' and fingerprint or '', 'ex', op == 'RESERVE' and expires or '0',
    'cu', op == 'RESERVE' and customer or '',
    'ha', after, 'hj', journaled)
  if isOrder then own[#own + 1] = entry else redis.call('SADD', gives, entry) end
  for _, v in ipairs({entry, id, b, op, da, dr, ds, seq, after, journaled}) do result[#result + 1] = v end
end

-- Home is short but the SKU is not: move stock from the fullest buckets into home, up to the
-- larger of the need and an even share, so the next orders homed here need no transfer.
if available[home] < qty then
  local target = math.min(total, math.max(qty, math.floor(total / n)))
  local missing = target - available[home]
  while missing > 0 do
    local donor, most = -1, 0
    for i = 0, n - 1 do
      if i ~= home and available[i] > most then donor, most = i, available[i] end
    end
    if donor < 0 then break end
    local take = math.min(missing, most)
    local transfer = ARGV[nextId]
    emit(donor, 'TRANSFER_OUT', take, -take, 0, 0, transfer)
    emit(home, 'TRANSFER_IN', take, take, 0, 0, transfer)
    available[donor] = available[donor] - take
    available[home] = available[home] + take
    missing = missing - take
  end
end

emit(home, 'RESERVE', qty, -qty, qty, 0, nil)
local state = 'RESERVED'
if commit then
  emit(home, 'CONFIRM', qty, 0, -qty, qty, nil)
  state = 'CONFIRMED'
end
if customer ~= '' then redis.call('HSET', customers, customer, held + qty) end
redis.call('SET', line, state .. '|' .. home .. '|' .. qty .. '|' .. epoch .. '|' .. table.concat(own, ',')
  .. '|' .. customer, 'EX', keep)
return result
