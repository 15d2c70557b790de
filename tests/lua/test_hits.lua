-- SPDX-License-Identifier: MIT
-- test_hits.lua: hits authored in a Lua declaration: boxes, hit and throw definitions, default
-- boxes and combat rules reach the runtime; contacts reach on_event with their boxes and point;
-- p:combat() and p:boxes() read the state; mistakes are reported with their path and value.
local lu = require "luaunit"
local fg = require "framegate"

local function declaration(extra)
  local decl = {
    buttons = { "LP", "HP" },
    resources = { health = { max = 1000, start = 1000 }, meter = { max = 100 } },
    boxes = { hurt = { x = -20, y = 0, w = 40, h = 100 }, push = { x = -15, y = 0, w = 30, h = 90 },
              airborne = { hurt = { x = -20, y = 10, w = 40, h = 80 } } },
    combat = { juggle_limit = 2, scaling = { 100, 50 } },
    actions = {
      idle = { neutral = true, loop = true, duration = 1 },
      hitstun = { duration = 1, interrupts = true },
      blockstun = { duration = 1 },
      launched = { group = "airborne", duration = 90 },
      jab = { input = "LP", startup = 3, active = 2, recovery = 6,
              boxes = { { "hit", from = 3, to = 4, x = 20, y = 50, w = 40, h = 20 } },
              hit = { damage = 100, hitstop = 0, hitstun = 30, blockstun = 8, meter = 10,
                      pushback = { hit = 6, block = 10 } } },
      launcher = { input = "HP", startup = 3, active = 2, recovery = 10,
                   boxes = { { kind = "hit", from = 3, to = 4, x = 20, y = 0, w = 40, h = 120 } },
                   hit = { damage = 80, hitstop = 0, hitstun = 20, reaction = "launched",
                           launch = { vy = 8 } } },
      poke = { startup = 1, active = 1, recovery = 1,
               boxes = { { "hit", from = 1, x = 0, y = 0, w = 80, h = 400 } },
               hit = { damage = 20, hitstop = 0, hitstun = 20, juggle = 1 } },
    },
  }
  for k, v in pairs(extra or {}) do decl[k] = v end
  return fg.ruleset "boxer"(decl)
end

local function duel(extra)
  local w = fg.world { rules = declaration(extra) }
  local p1 = w:spawn { x = -30 }
  local p2 = w:spawn { x = 30, facing = "left" }
  return w, p1, p2
end

TestHits = {}

function TestHits:test_a_box_contact_reaches_on_event_with_its_boxes_and_point()
  local seen = {}
  local w, p1, p2 = duel { on_event = function(_, ev)
    if ev.kind == "hit" then seen[#seen + 1] = ev end
  end }
  p1:request("jab")
  w:run(5)
  lu.assertEquals(#seen, 1)
  local ev = seen[1]
  lu.assertEquals({ ev.action, ev.contact, ev.target, ev.hit_box, ev.hurt_box, ev.damage, ev.combo },
    { "jab", "hit", 2, 1, "default", 100, 1 })
  lu.assertNil(ev.marker)
  -- jab's box is x -10..30 (20..60 in front of -30), p2's hurt box 10..50: overlap 10..30
  lu.assertEquals({ ev.x, ev.y }, { 20, 60 })
  lu.assertEquals(p2:resource("health"), 900)
  lu.assertEquals(p1:resource("meter"), 10)
  lu.assertTrue(p2:combat().pushback > 0) -- the slide has begun
  w:run(20)
  lu.assertEquals(p2:combat().pushback, 0)
  lu.assertEquals(select(1, p2:position()), 36) -- slid 6 pixels away from p1
end

function TestHits:test_boxes_are_readable_for_a_debug_draw()
  local w, p1 = duel()
  p1:request("jab")
  w:run(4) -- the jab's tick 3: its hit box is live
  local hit = p1:boxes("hit")
  lu.assertEquals(#hit, 1)
  lu.assertEquals({ hit[1].x0, hit[1].x1, hit[1].y0, hit[1].y1, hit[1].index }, { -10, 30, 50, 70, 1 })
  local push = p1:boxes("push")
  lu.assertEquals({ push[1].x0, push[1].x1, push[1].index }, { -45, -15, "default" })
  lu.assertEquals(#p1:boxes(), 3) -- hurt, hit, push
end

function TestHits:test_the_juggle_limit_and_the_scaling_come_from_the_declaration()
  local w, p1, p2 = duel()
  p1:request("launcher")
  w:run(5)
  lu.assertTrue(p2:combat().launched)
  w:run(10) -- the launcher's recovery
  local landed = 0
  for _ = 1, 3 do
    w:run(1)
    local before = p2:resource("health")
    p1:request("poke")
    w:run(3)
    if p2:resource("health") < before then landed = landed + 1 end
  end
  lu.assertEquals(landed, 2)
  local c = p2:combat()
  lu.assertEquals({ c.combo, c.juggle, c.juggle_limit }, { 3, 2, 2 })
  lu.assertEquals(c.combo_damage, 80 + 10 + 10) -- the second and third hits at 50 %
  local missed
  for _, r in ipairs(w:trace()) do
    if r.text:find("missed by", 1, true) then missed = r.text end
  end
  lu.assertStrContains(missed, "missed by e1's poke: juggle_limit (juggle 2 of 2)")
end

function TestHits:test_rules_read_back_boxes_and_hits_as_declared()
  local rules = fg.rules(declaration())
  local launcher = rules:action("launcher")
  lu.assertEquals(launcher.boxes, { { kind = "hit", from = 3, to = 4, x = 20, y = 0, w = 40, h = 120 } })
  lu.assertEquals({ launcher.hit.damage, launcher.hit.reaction, launcher.hit.launch.vy, launcher.hit.guard },
    { 80, "launched", 8, "high" })
  lu.assertEquals(rules:action("jab").hit.pushback, { hit = 6, block = 10 })
  lu.assertNil(rules:action("idle").hit)
end

local function load_error(extra)
  local ok, err = pcall(declaration, extra)
  if ok then ok, err = pcall(fg.world, { rules = err }) end
  lu.assertFalse(ok)
  return tostring(err)
end

function TestHits:test_mistakes_name_the_path_and_the_value()
  local bad = declaration().actions
  bad.jab.boxes[1].to = 11
  lu.assertStrContains(load_error { actions = bad }, "actions.jab.boxes[1].to: 11 is past the end of jab (11 ticks)")
  bad = declaration().actions
  bad.jab.boxes[1][1] = "hitt"
  lu.assertStrContains(load_error { actions = bad },
    "actions.jab.boxes[1]: kind 'hitt', expected hurt, hit, push or throw")
  bad = declaration().actions
  bad.jab.hit.guard = "middle"
  lu.assertStrContains(load_error { actions = bad },
    "actions.jab.hit.guard: 'middle', expected high, low, overhead, unblockable")
  bad = declaration().actions
  bad.jab.boxes[1].colour = "red"
  lu.assertStrContains(load_error { actions = bad }, "actions.jab.boxes[1].colour: unknown field")
  lu.assertStrContains(load_error { combat = { scaling = { 100, -5 } } },
    "combat.scaling[2]: -5, expected a percentage 0..1000")
  lu.assertStrContains(load_error { boxes = { crouching = { hurt = { w = 1, h = 1 } } } },
    "boxes.crouching: 'crouching' is not a state group")
end

os.exit(lu.LuaUnit.run())
