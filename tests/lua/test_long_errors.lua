-- SPDX-License-Identifier: MIT
-- test_long_errors.lua: a message far longer than fg_error's inline buffer (FG_ERROR_MAX, 512
-- bytes) reaches the designer whole, byte for byte, whichever way it travels: raised to pcall
-- by the bindings, returned as nil, message, noted in the world's trace, or printed by the CLI.
local lu = require "luaunit"
local fg = require "framegate"

local ROOT = os.getenv("FG_SAMPLES") or "samples"
local FRAMEGATE = arg[-2] -- the host running this suite
local DUEL = io.open(ROOT .. "/duel/rules.lua"):read("a")

-- About n bytes of words, then a marker the end of the message must still carry.
local function long_text(n)
  return string.rep("word ", n // 5) .. "THE_END"
end

local function duel()
  local w = fg.world { rules = ROOT .. "/duel/rules.lua", seed = 7 }
  local p1 = w:spawn { x = -35 }
  w:spawn { x = 35, facing = "left" }
  return w, p1
end

TestLongErrors = {}

-- An error raised by sandboxed code (the load budget's protected call) reaches pcall whole.
function TestLongErrors:test_an_error_a_chunk_raises_reaches_pcall_whole()
  local text = long_text(5000)
  local ok, msg = pcall(fg.sandboxed, "error(" .. string.format("%q", text) .. ", 0)")
  lu.assertFalse(ok)
  lu.assertStrContains(msg, text)
  lu.assertTrue(#msg >= #text)
end

-- A name the designer passed, echoed in a C error raised as an argument error, is not cut.
function TestLongErrors:test_a_long_name_in_a_c_error_reaches_pcall_whole()
  local _, p1 = duel()
  local name = string.rep("m", 3000) .. "_END"
  local ok, msg = pcall(p1.explain, p1, name)
  lu.assertFalse(ok)
  lu.assertStrContains(msg, "explain: '" .. name .. "' is neither a motion nor an action")
  lu.assertStrContains(msg, "in rules 'duelist'")
end

-- A rule's own error (on_reload) comes back from world:reload whole, and the trace's note of the
-- failed reload carries it whole too.
function TestLongErrors:test_a_rule_error_comes_back_from_reload_whole()
  local w = duel()
  local text = long_text(6000)
  local rules = DUEL:gsub("  on_event = function", "  on_reload = function() error("
    .. string.format("%q", text) .. ", 0) end,\n  on_event = function", 1)
  local d = os.tmpname()
  local f = assert(io.open(d, "w"))
  f:write(rules)
  f:close()
  local ok, msg = w:reload(d)
  os.remove(d)
  lu.assertNil(ok)
  lu.assertStrContains(msg, text)
  local noted = false
  for _, r in ipairs(w:trace()) do
    noted = noted or (r.text:find("reload failed: ", 1, true) ~= nil
      and r.text:find(text, 1, true) ~= nil)
  end
  lu.assertTrue(noted, "the trace notes the failed reload with the whole message")
end

-- A path the designer passed comes back whole in the message of a reload that cannot read it.
function TestLongErrors:test_a_long_path_comes_back_from_reload_whole()
  local w = duel()
  local path = "missing/" .. string.rep(string.rep("d", 99) .. "/", 9) .. "rules_END.lua"
  local bad, msg = w:reload(path)
  lu.assertNil(bad)
  lu.assertStrContains(msg, path)
end

-- The command line prints a C error naming a long path whole, on one line, and fails with 1.
function TestLongErrors:test_the_cli_prints_a_long_error_whole()
  local path = "missing/" .. string.rep(string.rep("r", 99) .. "/", 8) .. "replay_END.fgr"
  local err = os.tmpname()
  local p = io.popen(("'%s' replay '%s' 2>'%s'"):format(FRAMEGATE, path, err))
  p:read("a")
  local _, _, code = p:close()
  local f = io.open(err)
  local stderr = f:read("a")
  f:close()
  os.remove(err)
  lu.assertEquals(code, 1)
  lu.assertStrContains(stderr, path .. ": cannot open: ")
  lu.assertEquals(select(2, stderr:gsub("\n", "")), 1)
end

-- Long texts the bindings render in a stack buffer first come whole too: the frame meter of
-- many fighters is longer than that buffer (8 KiB) and still ends with its legend.
function TestLongErrors:test_a_long_frame_meter_is_whole()
  local w = fg.world { rules = ROOT .. "/duel/rules.lua", seed = 7, entities = 150 }
  for i = 1, 150 do w:spawn { x = i } end
  w:run(60)
  local text = w:meter()
  lu.assertTrue(#text > 8192)
  lu.assertStrContains(text, "e150 ")
  lu.assertStrContains(text, "legend: . neutral")
end

-- A recording's takes in a deep folder (a path over 1 KiB) are written and listed at their paths.
function TestLongErrors:test_takes_in_a_deep_folder_keep_their_paths()
  local dir = os.tmpname()
  os.remove(dir)
  dir = dir .. "/" .. string.rep(string.rep("t", 99) .. "/", 11)
  assert(os.execute("mkdir -p '" .. dir .. "'"))
  local w = duel()
  local start = w:save()
  local rec = w:record(dir .. "take.fgr", { takes = true })
  w:run(5)
  w:restore(start)
  w:run(5)
  local files = rec:finish()
  lu.assertEquals(files, { dir .. "take.fgr", dir .. "take-2.fgr" })
  for _, f in ipairs(files) do
    fg.replay.open(f):close()
    os.remove(f)
  end
end

-- A watched file in a deep folder (a path over 512 bytes) is watched at its real path.
function TestLongErrors:test_a_watcher_watches_a_deep_path()
  local dir = os.tmpname()
  os.remove(dir)
  dir = dir .. "/" .. string.rep(string.rep("w", 99) .. "/", 6)
  assert(os.execute("mkdir -p '" .. dir .. "'"))
  local path = dir .. "rules.lua"
  local function save(text)
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
  end
  save("return {}\n")
  local w = fg.watcher { files = { path }, poll = true }
  lu.assertEquals(w:wait(0), {})
  save("return { changed = true }\n")
  lu.assertEquals(w:wait(50), { path })
  w:close()
  os.remove(path)
end

os.exit(lu.LuaUnit.run())
