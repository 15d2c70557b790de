-- SPDX-License-Identifier: MIT
-- test_attack_messages.lua: messages cut by fixed buffers (class 10). Bound: each test runs in
-- well under a second. Before, a rule error's trace record kept 256 bytes (the end of a long
-- message, with the rule's frames, was lost), and rule files were named by the machine's folders,
-- so a deep checkout pushed the reason out of short texts.
local lu = require "luaunit"
local fg = require "framegate"

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

-- A ruleset whose request rule runs `body` (in the rules file's own environment).
local function rules_with(body)
  return ([[
local fg = require "framegate"
return fg.ruleset "probe" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true, loop = true, duration = 1 },
    jab = { input = "LP", startup = 2, active = 1, recovery = 2 },
  },
  request = function(me, req)
%s
    return fg.default
  end,
}
]]):format(body)
end

-- Requests a jab once and returns the world, its rule error lines and the decision's text.
local function fail_once(opts, body)
  opts.rules = fg.rules("probe/rules.lua", rules_with(body))
  opts.seed = 5
  local w = fg.world(opts)
  w:spawn()
  w:run(2)
  w:request(1, "jab")
  w:run(1)
  local errors = {}
  for _, r in ipairs(w:trace()) do
    if r.text:find("rule error:", 1, true) then errors[#errors + 1] = r.text end
  end
  return w, errors, w:entity(1):decision().text
end

TestTraceText = {}

-- The whole message of a 6,000-byte error reaches the trace, its last word included, and the
-- decision keeps a first line cut at a word.
function TestTraceText:test_a_long_rule_error_is_traced_whole()
  local w, errors, text = fail_once({}, [[    error(("word "):rep(1200) .. "THE_END")]])
  lu.assertEquals(#errors, 1)
  lu.assertStrContains(errors[1], "rule error: rules.lua:9: word word")
  lu.assertStrContains(errors[1], "word THE_END")
  lu.assertTrue(#errors[1] > 6000, "traced " .. #errors[1] .. " bytes")
  lu.assertStrContains(errors[1], "rule traceback:")
  lu.assertStrContains(text, "rules.lua:9: word word")
  lu.assertStrContains(text, "...")
  lu.assertNotStrContains(text, "wor...")
  -- The trace is a report: the world is the one a rule that said nothing leaves.
  local twin = fg.world { rules = fg.rules("probe/rules.lua", rules_with("")), seed = 5 }
  twin:spawn()
  twin:run(3)
  lu.assertEquals(w:hash(), twin:hash())
end

-- A message longer than the world's text ring says so, in place of what it could not keep.
function TestTraceText:test_a_message_past_the_budget_says_so()
  local _, errors = fail_once({ trace_text = 1024 }, [[    error(("word "):rep(1200) .. "THE_END")]])
  lu.assertEquals(#errors, 1)
  lu.assertStrContains(errors[1], "more bytes: the message is longer than world.trace_text_bytes "
    .. "(1024)]")
  lu.assertNotStrContains(errors[1], "THE_END")
  lu.assertTrue(#errors[1] < 1100)
end

-- Records whose text newer records reused say so, never show another message's bytes.
function TestTraceText:test_reused_text_is_reported_not_shown()
  local w = fg.world { rules = fg.rules("probe/rules.lua",
    rules_with([[    error(("n%d "):format(me.tick):rep(60))]])), trace_text = 512 }
  w:spawn()
  for _ = 1, 4 do
    w:request(1, "jab")
    w:run(1)
  end
  local errors = {}
  for _, r in ipairs(w:trace()) do
    if r.text:find("rule error:", 1, true) then errors[#errors + 1] = r.text end
  end
  lu.assertEquals(#errors, 4)
  lu.assertStrContains(errors[1], "(text overwritten by newer trace records")
  lu.assertStrContains(errors[4], "rules.lua:9: n3 n3 n3")
end

function TestTraceText:test_a_bad_budget_is_refused()
  local ok, err = pcall(fg.world, { trace_text = 100 })
  lu.assertFalse(ok)
  lu.assertStrContains(tostring(err), "world.trace_text_bytes: 100, expected 0 or 256..16777216")
  ok, err = pcall(fg.world, { trace_text = -1 })
  lu.assertFalse(ok)
  lu.assertStrContains(tostring(err), "trace_text")
end

TestChunkNames = {}

-- A rule in an included file of a deep folder is named relative to the ruleset's folder, in the
-- decision, the trace and the traceback; the machine's folders appear nowhere.
function TestChunkNames:test_rule_files_are_named_relative_to_their_ruleset()
  local top = os.tmpname()
  os.remove(top)
  local dir = top .. ("/a_rather_long_folder_name_that_a_checkout_might_have"):rep(3)
  sh("mkdir -p '" .. dir .. "/chars'")
  write(dir .. "/chars/ryu.lua", "local M = {}\nfunction M.check(me)\n  return me.nothing.here\nend\n"
    .. "return M\n")
  write(dir .. "/rules.lua", [[
local fg = require "framegate"
local ryu = include "chars/ryu.lua"
return fg.ruleset "probe" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true, loop = true, duration = 1 },
    jab = { input = "LP", startup = 2, active = 1, recovery = 2 },
  },
  request = function(me, req) ryu.check(me) return fg.default end,
}
]])
  local w = fg.world { rules = fg.rules(dir .. "/rules.lua") }
  local ok, err = pcall(fg.rules, dir .. "/rules.lua", "local x = = 1")
  sh("rm -rf '" .. top .. "'")
  w:spawn()
  w:request(1, "jab")
  w:run(1)
  local text = w:entity(1):decision().text
  lu.assertStrContains(text, "chars/ryu.lua:3: attempt to index a nil value")
  local traced
  for _, r in ipairs(w:trace()) do
    if r.text:find("rule error:", 1, true) then traced = r.text end
  end
  lu.assertStrContains(traced, "rule error: chars/ryu.lua:3: attempt to index")
  lu.assertStrContains(traced, "\tchars/ryu.lua:3: in ")
  lu.assertStrContains(traced, "\trules.lua:9: in ")
  lu.assertNotStrContains(traced, top)
  lu.assertNotStrContains(text, top)
  -- A load error names the file the same way.
  lu.assertFalse(ok)
  lu.assertStrContains(tostring(err), "rules.lua:1: unexpected symbol")
  lu.assertNotStrContains(tostring(err), "...")
end

os.exit(lu.LuaUnit.run())
