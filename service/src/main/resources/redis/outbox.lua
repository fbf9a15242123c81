-- Read the oldest entries of a SKU's outbox, for the outbox sweeper, only while the SKU's copy here
-- is one this Redis history loaded (history.lua): entries left in a copy of another history (a
-- replica promoted after it missed writes) may be changes the lost history undid, and are never
-- journaled; the SKU is taken over and loaded again instead, which empties its outbox.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:x  outbox stream
-- ARGV[1]  how many entries at most
-- Returns {'OK', entries} (entries as XRANGE gives them: {id, {field, value, ...}} each, oldest first)
--   | {'NOT_LOADED'} | {'NOT_LOADED', 'HISTORY'}
local m = redis.call('HMGET', KEYS[1], 'epoch', 'h')
if not m[1] then return {'NOT_LOADED'} end
if m[2] ~= sg_history() then return {'NOT_LOADED', 'HISTORY'} end
return {'OK', redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', tonumber(ARGV[1]))}
