-- SPDX-License-Identifier: MIT
-- test_drive.lua: e:drive()'s push and advance are p:press/p:release and w:advance followed by
-- p:masks, as plain functions: the same ticks, hooks, hashes, answers and errors, no Lua memory
-- per tick; and an Entity a restore took away is refused with a message by every query instead
-- of being read.
local lu = require "luaunit"
local fg = require "framegate"

local BUTTONS = { "LP", "MP", "HP", "LK", "MK", "HK", "dash", "block" }

-- A seeded stream: per tick a list of {button index, down, time}, presses and releases that
-- alternate per button, several edges in some ticks.
local function stream(ticks, seed)
  local x, held, out = seed, {}, {}
  local function rnd(n)
    x = (x * 1103515245 + 12345) % 2147483648
    return x % n
  end
  for t = 0, ticks - 1 do
    local edges = {}
    for k = 1, rnd(4) do
      local b = rnd(#BUTTONS) + 1
      held[b] = not held[b]
      edges[#edges + 1] = { b, held[b], fg.us_of_tick(t) + k * 100 }
    end
    out[t] = edges
  end
  return out
end

local function handles(w)
  local hs = {}
  for i, b in ipairs(BUTTONS) do hs[i] = w:action_id(b) end
  return hs
end

-- The message of f(...)'s error, without the position.
local function message(f, ...)
  local ok, err = pcall(f, ...)
  lu.assertFalse(ok, "expected an error")
  return (tostring(err):gsub("^[^:]*:%d+: ", ""))
end

TestDrive = {}

function TestDrive:test_push_and_advance_agree_with_the_methods_on_a_seeded_stream()
  local ticks = 300
  local s = stream(ticks, 11)
  local a = fg.world { buttons = BUTTONS }
  local pa = a:spawn()
  local b = fg.world { buttons = BUTTONS }
  local pb = b:spawn()
  local push, advance = pb:drive()
  local hs = handles(a)
  local presses = 0
  for t = 0, ticks - 1 do
    for _, e in ipairs(s[t]) do
      if e[2] then pa:press(hs[e[1]], e[3]) else pa:release(hs[e[1]], e[3]) end
      push(hs[e[1]], e[2], e[3])
    end
    -- Directions still go through the method; they mix with push in one buffer.
    if t % 7 == 3 then
      pa:dir(t % 9 + 1, fg.us_of_tick(t) + 900)
      pb:dir(t % 9 + 1, fg.us_of_tick(t) + 900)
    end
    lu.assertEquals(a:advance(), t + 1)
    local got = { advance() }
    lu.assertEquals(got, { pa:masks() }, "tick " .. t)
    lu.assertEquals(got, { pb:masks() }, "tick " .. t)
    lu.assertEquals(b:tick(), t + 1)
    if got[1] & ~0xf ~= 0 then presses = presses + 1 end
  end
  lu.assertTrue(presses > ticks // 4) -- the stream pressed buttons on many ticks
  lu.assertEquals(b:hash(), a:hash())
  lu.assertEquals(#pb:edges(), #pa:edges())
  -- A name works as well as a handle.
  push("LP", not pb:held("LP"), fg.us_of_tick(ticks) + 50)
  lu.assertEquals(#pb:pending(), 1)
end

-- advance() is the tick w:advance() runs: the request rule inside it, the presentation hooks
-- after it.
function TestDrive:test_advance_runs_rules_and_hooks_like_w_advance()
  local function duel()
    local events = 0
    local decl = {
      buttons = { "LP" },
      on_event = function() events = events + 1 end,
      request = function() return fg.default end,
      actions = {
        idle = { neutral = true, loop = true, duration = 1 },
        jab = { input = "LP", startup = 2, active = 1, recovery = 3,
                markers = { { tick = 2, marker = "swing" } } },
      },
    }
    local w = fg.world { rules = fg.ruleset "driven"(decl) }
    local p = w:spawn { x = -20 }
    w:spawn { x = 20, facing = "left" }
    return w, p, function() return events end
  end
  local a, pa, events_a = duel()
  local b, pb, events_b = duel()
  local push, advance = pb:drive()
  local lp = a:action_id("LP")
  for t = 0, 59 do
    if t % 12 == 0 then
      pa:press(lp, fg.us_of_tick(t))
      push(lp, true, fg.us_of_tick(t))
    elseif t % 12 == 1 then
      pa:release(lp, fg.us_of_tick(t))
      push(lp, false, fg.us_of_tick(t))
    end
    a:advance()
    advance()
  end
  lu.assertTrue(events_a() > 0)
  lu.assertEquals(events_b(), events_a())
  lu.assertEquals(b:committed("swing"), a:committed("swing"))
  lu.assertEquals(b:stats().rule_calls, a:stats().rule_calls)
  lu.assertTrue(b:stats().rule_calls > 0)
  lu.assertEquals(b:hash(), a:hash())
end

function TestDrive:test_a_loop_of_push_and_advance_allocates_no_lua_memory()
  local s = stream(240, 5)
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  local push, advance = p:drive()
  local hs = handles(w)
  local answers = 0
  local function run(from, to)
    for t = from, to do
      local edges = s[t]
      for i = 1, #edges do
        local e = edges[i]
        push(hs[e[1]], e[2], e[3])
      end
      local pressed, _, held = advance()
      for i = 1, #hs do
        local bit = 1 << hs[i]
        if pressed & bit ~= 0 then answers = answers + 1 end
        if held & bit ~= 0 then answers = answers + 1 end
      end
    end
  end
  run(0, 59)
  collectgarbage("collect")
  collectgarbage("stop")
  local before = collectgarbage("count")
  run(60, 239)
  local after = collectgarbage("count")
  collectgarbage("restart")
  lu.assertTrue(answers > 0)
  lu.assertEquals((after - before) * 1024, 0)
  -- The measurement can fail: making the two functions allocates.
  collectgarbage("stop")
  before = collectgarbage("count")
  p:drive()
  after = collectgarbage("count")
  collectgarbage("restart")
  lu.assertTrue(after > before)
end

function TestDrive:test_bad_pushes_are_reported_and_change_nothing()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  local push, advance = p:drive()
  local lp = w:action_id("LP")
  local cases = {
    { "unknown action 'XX' (declared: ", "XX", true, 0 },
    { "action handle 12 is not one of this world's (0 to 11)", 12, true, 0 },
    { "number has no integer representation", 2.5, true, 0 },
    { "(boolean (true for a press, false for a release) expected, got nil)", lp, nil, 0 },
    { "(boolean (true for a press, false for a release) expected, got number)", lp, 1, 0 },
    { "time in microseconds expected", lp, true, "soon" },
    { "time must be an integer number of microseconds", lp, true, 0.5 },
    { "input time -1 us is before the world's origin (0); edge refused", lp, true, -1 },
    { "input action id 0 is not a declared button", w:action_id("up"), true, 0 },
    { "entity 1 release 'LP': button 7 is not down; release refused", lp, false, 0 },
  }
  for _, c in ipairs(cases) do
    lu.assertStrContains(message(push, table.unpack(c, 2, 4)), c[1])
  end
  -- The designer sees their own file and line.
  local ok, err = pcall(function() push("nope", true, 0) end)
  lu.assertFalse(ok)
  lu.assertStrContains(err, "test_drive.lua:")
  lu.assertStrContains(err, "bad argument #1 to 'push'")
  push(lp, true, 0)
  lu.assertStrContains(message(push, lp, true, 10), "button 7 is already down; press refused")
  -- Nothing of the refused pushes reached the world: one pending edge, the good one.
  lu.assertEquals(#p:pending(), 1)
  local pressed, released, held = advance()
  lu.assertEquals({ pressed, released, held }, { 1 << lp, 0, 1 << lp })
  w:close()
  lu.assertEquals(message(push, lp, false, 100), "attempt to use an entity of a closed world")
  lu.assertEquals(message(advance), "attempt to use an entity of a closed world")
end

function TestDrive:test_the_functions_keep_their_world_alive()
  local push, advance
  do
    local w = fg.world { buttons = BUTTONS }
    push, advance = w:spawn():drive()
  end
  collectgarbage("collect")
  collectgarbage("collect")
  push(4, true, 0) -- handle 4: HK, the first button (directions 0 to 3, then sorted names)
  local pressed = advance()
  lu.assertEquals(pressed, 1 << 4)
  lu.assertEquals(select("#", advance()), 4)
end

-- An Entity userdata outlives a restore to a tick before its spawn: every call that would read
-- it is refused with a message, advance() before the tick runs, and e:id() still names it.
function TestDrive:test_an_entity_a_restore_took_away_is_refused()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  local lp = w:action_id("LP")
  local before = w:save()
  local q = w:spawn()
  local push, advance = q:drive()
  w:restore(before)
  local want = "entity 2 does not exist (1 spawned)"
  for _, call in ipairs {
    { "masks" }, { "pressed", lp }, { "released", lp }, { "held", lp }, { "held_for", lp },
    { "poll", {} }, { "input_into", {} }, { "input" }, { "direction" }, { "edges" },
    { "pending" }, { "ground" }, { "jump" },
  } do
    lu.assertStrContains(message(q[call[1]], q, call[2]), want, false, call[1])
  end
  lu.assertStrContains(message(q.press, q, lp, 0), want)
  lu.assertStrContains(message(push, lp, true, 0), want)
  local tick, hash = w:tick(), w:hash()
  lu.assertStrContains(message(advance), want)
  lu.assertEquals(w:tick(), tick)
  lu.assertEquals(w:hash(), hash)
  lu.assertEquals(q:id(), 2)
  -- The entity still there answers, and a new spawn brings id 2 back for the old userdata.
  p:press(lp, 0)
  w:advance()
  lu.assertTrue(p:pressed(lp))
  w:spawn()
  lu.assertEquals({ advance() }, { 0, 0, 0, 5 })
  lu.assertFalse(q:held(lp))
end

os.exit(lu.LuaUnit.run())
