-- SPDX-License-Identifier: MIT
-- test_session.lua: netplay from Lua. Two sample duelists play through fg.link with loss and
-- latency; their confirmed hashes agree, the match ends at its length on both, and the recording
-- one of them made replays and verifies. A restarted node rejoins. A planted desync gives a report
-- naming the fields. And every mistake a user can make in the options gets a message.
-- luacheck: globals TestSession
local lu = require "luaunit"
local fg = require "framegate"

local samples = os.getenv("FG_SAMPLES") or "samples"
local RULES = samples .. "/duel/rules.lua"
local SOURCE = io.open(RULES):read("a")

local function world(rules)
  local w = fg.world { rules = rules or RULES, seed = 7 }
  w:spawn { x = -35 }
  w:spawn { x = 35, facing = "left" }
  return w
end

-- Scripted input by the tick it lands on: player 1 throws a hadouken every 45 ticks, player 2
-- walks forward and jabs.
local function script(node, t)
  if node == 1 then
    local k = t % 45
    if k == 1 then return { { "dir", 2 } } end
    if k == 2 then return { { "dir", 3 } } end
    if k == 3 then return { { "dir", 6 }, { "press", "LP" } } end
    if k == 5 then return { { "dir", 5 }, { "release", "LP" } } end
  else
    local k = t % 30
    if k == 0 then return { { "dir", 4 } } end
    if k == 10 then return { { "dir", 5 }, { "press", "HP" } } end
    if k == 12 then return { { "release", "HP" } } end
  end
  return {}
end

local function feed(s, node, fed)
  local t = s:input_tick()
  if t <= fed then return fed end
  for k = fed + 1, t do
    for _, e in ipairs(script(node, k)) do s[e[1] == "dir" and "direction" or e[1]](s, e[2]) end
  end
  return t
end

-- Plays a match of `ticks` through a link; returns the sessions, worlds and the link.
local function play(opts)
  local link = fg.link { latency_ms = opts.latency or 30, jitter_ms = 5, loss = opts.loss or 2,
                         seed = 9 }
  local nodes = {}
  for i = 1, 2 do
    local w = world(opts.rules)
    local rec = i == 1 and opts.record and w:record(opts.record) or nil
    local s = fg.session { world = w, transport = link:node(i), node = i, ticks = opts.ticks,
                           delay = opts.delay and opts.delay[i] or 2, hash_every = opts.every }
    nodes[i] = { w = w, s = s, rec = rec, fed = -1 }
  end
  local frame, us = 0, 16667
  local results = {}
  while true do
    link:time(frame * us)
    local all = true
    for i, n in ipairs(nodes) do
      n.fed = feed(n.s, i, n.fed)
      local ok, msg = n.s:advance(frame * us)
      if not ok then results[i] = results[i] or msg end
      if n.s:state() ~= "finished" then all = false end
    end
    frame = frame + 1
    if all or (opts.stop and opts.stop(nodes, results)) or frame > 20000 then break end
  end
  return nodes, results, link
end

TestSession = {}

function TestSession:test_two_nodes_agree_and_the_recording_replays()
  local path = os.tmpname()
  local nodes = play { ticks = 900, record = path, loss = 5, latency = 60 }
  for _, n in ipairs(nodes) do
    lu.assertEquals(n.s:state(), "finished")
    lu.assertEquals(n.w:tick(), 900)
  end
  lu.assertEquals(nodes[1].w:hash(), nodes[2].w:hash())
  for t = 900 - 200, 899 do lu.assertEquals(nodes[1].s:hash(t), nodes[2].s:hash(t)) end
  lu.assertNil(nodes[1].s:hash(900))
  local st = nodes[1].s:stats()
  lu.assertTrue(st.rollbacks > 0)
  lu.assertTrue(st.deepest <= 8)
  lu.assertEquals(st.confirmed, 900)
  lu.assertStrContains(nodes[1].s:record(1, 858), "6 +LP")
  lu.assertStrContains(tostring(nodes[1].s), "framegate.Session (finished, tick 900")
  local files, ticks = nodes[1].rec:finish()
  lu.assertEquals(ticks, 900)
  local reader = fg.replay.open(files[1])
  local back = fg.replay.world(reader, fg.rules(RULES))
  local p = back:replay_player(reader)
  local ok, msg = p:run()
  lu.assertTrue(ok, msg)
  lu.assertEquals(back:hash(), nodes[1].w:hash())
  os.remove(path)
end

