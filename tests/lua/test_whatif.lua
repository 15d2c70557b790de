-- SPDX-License-Identifier: MIT
-- test_whatif.lua: `framegate replay FILE --rules NEW.lua` runs the recorded inputs on against
-- the new rules from the branch tick, without resetting them to the recorded state, and reports
-- the decisions that differ, where the fighters first differ and how the match ends. A shorter
-- cancel window shows at the tick of the cancel; the report is the same on every run.
-- luacheck: globals TestWhatIf
local lu = require "luaunit"
local fg = require "framegate"
local whatif = require "framegate.whatif"

local tmp = os.tmpname()

-- jab (LP) cancels into strong (HP) in window 4-12; strong deals its damage on tick 5. Both
-- fighters stand far apart, so nothing connects: only the state machine decides.
local SOURCE = [[
local fg = require "framegate"
return fg.ruleset "whatif" {
  buttons = { "LP", "HP" },
  resources = { meter = { max = 100, start = 100 } },
  actions = {
    idle = { neutral = true, loop = true },
    jab = { input = "LP", startup = 4, active = 2, recovery = 7,
            cancels = { { from = 4, to = 12, into = { "strong" } } } },
    strong = { input = "HP", startup = 5, active = 3, recovery = 12, cost = { meter = 10 } },
  },
}
]]

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

-- Records: e1 jabs on tick 10 and presses HP on tick 18, inside the jab's window (tick 8 of the
-- jab, which starts on tick 10); 60 ticks in all.
local function record(rules_path, replay_path)
  local rules = fg.rules(rules_path)
  local w = fg.world { rules = rules, seed = 3 }
  local p = w:spawn { x = -200 }
  w:spawn { x = 200, facing = "left" }
  local rec = w:record(replay_path)
  w:run(10)
  w:play(p, "LP@0")
  w:run(8)
  w:play(p, "HP@0")
  w:run(42)
  rec:finish()
  return rules
end

