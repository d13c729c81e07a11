-- wrk script for bench/widget.mjs: drives one widget route per run and prints one JSON summary.
--
--   wrk -s bench/widget-load.lua http://127.0.0.1:PORT -- <route> <session file> <invocation tag>
--
-- <route> is livez, init, leads or events. The session file (written by bench/widget.mjs) holds
-- "agent_id <id>", "run <tag>" and one "token <jwt>" line per pre-started session. The invocation
-- tag differs per wrk run, so a warm-up run and the measured run never share anon_ids or e-mails.
-- Every request is built in Lua, so each one can differ (anon_id, e-mail, session token).

local threads = {}

-- Runs in the main state once per wrk thread, before init: numbers the threads.
function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

local route, agent_id, run_tag
local tokens = {}
local counter = 0
local static_request

local function read_session_file(path)
  local file = assert(io.open(path, "r"), "cannot open session file " .. tostring(path))
  for line in file:lines() do
    local key, value = line:match("^(%S+)%s+(%S+)$")
    if key == "agent_id" then agent_id = value
    elseif key == "run" then run_tag = value
    elseif key == "token" then table.insert(tokens, value) end
  end
  file:close()
end

-- Runs in each thread's own Lua state.
function init(args)
  route = args[1]
  if route ~= "livez" then
    read_session_file(args[2])
    assert(agent_id and run_tag, "session file lacks agent_id or run")
    run_tag = run_tag .. (args[3] or "")
  end
  if route == "livez" then
    static_request = wrk.format("GET", "/livez")
  elseif route == "leads" or route == "events" then
    assert(#tokens > 0, "session file holds no tokens")
  elseif route ~= "init" then
    error("unknown route " .. tostring(route))
  end
  -- Start each thread at a different token so threads do not walk the pool in step.
  counter = (thread_number - 1) * 7919
end

local json_headers = { ["Content-Type"] = "application/json", ["Origin"] = "https://bench.test" }

local function next_token()
  return tokens[(counter % #tokens) + 1]
end

local function authorized_headers()
  return {
    ["Content-Type"] = "application/json",
    ["Origin"] = "https://bench.test",
    ["Authorization"] = "Bearer " .. next_token(),
  }
end

function request()
  counter = counter + 1
  if route == "livez" then
    return static_request
  elseif route == "init" then
    -- A new anon_id on every request: each init upserts a new visitor and starts a new
    -- conversation (the heavier path: quota counter, conversation insert, JWT signing).
    local body = string.format(
      '{"agent_id":"%s","page_url":"https://bench.test/","anon_id":"b%s-%d-%d"}',
      agent_id, run_tag, thread_number, counter)
    return wrk.format("POST", "/api/v1/widget/init", json_headers, body)
  elseif route == "leads" then
    -- Nine in ten e-mails are new (insert); every tenth repeats one seen five requests ago (update).
    local n = counter
    if n % 10 == 0 then n = n - 5 end
    local body = string.format(
      '{"email":"lead-%s-%d-%d@bench.test","name":"Bench Lead","fields":{"source":"bench","n":%d}}',
      run_tag, thread_number, n, counter)
    return wrk.format("POST", "/api/v1/widget/leads", authorized_headers(), body)
  else
    local body = string.format(
      '{"event":"launcher_opened","rule_id":"rule-%d","metadata":{"page":"/pricing","n":%d}}',
      counter % 16, counter)
    return wrk.format("POST", "/api/v1/widget/events", authorized_headers(), body)
  end
end

-- Runs in the main state after the run. Latencies are in microseconds.
-- errors.status counts responses with a status of 400 or more (wrk's definition).
function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"latency_us":{"mean":%.1f,"stdev":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d},' ..
    '"errors":{"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency.mean, latency.stdev, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.status, errors.connect, errors.read, errors.write, errors.timeout))
end
