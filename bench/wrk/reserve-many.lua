-- wrk script: each request reserves 1 unit of a SKU drawn at random from SKUS SKUs named
-- MANY-0000000 …, under a fresh order id: traffic spread over a catalogue, not one hot SKU.
--   SKUS=10000 KEY=<api key> wrk -t2 -c64 -d15s -s bench/wrk/reserve-many.lua http://localhost:8080
local skus = tonumber(os.getenv("SKUS") or "10000")
local key = os.getenv("KEY") or ""
local threads = 0
local sent = 0
local tag

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function init(args)
  tag = string.format("%d-%d", os.time(), tid)
  math.randomseed(os.time() + tid)
end

function request()
  sent = sent + 1
  local body = string.format('{"orderId":"many-%s-%d","lines":[{"skuId":"MANY-%07d","qty":1}]}', tag, sent,
    math.random(0, skus - 1))
  return wrk.format("POST", "/api/v1/reservations",
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. key }, body)
end
