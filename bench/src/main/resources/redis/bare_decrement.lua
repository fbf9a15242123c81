-- The post-mortem's check-and-decrement, the ceiling for anything built on Redis: one key, one script.
--
-- KEYS[1]  the SKU's stock counter
-- ARGV[1]  quantity to take (units)
-- returns  1 when taken, 0 when the stock is short
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
local qty = tonumber(ARGV[1])
if stock >= qty then
  redis.call('DECRBY', KEYS[1], qty)
  return 1
end
return 0
