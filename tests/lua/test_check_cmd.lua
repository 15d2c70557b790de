-- SPDX-License-Identifier: MIT
-- test_check_cmd.lua: `framegate check FILE.cmd` prints, per command of a MUGEN or IKEMEN command
-- file, its compiled form and its findings, then a summary; a file that does not load says why.
local lu = require "luaunit"
local check = require "framegate.commands.check"

local DATA = (os.getenv("FG_SAMPLES") or "samples") .. "/../tests/data/mugen/"

local function buffer()
  local b = { text = "" }
  function b:write(s) self.text = self.text .. s end
  return b
end

local function has_line(text, line)
  for l in (text .. "\n"):gmatch("([^\n]*)\n") do
    if l == line then return true end
  end
  return false
end

TestCheckCmd = {}

-- Rule: every command gets its compiled form, alternatives one line each, and a summary counts
-- the commands, the mode and the findings.
function TestCheckCmd:test_each_command_shows_its_compiled_form()
  local out = buffer()
  local file = DATA .. "kfm.cmd"
  lu.assertTrue(check.check(file, out))
  lu.assertTrue(has_line(out.text, file .. ": QCF_x: ~D, DF, F, x: leave 2 > enter 3 > enter 6 > "
    .. "press x (mugen, facing-relative; time 15, buffer 0)"))
  lu.assertTrue(has_line(out.text, file .. ": blocking: x,$F: press x > enter {369} (mugen, "
    .. "facing-relative; time 3, buffer 0)"))
  lu.assertTrue(has_line(out.text, file .. ": blocking: $F,x: enter {369} > press x (mugen, "
    .. "facing-relative; time 3, buffer 0)"))
  lu.assertTrue(has_line(out.text, file .. ": ok: 34 commands, flags mode, 0 notes, 0 warnings"))
end

-- Rule: findings are printed under the command they name; in consume mode the knee is reported
-- as unreachable behind the dash.
function TestCheckCmd:test_findings_follow_their_command()
  local out = buffer()
  local file = DATA .. "kfm.cmd"
  lu.assertTrue(check.check(file, out, "consume"))
  local knee = out.text:match("\n(" .. file:gsub("%p", "%%%0") .. ": FF_a:   [^\n]*)")
  lu.assertNotNil(knee)
  lu.assertStrContains(knee, "FF_a (F, F, a) can never fire")
  lu.assertStrContains(out.text, "consume mode")
end

-- Rule: notes about the file come first, and names declared without an input say so.
function TestCheckCmd:test_notes_of_ikemen_common_cmd()
  local out = buffer()
  local file = DATA .. "common.cmd"
  lu.assertTrue(check.check(file, out))
  lu.assertTrue(has_line(out.text, "note: " .. file .. ":14: recovery: empty command: the name "
    .. "is declared without an input and never completes"))
  lu.assertTrue(has_line(out.text, file .. ": recovery: (no input): never completes (mugen; "
    .. "time 1, buffer 0)"))
  lu.assertTrue(has_line(out.text, file .. ": ok: 18 commands, flags mode, 16 notes, 0 warnings"))
end

-- Rule: a file that does not load prints the error with its line, and check fails.
function TestCheckCmd:test_bad_file_names_the_line()
  local path = os.tmpname() .. ".cmd"
  local f = assert(io.open(path, "w"))
  f:write("[Command]\nname = \"a\"\ncommand = ~D, G\n")
  f:close()
  local out = buffer()
  lu.assertFalse(check.check(path, out))
  os.remove(path)
  lu.assertStrContains(out.text, path .. ":3: a: \"~D, G\": unexpected 'G' at column 5")
  lu.assertStrContains(out.text, path .. ": not loaded: 1 error\n")
end

os.exit(lu.LuaUnit.run())
