-- test_boxes.lua: entity:boxes() gives the boxes the collision phase tests, placed in the world,
-- in pixels: what a host draws.
local lu = require "luaunit"
local fg = require "framegate"

TestBoxes = {}

local function duel()
  local w = fg.world { rules = (os.getenv("FG_SAMPLES") or "samples") .. "/duel/rules.lua", seed = 7 }
  return w, w:spawn { x = -35 }, w:spawn { x = 35, facing = "left" }
end

function TestBoxes:test_a_fighter_without_declared_boxes_has_the_default_hurt_line_at_its_origin()
  local w, p1, p2 = duel()
  w:run(1)
  local b1, b2 = p1:boxes(), p2:boxes()
  lu.assertEquals(#b1, 1)
  lu.assertEquals(b1[1].kind, "hurt")
  lu.assertEquals({ b1[1].x0, b1[1].x1 }, { -35, -35 })
  lu.assertTrue(b1[1].y0 < -10000 and b1[1].y1 > 10000, "a line at every height")
  lu.assertNil(b1[1].layer)
  lu.assertEquals({ b2[1].x0, b2[1].x1 }, { 35, 35 })
end

function TestBoxes:test_the_boxes_follow_the_committed_position()
  local w, p1 = duel()
  w:play(p1, "4@0")
  w:run(10)
  local x = p1:position()
  lu.assertTrue(x < -35, "walked back")
  lu.assertEquals(p1:boxes()[1].x0, x)
end

os.exit(lu.LuaUnit.run())
