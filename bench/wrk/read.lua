-- wrk script: each request reads one SKU as a product page does in the second wave: what is
-- available and whether it sells (GET .../availability, at most the service's
-- stockguard.reservation.availability-max-age old). The full, live stock read is GET /api/v1/skus/{id}.
--   SKU=WRK-HOT KEY=<api key> wrk -t2 -c64 -d20s --latency -s bench/wrk/read.lua http://localhost:8080
local sku = os.getenv("SKU") or "WRK-HOT"
local key = os.getenv("KEY") or ""

function request()
  return wrk.format("GET", "/api/v1/skus/" .. sku .. "/availability", { ["Authorization"] = "Bearer " .. key })
end
