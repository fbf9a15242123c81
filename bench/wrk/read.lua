-- wrk script: each request reads one SKU's stock, as a product page does in the second wave.
--   SKU=WRK-HOT KEY=<api key> wrk -t2 -c64 -d20s --latency -s bench/wrk/read.lua http://localhost:8080
local sku = os.getenv("SKU") or "WRK-HOT"
local key = os.getenv("KEY") or ""

function request()
  return wrk.format("GET", "/api/v1/skus/" .. sku, { ["Authorization"] = "Bearer " .. key })
end
