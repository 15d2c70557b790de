-- SPDX-License-Identifier: MIT
-- test_motion.lua: the motion layer from Lua: fg.motion, fg.motion_set and fg.motion_cmd, the
-- input script syntax, explanations, lint and the error messages a designer sees.
-- luacheck: globals TestMotion TestMotionSet TestMotionCmd
local lu = require "luaunit"
local fg = require "framegate"

local function names(cmds)
  local out = {}
  for i, c in ipairs(cmds) do out[i] = c.name .. "@" .. c.tick end
  return table.concat(out, " ")
end

-- The message of the error f raises, without the "file:line: " position of this file's call.
local function error_of(f, ...)
  local args = table.pack(...)
  local ok, err = pcall(function() return f(table.unpack(args, 1, args.n)) end)
  lu.assertFalse(ok)
  return (tostring(err):gsub("^.-test_motion%.lua:%d+: ", ""))
end

TestMotion = {}

-- Rule: fg.motion compiles a notation into a framegate.Motion whose tostring describes it.
function TestMotion.test_motion_compiles_and_describes_itself()
  local m = fg.motion("236P")
  lu.assertEquals(getmetatable(m).__name, "framegate.Motion")
  lu.assertEquals(tostring(m), "framegate.Motion 236P: 2 > 3? > 6 > press P " ..
    "(numpad, facing-relative; time 15, buffer 0; gaps 12 12 8)")
  lu.assertEquals(m:describe(), "236P: 2 > 3? > 6 > press P " ..
    "(numpad, facing-relative; time 15, buffer 0; gaps 12 12 8)")
end

