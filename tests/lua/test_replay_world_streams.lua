-- SPDX-License-Identifier: MIT
-- test_replay_world_streams.lua: seeded random input streams through the sample duelist: for
-- every stream the straight run, the sync test run (rolling back 1..8 ticks every tick) and the
-- replay of the straight run (tick by tick, then through the host loop at 30, 60, 120, 144 and
-- 240 fps with jittered frames) end on one hash. FG_STREAMS sets the count (10,000 by default;
-- the sanitizer build runs fewer), each stream 90 ticks (1.5 s) of play at a random activity level.
-- luacheck: globals TestStreams
local lu = require "luaunit"
local fg = require "framegate"

local STREAMS = math.tointeger(tonumber(os.getenv("FG_STREAMS") or "")) or 10000
local TICKS = 90
local RATES = { 30, 60, 120, 144, 240 }
local samples = os.getenv("FG_SAMPLES") or "samples"
local rules = fg.rules(samples .. "/duel/rules.lua")

local function match(seed)
  local w = fg.world { rules = rules, seed = seed, trace = 0 }
  w:spawn { x = -35 }
  w:spawn { x = 35, facing = "left" }
  return w
end

TestStreams = {}

function TestStreams:test_straight_synctest_and_replays_at_every_rate_agree()
  local checked = 0
  for s = 1, STREAMS do
    local activity = 25 + (s * 37) % 76
    local seed = 1000 + s
    -- Straight, recorded.
    local w = match(seed)
    local rec = w:record(nil, { every = 20 })
    local fz = fg.input_fuzz(seed, activity)
    for _ = 1, TICKS do
      fz:tick(w)
      w:advance()
    end
    local bytes = rec:finish()
    local want = w:hash()
    -- Under the sync test.
    local check = 1 + s % 8
    local ws = match(seed)
    local st = ws:synctest { check = check }
    fz = fg.input_fuzz(seed, activity)
    for _ = 1, TICKS do
      fz:tick(ws)
      local ok, report = st:advance()
      if not ok then lu.fail(string.format("stream %d (check %d): %s", s, check, report.text)) end
    end
    if ws:hash() ~= want then
      lu.fail(string.format("stream %d: sync test run %s, straight %s", s, ws:hash(), want))
    end
    -- The replay, tick by tick and at every display rate.
    local reader = fg.replay.load(bytes)
    for i = 0, #RATES do
      local wr = fg.replay.world(reader, rules, { trace = 0 })
      local p = wr:replay_player(reader, { fps = RATES[i] or 0, jitter = 40, seed = s })
      local ok, msg = p:run()
      if not ok then lu.fail(string.format("stream %d at %s fps: %s", s, RATES[i] or "no", msg)) end
      if wr:hash() ~= want then
        lu.fail(string.format("stream %d at %s fps: %s, straight %s", s, RATES[i] or "no",
          wr:hash(), want))
      end
      wr:close()
    end
    reader:close()
    w:close()
    ws:close()
    checked = checked + 1
  end
  lu.assertEquals(checked, STREAMS)
end

os.exit(lu.LuaUnit.run())
