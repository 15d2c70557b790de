-- SPDX-License-Identifier: MIT
-- test_stage.lua: the stage and its one ground model, on the platformer sample's runner: coyote
-- time off a ledge, the jump buffer before a landing, no jump from a fall, one-way platforms,
-- landings and their recovery, the ground modes and the stage's errors.
local lu = require "luaunit"
local fg = require "framegate"

local RULES = "samples/platformer/rules.lua"
local COYOTE, BUFFER = 6, 6 -- the sample's jump = { buffer = 6, coyote = 6 }

local function runner(x, y)
  local w = fg.world { rules = RULES }
  return w, w:spawn { x = x or 0, y = y or 40 }
end

-- Advances until pred() holds; returns the tick that was just run.
local function until_(w, pred, limit)
  for _ = 1, limit or 200 do
    w:advance()
    if pred() then return w:tick() - 1 end
  end
  error("condition never held", 2)
end

-- The tick whose movement carries the runner off the ledge while it runs right.
local function ledge_tick()
  local w, p = runner()
  w:play(p, "6@0")
  return until_(w, function() return p:support() == "air" end)
end

-- The first tick a runner spawned at (x, y) in the air reports itself grounded.
local function first_grounded(x, y)
  local w, p = runner(x, y)
  return until_(w, function() return p:ground().grounded end)
end

local function has(list, v)
  for _, x in ipairs(list) do if x == v then return true end end
  return false
end

TestStage = {}

function TestStage:test_a_fighter_spawned_in_the_air_falls_and_cannot_jump()
  local w, p = runner(150, 80)
  lu.assertEquals(p:support(), "air")
  w:play(p, "jump@2")
  w:advance(3)
  lu.assertStrContains(p:state(), "airborne/fall")
  local result, why = p:jump()
  lu.assertEquals(result, "never_grounded")
  lu.assertStrContains(why, "never grounded since spawn")
  local _, y = p:position()
  lu.assertTrue(y < 80)
  lu.assertFalse(has(p:history(), "jump"))
end

function TestStage:test_coyote_accepts_through_the_last_tick_and_refuses_one_past()
  local L = ledge_tick()
  for k = 1, COYOTE + 1 do
    local w, p = runner()
    w:play(p, ("6@0 jump@%d"):format(L + k))
    w:advance(L + k + 1)
    local result, why = p:jump()
    if k <= COYOTE then
      lu.assertEquals(result, "jump", "press " .. k .. " ticks after the ledge")
      lu.assertStrContains(p:state(), "airborne/jump")
    else
      lu.assertEquals(result, "coyote_expired")
      lu.assertEquals(why, ("rejected: jump (press at tick %d): last grounded at tick %d, %d ticks " ..
        "ago, coyote window %d; press buffered until tick %d"):format(L + k, L, k, COYOTE,
        L + k + BUFFER))
      w:advance(BUFFER + 1) -- and it never turns into a mid-air jump while it stays buffered
      lu.assertFalse(has(p:history(), "jump"))
    end
  end
end

