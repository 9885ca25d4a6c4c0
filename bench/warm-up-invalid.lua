-- wrk script for bench/first-minute's V side: POST /v1/reservations that validation refuses (quantity 0), so the
-- HTTP server, the token check, the body read and Hibernate Validator run and nothing is stored. BENCH_TOKEN as in
-- reserve.lua.
local token = os.getenv("BENCH_TOKEN")
counter = 0

function request()
  counter = counter + 1
  return wrk.format("POST", "/v1/reservations", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. token,
    ["Idempotency-Key"] = "warm-" .. math.random(1, 1000000000) .. "-" .. counter,
  }, '{"lines":[{"sku":"SKU-1","quantity":0}]}')
end
