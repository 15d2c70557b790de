-- SPDX-License-Identifier: MIT
-- test_attack_cli.lua: the command line given bad arguments (class 9). Bound: every command ends
-- within 10 s with one line on stderr, exit code 2 for a usage error and 1 for a failure, and no
-- host traceback or internal script path. Before, `run --record` to an unwritable path printed a
-- Lua traceback.
local lu = require "luaunit"

local CLI = assert(os.getenv("FG_CLI"), "FG_CLI: the framegate executable")

local function run(args)
  local err = os.tmpname()
  local p = io.popen(("timeout 10 '%s' %s </dev/null 2>'%s'"):format(CLI, args, err))
  p:read("a")
  local _, _, code = p:close()
  local f = io.open(err)
  local text = f:read("a")
  f:close()
  os.remove(err)
  return code, text
end

local function one_line(text)
  lu.assertNotStrContains(text, "stack traceback")
  lu.assertNotStrContains(text, "scripts/framegate/")
  local lines = 0
  for _ in text:gmatch("[^\n]+") do lines = lines + 1 end
  return lines
end

TestCli = {}

function TestCli:test_a_recording_that_cannot_be_written_fails_in_one_line()
  local code, text = run("run samples/duel --record /nonexistent/dir/take.fgr")
  lu.assertEquals(code, 1)
  one_line(text)
  lu.assertStrContains(text, "framegate run: ")
  lu.assertStrContains(text, "/nonexistent/dir/take.fgr: cannot create")
end

function TestCli:test_bad_option_values_are_usage_errors()
  for _, args in ipairs { "watch samples/duel --ticks abc", "test -o bogus samples/duel/scenarios",
                          "replay --fps abc samples/duel/replays/reload.fgr" } do
    local code, text = run(args)
    lu.assertEquals(code, 2, args .. ": " .. text)
    lu.assertEquals(one_line(text), 1, text)
  end
end

function TestCli:test_a_missing_file_is_a_failure()
  local code, text = run("replay /nonexistent.fgr")
  lu.assertEquals(code, 1)
  lu.assertEquals(one_line(text), 1, text)
end

os.exit(lu.LuaUnit.run())
