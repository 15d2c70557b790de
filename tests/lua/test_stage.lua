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