-- Rule: match runs a script and returns the commands with their edges and ticks.
function TestMotion.test_match_returns_commands_with_edges()
  local m = fg.motion("236P")
  local cmds = m:match("2@0 3@2 6@4 LP@5")
  lu.assertEquals(#cmds, 1)
  local c = cmds[1]
  lu.assertEquals(c.name, "236P")
  lu.assertEquals(c.tick, 5)
  lu.assertEquals(c.age, 0)
  lu.assertEquals(c.why, "alone")
  lu.assertEquals(c.facing, "right")
  lu.assertEquals(c.edges, { { id = 1, tick = 0 }, { id = 2, tick = 2 }, { id = 3, tick = 4 },
    { id = 4, tick = 5 } })
  lu.assertEquals(#m:match("2@0 3@2 6@4"), 0)
end

-- Rule: explain says why a motion did not fire, with numbers, and returns the numbers too.
function TestMotion.test_explain_gives_the_near_miss_with_numbers()
  local m = fg.motion("236P", { gap = 8 })
  local text, miss = m:explain("2@0 3@2 5@3 6@12 LP@13")
  lu.assertEquals(text, "236P: step 3 (6) came 9 ticks after 3, max gap 8")
  lu.assertEquals(miss.fired, false)
  lu.assertEquals(miss.reason, "gap")
  lu.assertEquals(miss.step, 3)
  lu.assertEquals(miss.value, 9)
  lu.assertEquals(miss.limit, 8)
  text, miss = m:explain("2@0 3@2 6@4 LP@5")
  lu.assertEquals(text, "fired: 236P on tick 5")
  lu.assertTrue(miss.fired)
end

-- Rule: options reach the pattern: window, buffer, charge, priority, frozen.
function TestMotion.test_options_shape_the_pattern()
  local m = fg.motion("[4]6P", { charge = 45, window = 20, buffer = 2, priority = 5,
    frozen = "count" })
  lu.assertEquals(m:describe(), "[4]6P: leave {147} >= 45 > 6 > press P (numpad, " ..
    "facing-relative; time 20, buffer 2; gaps 12 8; counts frozen ticks; priority 5)")
  lu.assertEquals(names(m:match("4@0 6@44 LP@45")), "")
  -- buffer = 2: the completion tick and the two after it.
  lu.assertEquals(names(m:match("4@0 6@45 LP@46")), "[4]6P@46 [4]6P@46 [4]6P@46")
end

-- Rule: gaps overrides single steps, counted as tostring prints them; 0 keeps a default.
function TestMotion.test_per_step_gaps_override_single_steps()
  local m = fg.motion("236P", { gaps = { 0, 0, 2 } })
  lu.assertStrContains(m:describe(), "gaps 12 12 2)")
  lu.assertEquals(m:explain("2@0 3@2 6@4 5@5 LP@7"), "fired: 236P on tick 7")
  lu.assertEquals(m:explain("2@0 3@2 6@4 5@5 LP@8"),
    "236P: step 4 (P) came 3 ticks after 6, max gap 2")
  lu.assertEquals(fg.motion("236P"):explain("2@0 3@2 6@4 5@5 LP@8"), "fired: 236P on tick 8")
  lu.assertStrContains(fg.motion("66", { gaps = { 5 } }):describe(), "gaps 5 12)")
  lu.assertEquals(error_of(fg.motion, "236P", { gaps = { 0, 4, 3, 5 } }),
    "\"236P\": gaps[4] = 5, but the motion has 3 step gaps (gaps[1..3])")
  lu.assertEquals(error_of(fg.motion, "236P", { gaps = { 0, "x" } }),
    "fg.motion.gaps[2]: expected an integer, got string 'x' (0 = the step's default)")
  lu.assertEquals(error_of(fg.motion, "236P", { gaps = 3 }),
    "fg.motion.gaps: expected a list of step gaps such as { 12, 12, 8 }, got 3")
end

-- Rule: MUGEN strings work with MUGEN's buttons by default; numpad ones with LP..HK.
function TestMotion.test_each_notation_gets_its_default_buttons()
  lu.assertEquals(names(fg.motion("~D, DF, F, x"):match("2@0 3@1 6@2 x@3")), "~D, DF, F, x@3")
  lu.assertEquals(error_of(fg.motion, "23x6P"),
    "\"23x6P\": unexpected 'x' at column 3, expected a direction or button")
  local custom = fg.motion("236A", { buttons = { "A", "B" } })
  lu.assertEquals(names(custom:match("2@0 3@1 6@2 A@3")), "236A@3")
end

-- Rule: a side switch mid-motion: the motion is read in the facing it completes in.
function TestMotion.test_side_switch_reads_the_final_facing()
  local m = fg.motion("236P")
  local cmds = m:match("2@0 1@2 face=left@3 4@3 LP@5")
  lu.assertEquals(#cmds, 1)
  lu.assertEquals(cmds[1].facing, "left")
  lu.assertEquals(m:explain("2@0 3@2 face=left@3 6@3 LP@5"), "236P: the motion was done for " ..
    "facing right, but at step 4 (P) the entity faced left (sides switched mid-motion)")
end

-- Rule: profiles are chosen per call or per motion.
function TestMotion.test_profiles_apply_to_the_same_motion()
  local m = fg.motion("236P")
  lu.assertEquals(names(m:match("2@0 6@2 LP@3")), "")
  lu.assertEquals(names(m:match("2@0 6@2 LP@3", "lenient")), "236P@3")
  local lenient = fg.motion("236P", { profile = "lenient" })
  lu.assertEquals(names(lenient:match("2@0 6@2 LP@3")), "236P@3")
  lu.assertEquals(error_of(m.match, m, "2@0", "easy"),
    "profile 'easy': unknown, expected strict, standard or lenient")
end

-- Rule: every designer mistake is an error that names the thing and what was expected.
function TestMotion.test_mistakes_are_named()
  lu.assertEquals(error_of(fg.motion, "236P", { tim = 3 }), "fg.motion: unknown option 'tim', " ..
    "expected name, priority, time, window, buffer, gap, gaps, charge, frozen, absolute, notation or " ..
    "autogreater (or buttons, groups, profile)")
  lu.assertEquals(error_of(fg.motion, "236P", { time = 1.5 }),
    "fg.motion.time: expected an integer, got 1.5")
  lu.assertEquals(error_of(fg.motion, "236P", { frozen = "yes" }),
    "fg.motion: frozen = 'yes', expected 'skip' or 'count'")
  lu.assertEquals(error_of(fg.motion, "236P", { time = 3, window = 4 }),
    "fg.motion: time = 3 and window = 4 disagree; give one of them")
  lu.assertEquals(error_of(fg.motion, "236P", { time = 9000 }),
    "236P.time: 9000, expected 1..3600 ticks (0 = default)")
  lu.assertStrContains(error_of(fg.motion, {}), "bad argument #1 to")
  lu.assertStrContains(error_of(fg.motion, {}), "(string expected, got table)")
  local m = fg.motion("236P")
  lu.assertEquals(error_of(m.match, m, "2@0 3@x"),
    "script \"2@0 3@x\": unexpected 'x' at column 7, expected a tick")
end

-- Rule: errors point at the caller's line.
function TestMotion.test_errors_name_the_callers_line()
  local ok, err = pcall(function() return fg.motion("[4") end)
  lu.assertFalse(ok)
  lu.assertStrMatches(err, ".*test_motion%.lua:%d+: \"%[4\": unexpected end at column 3, " ..
    "expected '%]'")
end

TestMotionSet = {}

local function duelist()
  return fg.motion_set {
    buttons = { "LP", "MP", "HP", "LK", "MK", "HK" },
    motions = {
      hadouken = { "236P", window = 12 },
      shoryuken = { "623P", priority = 10 },
      sonic = { "[4]6P", charge = 45 },
      dash = { "66", window = 8 },
      legacy = { "~D, DF, F, HK" },
    },
  }
end

-- Rule: a motions table as in docs/rules.md compiles; names come back sorted.
function TestMotionSet.test_motions_table_compiles_with_sorted_names()
  local s = duelist()
  lu.assertEquals(tostring(s), "framegate.MotionSet (5 patterns)")
  lu.assertEquals(s:names(), { "dash", "hadouken", "legacy", "shoryuken", "sonic" })
  lu.assertStrContains(s:describe("hadouken"), "time 12")
end

-- Rule: the priority decides forward walk into 236P, and the loser's explanation says so.
function TestMotionSet.test_priority_decides_and_is_explained()
  local s = duelist()
  local cmds = s:match("6@0 2@3 3@5 6@7 LP@8")
  lu.assertEquals(names(cmds), "shoryuken@8")
  lu.assertEquals(cmds[1].why, "priority")
  lu.assertEquals(cmds[1].beat, "hadouken")
  local text, miss = s:explain("hadouken", "6@0 2@3 3@5 6@7 LP@8")
  lu.assertEquals(text, "hadouken (236P): completed on tick 8 but lost to shoryuken (623P): " ..
    "priority 10 > 0")
  lu.assertEquals(miss.reason, "lost")
  lu.assertEquals(miss.other, "shoryuken")
end

-- Rule: lint returns its warnings as strings naming the patterns.
function TestMotionSet.test_lint_names_the_patterns()
  local s = fg.motion_set { motions = { hadouken = "236P", super = "236236P" } }
  lu.assertEquals(s:lint(), { "warning: hadouken (236P) is contained in super (236236P): every " ..
    "input that completes super also completes hadouken, both with priority 0; super wins only " ..
    "by having more inputs. Give them explicit priorities" })
  local quiet = fg.motion_set { motions = { hadouken = { "236P", priority = 0 },
    super = { "236236P", priority = 20 } } }
  lu.assertEquals(quiet:lint(), {})
end

-- Rule: several notations under one name are alternatives of one command.
function TestMotionSet.test_alternatives_share_a_name()
  local s = fg.motion_set { motions = { hadouken = { "236P", "~D, DF, F, x" } } }
  lu.assertEquals(s:names(), { "hadouken" })
  lu.assertEquals(names(s:match("2@0 3@1 6@2 x@3")), "hadouken@3")
  lu.assertEquals(names(s:match("2@0 3@1 6@2 LP@3")), "hadouken@3")
end

-- Rule: set-level mistakes name the motion.
function TestMotionSet.test_set_mistakes_name_the_motion()
  lu.assertEquals(error_of(fg.motion_set, { motions = { hadouken = "23Q6P" } }),
    "motions.hadouken: \"23Q6P\": unexpected 'Q' at column 3, expected a direction or button")
  lu.assertEquals(error_of(fg.motion_set, { motions = { hadouken = { "236P", prio = 1 } } }),
    "motions.hadouken: unknown option 'prio', expected name, priority, time, window, buffer, " ..
    "gap, gaps, charge, frozen, absolute, notation or autogreater")
  lu.assertEquals(error_of(fg.motion_set, { moves = {} }), "fg.motion_set: unknown field " ..
    "'moves', expected motions, buttons, groups, profile or mode")
  lu.assertEquals(error_of(fg.motion_set, { motions = { x = "236P" },
    groups = { P = { "LP", "ZZ" } }, buttons = { "LP" } }),
    "groups.P[2]: 'ZZ' is not a declared button")
  local s = duelist()
  lu.assertEquals(error_of(s.explain, s, "fireball", "2@0"),
    "no motion named 'fireball' in this set")
end

-- Rule: explicit groups define what a group letter means.
function TestMotionSet.test_groups_are_declared_by_the_ruleset()
  local s = fg.motion_set {
    buttons = { "LP", "MP", "HP" },
    groups = { P = { "LP", "MP" } },
    motions = { hadouken = "236P" },
  }
  lu.assertEquals(names(s:match("2@0 3@1 6@2 MP@3")), "hadouken@3")
  lu.assertEquals(names(s:match("2@0 3@1 6@2 HP@3")), "")
end

TestMotionCmd = {}

-- Rule: a MUGEN .cmd text loads its [Command] blocks.
function TestMotionCmd.test_cmd_text_loads()
  local s = fg.motion_cmd([[
[Defaults]
command.time = 15
command.buffer.time = 1

[Command]
name = "QCF_x"
command = ~D, DF, F, x

[Command]
name = "FF"
command = F, F
time = 10
]], { source = "kfm.cmd" })
  lu.assertEquals(s:names(), { "FF", "QCF_x" })
  lu.assertEquals(names(s:match("2@0 3@1 6@2 x@3")), "QCF_x@3")
  lu.assertEquals(names(s:match("6@0 5@2 6@4")), "FF@4")
  lu.assertEquals(error_of(fg.motion_cmd, "[Command]\nname = \"a\"\ncommand = ~D, G\n",
    { source = "kfm.cmd" }), "kfm.cmd:3: a: \"~D, G\": unexpected 'G' at column 5, expected " ..
    "a direction (B, DB, D, DF, F, UF, U, UB, L, R, N) or a button")
end

os.exit(lu.LuaUnit.run())
