-- Set a SKU's selling mode in the hot store; the reserve script checks it on every call, so the
-- mode is in force for every instance as soon as this returns (I6).
--
-- KEYS[1]  sg:{sku}:m  meta hash
-- ARGV[1]  NORMAL | THROTTLED | FROZEN
-- Returns {'OK', previous mode} | {'NOT_LOADED'}
local meta = KEYS[1]
local previous = redis.call('HGET', meta, 'mode')
if not previous then return {'NOT_LOADED'} end
redis.call('HSET', meta, 'mode', ARGV[1])
return {'OK', previous}
