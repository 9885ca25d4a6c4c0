-- wrk script: POST /v1/reservations with a unique Idempotency-Key per request and a valid JWT.
-- Environment: BENCH_TOKEN, BENCH_WORKLOAD (uniform|hot|replay|cart|replayonly), BENCH_SKUS (count),
-- BENCH_RUN (unique prefix), BENCH_DELAY_MS (pause per connection between requests: a paced, not saturating, load).
-- replayonly cycles over 100 fixed keys per thread: after the first round every request is a replay.
local token = os.getenv("BENCH_TOKEN")
-- BENCH_PATH: bench/ablation's rows; an empty BENCH_TOKEN sends no Authorization header
local path = os.getenv("BENCH_PATH") or "/v1/reservations"
local workload = os.getenv("BENCH_WORKLOAD") or "uniform"
local skus = tonumber(os.getenv("BENCH_SKUS") or "10000")
local run = os.getenv("BENCH_RUN") or tostring(os.time())
local threads = {}
counter = 0
thread_id = thread_id or 0
statuses = {}
local recent = {}
local pause = tonumber(os.getenv("BENCH_DELAY_MS") or "0")

if pause > 0 then
  function delay()
    return pause
  end
end

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_id", #threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + thread_id)
  statuses = {}
end

local function line(sku, qty)
  return '{"sku":"' .. sku .. '","quantity":' .. qty .. '}'
end

local function body()
  if workload == "hot" then
    return '{"lines":[' .. line("HOT", 1) .. ']}'
  elseif workload == "cart" then
    local picked, parts = {}, {}
    while #parts < 5 do
      local n = math.random(1, skus)
      if not picked[n] then
        picked[n] = true
        table.insert(parts, line("SKU-" .. n, 1))
      end
    end
    return '{"lines":[' .. table.concat(parts, ",") .. ']}'
  else
    return '{"lines":[' .. line("SKU-" .. math.random(1, skus), 1) .. ']}'
  end
end

function request()
  local key, payload
  if workload == "replay" and #recent > 0 and math.random() < 0.3 then
    local pick = recent[math.random(1, #recent)]
    key, payload = pick[1], pick[2]
  elseif workload == "replayonly" then
    counter = counter + 1
    local n = counter % 100
    key = run .. "-" .. thread_id .. "-" .. n
    payload = '{"lines":[' .. line("SKU-" .. (1 + (thread_id * 100 + n) % skus), 1) .. ']}'
  else
    counter = counter + 1
    key = run .. "-" .. thread_id .. "-" .. counter
    payload = body()
    if workload == "replay" then
      if #recent >= 500 then table.remove(recent, 1) end
      table.insert(recent, { key, payload })
    end
  end
  local headers = { ["Content-Type"] = "application/json", ["Idempotency-Key"] = key }
  if token ~= nil and token ~= "" then headers["Authorization"] = "Bearer " .. token end
  return wrk.format("POST", path, headers, payload)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    for code, n in pairs(s) do counts[code] = (counts[code] or 0) + n end
  end
  local created, other = counts[201] or 0, 0
  for code, n in pairs(counts) do
    if code ~= 201 then other = other + n end
  end
  io.write(string.format("RESULT requests=%d seconds=%.2f created=%d non201=%d socket_errors=%d p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f\n",
    summary.requests, summary.duration / 1e6, created, other,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000))
end
