-- SPDX-License-Identifier: MIT
-- test_motion_flags.lua: a ruleset in flags mode (commands = "flags") in a world: every true
-- command reaches the request layer best first, the first that starts an action ends the tick's
-- requests, and the trace lists the commands that were true.
local lu = require "luaunit"
local fg = require "framegate"

local function fighter(mode)
  return fg.rules(fg.ruleset "kfm" {
    commands = mode,
    buttons = { "a", "b", "x" },
    motions = {
      FF = { "F, F", time = 10 },
      FF_a = { "F, F, a", priority = 20 },   -- as kfm.cmd lists the knee before the kick
      a = { "a", time = 1, priority = 10 },
    },
    actions = {
      idle = { neutral = true, loop = true, duration = 1 },
      FF = { startup = 2, active = 1, recovery = 3 },
      FF_a = { startup = 3, active = 2, recovery = 10 },
      a = { startup = 2, active = 1, recovery = 4 },
    },
  })
end

local function play(mode, script, ticks)
  local w = fg.world { rules = fighter(mode) }
  local p = w:spawn {}
  w:play(p, script)
  w:run(ticks)
  return w, p
end

TestMotionFlags = {}

-- Rule: in flags mode the dash does not use up the F presses of the knee: F, F then a starts the
-- knee; in consume mode the dash takes them and a is only the kick.
function TestMotionFlags:test_dash_and_dash_button_both_reach_the_request_layer()
  local _, p = play("flags", "6@0 5@2 6@4 a@12", 20)
  lu.assertEquals(p:history(), { "FF", "FF_a" })
  local _, q = play("consume", "6@0 5@2 6@4 a@12", 20)
  lu.assertEquals(q:history(), { "FF", "a" })
end

-- Rule: several commands are true on the knee's tick; the request layer tries them best first
-- and stops at the first that starts an action, so the kick is not requested.
function TestMotionFlags:test_first_started_action_ends_the_ticks_requests()
  local w, p = play("flags", "6@0 5@2 6@4 a@12", 20)
  local true_at_12, requested = {}, {}
  for _, r in ipairs(w:trace_records(12)) do
    if r.tick == 12 and r.kind == "true" then true_at_12[#true_at_12 + 1] = r.text end
    if r.tick == 12 and r.kind == "decision" then requested[#requested + 1] = r.text end
  end
  lu.assertEquals(true_at_12, { "t=12 e1 true: FF_a -> FF_a", "t=12 e1 true: a -> a" })
  lu.assertEquals(#requested, 1)
  lu.assertStrContains(requested[1], "FF_a")
  lu.assertEquals(p:history(), { "FF", "FF_a" })
end

-- Rule: a ruleset's command mode is checked: anything but "consume" or "flags" is refused with
-- the field's path.
function TestMotionFlags:test_bad_mode_names_the_field()
  lu.assertErrorMsgContains([[commands: string 'mugen', expected "consume" or "flags"]], fighter, "mugen")
end

TestMotionModes = {}

-- Rule: fg.motion_set and fg.motion_cmd take a mode; a set says which it has; a bad one is an
-- error naming the caller's option.
function TestMotionModes:test_sets_take_and_report_a_mode()
  local motions = { dash = "66", knee = "66LP", jab = "LP" }
  lu.assertEquals(fg.motion_set { motions = motions }:mode(), "consume")
  local flags = fg.motion_set { motions = motions, mode = "flags" }
  lu.assertEquals(flags:mode(), "flags")
  local fired = {}
  for _, c in ipairs(flags:match("6@0 5@2 6@4 LP@6")) do fired[#fired + 1] = c.name .. "@" .. c.tick end
  lu.assertEquals(fired, { "dash@4", "knee@6", "jab@6" })
  local cmd = "[Command]\nname = \"x\"\ncommand = x\n"
  lu.assertEquals(fg.motion_cmd(cmd):mode(), "flags")
  lu.assertEquals(fg.motion_cmd(cmd, { mode = "consume" }):mode(), "consume")
  lu.assertErrorMsgContains("fg.motion_cmd: mode 'mugen', expected consume or flags",
    fg.motion_cmd, cmd, { mode = "mugen" })
  lu.assertErrorMsgContains("fg.motion_cmd: unknown option 'sauce', expected source, mode",
    fg.motion_cmd, cmd, { sauce = "kfm.cmd" })
end

-- Rule: a motion with alternatives describes each one, says how many in tostring, and explains
-- the one that fired.
function TestMotionModes:test_a_motion_with_alternatives_shows_them_all()
  local m = fg.motion("360P")
  local lines = 0
  for _ in (m:describe() .. "\n"):gmatch("[^\n]*\n") do lines = lines + 1 end
  lu.assertEquals(lines, 8)
  lu.assertStrContains(tostring(m), "and 7 more alternatives")
  local text, t = m:explain("2@0 4@2 8@4 6@6 LP@8")
  lu.assertTrue(t.fired)
  lu.assertStrContains(text, "fired: 360P on tick 8")
  local _, miss = m:explain("6@0 2@2 4@4 LP@6")
  lu.assertFalse(miss.fired)
  lu.assertEquals(miss.reached, 3)
end

os.exit(lu.LuaUnit.run())
