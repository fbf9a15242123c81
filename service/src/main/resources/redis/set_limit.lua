-- Set how many units of a SKU one customer may hold and have bought; the reserve script reads it
-- on every call, so the limit is in force for every instance as soon as this returns. The counts
-- per customer are kept whether or not there is a limit, so a new limit counts what is held now.
--
-- KEYS[1]  sg:{sku}:m  meta hash
-- ARGV[1]  the limit (0 = none)     ARGV[2]  the epoch the caller knows owns the SKU
-- Returns {'OK'} | {'NOT_LOADED'} | {'NOT_LOADED', 'HISTORY'} (history.lua) | {'STALE', epoch loaded}
local meta = KEYS[1]
local m = redis.call('HMGET', meta, 'epoch', 'h')
local epoch = m[1]
if not epoch then return {'NOT_LOADED'} end
if m[2] ~= sg_history() then return {'NOT_LOADED', 'HISTORY'} end
if epoch ~= ARGV[2] then return {'STALE', tonumber(epoch)} end
if tonumber(ARGV[1]) > 0 then
  redis.call('HSET', meta, 'lim', ARGV[1])
else
  redis.call('HDEL', meta, 'lim')
end
return {'OK'}
