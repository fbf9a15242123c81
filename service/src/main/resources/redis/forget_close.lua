-- A one-line reservation's last trip, once its changes are in the journal: their outbox entries
-- leave the SKU's outbox and its gives set, as a request's forget after its journal does, then
-- order.lua's CLOSE, in one script. As open_reserve.lua, only where one script may touch two hash
-- slots (never a Cluster).
--
-- KEYS[1]  sg:{o:<order>}, order.lua's key
-- KEYS[2]  sg:{sku}:x, the SKU's outbox       KEYS[3]  sg:{sku}:g, its gives set
-- ARGV[1]  how many outbox entry ids follow (journaled: this reservation's and the gives journaled
--          ahead of it), then the ids, then order.lua's ARGV for CLOSE ("CLOSE" first)
-- Returns CLOSE's reply.
local forgotten = tonumber(ARGV[1])
local ids, close = {}, {}
for i = 2, #ARGV do
  if i <= forgotten + 1 then ids[#ids + 1] = ARGV[i] else close[#close + 1] = ARGV[i] end
end
if #ids > 0 then
  redis.call('SREM', KEYS[3], unpack(ids))
  redis.call('XDEL', KEYS[2], unpack(ids))
end
return sg_order({KEYS[1]}, close)
