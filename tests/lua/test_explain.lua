-- SPDX-License-Identifier: MIT
-- test_explain.lua: p:explain("hadouken") asks one fighter of a running world why its motion
-- did or did not fire, from its own buffer and matcher: the same near-miss report a motion gives
-- for a script, read from what the fighter's inputs really did.
local lu = require "luaunit"
local fg = require "framegate"

local ROOT = os.getenv("FG_SAMPLES") or "samples"
local BUTTONS = { "LP", "HP", "LK", "HK" }
local GROUPS = { P = { "LP", "HP" }, K = { "LK", "HK" } }

local function duel(script, ticks)
  local w = fg.world { rules = ROOT .. "/duel/rules.lua" }
  local p = w:spawn { x = -35 }
  w:spawn { x = 35, facing = "left" }
  w:play(p, script)
  w:run(ticks)
  return w, p
end

TestExplain = {}

function TestExplain:test_a_slow_fireball_gets_the_same_near_miss_as_its_motion()
  local script = "2@0 3@1 6@20 LP@21 5@23"
  local _, p = duel(script, 24)
  local text, why = p:explain("hadouken")
  lu.assertEquals(text, "hadouken (236P): step 4 (P) came 20 ticks after the first step, time 15")
  lu.assertEquals(why.reason, "time")
  lu.assertEquals({ why.value, why.limit, why.step, why.steps }, { 20, 15, 4, 4 })
  lu.assertFalse(why.fired)
  local m = fg.motion("236P", { window = 15, buttons = BUTTONS, groups = GROUPS })
  local alone = m:explain(script)
  lu.assertEquals(text:gsub("^hadouken %(236P%)", "236P"), alone)
  lu.assertEquals(p:history(), { "jab" }) -- the P press was a jab
end

function TestExplain:test_on_the_tick_it_fires_it_says_so_and_an_action_name_works_too()
  local _, p = duel("2@0 3@1 6@2 LP@3 5@5", 4)
  local text, why = p:explain("hadouken")
  lu.assertTrue(why.fired)
  lu.assertStrContains(text, "fired: hadouken (236P) on tick 3")
  local jab = p:explain("jab") -- an action's input: its motion (LP), which lost this tick
  lu.assertStrContains(jab, "jab (LP)")
end

function TestExplain:test_an_unknown_name_is_an_argument_error()
  local _, p = duel("", 1)
  lu.assertErrorMsgContains("bad argument #1 to 'explain' (explain: 'hadoken' is neither a motion "
    .. "nor an action with an input in rules 'duelist')", function() return p:explain("hadoken") end)
end

os.exit(lu.LuaUnit.run())