local function run_command(...)
  local cmd = require "framegate.commands.replay"
  local out = {}
  local real_print = print
  print = function(...) -- luacheck: ignore 121
    local parts = {}
    for i = 1, select("#", ...) do parts[i] = tostring(select(i, ...)) end
    out[#out + 1] = table.concat(parts, "\t") .. "\n"
  end
  local real_stderr = io.stderr
  io.stderr = { write = function(_, ...) -- luacheck: ignore 122
    for i = 1, select("#", ...) do out[#out + 1] = tostring(select(i, ...)) end
  end }
  local ok, code = pcall(cmd.run, ...)
  print, io.stderr = real_print, real_stderr -- luacheck: ignore 121 122
  if not ok then error(code, 0) end
  return code, table.concat(out)
end

TestWhatIf = {}

function TestWhatIf:setUp()
  self.rules_path, self.new_path, self.replay = tmp .. "-w.lua", tmp .. "-w2.lua", tmp .. "-w.fgr"
  write(self.rules_path, SOURCE)
  self.recorded = record(self.rules_path, self.replay)
end

function TestWhatIf:tearDown()
  os.remove(self.rules_path)
  os.remove(self.new_path)
  os.remove(self.replay)
end

-- The recorded run: strong cancels the jab on tick 18.
function TestWhatIf:test_the_recording_cancels_on_tick_18()
  local ra = fg.replay.open(self.replay)
  local w = fg.replay.world(ra, self.recorded)
  local p = w:replay_player(ra)
  for _ = 1, 19 do assert(p:step()) end
  local accepted
  for _, d in ipairs(w:decisions()) do
    if d.action == "strong" then accepted = d end
  end
  lu.assertEquals(accepted.tick, 18)
  lu.assertEquals(accepted.decision, "accepted")
end

-- A window that closes on tick 6: the HP of tick 18 (jab tick 8) no longer cancels. The jab
-- runs to its end on tick 22, the meter is not spent, and the match ends differently.
function TestWhatIf:test_a_shorter_cancel_window_changes_the_outcome_at_the_cancel_tick()
  local new = fg.load_rules_source("w2.lua", (SOURCE:gsub("to = 12", "to = 6", 1)))
  local report = assert(whatif.run(self.replay, self.recorded, new))
  lu.assertEquals(report.from, 0)
  lu.assertEquals(report.branch, 0)
  lu.assertEquals(report.to, 60)
  lu.assertEquals(report.first_decision, 18)
  lu.assertStrMatches(report.lines[1], "tick 18: e1 strong now rejected: .*%(was accepted: .*%)")
  lu.assertStrContains(report.lines[1], "window")
  -- The fighters differ one tick before: on tick 17 (jab tick 7) the recorded window is open,
  -- the new one closed.
  lu.assertEquals(report.first_state, 17)
  lu.assertEquals(report.state_lines, { "e1 phase: cancel -> recovery" })
  local final = table.concat(report.final_lines, "\n")
  lu.assertStrContains(final, "e1 resources.meter: 90 -> 100")
  lu.assertNil(report.stopped)
  -- The same report on every run.
  local again = assert(whatif.run(self.replay, self.recorded, new))
  lu.assertEquals(whatif.format(again), whatif.format(report))
end

-- Rules that change nothing the recording touches: no difference at all.
function TestWhatIf:test_a_change_nobody_uses_reports_no_difference()
  local new = fg.load_rules_source("w2.lua", (SOURCE:gsub("    idle =",
    "    taunt = { duration = 30 },\n    idle =", 1)))
  local report = assert(whatif.run(self.replay, self.recorded, new))
  lu.assertEquals(report.differences, 0)
  lu.assertNil(report.first_state)
  lu.assertEquals(whatif.format(report)[2], "  no decision and no fighter's state differs")
end

-- A branch after the cancel: the recorded cancel stands, and nothing differs.
function TestWhatIf:test_a_branch_after_the_cancel_keeps_it()
  local new = fg.load_rules_source("w2.lua", (SOURCE:gsub("to = 12", "to = 6", 1)))
  local report = assert(whatif.run(self.replay, self.recorded, new, { from = 25 }))
  lu.assertEquals(report.branch, 25)
  lu.assertEquals(report.differences, 0)
  lu.assertEquals(#report.final_lines, 0)
  local none, msg = whatif.run(self.replay, self.recorded, new, { from = 600 })
  lu.assertNil(none)
  lu.assertStrContains(msg, "the branch tick 600 is past the replay's last tick")
end

-- From the command line: refused as a verification (exit 1), reported as a what-if.
function TestWhatIf:test_the_replay_command_prints_the_what_if()
  write(self.new_path, (SOURCE:gsub("to = 12", "to = 6", 1)))
  local code, out = run_command(self.replay, "--rules", self.new_path)
  lu.assertEquals(code, 1)
  lu.assertStrContains(out, "what-if " .. self.replay .. ": the recorded inputs against "
    .. self.new_path)
  lu.assertStrContains(out, "  ticks 0-59, the new rules from tick 0 on, run continuously")
  lu.assertStrContains(out, "  first different decision at tick 18; ")
  lu.assertStrContains(out, "\n    tick 18: e1 strong now rejected: ")
  lu.assertStrContains(out, "  the fighters first differ after tick 17 (recorded -> what-if):\n"
    .. "    e1 phase: cancel -> recovery\n")
  lu.assertStrContains(out, "    e1 resources.meter: 90 -> 100\n")
  local code2, out2 = run_command(self.replay, "--rules", self.new_path)
  lu.assertEquals(code2, code)
  lu.assertEquals(out2, out)
  code, out = run_command(self.replay, "--rules", self.new_path, "--from", "25")
  lu.assertEquals(code, 1)
  lu.assertStrContains(out, "the new rules from tick 25 on")
  lu.assertStrContains(out, "no decision and no fighter's state differs")
  code, out = run_command(self.replay, "--from", "3")
  lu.assertEquals(code, 2)
  lu.assertStrContains(out, "--from is the branch tick of a what-if: it needs --rules")
end

os.exit(lu.LuaUnit.run())
