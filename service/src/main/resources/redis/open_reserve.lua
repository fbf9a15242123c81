-- A one-line reservation's first trip: order.lua's OPEN on the order's record and, when that
-- opened it (NEW, or RESUME of a record left half-way), reserve.lua on the line, in one script.
-- The steps and their replies are the two scripts' own (they run as the functions sg_order and
-- sg_reserve, Script.java); what is saved is a round trip and a command. The order's record and
-- the SKU's keys are in two hash slots, so this runs only where one script may touch both: a
-- single Redis or a Sentinel-managed one, never a Cluster (whose callers make the two calls).
--
-- KEYS[1]     sg:{o:<order>}, order.lua's key
-- KEYS[2..7]  reserve.lua's keys, in its order
-- ARGV[1]     how many of the arguments after it are OPEN's (order.lua's ARGV, "OPEN" first); the
--             rest are reserve.lua's ARGV
-- Returns OPEN's reply as it is when it did not open the record (nothing was reserved), else
--   {'OPENED', 'NEW' | 'RESUME', reserve.lua's reply...}
local opens = tonumber(ARGV[1])
local open, reserve = {}, {}
for i = 2, #ARGV do
  if i <= opens + 1 then open[#open + 1] = ARGV[i] else reserve[#reserve + 1] = ARGV[i] end
end
local opened = sg_order({KEYS[1]}, open)
if opened[1] ~= 'NEW' and opened[1] ~= 'RESUME' then return opened end
local reply = {'OPENED', opened[1]}
for _, v in ipairs(sg_reserve({KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]}, reserve)) do
  reply[#reply + 1] = v
end
return reply