function TestStage:test_jump_buffered_before_landing_is_accepted_at_the_buffer_edge_only()
  local G = first_grounded(150, 80)
  for _, early in ipairs { BUFFER, BUFFER + 1 } do
    local w, p = runner(150, 80)
    w:play(p, ("jump@%d"):format(G - early))
    w:advance(G + 1)
    local jumped = has(p:history(), "jump")
    if early <= BUFFER then
      lu.assertTrue(jumped, "pressed " .. early .. " ticks before landing")
      local result = p:jump()
      lu.assertEquals(result, "jump")
    else
      lu.assertFalse(jumped, "pressed " .. early .. " ticks before landing")
      local d = w:trace(G - early)
      local said = {}
      for _, r in ipairs(d) do said[#said + 1] = r.text end
      lu.assertStrContains(table.concat(said, "\n"), ("rejected: jump (press at tick %d): " ..
        "never grounded since spawn; press buffered until tick %d"):format(G - early,
        G - early + BUFFER))
    end
  end
end

-- Runs until the runner stands on `on` (a support name); returns the tick just run.
local function until_on(w, p, on, limit)
  return until_(w, function() return p:support() == on end, limit)
end

function TestStage:test_one_way_platform_from_below_then_from_above()
  local w, p = runner(300, 0) -- on the floor, under the platform (260-420 at height 70)
  w:play(p, "jump@1")
  local rose_through = false
  until_(w, function()
    local _, y = p:position()
    if y > 70 then rose_through = true end
    return p:support() ~= "floor" and p:support() ~= "air"
  end)
  lu.assertTrue(rose_through, "the jump passed the platform from below")
  lu.assertEquals(p:support(), "platform 1")
  local _, y = p:position()
  lu.assertEquals(y, 70)
end

function TestStage:test_down_and_jump_drop_through_a_one_way_platform()
  local w, p = runner(300, 70)
  lu.assertEquals(p:support(), "platform 1")
  w:play(p, "2@2 jump@3 5@5")
  w:advance(4)
  local result, why = p:jump()
  lu.assertEquals(result, "drop")
  lu.assertEquals(why, "accepted: drop through the platform (down + jump, press at tick 3)")
  lu.assertFalse(has(p:history(), "jump"))
  until_on(w, p, "floor")
  local _, y = p:position()
  lu.assertEquals(y, 0)
  -- The drop spent the jump permission until that landing: no jump on the way down.
  lu.assertFalse(has(p:history(), "jump"))
end

function TestStage:test_jump_alone_on_a_one_way_platform_jumps()
  local w, p = runner(300, 70)
  w:play(p, "jump@2")
  w:advance(3)
  lu.assertEquals(p:jump(), "jump")
  local _, y = p:position()
  lu.assertTrue(y > 70)
end

function TestStage:test_a_block_stops_a_run_at_its_side()
  local w, p = runner(150, 0)
  w:stage { blocks = { { x = 200, y = 0, w = 40, h = 30 } } }
  w:play(p, "6@0")
  w:advance(40)
  local x = p:position()
  lu.assertEquals(x, 200)
  lu.assertEquals(p:support(), "floor")
end

-- A request made on the first grounded tick after a fall is decided after the landing.
function TestStage:test_a_request_on_the_landing_tick_is_decided_after_the_landing()
  local G = first_grounded(150, 80)
  local w, p = runner(150, 80)
  w:play(p, ("shoot@%d"):format(G))
  w:advance(G + 1)
  local d = p:decision()
  lu.assertEquals(d.action, "shoot")
  lu.assertEquals(d.decision, "accepted")
  lu.assertEquals(d.tick, G)
  -- One tick earlier the fall is still running: refused, with the group it needs.
  local w2, p2 = runner(150, 80)
  w2:play(p2, ("shoot@%d"):format(G - 1))
  w2:advance(G)
  lu.assertStrContains(p2:decision().text, "shoot needs grounded, fighter is airborne")
end

function TestStage:test_an_air_attack_lands_into_its_landing_recovery()
  local w, p = runner(150, 200)
  w:play(p, "attack@1")
  until_(w, function() return p:action() == "land" end)
  local landed = w:tick() - 1
  until_(w, function() return p:action() ~= "land" end)
  lu.assertEquals(w:tick() - 1 - landed, 10) -- landing_recovery = 10, not land's own 4
  -- A plain fall lands free.
  local w2, p2 = runner(150, 200)
  until_on(w2, p2, "floor")
  w2:advance(1)
  lu.assertEquals(p2:action(), "idle")
end

function TestStage:test_a_jump_pressed_in_landing_recovery_waits_in_the_buffer()
  local w, p = runner(150, 200)
  w:play(p, "attack@1")
  until_(w, function() return p:action() == "land" end)
  local landed = w:tick() - 1
  w:play(p, "jump@6") -- (ticks from now) 3 ticks before the 10-tick recovery ends
  w:advance(7)
  local result = p:jump()
  lu.assertEquals(result, "refused")
  lu.assertStrContains(p:decision().text, "land is in recovery")
  until_(w, function() return p:action() == "jump" end, 10)
  lu.assertEquals(w:tick() - 1, landed + 10) -- the first tick after the recovery
end

function TestStage:test_stage_and_ground_mode_from_lua()
  local w = runner()
  lu.assertEquals(w:ground_mode(), "stage")
  local s = w:stage()
  lu.assertEquals(s.walls, { -400, 800 })
  lu.assertEquals(s.platforms[1], { x = 260, y = 70, w = 160, one_way = true })
  lu.assertEquals(fg.rules(RULES):stage(), s)
  local h = w:hash()
  w:stage { floor = -20 }
  lu.assertEquals(w:stage().floor, -20)
  lu.assertEquals(#w:stage().platforms, 1) -- fields left out keep their value
  lu.assertNotEquals(w:hash(), h)
  local c = fg.world { rules = RULES, ground = "contacts" }
  lu.assertEquals(c:ground_mode(), "contacts")
  c:spawn():contact(false)
  lu.assertEquals(fg.world { buttons = { "jump" } }:ground_mode(), "contacts")
end

function TestStage:test_stage_errors_name_their_path_and_change_nothing()
  local w = runner()
  local before, h = w:stage(), w:hash()
  local function fails(stage, message)
    local ok, err = pcall(w.stage, w, stage)
    lu.assertFalse(ok)
    lu.assertStrContains(err, message)
    lu.assertEquals(w:stage(), before)
    lu.assertEquals(w:hash(), h)
  end
  fails({ platforms = { { x = 0, y = 10, w = 0 } } },
    "stage.platforms[1].w: 0 is out of range, expected more than 0, with x + w at most 16384")
  fails({ walls = { 100, -100 } },
    "stage.walls: { 100, -100 }: the left wall must be left of the right one")
  fails({ blocks = { { x = 0, y = 0, w = 10, h = "tall" } } },
    "stage.blocks[1].h: expected a number, got string 'tall'")
  fails({ platforms = { { x = 0, y = 10, w = 5, oneway = true } } },
    "stage.platforms[1].oneway: unknown field")
  fails({ floor = 1e9 }, "stage.floor")
  local p = w:spawn()
  local ok, err = pcall(p.contact, p, true)
  lu.assertFalse(ok)
  lu.assertStrContains(err, "this world's ground comes from its stage")
  ok, err = pcall(fg.world, { rules = RULES, ground = "air" })
  lu.assertFalse(ok)
  lu.assertStrContains(err, "ground: 'air', expected \"stage\" or \"contacts\"")
end

function TestStage:test_rules_errors_for_stage_landing_and_jump_action()
  local source = io.open(RULES):read("a")
  local function fails(from, to, message)
    local text, n = source:gsub(from, to, 1)
    lu.assertEquals(n, 1, from)
    local ok, err = pcall(fg.load_rules_source, RULES, text)
    if ok then ok, err = pcall(fg.world, { rules = err }) end
    lu.assertFalse(ok)
    lu.assertStrContains(err, message)
  end
  fails("w = 160, one_way = true", "w = -1, one_way = true",
    "stage.platforms[1].w: -1 is out of range")
  fails('landing = "land", landing_recovery = 10', 'landing = "lnd", landing_recovery = 10',
    "actions.air_attack.landing: 'lnd' is not an action")
  fails('landing = "land", landing_recovery = 10', 'landing_recovery = 10',
    "actions.air_attack.landing_recovery: 10 ticks, but no landing action to recover in")
  fails("physics = { gravity = %-0.5, min_gap = 0 }",
    "physics = { gravity = -0.5, stage_min = -9 }",
    "physics.stage_min: the stage gives the floor and walls: say them once")
  fails('action = "jump" }', 'action = "hop" }',
    "world.jump_action: 'hop' is not an action of rules 'runner'")
end

function TestStage:test_snapshots_carry_the_stage_and_the_support()
  local w, p = runner(300, 70)
  local snap = w:save()
  local h = w:hash()
  w:stage { platforms = {} }
  until_on(w, p, "floor")
  w:restore(snap)
  lu.assertEquals(w:hash(), h)
  lu.assertEquals(#w:stage().platforms, 1)
  lu.assertEquals(p:support(), "platform 1")
end

-- A copy of the sample's rules in a folder of its own, and a way to rewrite it.
local function rules_copy()
  local d = os.tmpname()
  os.remove(d)
  assert(os.execute("mkdir -p '" .. d .. "'"))
  local path = d .. "/rules.lua"
  local text = assert(io.open(RULES)):read("a")
  local function save(t)
    local f = assert(io.open(path, "w"))
    f:write(t)
    f:close()
  end
  save(text)
  local function edit(pattern, replacement)
    local out, n = text:gsub(pattern, replacement)
    assert(n == 1, "edit matched " .. n .. " times: " .. pattern)
    save(out)
  end
  return path, edit, function() os.remove(path); os.remove(d) end
end

function TestStage:test_a_reload_that_edits_the_stage_moves_the_world_onto_it()
  local path, edit, done = rules_copy()
  local w = fg.world { rules = path }
  local p = w:spawn { x = 300, y = 70 }
  lu.assertEquals(p:support(), "platform 1")
  edit("platforms = { { x = 260, y = 70,", "platforms = { { x = 260, y = 90,")
  assert(w:reload())
  lu.assertEquals(w:stage().platforms[1].y, 90)
  lu.assertEquals(p:support(), "air") -- the platform moved up past its feet
  -- A stage the host set is the host's: a later reload of the rules leaves it.
  w:stage { floor = -20 }
  edit("platforms = { { x = 260, y = 70,", "platforms = { { x = 260, y = 50,")
  assert(w:reload())
  lu.assertEquals(w:stage().floor, -20)
  lu.assertEquals(w:stage().platforms[1].y, 90)
  done()
end

os.exit(lu.LuaUnit.run())
