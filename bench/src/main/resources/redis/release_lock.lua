-- Releases a lock only if this client still owns it (the usual compare-and-delete).
--
-- KEYS[1]  the lock key
-- ARGV[1]  the owner's token
-- returns  1 when released, 0 when the lock had expired or belongs to someone else
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