function TestSession:test_delay_changes_and_cues_once()
  local nodes = play { ticks = 600, delay = { 0, 7 } }
  lu.assertEquals(nodes[1].w:hash(), nodes[2].w:hash())
  lu.assertEquals(nodes[1].s:delay(), 0)
  lu.assertEquals(nodes[2].s:delay(4), 4)
  -- The cues presentation emitted: the same on both sides, counted once per confirmed tick.
  local a, b = nodes[1].w:cues(), nodes[2].w:cues()
  lu.assertTrue(#a > 0)
  lu.assertEquals(#a, #b)
  for i = 1, #a do lu.assertEquals(a[i].tick, b[i].tick) end
end

-- Both nodes run a request rule that counts its calls in an upvalue (state the hash does not see)
-- and refuses every fifth. Node 2 predicts, and its speculative ticks ask the rule too, so the
-- two nodes refuse different requests: their matches part, and both report the same tick.
function TestSession:test_a_planted_desync_is_reported_with_fields()
  local planted = fg.load_rules_source("planted.lua", (SOURCE:gsub("request = function%(me, req%)",
    "request = (function() local calls = 0 return function(me, req)\n"
      .. "    calls = calls + 1\n    if calls %% 5 == 0 then return fg.reject('planted') end", 1)
    :gsub("    return fg.default\n  end,", "    return fg.default\n  end end)(),", 1)))
  local nodes, results = play { ticks = 3000, rules = planted, delay = { 0, 5 }, every = 10,
    stop = function(n) local r = n[1].s:report()
      return r and r.fields_known and n[2].s:report() and n[2].s:report().fields_known end }
  lu.assertStrContains(results[1] or results[2], "desync with player")
  local r = nodes[1].s:report()
  lu.assertEquals(nodes[1].s:state(), "desynced")
  lu.assertTrue(r.tick >= 0 and r.detected_at - r.tick < 10)
  lu.assertEquals(r.tick, nodes[2].s:report().tick)
  lu.assertTrue(r.ndiffs > 0)
  lu.assertStrContains(r.text, "first divergent tick: " .. r.tick)
  lu.assertStrContains(r.text, r.diffs[1].path)
  lu.assertNotEquals(r.here, r.there)
end

-- Node 2's process dies at frame 300 and a fresh one rejoins at frame 700 (past the 5 s
-- disconnect): node 1 waits, paused; the new node gets the state, both play to the end with the
-- same hashes, and node 1's recording, made across the pause, replays.
function TestSession:test_a_restarted_node_rejoins()
  local path = os.tmpname()
  local link = fg.link { latency_ms = 30, jitter_ms = 5, loss = 2, seed = 9 }
  local function node(i, rejoin)
    local w = world()
    local rec = i == 1 and w:record(path) or nil
    local s = fg.session { world = w, transport = link:node(i), node = i, ticks = 1200,
                           rejoin_ms = 20000, rejoin = rejoin }
    return { w = w, s = s, rec = rec, fed = -1 }
  end
  local nodes = { node(1), node(2) }
  local seen = {}
  local frame, us = 0, 16667
  while frame < 20000 do
    link:time(frame * us)
    if frame == 300 then nodes[2].gone = true end
    if frame == 700 then nodes[2] = node(2, true) end
    local all = true
    for i, n in ipairs(nodes) do
      if not n.gone then
        local was = n.s:state()
        if was ~= "rejoining" then n.fed = feed(n.s, i, n.fed) end
        lu.assertTrue(n.s:advance(frame * us))
        if was == "rejoining" and n.s:state() == "running" then n.fed = n.s:input_tick() - 1 end
        seen[n.s:state()] = true
        if n.s:state() ~= "finished" then all = false end
      end
    end
    frame = frame + 1
    if all then break end
  end
  lu.assertTrue(seen.waiting and seen.rejoining)
  lu.assertEquals(nodes[1].s:state(), "finished")
  lu.assertEquals(nodes[2].s:state(), "finished")
  lu.assertEquals(nodes[1].w:hash(), nodes[2].w:hash())
  local a, b = nodes[1].s:stats(), nodes[2].s:stats()
  lu.assertEquals(a.rejoins, 1)
  lu.assertNil(a.rejoined_at)
  lu.assertTrue(b.rejoined_at > 200 and b.rejoined_at < 320, tostring(b.rejoined_at))
  lu.assertEquals(b.state_bytes, a.state_bytes)
  lu.assertTrue(b.hashes_compared > 20)
  local files, ticks = nodes[1].rec:finish()
  lu.assertEquals(ticks, 1200)
  local reader = fg.replay.open(files[1])
  local back = fg.replay.world(reader, fg.rules(RULES))
  local ok, msg = back:replay_player(reader):run()
  lu.assertTrue(ok, msg)
  lu.assertEquals(back:hash(), nodes[1].w:hash())
  os.remove(path)
end

function TestSession:test_mistakes_get_messages()
  local link = fg.link()
  local w = world()
  lu.assertErrorMsgContains("session: unknown field 'dealy'",
    fg.session, { world = w, transport = link:node(1), dealy = 3 })
  lu.assertErrorMsgContains("field 'transport': expected a transport",
    fg.session, { world = w, transport = link })
  lu.assertErrorMsgContains("field 'delay': 16, expected 0..15",
    fg.session, { world = w, transport = link:node(1), delay = 16 })
  lu.assertErrorMsgContains("field 'node': 3, expected 1..2",
    fg.session, { world = w, transport = link:node(1), node = 3 })
  lu.assertErrorMsgContains("link: unknown field 'latency'", fg.link, { latency = 3 })
  lu.assertErrorMsgContains("field 'loss': 101, expected 0..100", fg.link, { loss = 101 })
  lu.assertErrorMsgContains("field 'rejoin_ms': -1, expected 0..600000",
    fg.session, { world = w, transport = link:node(1), rejoin_ms = -1 })
  local s = fg.session { world = w, transport = link:node(1) }
  lu.assertErrorMsgContains("session:press('XX'): not a button of this world", s.press, s, "XX")
  lu.assertErrorMsgContains("already held", function() s:press("LP"); s:press("LP") end)
  lu.assertErrorMsgContains("expected a numpad direction", s.direction, s, 10)
  lu.assertErrorMsgContains("session:delay(20): expected 0..15", s.delay, s, 20)
  lu.assertErrorMsgContains("no such node", link.node, link, 3)
  w:advance()
  lu.assertErrorMsgContains("a match starts at tick 0",
    fg.session, { world = w, transport = link:node(2), node = 2 })
end

os.exit(lu.LuaUnit.run())
