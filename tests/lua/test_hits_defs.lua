-- SPDX-License-Identifier: MIT
-- test_hits_defs.lua: several hit (and throw) definitions in one action, authored in Lua: a
-- two-part kick whose boxes name their definitions (`hit = 2`), each part landing once on its own
-- ticks with its own damage; rules:action reads them back as declared; mistakes are reported with
-- their path and value.
local lu = require "luaunit"
local fg = require "framegate"

local function declaration(actions, on_event)
  local decl = {
    on_event = on_event,
    buttons = { "LP", "HP" },
    resources = { health = { max = 1000, start = 1000 } },
    boxes = { hurt = { x = -20, y = 0, w = 40, h = 100 } },
    actions = {
      idle = { neutral = true, loop = true, duration = 1 },
      hitstun = { duration = 1, interrupts = true },
      blockstun = { duration = 1 },
      thrown = { duration = 1 },
      kick2 = { startup = 3, active = 9, recovery = 6,
                boxes = { { "hit", from = 3, to = 4, x = 20, y = 0, w = 40, h = 30 },
                          { "hit", from = 8, to = 11, x = 20, y = 60, w = 40, h = 30, hit = 2 } },
                hit = { { damage = 30, hitstop = 0, hitstun = 30 },
                        { damage = 50, hitstop = 0, hitstun = 30, guard = "overhead" } } },
      grab2 = { startup = 3, active = 2, recovery = 20,
                boxes = { { "throw", from = 3, to = 4, x = 0, y = 0, w = 50, h = 100 },
                          { "throw", from = 3, to = 4, x = 50, y = 0, w = 60, h = 100, throw = 2 } },
                throw = { { damage = 120, tech_window = 0, reaction = "thrown", stun = 10 },
                          { damage = 60, tech_window = 0, reaction = "thrown", stun = 10 } } },
    },
  }
  for k, v in pairs(actions or {}) do decl.actions[k] = v end
  return fg.ruleset "kicker"(decl)
end

local function duel(distance, on_event)
  local w = fg.world { rules = declaration(nil, on_event) }
  local p1 = w:spawn { x = -30 }
  local p2 = w:spawn { x = -30 + distance, facing = "left" }
  return w, p1, p2
end

TestHitDefs = {}

function TestHitDefs:test_each_part_of_a_two_part_kick_lands_once_on_its_own_ticks()
  local seen = {}
  local w, p1, p2 = duel(60, function(_, ev)
    if ev.kind == "hit" then seen[#seen + 1] = { ev.tick, ev.hit_box, ev.damage, ev.combo } end
  end)
  p1:request("kick2")
  w:run(24)
  -- requested before tick 0: the kick's tick 3 is world tick 3; the second box, live on ticks
  -- 8-11, lands once
  lu.assertEquals(seen, { { 3, 1, 30, 1 }, { 8, 2, 50, 2 } })
  lu.assertEquals(p2:resource("health"), 920)
end

function TestHitDefs:test_the_near_and_the_far_throw_box_use_their_own_definitions()
  for _, case in ipairs { { 50, 880 }, { 100, 940 }, { 200, 1000 } } do
    local w, p1, p2 = duel(case[1])
    p1:request("grab2")
    w:run(30)
    lu.assertEquals(p2:resource("health"), case[2], "distance " .. case[1])
  end
end

function TestHitDefs:test_rules_read_several_definitions_back_as_declared()
  local rules = fg.rules(declaration())
  local kick = rules:action("kick2")
  lu.assertEquals(#kick.hit, 2)
  lu.assertEquals({ kick.hit[1].damage, kick.hit[2].damage, kick.hit[2].guard }, { 30, 50, "overhead" })
  lu.assertNil(kick.boxes[1].hit)
  lu.assertEquals(kick.boxes[2].hit, 2)
  local grab = rules:action("grab2")
  lu.assertEquals({ grab.throw[1].damage, grab.throw[2].damage, grab.boxes[2].throw }, { 120, 60, 2 })
end

local function load_error(actions)
  local ok, err = pcall(function() return fg.world { rules = declaration(actions) } end)
  lu.assertFalse(ok)
  return tostring(err)
end

function TestHitDefs:test_mistakes_name_the_path_and_the_value()
  local kick = declaration().actions.kick2
  kick.boxes[2].hit = 3
  lu.assertStrContains(load_error { kick2 = kick },
    "actions.kick2.boxes[2].hit: 3, kick2 has 2 hit definitions (actions.kick2.hit)")
  kick = declaration().actions.kick2
  kick.boxes[2].hit = nil
  lu.assertStrContains(load_error { kick2 = kick },
    "actions.kick2.hit[2]: no hit box uses it (a box's hit = 2)")
  kick = declaration().actions.kick2
  kick.hit[2].hitstun = 900
  lu.assertStrContains(load_error { kick2 = kick }, "actions.kick2.hit[2].hitstun: 900, expected 0..600")
  kick = declaration().actions.kick2
  kick.hit[2].colour = "red"
  lu.assertStrContains(load_error { kick2 = kick }, "actions.kick2.hit[2].colour: unknown field")
  kick = declaration().actions.kick2
  kick.hit.damage = 5
  lu.assertStrContains(load_error { kick2 = kick },
    "actions.kick2.hit: field 'damage' beside a list of definitions (a list holds only tables)")
  kick = declaration().actions.kick2
  kick.boxes[1].throw = 1
  lu.assertStrContains(load_error { kick2 = kick },
    "actions.kick2.boxes[1].throw: a hit box picks no throw definition (a throw box does)")
  kick = declaration().actions.kick2
  kick.hit = { {}, {}, {}, {}, {} }
  lu.assertStrContains(load_error { kick2 = kick }, "actions.kick2.hit: 5 definitions, at most 4")
end

os.exit(lu.LuaUnit.run())
