-- Write the database's copy of one order line's record, unless a change under the current epoch got
-- there first (other than an undo, which leaves nothing to keep). A record of another epoch is not
-- trusted: the database (which has everything an older epoch acknowledged) says what became of the
-- line. Two requests may ask at once; the first writes, and any change made under the current epoch
-- since then must not be overwritten with the older copy the second one read.
--
-- KEYS[1]  sg:{sku}:m  meta hash          KEYS[2]  sg:{sku}:o:<order>  the line's record
-- ARGV[1]  the epoch the caller knows owns the SKU
-- ARGV[2]  the record to write ("<state>|<bucket>|<qty>|<epoch>||<customer>"), or '' to remove the record
-- ARGV[3]  the record's lifetime (seconds)
-- Returns {'OK'} | {'CURRENT'} (a record of this epoch that holds stock or settled it: left as it is)
--   | {'STALE', epoch} (not the caller's epoch, or a copy of another Redis history: history.lua)
local meta, line = KEYS[1], KEYS[2]
local m = redis.call('HMGET', meta, 'epoch', 'h')
local epoch = m[1]
if epoch ~= ARGV[1] or m[2] ~= sg_history() then return {'STALE', tonumber(epoch) or 0} end
local existing = redis.call('GET', line)
if existing then
  local state, at = string.match(existing, '^(%u+)|%-?%d+|%d+|(%d*)')
  -- A line this epoch undid (UNRESERVE, DISCARD) holds nothing and was never applied: where the
  -- database has the line, it was made elsewhere (an older epoch, the database path) and is the truth.
  if at == epoch and state ~= 'UNRESERVED' then return {'CURRENT'} end
end
if ARGV[2] == '' then
  redis.call('DEL', line)
else
  redis.call('SET', line, ARGV[2], 'EX', tonumber(ARGV[3]))
end
return {'OK'}
