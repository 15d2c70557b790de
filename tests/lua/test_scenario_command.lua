-- SPDX-License-Identifier: MIT
-- test_scenario_command.lua: `framegate test` runs scenario files with LuaUnit; its exit code is
-- 0 when all pass, 1 when any fails or errors (never a count), 2 for a usage error; golden files
-- are compared, not silently written.
local lu = require "luaunit"

local FRAMEGATE = arg[-2] -- the host running this suite
-- The project root, from this file's own path (the working directory may be anywhere).
local ROOT = (arg[0]:match("^(.*)/tests/lua/[^/]*$") or ".")
if ROOT:sub(1, 1) ~= "/" then
  local p = io.popen("pwd")
  ROOT = p:read("l") .. "/" .. ROOT
  p:close()
end

local function sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function run(args, env)
  local p = io.popen((env or "") .. " " .. sh_quote(FRAMEGATE) .. " test " .. args .. " 2>&1")
  local out = p:read("a")
  local _, _, code = p:close()
  return out, code
end

local function scenario_file(body)
  local d = os.tmpname()
  os.remove(d)
  assert(os.execute("mkdir -p " .. sh_quote(d)))
  local path = d .. "/probe.lua"
  local f = assert(io.open(path, "w"))
  f:write(([[
local scenario = require "framegate.scenario"
TestProbe = {}
local function duel()
  local s = scenario.new { rules = "%s/samples/duel/rules.lua", seed = 7 }
  return s, s:spawn { x = -35 }, s:spawn { x = 35, facing = "left" }
end
%s
]]):format(ROOT, body))
  f:close()
  return path
end

TestScenarioCommand = {}

function TestScenarioCommand:test_exit_code_is_one_when_tests_fail_or_error()
  local path = scenario_file([[
function TestProbe:test_passes() local s, p1 = duel() s:input(p1, "LP@0") s:run(10) s:expect_history(p1, { "jab" }) end
function TestProbe:test_fails() local s, p1 = duel() s:run(1) s:expect_history(p1, { "jab" }) end
function TestProbe:test_errors() error("boom") end
]])
  local out, code = run(sh_quote(path))
  lu.assertEquals(code, 1)
  lu.assertStrContains(out, "Ran 3 tests")
  lu.assertStrContains(out, "1 success, 1 failure, 1 error")
end

function TestScenarioCommand:test_tap_output_and_a_decision_failure_lists_the_decisions()
  local path = scenario_file([[
function TestProbe:test_wrong_reason()
  local s, p1 = duel()
  s:input(p1, "6@0 2@2 3@4 P@5 5@7")
  s:run(20)
  s:expect_decision(p1, "shoryuken", "accepted")
end
]])
  local out, code = run("-o tap " .. sh_quote(path))
  lu.assertEquals(code, 1)
  lu.assertStrContains(out, "1..1")
  lu.assertStrContains(out, "not ok 1")
  lu.assertStrContains(out, "t=5 e1 rejected: shoryuken costs 100 meter, have 0")
end

function TestScenarioCommand:test_missing_golden_fails_until_written_on_request()
  local path = scenario_file([[
function TestProbe:test_meter() local s, p1 = duel() s:input(p1, "LP@0") s:run(20) s:expect_meter("jab") end
]])
  local out, code = run(sh_quote(path))
  lu.assertEquals(code, 1)
  lu.assertStrContains(out, "probe.golden/jab.txt is missing; run with FG_UPDATE_GOLDEN=1")
  out, code = run(sh_quote(path), "FG_UPDATE_GOLDEN=1")
  lu.assertEquals(code, 0, out)
  out, code = run(sh_quote(path))
  lu.assertEquals(code, 0, out)
  local f = assert(io.open((path:gsub("%.lua$", ".golden/jab.txt"))))
  lu.assertStrContains(f:read("a"), "e1   ssssA======Accccccc.")
  f:close()
end

function TestScenarioCommand:test_no_files_is_a_usage_error()
  local out, code = run("")
  lu.assertEquals(code, 2)
  lu.assertStrContains(out, "which scenario files?")
end

os.exit(lu.LuaUnit.run())
