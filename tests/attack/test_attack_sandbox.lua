-- SPDX-License-Identifier: MIT
-- test_attack_sandbox.lua: rules written by an attacker (classes 1 to 4). Bound: every attack
-- ends within 5 s of CPU time (the budget trips at 1,000,000 instructions per call, 20,000,000
-- per load, or the wall-time backstop) with a message that names the rule's file and line; the
-- world's hash then equals a twin's where the rule said nothing. Before, each of these hung,
-- ran unbudgeted, or changed every world of the process.
local lu = require "luaunit"
local fg = require "framegate"

local BOUND = 5.0

local function rules_with(body, extra)
  return ([[
local fg = require "framegate"
%s
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
]]):format(extra or "", body)
end

-- A world whose request rule runs `body`, and its twin whose rule says nothing.
local function twins(body, extra)
  local w = fg.world { rules = fg.rules("probe/rules.lua", rules_with(body, extra)), seed = 5 }
  local twin = fg.world { rules = fg.rules("probe/rules.lua", rules_with("")), seed = 5 }
  for _, x in ipairs { w, twin } do
    x:spawn()
    x:run(3)
  end
  return w, twin
end

-- Requests a jab in w only, advances both, and returns the decision's text and the CPU time.
local function attack(w, twin)
  local t0 = os.clock()
  w:request(1, "jab")
  w:run(1)
  twin:run(1)
  local took = os.clock() - t0
  lu.assertTrue(took < BOUND, ("took %.1f s"):format(took))
  lu.assertEquals(w:hash(), twin:hash())
  local d = w:entity(1):decision()
  lu.assertEquals(d.decision, "rejected")
  return d.text
end

local function load_fails(src)
  local t0 = os.clock()
  local ok, err = pcall(fg.rules, "probe/rules.lua", src)
  lu.assertFalse(ok)
  lu.assertTrue(os.clock() - t0 < BOUND, ("took %.1f s"):format(os.clock() - t0))
  return tostring(err)
end

TestBudgetedCode = {}

-- Class 1: the handler of xpcall ran with no count hook once the budget had tripped.
function TestBudgetedCode:test_a_looping_xpcall_handler_is_budgeted()
  local text = attack(twins("xpcall(function() while true do end end, function() while true do end end)"))
  lu.assertStrContains(text, "rule failed: rules.lua:")
  lu.assertStrContains(text, "ran past its budget of 1000000 instructions")
end

-- Class 1: a finalizer would run later, in the host's garbage collection, unbudgeted.
function TestBudgetedCode:test_gc_metamethods_are_refused()
  local text = attack(twins("setmetatable({}, { __gc = function() while true do end end })"))
  lu.assertStrContains(text, "rule failed: rules.lua:")
  lu.assertStrContains(text, "__gc metamethods are not available in rules")
  collectgarbage()
end

-- Class 1: an error object whose __tostring loops, raised from the budget's own error.
function TestBudgetedCode:test_an_error_object_with_a_looping_tostring_is_not_called()
  local text = attack(twins([[error(setmetatable({}, { __tostring = function() while true do end end }))]]))
  lu.assertStrContains(text, "error object is a table value")
end

-- Class 1: the host read what the rule returned, and the declaration and on_reload's info,
-- with metamethods the rule had set.
function TestBudgetedCode:test_the_host_reads_rule_tables_raw()
  local decl = rules_with(""):gsub("return fg%.ruleset", "local d = fg.ruleset", 1)
    .. "\nreturn setmetatable(d, { __index = function(t, k) if k == 'jump' then while true do end end end })\n"
  local t0 = os.clock()
  local ok, err = pcall(function()
    local w = fg.world { rules = fg.rules("probe/rules.lua", decl) }
    w:spawn()
  end)
  lu.assertTrue(os.clock() - t0 < 2 * BOUND)
  if not ok then lu.assertStrContains(tostring(err), "ran past its budget") end
  -- on_reload sets a metatable on the info the host then fills in and returns.
  local reload = rules_with(""):gsub("request = function", [[on_reload = function(info)
    setmetatable(info, { __newindex = function() while true do end end,
                         __index = function() while true do end end })
    return "hello"
  end,
  request = function]], 1)
  local w = fg.world { rules = fg.rules("probe/rules.lua", rules_with("")) }
  w:spawn()
  t0 = os.clock()
  local info = assert(w:reload(fg.rules("probe/rules.lua", reload)))
  lu.assertEquals(info.message, "hello")
  lu.assertNotNil(info.changes)
  lu.assertTrue(os.clock() - t0 < BOUND)
