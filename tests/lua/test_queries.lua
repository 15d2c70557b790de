-- SPDX-License-Identifier: MIT
-- test_queries.lua: action handles and the allocation-free per-tick queries of an entity
-- (pressed, held, released, poll, masks, input_into) agree with e:input() and allocate nothing;
-- the per-tick calls (press, release, advance and the queries) give the same answers and the
-- same errors whether their `self` was checked in full or found in the class's self cache;
-- e:drive()'s push and advance are p:press/p:release and w:advance followed by p:masks, as plain
-- functions: the same ticks, hooks, hashes, answers and errors, no Lua memory per tick; and an
-- Entity a restore took away is refused with a message by every query instead of being read.
local lu = require "luaunit"
local fg = require "framegate"

local BUTTONS = { "LP", "MP", "HP", "LK", "MK", "HK", "dash", "block" }

-- Lua memory allocated between begin_count() and end_count(before), the collector stopped in
-- between. Measured code runs in the caller's own frame: a call one level deeper than any before
-- allocates a call record, which would count.
local function begin_count()
  collectgarbage("collect")
  collectgarbage("stop")
  return collectgarbage("count")
end

local function end_count(before)
  local after = collectgarbage("count")
  collectgarbage("restart")
  return (after - before) * 1024
end

local function contains(list, name)
  for _, v in ipairs(list) do
    if v == name then return true end
  end
  return false
end

