-- SPDX-License-Identifier: MIT
-- test_views.lua: what a rule's view and an entity show a designer: the action's sequence number
-- (the stamp the host hands its animation system), the tags of the running action, the declared
-- maxima of resources, and layers taken by name or by index everywhere.
local lu = require "luaunit"
local fg = require "framegate"

local RULES = [[
local fg = require "framegate"
return fg.ruleset "viewer" {
  buttons = { "LP", "HP" },
  layers = { "body", "upper" },
  resources = { meter = { max = 250, start = 40 }, health = { max = 900, start = 900 } },
  actions = {
    idle = { neutral = true, loop = true },
    upper_idle = { neutral = true, loop = true, layer = "upper" },
    wave = { layer = "upper", duration = 20 },
    jab = { input = "LP", startup = 3, active = 2, recovery = 5, tags = { "normal", "attack" },
            cancels = { { from = 0, to = 9, into = { "strong" } } } },
    strong = { input = "HP", startup = 5, active = 2, recovery = 9, tags = { "attack" } },
  },
  request = function(me, req)
    if req.action == "strong" and me.resources.meter < me.max.meter and me.tags.normal then
      return fg.reject("strong from a normal needs a full bar (" .. me.resources.meter .. "/"
        .. me.max.meter .. ")")
    end
    return fg.default
  end,
}
]]

local function setup()
  local w = fg.world { rules = fg.rules("viewer/rules.lua", RULES) }
  return w, w:spawn()
end

TestViews = {}

function TestViews:test_layers_by_name_or_index_everywhere()
  local w, p = setup()
  w:run(1)
  lu.assertEquals(p:state("upper"), p:state(1))
  lu.assertEquals(p:state("body"), p:state(0))
  lu.assertEquals(p:state(), p:state("body"))
  lu.assertEquals({ p:action("upper") }, { p:action(1) })
  lu.assertEquals((p:action("upper")), "upper_idle")
  lu.assertErrorMsgContains("bad argument #1 to 'state' ('arms' is not a layer (layers: body, upper))",
    function() return p:state("arms") end)
  lu.assertErrorMsgContains("bad argument #1 to 'state' (layer 2 is out of range (0..1))",
    function() return p:state(2) end)
  lu.assertErrorMsgContains("bad argument #1 to 'action' (layer -1 is out of range (0..1))",
    function() return p:action(-1) end)
  lu.assertErrorMsgContains("'arms' is not a layer (layers: body, upper)",
    function() w:report_event(p, "arms", 1, "hit") end)
end

function TestViews:test_the_action_sequence_is_on_the_entity_and_its_view()
  local w, p = setup()
  w:run(1)
  local name, _, _, _, idle_seq = p:action()
  lu.assertEquals(name, "idle")
  lu.assertIsNumber(idle_seq)
  lu.assertEquals(p:view().sequence, idle_seq)
  w:request(p, "jab")
  w:run(1)
  local jab, tick, duration, phase, jab_seq = p:action("body")
  lu.assertEquals({ jab, tick, duration, phase }, { "jab", 0, 10, "startup" })
  lu.assertTrue(jab_seq > idle_seq)
  lu.assertEquals(p:view().sequence, jab_seq)
  -- The upper layer counts its own action, with its own number.
  local _, _, _, _, upper_seq = p:action("upper")
  lu.assertNotEquals(upper_seq, jab_seq)
  w:run(12)
  local _, _, _, _, back_seq = p:action()
  lu.assertTrue(back_seq > jab_seq, "returning to idle starts a new action")
end

function TestViews:test_rules_read_tags_and_resource_maxima()
  local w, p = setup()
  w:run(1)
  local v = p:view()
  lu.assertEquals(v.max.meter, 250)
  lu.assertEquals(v.max.health, 900)
  lu.assertNil(v.max.stamina)
  lu.assertFalse(v.tags.attack)
  w:request(p, "jab")
  w:run(1)
  lu.assertTrue(v.tags.normal)
  lu.assertTrue(v.tags.attack)
  lu.assertFalse(v.tags.special)
  local tags = {}
  for k, val in pairs(v.tags) do tags[#tags + 1] = k .. "=" .. tostring(val) end
  lu.assertEquals(tags, { "attack=true", "normal=true" })
  local maxima = {}
  for k, val in pairs(v.max) do maxima[#maxima + 1] = k .. "=" .. val end
  lu.assertEquals(maxima, { "health=900", "meter=250" })
  lu.assertErrorMsgContains("read-only", function() v.max.meter = 5 end)
  -- The rule saw the same numbers and refused with them.
  w:request(p, "strong")
  w:run(1)
  lu.assertEquals(p:decision().text, "rejected by rule: strong (strong from a normal needs a full bar (40/250))")
  lu.assertEquals((p:action()), "jab")
end

os.exit(lu.LuaUnit.run())