end

TestSharedState = {}

-- Class 2: fg.default was one table for the whole process, and a failed load could turn every
-- world's default into a rejection.
function TestSharedState:test_a_failed_load_cannot_change_fg_default()
  local err = load_fails(rules_with("", 'fg.default.verdict = "reject"\nerror("and fail")'))
  lu.assertStrContains(err, "verdicts are read-only")
  local w, twin = twins("")
  w:request(1, "jab")
  twin:request(1, "jab")
  w:run(1)
  twin:run(1)
  lu.assertEquals(w:entity(1):decision().decision, "accepted")
  lu.assertEquals(w:hash(), twin:hash())
end

-- Class 2: the view's metatable was shared by every world; clearing its __index broke all rules.
function TestSharedState:test_view_metatables_are_out_of_reach()
  local text = attack(twins("getmetatable(me).__index = nil"))
  lu.assertStrContains(text, "rule failed: rules.lua:")
  local other, twin = twins("assert(me.id == 1)")
  other:request(1, "jab")
  twin:request(1, "jab")
  other:run(1)
  twin:run(1)
  lu.assertEquals(other:entity(1):decision().decision, "accepted")
  lu.assertEquals(other:hash(), twin:hash())
end

TestCWork = {}

-- Class 3: C functions did work the instruction count never saw.
function TestCWork:test_c_functions_are_charged_for_their_arguments()
  for _, body in ipairs {
    'string.rep("", math.maxinteger)',
    "table.move({}, 1, math.maxinteger, 2)",
    'string.find(("a"):rep(5000), ".-.-.-.-b")',
    'table.concat({}, "", 1, math.maxinteger)',
  } do
    local text = attack(twins(body))
    lu.assertStrContains(text, "rule failed: rules.lua:")
    lu.assertStrContains(text, "instructions")
  end
end

-- Class 3: a loop over a 3 MB find held a tick for 14 s; deep recursion at load took 900 s to
-- fail (the traceback walked the whole stack once per frame).
function TestCWork:test_big_finds_and_deep_recursion_fail_fast_at_load()
  local err = load_fails(rules_with("", 'local s = ("a"):rep(3000000) for i = 1, 1000 do s:find("b") end'))
  lu.assertStrContains(err, "would cost about")
  err = load_fails(rules_with("", "local function f(n) return f(n + 1) + 1 end f(1)"))
  lu.assertStrContains(err, "rules.lua:")
  lu.assertTrue(#err < 4000)
end

-- Class 3: the wall-time backstop ends a call whatever the instruction limit says.
function TestCWork:test_the_wall_time_backstop_ends_a_call()
  local saved = fg.limits()
  fg.limits { instructions = 1000000000000, wall_ms = 50 }
  local ok, text = pcall(attack, twins("while true do end"))
  fg.limits { instructions = saved.instructions, wall_ms = saved.wall_ms }
  lu.assertTrue(ok, text)
  lu.assertStrContains(text, "ran past its time limit of 50 ms")
end

TestHeap = {}

-- Class 4: the memory cap was per call, so a rule keeping 1 MB per call grew the heap without
-- end. Now the whole heap is capped while rules run, and world:stats reports it.
function TestHeap:test_what_rules_keep_is_capped_in_total()
  local saved = fg.limits()
  collectgarbage()
  local w, twin = twins("local t = {} for i = 1, 60000 do t[i] = i end keep[#keep + 1] = t",
    "local keep = {}")
  fg.limits { heap = w:stats().heap + 24 * 1024 * 1024 }
  local last
  for _ = 1, 40 do
    w:request(1, "jab")
    w:run(6)
    twin:run(6)
    last = w:entity(1):decision()
    if last.decision == "rejected" then break end
  end
  local stats = w:stats()
  fg.limits { heap = saved.heap }
  lu.assertEquals(last.decision, "rejected")
  lu.assertStrContains(last.text, "pushed the Lua heap past its cap")
  lu.assertTrue(stats.heap > 0 and stats.heap_max > 0)
end

os.exit(lu.LuaUnit.run())
