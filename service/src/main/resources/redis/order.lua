-- An order's own record in the hot store: its state, fingerprint and lines. It is the
-- idempotency gate of a reservation (a retry gets the original outcome, a different request with
-- the same order id is a conflict), holds the tombstone of an order cancelled before it was
-- reserved (I7), and lets confirm, cancel and expiry find an order's lines without the database.
-- Changes that span several SKUs go OPENING/CONFIRMING/CANCELLING/EXPIRING first; a caller that
-- dies half-way leaves that state, and the next caller resumes it (every line step is idempotent).
--
-- KEYS[1]  sg:{o:<order>}  hash: st state, fp fingerprint, ln lines "sku|qty;sku|qty",
--          lb lines with their buckets "sku|qty|bucket;…" once reserved, c created (ms),
--          e hold ends (ms, 0 = committed), t trace id, u last change (ms), g '1' while the
--          request that held an OPENING record has given up on it (cleared by the next transition),
--          x how many times the hold was extended, cu the customer the order is for ('' none),
--          k the attempt that holds an OPENING record (the request that opened it, or whoever took it
--          over since: a retry resuming it, the outbox sweeper claiming it); a step that ends the
--          opening (CLOSE, ABORT, GIVE_UP) names its attempt, and one that no longer holds the record
--          hears TAKEN and changes nothing: it waits for the holder's outcome instead of making its own,
--          h the Redis history the record was made under (history.lua): a record of another history (a
--          failover or restart since it was written) may be one the lost history moved on, and is
--          not believed: GET answers NONE, OPEN, CONFIRM, CANCEL, EXPIRE and EXTEND answer FOREIGN
--          (the caller rewrites the record from the database), the steps of a request under way
--          answer STATE FOREIGN, and RESTORE and FORGET replace or remove it
-- ARGV[1]  operation, ARGV[2] now (epoch ms, the caller's clock: c and e, the order's own times, are
--          counted on it), then per operation. Whether the holder of an OPENING or a settling record
--          has gone quiet (u, 'stale after') is measured on this server's clock alone (TIME): the
--          instances' clocks may disagree by minutes, and a request must not lose its record to a twin
--          on an instance whose clock runs ahead.
--   OPEN     3 fingerprint, 4 lines, 5 hold ends (ms), 6 trace, 7 lifetime (s), 8 stale after (ms),
--            9 customer ('' none), 10 attempt (becomes the holder on NEW and RESUME), 11 a holder whose
--            instance the caller found gone from Redis ('' none): an OPENING record that holder still
--            holds is taken over at once, without waiting for it to go quiet
--            -> NEW | RESUME (an OPENING left stale: take it over) | BUSY <holder> | CONFLICT | CANCELLED |
--               EXPIRED | DONE <state> <created> <hold ends> <trace> <lines with buckets> <extensions>
--   CLOSE    3 final state (RESERVED | CONFIRMED), 4 lines with buckets, 5 attempt -> OK | CANCELLED |
--            TAKEN | STATE <state>
--   ABORT    3 attempt (a reservation refused: forget it, so a retry starts afresh) -> OK | TAKEN |
--            STATE <state>
--   CLAIM    3 stale after (ms), 4 attempt: the outbox sweeper takes over an OPENING record whose request is
--            gone, to finish or undo it as a whole; while it works a retry hears BUSY
--            -> CLAIMED <fingerprint> <lines> | BUSY (a request still holds it) | STATE <state>
--   SETTLING 3 stale after (ms): whether a confirm, cancel or expiry of the order is under way, so the
--            outbox sweeper leaves its lines' changes to it (it journals them together)
--            -> BUSY <state> | IDLE <state or NONE> (settled, or left by a caller that died)
--   GIVE_UP  3 fingerprint, 4 attempt: the holder gave up on the record half-way (it answered
--            "outcome unknown"), so the next attempt resumes it at once instead of waiting for it to
--            go stale -> OK | TAKEN | STATE <state>
--   CANCEL   3 lifetime (s), 4 stale after (ms) -> TOMBSTONE | GO <lines> <lines with buckets> |
--            DONE <state> <lines with buckets> | BUSY <lines with buckets> (a confirm is under way)
--   CONFIRM  -> GO <lines> <lines with buckets> | DONE <lines with buckets> | EXPIRED | CANCELLED |
--            BUSY <lines with buckets> (still opening) | NONE
--   EXPIRE   3 stale after (ms) -> GO <lines> <lines with buckets> |
--            SKIP <state> <hold ends> <extensions> <lines with buckets> |
--            STUCK <state> <lines with buckets> (OPENING or CONFIRMING left by a caller that died)
--            (the lines with buckets carry the epoch each line was recorded under: the caller checks
--            them against the epochs that own the SKUs now before it trusts the record)
--   FINISH   3 final state (CANCELLED | CONFIRMED | EXPIRED) -> OK | STATE <state>
--   EXTEND   3 the hold asked for (ms, counted from when the reservation was made, as on reserve),
--            4 extensions allowed per order: only a RESERVED order whose hold has not ended is extended,
--            and never shortened -> OK <hold ends> <extensions> <lines with buckets> |
--            DONE (it holds at least that long already: a retry) <hold ends> <extensions> <lines with buckets> |
--            USED (no extension left) <hold ends> <extensions> <lines with buckets> |
--            EXPIRED | CANCELLED | CONFIRMED | BUSY <lines with buckets> (still opening) | NONE
--   GET      -> FOUND st fp ln c e t lb x cu | NONE
--   FORGET   3 the epochs owning the SKUs now ("sku|0|0|epoch;…"): removes a record the database
--            does not know, unless it is OPENING or made under those epochs -> OK | KEPT
--   RESTORE  3 state, 4 fingerprint, 5 lines, 6 lines with buckets, 7 created, 8 hold ends, 9 trace,
--            10 lifetime (s), 12 'force' to overwrite even a current record (one left half-way),
--            13 extensions, 14 customer, 11 '1' to overwrite: writes the database's copy of a record the hot
--            store lost (or, overwriting, one made under other epochs than those given, whose lines
--            the database is the truth of) -> OK | PRESENT
local key, op, now = KEYS[1], ARGV[1], tonumber(ARGV[2])
local o = redis.call('HMGET', key, 'st', 'fp', 'ln', 'c', 'e', 't', 'u', 'lb', 'g', 'x', 'cu', 'h', 'k')
local st = o[1]
local history = sg_history()
local time = redis.call('TIME')
local clock = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