-- A seeded stream of presses, releases and direction changes, several per tick at times:
-- feed(t) pushes tick t's edges.
local function script(p, seed)
  local held, x = {}, seed
  local function rnd(n)
    x = (x * 1103515245 + 12345) % 2147483648
    return x % n
  end
  return function(t)
    local base = fg.us_of_tick(t)
    for k = 1, rnd(3) do
      local b = BUTTONS[rnd(#BUTTONS) + 1]
      local at = base + k * 100
      if held[b] then p:release(b, at) else p:press(b, at) end
      held[b] = not held[b]
    end
    if rnd(4) == 0 then p:dir(rnd(9) + 1, base + 900) end
  end
end

TestQueries = {}

function TestQueries:test_handles_are_the_action_ids_and_agree_between_world_and_entity()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  local seen = {}
  for _, name in ipairs(BUTTONS) do
    local h = w:action_id(name)
    lu.assertEquals(math.type(h), "integer")
    lu.assertEquals(p:action_id(name), h)
    lu.assertNil(seen[h])
    seen[h] = true
  end
  lu.assertNotEquals(w:action_id("up"), w:action_id("down"))
end

function TestQueries:test_queries_agree_with_input_on_a_scripted_stream()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  local ticks = 400
  local feed = script(p, 7)
  local names = { "up", "down", "left", "right" }
  for _, b in ipairs(BUTTONS) do names[#names + 1] = b end
  local rec, into, presses, holds = {}, {}, 0, 0
  for t = 0, ticks - 1 do
    feed(t)
    w:advance()
    local want = p:input()
    p:poll(rec)
    p:input_into(into)
    lu.assertEquals(into, want)
    local pressed, released, held, dir = p:masks()
    lu.assertEquals({ pressed, released, held, dir }, { rec.pressed, rec.released, rec.held, rec.dir })
    lu.assertEquals(rec.tick, want.tick)
    lu.assertEquals(rec.dir, want.dir)
    for _, name in ipairs(names) do
      local h = w:action_id(name)
      local bit = 1 << h
      lu.assertEquals(p:pressed(h), contains(want.pressed, name), name)
      lu.assertEquals(p:pressed(name), p:pressed(h))
      lu.assertEquals(p:released(h), contains(want.released, name), name)
      lu.assertEquals(p:released(name), p:released(h))
      lu.assertEquals(p:held(h), p:held(name))
      lu.assertEquals(rec.pressed & bit ~= 0, p:pressed(h))
      lu.assertEquals(rec.released & bit ~= 0, p:released(h))
      lu.assertEquals(rec.held & bit ~= 0, contains(want.held, name))
      if p:pressed(h) then presses = presses + 1 end
      if p:held(h) then holds = holds + 1 end
    end
  end
  -- The stream must exercise the queries, not leave every answer false.
  lu.assertTrue(presses > 100, presses)
  lu.assertTrue(holds > 400, holds)
end

function TestQueries:test_input_into_clears_what_a_previous_tick_left()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  for i, b in ipairs(BUTTONS) do p:press(b, 10 * i) end
  w:advance()
  local t = {}
  lu.assertIs(p:input_into(t), t)
  lu.assertEquals(#t.pressed, #BUTTONS)
  local pressed = t.pressed
  w:advance()
  p:input_into(t)
  lu.assertIs(t.pressed, pressed)
  lu.assertEquals(t.pressed, {})
  lu.assertEquals(#t.held, #BUTTONS)
end

-- w:poll(t) fills t[id] with what e:poll fills, for every entity, reusing the records; after a
-- restore to fewer entities the extra entries go.
function TestQueries:test_world_poll_fills_every_entity()
  local w = fg.world { buttons = BUTTONS }
  local ps = { w:spawn(), w:spawn() }
  local snap = w:save()
  ps[3] = w:spawn()
  local feeds = { script(ps[1], 5), script(ps[2], 6), script(ps[3], 7) }
  local all, one, records, differ = {}, {}, nil, 0
  for t = 0, 119 do
    for i = 1, 3 do feeds[i](t) end
    w:advance()
    lu.assertIs(w:poll(all), all)
    lu.assertEquals(#all, 3)
    records = records or { all[1], all[2], all[3] }
    for i = 1, 3 do
      lu.assertIs(all[i], records[i]) -- reused, not rebuilt
      lu.assertEquals(all[i], ps[i]:poll(one))
      lu.assertEquals(all[i].tick, t)
    end
    if all[1].pressed ~= all[2].pressed then differ = differ + 1 end
  end
  lu.assertTrue(differ > 20, differ) -- the entities' records are their own
  w:restore(snap)
  w:poll(all)
  lu.assertEquals(#all, 2)
  lu.assertNil(all[3])
  all[2] = "not a record"
  w:poll(all)
  lu.assertEquals(all[2], ps[2]:poll({}))
  lu.assertErrorMsgContains("table expected", w.poll, w)
  lu.assertErrorMsgContains("framegate.World expected, got framegate.Entity", w.poll, ps[1], {})
  w:close()
  lu.assertErrorMsgContains("closed world", w.poll, w, all)
end

-- e:input_into takes its names from strings the world keeps, so it creates none even for a name
-- nothing else holds between ticks (the strings here are built at run time and dropped).
function TestQueries:test_input_into_creates_no_strings()
  local w = fg.world { buttons = { ("Zq"):rep(2) .. 1, ("Zq"):rep(2) .. 2 } }
  local p = w:spawn()
  local h = w:action_id(("Zq"):rep(2) .. 1)
  local t = {}
  local at = 0
  local function tick(f)
    if f then f(h, at) end
    w:advance()
    at = at + fg.us_of_tick(1)
  end
  tick(function(a, us) p:press(a, us) end)
  p:input_into(t)
  lu.assertEquals(#t.pressed, 1)
  lu.assertTrue(t.pressed[1] == ("Zq"):rep(2) .. 1) -- no literal: it would keep the string alive
  tick(function(a, us) p:release(a, us) end)
  p:input_into(t)
  tick()
  p:input_into(t) -- every list empty: no record holds the name now
  lu.assertEquals({ #t.pressed, #t.released, #t.held }, { 0, 0, 0 })
  tick(function(a, us) p:press(a, us) end)
  local before = begin_count()
  p:input_into(t)
  local garbage = end_count(before)
  lu.assertEquals(#t.held, 1)
  lu.assertTrue(t.held[1] == ("Zq"):rep(2) .. 1)
  lu.assertEquals(garbage, 0)
end

function TestQueries:test_a_loop_of_queries_allocates_no_lua_memory()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  local feed = script(p, 3)
  local hs = {}
  for i, b in ipairs(BUTTONS) do hs[i] = w:action_id(b) end
  local rec, into, all = {}, {}, {}
  local function tick_queries()
    local n = 0
    for i = 1, #hs do
      local h = hs[i]
      if p:pressed(h) then n = n + 1 end
      if p:held(h) then n = n + 1 end
      if p:released(h) then n = n + 1 end
      if p:pressed(BUTTONS[i]) then n = n + 1 end
    end
    p:poll(rec)
    w:poll(all)
    p:input_into(into)
    local pressed, _, held = p:masks()
    return n + (pressed & 1) + (held & 1)
  end
  for t = 0, 59 do
    feed(t)
    w:advance()
  end
  tick_queries() -- the records get their fields once
  local answered = 0
  local before = begin_count()
  for t = 60, 119 do
    feed(t)
    w:advance()
    for _ = 1, 10 do answered = answered + tick_queries() end
  end
  local garbage = end_count(before)
  lu.assertTrue(answered > 0)
  lu.assertEquals(garbage, 0)
  -- The measurement can fail: e:input() builds tables.
  before = begin_count()
  for _ = 1, 10 do p:input() end
  lu.assertTrue(end_count(before) > 0)
end

function TestQueries:test_bad_handles_and_names_are_reported()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  lu.assertErrorMsgContains("unknown action 'XX' (declared: ", w.action_id, w, "XX")
  lu.assertErrorMsgContains("unknown action 'XX'", p.pressed, p, "XX")
  lu.assertErrorMsgContains("action handle 99 is not one of this world's (0 to 11)",
    p.held, p, 99)
  lu.assertErrorMsgContains("action handle -1 is not one of this world's", p.released, p, -1)
  lu.assertErrorMsgContains("number has no integer representation", p.pressed, p, 1.5)
  lu.assertErrorMsgContains("string expected, got number", w.action_id, w, 3)
  lu.assertErrorMsgContains("table expected", p.poll, p)
  lu.assertErrorMsgContains("table expected", p.input_into, p, 1)
  -- Methods check self by their class's metatable; anything else gets the usual message.
  lu.assertErrorMsgContains("framegate.Entity expected, got framegate.World", p.masks, w)
  lu.assertErrorMsgContains("framegate.Entity expected, got table", p.held, {}, 0)
  lu.assertErrorMsgContains("framegate.Entity expected, got no value", p.pressed)
  lu.assertErrorMsgContains("framegate.World expected, got framegate.Entity", w.advance, p)
  lu.assertErrorMsgContains("framegate.World expected, got FILE*", w.advance, io.stdout)
  local ok, err = pcall(function() return p:pressed("nope") end)
  lu.assertFalse(ok)
  lu.assertStrContains(err, "test_queries.lua:")
  w:close()
  lu.assertErrorMsgContains("closed world", p.pressed, p, 0)
  lu.assertErrorMsgContains("closed world", p.masks, p)
  lu.assertErrorMsgContains("closed world", w.advance, w)
end

-- The message of f(...)'s error, without the position.
local function message(f, ...)
  local ok, err = pcall(f, ...)
  lu.assertFalse(ok, "expected an error")
  return (tostring(err):gsub("^[^:]*:%d+: ", ""))
end

TestHostPath = {}

-- Each bad call twice, first on an Entity or World userdata no method has seen yet (the full
-- check), then again (the self cache): the same message both times, and the expected one.
function TestHostPath:test_errors_are_the_same_cold_and_warm()
  local w = fg.world { buttons = BUTTONS }
  w:spawn()
  local lp = w:action_id("LP")
  local cases = {
    { "press", "unknown action 'XX' (declared: ", "XX", 0 },
    { "press", "action handle 12 is not one of this world's (0 to 11)", 12, 0 },
    { "press", "action handle -1 is not one of this world's (0 to 11)", -1, 0 },
    { "press", "number has no integer representation", 2.5, 0 },
    { "press", "input action id 0 is not a declared button", w:action_id("up"), 0 },
    { "press", "time in microseconds expected", lp, "soon" },
    { "press", "time must be an integer number of microseconds", lp, 0.5 },
    { "press", "input time -1 us is before the world's origin (0); edge refused", lp, -1 },
    { "press", "input time 9223372036854775807 us is too large for 60 Hz", lp, math.maxinteger },
    { "press", "us (tick 3601) is more than 60 s ahead of the world (tick 0); edge refused", lp,
      fg.us_of_tick(3601) },
    { "release", "entity 1 release 'LP': button 7 is not down; release refused", lp, 0 },
    { "release", "action handle 12 is not one of this world's (0 to 11)", 12, 0 },
    { "pressed", "action handle 12 is not one of this world's (0 to 11)", 12 },
    { "released", "unknown action 'XX'", "XX" },
    { "held", "action handle -3 is not one of this world's (0 to 11)", -3 },
    { "held", "(string expected, got no value)" },
  }
  for _, c in ipairs(cases) do
    local method, want = c[1], c[2]
    local e = w:entity(1) -- a new userdata: not in the cache yet
    local cold = message(e[method], e, table.unpack(c, 3))
    local warm = message(e[method], e, table.unpack(c, 3))
    lu.assertStrContains(cold, want, false, method)
    lu.assertEquals(warm, cold, method)
  end
  -- Nothing of that changed the world.
  local fresh = fg.world { buttons = BUTTONS }
  fresh:spawn()
  lu.assertEquals(w:hash(), fresh:hash())
end

-- The self cache vouches for an address, never for what a caller passes: other userdata, tables
-- and closed worlds get the full check's message after the cache has seen the real object.
function TestHostPath:test_the_cache_never_vouches_for_another_value()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  local lp = w:action_id("LP")
  p:masks()
  p:press(lp, 0)
  w:advance()
  lu.assertTrue(p:pressed(lp))
  local others = { w, io.stdout, fg.loop {}, {}, 0, "p", false }
  for _, v in ipairs(others) do
    for _, method in ipairs { "masks", "pressed", "held", "press", "release", "poll" } do
      lu.assertStrContains(message(p[method], v, lp, 0), "framegate.Entity expected, got ",
        false, method .. " " .. tostring(v))
    end
    if v ~= w then
      lu.assertStrContains(message(w.advance, v), "framegate.World expected, got ")
    end
  end
  lu.assertStrContains(message(w.advance, p), "(framegate.World expected, got framegate.Entity)")
  w:close()
  lu.assertEquals(message(p.masks, p), "attempt to use an entity of a closed world")
  lu.assertEquals(message(p.press, p, lp, 100), "attempt to use an entity of a closed world")
  lu.assertEquals(message(w.advance, w), "attempt to use a closed world")
end

-- Entities come and go (w:entity makes a new userdata each time); a finalized one leaves the
-- cache, and one brought back to life by another finalizer still answers through the full check.
function TestHostPath:test_collected_and_resurrected_entities()
  local w = fg.world { buttons = BUTTONS }
  w:spawn()
  local lp = w:action_id("LP")
  w:entity(1):press(lp, 0)
  w:advance()
  for _ = 1, 200 do
    lu.assertTrue(w:entity(1):pressed(lp)) -- the userdata is garbage right after
    collectgarbage("collect")
    -- Fresh userdata of other classes, likely at addresses the entities had.
    local l = fg.loop {}
    lu.assertStrContains(message(w:entity(1).held, l, lp), "framegate.Entity expected, got "
      .. "framegate.Loop")
  end
  local back
  do
    local e = w:entity(1)
    e:held(lp)
    setmetatable({}, { __gc = function() back = e end })
  end
  collectgarbage("collect")
  collectgarbage("collect")
  lu.assertNotNil(back)
  lu.assertTrue(back:pressed(lp))
  lu.assertTrue(back:held(lp))
  lu.assertEquals(back:id(), 1)
  -- Calling __gc by hand on something else is refused quietly, on the entity it only turns the
  -- cache off for it.
  local gc = getmetatable(back).__gc
  gc(io.stdout)
  gc(back)
  lu.assertTrue(back:held(lp))
end

-- An edge at the first microsecond of a tick belongs to that tick, one a microsecond earlier to
-- the tick before, at every rate (fg.us_of_tick is the exact inverse the world maps with).
function TestHostPath:test_edge_times_map_to_ticks_exactly()
  for _, rate in ipairs { 1, 7, 59, 60, 144, 1000, 100000 } do
    for _, t in ipairs { 1, 2, 3, 17, 999 } do
      local w = fg.world { buttons = BUTTONS, rate = rate }
      local p = w:spawn()
      local lp, mp = w:action_id("LP"), w:action_id("MP")
      w:advance(t - 1)
      p:press(lp, fg.us_of_tick(t, rate) - 1) -- tick t - 1, the one advance runs next
      p:press(mp, fg.us_of_tick(t, rate))     -- tick t
      w:advance()
      lu.assertEquals({ p:pressed(lp), p:pressed(mp) }, { true, false }, rate .. " Hz, tick " .. t)
      w:advance()
      lu.assertEquals({ p:pressed(lp), p:pressed(mp) }, { false, true }, rate .. " Hz, tick " .. t)
    end
  end
end

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
  local before = begin_count()
  run(60, 239)
  local garbage = end_count(before)
  lu.assertTrue(answers > 0)
  lu.assertEquals(garbage, 0)
  -- The measurement can fail: making the two functions allocates.
  before = begin_count()
  p:drive()
  lu.assertTrue(end_count(before) > 0)
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
  lu.assertStrContains(err, "test_queries.lua:")
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
