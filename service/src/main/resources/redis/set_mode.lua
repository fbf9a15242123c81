-- Set a SKU's selling mode in the hot store; the reserve script checks it on every call, so the
-- mode is in force for every instance as soon as this returns (I6).
--
-- KEYS[1]  sg:{sku}:m  meta hash
-- ARGV[1]  NORMAL | THROTTLED | FROZEN
-- ARGV[2]  optional: reservations per second the cluster accepts while THROTTLED (0 = none); when
--          absent the SKU keeps its rate (a rebuild freezing and restoring the mode it had)
-- Returns {'OK', previous mode} | {'NOT_LOADED'}
local meta = KEYS[1]
local previous = redis.call('HGET', meta, 'mode')
if not previous then return {'NOT_LOADED'} end
redis.call('HSET', meta, 'mode', ARGV[1])
if ARGV[2] then
  -- A new rate starts with a full second's worth of tokens, refilled from the next reservation on.
  redis.call('HSET', meta, 'rate', ARGV[2], 'tk', ARGV[2])
  redis.call('HDEL', meta, 'ts')
end
return {'OK', previous}
