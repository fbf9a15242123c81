-- The history fence, put before every script that reads or changes a SKU's copy (Script.java adds
-- it; it is not a script of its own). A copy is trusted only under the Redis history that loaded
-- it: load.lua writes this server's replication id into the SKU's meta hash (field 'h'), and every
-- other script compares it with the server's own before it believes the copy. Redis gives a master
-- a new replication id each time it starts and each time a replica is promoted, and a replica
-- takes its master's. So a failover to a replica that missed writes, a restart from an older
-- snapshot or a slot moved to another node presents a copy whose 'h' names another history, with
-- the same epoch: the script then answers as if the SKU were not loaded, and the caller takes the
-- SKU over and loads it again from the database before anything is sold from the old copy. No
-- setting turns this off; replica acknowledgement (WAIT) is not needed for it.
-- Read once per script call (a script that runs two scripts' steps asks once): INFO is the
-- costliest command a hot-path script makes, and the id cannot change while a script runs.
local sg_replid
local function sg_history()
  if not sg_replid then
    sg_replid = string.match(redis.call('INFO', 'replication'), 'master_replid:(%x+)')
  end
  return sg_replid
end
