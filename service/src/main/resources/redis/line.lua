-- Reads one order line's record on its SKU together with the SKU's epoch, so a caller that is
-- settling what a request left half-way (the outbox sweeper) can tell whether the line is held
-- here, under the epoch that owns the SKU now, and which outbox entries it has not journaled.
--
-- KEYS[1]  sg:{sku}:m  meta hash (epoch)
-- KEYS[2]  sg:{sku}:o:<order>  line record
--          "<state>|<bucket>|<qty>|<epoch>|<entries of its last change>|<customer>"
-- Returns {'LINE', epoch loaded, state, bucket, qty, epoch of the record, entries} | {'NONE', epoch loaded}
--   | {'NOT_LOADED'} | {'NOT_LOADED', 'HISTORY'} (a copy of another Redis history: history.lua)
local m = redis.call('HMGET', KEYS[1], 'epoch', 'h')
local epoch = m[1]
if not epoch then return {'NOT_LOADED'} end
if m[2] ~= sg_history() then return {'NOT_LOADED', 'HISTORY'} end
local record = redis.call('GET', KEYS[2])
if not record then return {'NONE', tonumber(epoch)} end
local state, b, q, at, pending = string.match(record, '^(%u+)|(%-?%d+)|(%d+)|?(%d*)|?([^|]*)|?(.*)$')
return {'LINE', tonumber(epoch), state, tonumber(b), tonumber(q), tonumber(at) or 0, pending or ''}
