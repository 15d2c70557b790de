-- SPDX-License-Identifier: MIT
-- test_markers.lua: a marker name used more than once in an action (two footsteps per walk cycle,
-- two sparkles in a taunt) fires at every appearance: the gate's stamp numbers occurrences per
-- appearance, (action sequence, marker, cycle * appearances + rank), so none is a duplicate, and
-- a rollback still commits each exactly once.
local lu = require "luaunit"
local fg = require "framegate"

local RULES = [[
local fg = require "framegate"
return fg.ruleset "stepper" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true, loop = true },
    walk = { hold = "6", loop = true, duration = 20,
             markers = { { tick = 15, marker = "footstep" }, { tick = 5, marker = "footstep" } } },
    taunt = { input = "LP", duration = 30,
              markers = { { tick = 4, marker = "sparkle" }, { tick = 4, marker = "sparkle" },
                          { tick = 20, marker = "sparkle" }, { tick = 25, marker = "shout" } } },
  },
}
]]

local function setup()
  local w = fg.world { rules = fg.rules("stepper/rules.lua", RULES) }
  return w, w:spawn()
end

local function occurrences(w, marker)
  local out = {}
  for _, ev in ipairs(w:events()) do
    if ev.marker == marker then out[#out + 1] = ev.occurrence end
  end
  return out
end

TestMarkers = {}

function TestMarkers:test_two_footsteps_per_cycle_fire_every_step()
  local w, p = setup()
  w:play(p, "6@0")
  local seen = {}
  for _ = 1, 61 do
    w:run(1)
    for _, o in ipairs(occurrences(w, "footstep")) do seen[#seen + 1] = o end
  end
  lu.assertEquals((p:action()), "walk")
  -- Three cycles of 20 ticks, two steps each: occurrences 0..5 in order.
  lu.assertEquals(seen, { 0, 1, 2, 3, 4, 5 })
  lu.assertEquals(w:committed("footstep"), 6)
end

function TestMarkers:test_same_tick_repeats_and_later_appearances_each_fire_once()
  local w, p = setup()
  w:request(p, "taunt")
  w:run(31)
  lu.assertEquals(w:committed("sparkle"), 3)
  lu.assertEquals(w:committed("shout"), 1)
end

function TestMarkers:test_a_rollback_commits_each_appearance_exactly_once()
  local w, p = setup()
  w:play(p, "6@0")
  w:run(12)
  local snap = w:save()
  w:run(30)
  local before = w:committed("footstep")
  w:restore(snap)
  w:run(30)
  lu.assertEquals(w:committed("footstep"), before)
  lu.assertEquals(before, 4) -- ticks 5 and 15 of both cycles up to tick 41
end

os.exit(lu.LuaUnit.run())