if st and o[12] ~= history then
  if op == 'GET' then return {'NONE'} end
  if op == 'OPEN' or op == 'CONFIRM' or op == 'CANCEL' or op == 'EXPIRE' or op == 'EXTEND' then return {'FOREIGN'} end
  if op == 'SETTLING' then return {'IDLE', 'FOREIGN'} end
  if op == 'FORGET' then
    redis.call('DEL', key)
    return {'OK'}
  end
  if op == 'RESTORE' then
    st = nil
  else
    return {'STATE', 'FOREIGN'}
  end
end

-- Whether the request that holds an OPENING or CONFIRMING record is gone: it gave up on it (g), or
-- has not touched it for longer than a live request can take (on this server's clock).
local function left(stale_after)
  return o[9] == '1' or clock - tonumber(o[7]) > tonumber(stale_after)
end

-- Whether the attempt named is the one that holds the record (records written before holders were
-- named, and callers that name none, hold it as '').
local function holds(attempt)
  return (o[13] or '') == (attempt or '')
end

local function set(state)
  redis.call('HSET', key, 'st', state, 'u', clock)
  redis.call('HDEL', key, 'g')
end

if op == 'GET' then
  if not st then return {'NONE'} end
  return {'FOUND', st, o[2], o[3], o[4], o[5], o[6] or '', o[8] or '', o[10] or '0', o[11] or ''}
end

if op == 'RESTORE' then
  if st and ARGV[11] ~= '1' then return {'PRESENT'} end
  -- Overwriting replaces a record made under other epochs; one whose lines all carry the epochs
  -- given now was made (or rewritten) under the current owners by another request meanwhile, and
  -- stands.
  if st and o[8] and o[8] ~= '' and ARGV[12] ~= 'force' then
    local given = {}
    for sku, epoch in string.gmatch(ARGV[6], '([^|;]+)|%d+|%-?%d+|(%d+)') do given[sku] = epoch end
    local lines, current = 0, true
    for sku, epoch in string.gmatch(o[8], '([^|;]+)|%d+|%-?%d+|(%d+)') do
      lines = lines + 1
      if given[sku] ~= epoch then current = false end
    end
    if lines > 0 and current then return {'PRESENT'} end
  end
  redis.call('HSET', key, 'st', ARGV[3], 'fp', ARGV[4], 'ln', ARGV[5], 'lb', ARGV[6], 'c', ARGV[7],
    'e', ARGV[8], 't', ARGV[9], 'u', clock, 'x', ARGV[13] or '0', 'cu', ARGV[14] or '', 'h', history)
  redis.call('HDEL', key, 'g')
  redis.call('EXPIRE', key, tonumber(ARGV[10]))
  return {'OK'}
end

if op == 'FORGET' then
  -- The database has no such order, so the record is not to be trusted; unless it is a reservation
  -- being made now, or its lines carry the epochs that own their SKUs now (3: "sku|qty|bucket|epoch;…").
  if not st or st == 'OPENING' then return {'KEPT'} end
  local given = {}
  for sku, epoch in string.gmatch(ARGV[3], '([^|;]+)|%d+|%-?%d+|(%d+)') do given[sku] = epoch end
  local lines, current = 0, true
  for sku, epoch in string.gmatch(o[8] or '', '([^|;]+)|%d+|%-?%d+|(%d+)') do
    lines = lines + 1
    if given[sku] ~= epoch then current = false end
  end
  if lines > 0 and current then return {'KEPT'} end
  redis.call('DEL', key)
  return {'OK'}
end

if op == 'OPEN' then
  if not st then
    redis.call('HSET', key, 'st', 'OPENING', 'fp', ARGV[3], 'ln', ARGV[4], 'c', now, 'e', ARGV[5],
      't', ARGV[6], 'u', clock, 'cu', ARGV[9] or '', 'h', history, 'k', ARGV[10] or '')
    redis.call('EXPIRE', key, tonumber(ARGV[7]))
    return {'NEW'}
  end
  if st == 'CANCELLED' or st == 'CANCELLING' then return {'CANCELLED'} end
  if st == 'EXPIRED' or st == 'EXPIRING' then return {'EXPIRED'} end
  if o[2] ~= ARGV[3] then return {'CONFLICT'} end
  if st == 'OPENING' then
    local gone = ARGV[11] and ARGV[11] ~= '' and (o[13] or '') == ARGV[11]
    if gone or left(ARGV[8]) then
      set('OPENING')
      redis.call('HSET', key, 'k', ARGV[10] or '')
      return {'RESUME'}
    end
    return {'BUSY', o[13] or ''}
  end
  return {'DONE', st, o[4], o[5], o[6] or '', o[8] or '', o[10] or '0'}
end

if op == 'CLOSE' then
  if st == 'OPENING' then
    if not holds(ARGV[5]) then return {'TAKEN'} end
    set(ARGV[3])
    redis.call('HSET', key, 'lb', ARGV[4])
    return {'OK'}
  end
  if st == 'CANCELLING' or st == 'CANCELLED' then return {'CANCELLED'} end
  return {'STATE', st or 'NONE'}
end

if op == 'ABORT' then
  if st == 'OPENING' then
    if not holds(ARGV[3]) then return {'TAKEN'} end
    redis.call('DEL', key)
    return {'OK'}
  end
  return {'STATE', st or 'NONE'}
end

if op == 'CLAIM' then
  if st ~= 'OPENING' then return {'STATE', st or 'NONE'} end
  if not left(ARGV[3]) then return {'BUSY'} end
  set('OPENING')
  redis.call('HSET', key, 'k', ARGV[4] or '')
  return {'CLAIMED', o[2], o[3]}
end

if op == 'SETTLING' then
  if (st == 'CONFIRMING' or st == 'CANCELLING' or st == 'EXPIRING') and not left(ARGV[3]) then
    return {'BUSY', st}
  end
  return {'IDLE', st or 'NONE'}
end

if op == 'GIVE_UP' then
  if st ~= 'OPENING' or o[2] ~= ARGV[3] then return {'STATE', st or 'NONE'} end
  if not holds(ARGV[4]) then return {'TAKEN'} end
  redis.call('HSET', key, 'g', '1')
  return {'OK'}
end

if op == 'CANCEL' then
  if not st then
    redis.call('HSET', key, 'st', 'CANCELLED', 'fp', '', 'ln', '', 'c', now, 'e', 0, 't', '', 'u', clock, 'h', history)
    redis.call('EXPIRE', key, tonumber(ARGV[3]))
    return {'TOMBSTONE'}
  end
  if st == 'CANCELLED' or st == 'EXPIRED' then return {'DONE', st, o[8] or ''} end
  -- The hold ended and its expiry is under way: the order is expired, whatever finishes it.
  if st == 'EXPIRING' then return {'DONE', 'EXPIRED', o[8] or ''} end
  -- One settlement at a time: a confirm under way is let finish (then the cancel returns the sale),
  -- unless it was left by a caller that died.
  -- BUSY carries the lines' epochs: a confirm recorded under an epoch that no longer owns a SKU can
  -- never finish here (the database fenced it), and the caller rewrites the record at once.
  if st == 'CONFIRMING' and clock - tonumber(o[7]) <= tonumber(ARGV[4]) then return {'BUSY', o[8] or ''} end
  set('CANCELLING')
  return {'GO', o[3], o[8] or ''}
end

if op == 'CONFIRM' then
  if not st then return {'NONE'} end
  if st == 'CONFIRMED' then return {'DONE', o[8] or ''} end
  if st == 'CANCELLED' or st == 'CANCELLING' then return {'CANCELLED'} end
  if st == 'EXPIRED' or st == 'EXPIRING' then return {'EXPIRED'} end
  -- BUSY carries the lines' epochs (none while opening): the caller asks the database whether the
  -- order was made elsewhere meanwhile (the attempt that opened it lost Redis and fell back).
  if st == 'OPENING' then return {'BUSY', o[8] or ''} end
  if st == 'RESERVED' and tonumber(o[5]) > 0 and now >= tonumber(o[5]) then return {'EXPIRED'} end
  set('CONFIRMING')
  return {'GO', o[3], o[8] or ''}
end

if op == 'EXPIRE' then
  -- A record left half-way by a caller that died long ago (3: stale after, ms) cannot decide: the
  -- caller rewrites it from the database first.
  if (st == 'OPENING' or st == 'CONFIRMING') and ARGV[3] and left(ARGV[3]) then
    return {'STUCK', st, o[8] or ''}
  end
  if st == 'EXPIRING' or (st == 'RESERVED' and tonumber(o[5]) > 0 and now >= tonumber(o[5])) then
    set('EXPIRING')
    return {'GO', o[3], o[8] or ''}
  end
  return {'SKIP', st or 'NONE', o[5] or '0', o[10] or '0', o[8] or ''}
end

if op == 'EXTEND' then
  if not st then return {'NONE'} end
  if st == 'CONFIRMED' or st == 'CONFIRMING' then return {'CONFIRMED'} end
  if st == 'CANCELLED' or st == 'CANCELLING' then return {'CANCELLED'} end
  if st == 'EXPIRED' or st == 'EXPIRING' then return {'EXPIRED'} end
  if st == 'OPENING' then return {'BUSY', o[8] or ''} end
  local ends, used = tonumber(o[5]), tonumber(o[10] or '0')
  if ends > 0 and now >= ends then return {'EXPIRED'} end
  local wanted = tonumber(o[4]) + tonumber(ARGV[3])
  if wanted <= ends then return {'DONE', ends, used, o[8] or ''} end
  if used >= tonumber(ARGV[4]) then return {'USED', ends, used, o[8] or ''} end
  redis.call('HSET', key, 'e', wanted, 'x', used + 1, 'u', clock)
  return {'OK', wanted, used + 1, o[8] or ''}
end

if op == 'FINISH' then
  local from = {CANCELLED = 'CANCELLING', CONFIRMED = 'CONFIRMING', EXPIRED = 'EXPIRING'}
  if st == from[ARGV[3]] then set(ARGV[3]) return {'OK'} end
  return {'STATE', st or 'NONE'}
end

return redis.error_reply('unknown order operation ' .. tostring(op))
