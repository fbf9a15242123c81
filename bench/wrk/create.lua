-- wrk script: each request creates a new SKU with one PUT, as a shop without a bulk import loads its
-- catalogue. Usage (see bench/wrk/import.sh):
--   KEY=<api key> wrk -t2 -c64 -d20s -s bench/wrk/create.lua http://localhost:8080
local key = os.getenv("KEY") or ""
local threads = 0
local sent = 0
local tag

-- Runs once per thread in the main state: numbers the threads so SKU ids never collide.
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function init(args)
  tag = string.format("%d-%d", os.time(), tid)
end

function request()
  sent = sent + 1
  return wrk.format("PUT", string.format("/api/v1/skus/PUT-%s-%d", tag, sent),
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. key },
    string.format('{"total":%d,"buckets":8}', 100 + sent % 900))
end
