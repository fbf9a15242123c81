-- Set a SKU's selling mode in the hot store; the reserve script checks it on every call, so the
-- mode is in force for every instance as soon as this returns (I6).
--
-- KEYS[1]  sg:{sku}:m  meta hash
-- ARGV[1]  NORMAL | THROTTLED | FROZEN
-- ARGV[2]  reservations per second the cluster accepts while THROTTLED (0 = none)
-- ARGV[3]  the epoch the caller knows owns the SKU
-- Returns {'OK', previous mode} | {'NOT_LOADED'} | {'NOT_LOADED', 'HISTORY'} (history.lua) |
--   {'STALE', epoch loaded}
local meta = KEYS[1]
local m = redis.call('HMGET', meta, 'mode', 'epoch', 'h')
if not m[1] then return {'NOT_LOADED'} end
if m[3] ~= sg_history() then return {'NOT_LOADED', 'HISTORY'} end
if m[2] ~= ARGV[3] then return {'STALE', tonumber(m[2])} end
redis.call('HSET', meta, 'mode', ARGV[1])
-- A new rate starts with a full second's worth of tokens, refilled from the next reservation on.
redis.call('HSET', meta, 'rate', ARGV[2], 'tk', ARGV[2])
redis.call('HDEL', meta, 'ts')
return {'OK', m[1]}
