-- wrk script: each request reserves 1 unit of one SKU under a fresh order id, as an order
-- service at the peak does. Usage (see bench/wrk/README.md):
--   SKU=WRK-HOT KEY=<api key> wrk -t2 -c64 -d20s --latency -s bench/wrk/reserve.lua http://localhost:8080
-- With SKUS=n the SKU is drawn at random from n SKUs named <SKU>-0000000 …: traffic spread over a
-- catalogue rather than one hot SKU. With CUSTOMERS=n each order is placed for one of n customers
-- (customerId wrk-c-<i>), so a SKU's per-customer limit counts it.
local sku = os.getenv("SKU") or "WRK-HOT"
local skus = tonumber(os.getenv("SKUS") or "0")
local customers = tonumber(os.getenv("CUSTOMERS") or "0")
local key = os.getenv("KEY") or ""
local threads = 0
local sent = 0
local tag

-- Runs once per thread in the main state: numbers the threads so order ids never collide.
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

-- Runs in each thread's own state: the run's start time keeps ids of successive runs apart.
function init(args)
  tag = string.format("%d-%d", os.time(), tid)
  math.randomseed(os.time() + tid)
end

function request()
  sent = sent + 1
  local target = skus > 0 and string.format("%s-%07d", sku, math.random(0, skus - 1)) or sku
  local customer = customers > 0 and string.format(',"customerId":"wrk-c-%d"', math.random(0, customers - 1)) or ""
  local body = string.format('{"orderId":"wrk-%s-%d","lines":[{"skuId":"%s","qty":1}]%s}', tag, sent, target,
    customer)
  return wrk.format("POST", "/api/v1/reservations",
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. key }, body)
end
