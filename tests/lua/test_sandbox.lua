-- SPDX-License-Identifier: MIT
-- test_sandbox.lua: what a rules file may and may not do, and the budgets of every rule call.
local lu = require "luaunit"
local fg = require "framegate"

local function run(src) return fg.sandboxed(src, "@rules/x.lua") end

local function fails(src)
  local ok, err = pcall(run, src)
  lu.assertFalse(ok, "expected an error from: " .. src)
  return err
end

-- A minimal ruleset text whose request rule body is `body`.
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

local function world_with(body, extra)
  local w = fg.world { rules = fg.rules("probe/rules.lua", rules_with(body, extra)) }
  local p = w:spawn()
  return w, p
end

TestSandbox = {}

function TestSandbox:test_blocked_library_call_names_itself()
  for _, name in ipairs { "os.time", "io.open", "debug.traceback", "package.loaded", "coroutine.wrap" } do
    local err = fails("return " .. name .. "()")
    lu.assertStrContains(err, "rules/x.lua:1: framegate: '" .. name .. "' is not available in rules")
  end
end

function TestSandbox:test_blocked_globals_raise_rather_than_call_nil()
  for _, name in ipairs { "dofile", "loadfile", "collectgarbage" } do
    local err = fails("return " .. name .. "('x')")
    lu.assertStrContains(err, "framegate: '" .. name .. "' is not available in rules")
    lu.assertNotStrContains(err, "nil value")
  end
end

function TestSandbox:test_string_dump_is_blocked_also_through_string_methods()
  lu.assertStrContains(fails("return string.dump(print)"), "'string.dump' is not available in rules")
  lu.assertStrContains(fails("return ('').dump(print)"), "'string.dump' is not available in rules")
end

function TestSandbox:test_load_reads_text_only()
  lu.assertEquals(run("return load('return 1 + 2')()"), 3)
  local f, err = run("return load('\\27Lua\\84\\0', 'b', 'bt')")
  lu.assertNil(f)
  lu.assertStrContains(err, "attempt to load a binary chunk")
  lu.assertStrContains(fails("return load('return 1', 'x', 'b')"), "load of binary chunks is not available")
end

function TestSandbox:test_binary_rules_file_is_refused()
  local ok, err = pcall(fg.rules, "probe/rules.lua", "\27Lua garbage")
  lu.assertFalse(ok)
  lu.assertStrContains(err, "attempt to load a binary chunk (mode is 't')")
end

function TestSandbox:test_assigning_a_global_is_an_error_with_file_and_line()
  local err = fails("local a = 1\nhelper = function() end")
  lu.assertStrContains(err, "rules/x.lua:2: framegate: assigning the global 'helper' in a rules file")
end

function TestSandbox:test_globals_of_one_file_do_not_leak_into_another()
  lu.assertEquals(run("local env = {} load('secret = 42', 'c', 't', env)() return env.secret"), 42)
  lu.assertNil(run("return secret"))
  lu.assertNil(rawget(_G, "secret"))
  lu.assertStrContains(fails("rawset(_ENV, 'secret', 42)"), "rawset on a protected table")
  lu.assertStrContains(fails("_G.secret = 1"), "assigning the global 'secret'")
end

function TestSandbox:test_libraries_are_read_only()
  lu.assertStrContains(fails("string.upper = nil"), "'string.upper' is read-only in rules")
  lu.assertStrContains(fails("rawset(math, 'pi', 3)"), "rawset on a protected table")
  lu.assertEquals(string.upper("a"), "A")
end

function TestSandbox:test_require_framegate_gives_the_rules_api_only()
  lu.assertTrue(run("local fg = require 'framegate' return fg.ruleset ~= nil and fg.default ~= nil"))
  lu.assertStrContains(fails("return require('framegate').world{}"), "'fg.world' is not available in rules")
  lu.assertStrContains(fails("return require 'lfs'"), "require \"lfs\" is not available in rules")
end

function TestSandbox:test_pairs_visits_keys_in_sorted_order()
  local order = run([[
    local t = { zeta = 1, alpha = 2, [10] = 3, [2] = 4, mid = 5, [true] = 6, [1.5] = 7 }
    local out = {}
    for k in pairs(t) do out[#out + 1] = tostring(k) end
    return table.concat(out, " ")
  ]])
  lu.assertEquals(order, "1.5 2 10 alpha mid zeta true")
  lu.assertEquals(run("return next({ b = 1, a = 2 })"), "a")
  lu.assertEquals(run("return next({ b = 1, a = 2 }, 'a')"), "b")
  lu.assertStrContains(fails("for k in pairs({ [{}] = 1, [{}] = 2 }) do end"), "has no stable order")
end

function TestSandbox:test_views_iterate_sorted_with_pairs()
  local w, p = world_with("")
  local keys = {}
  for k in pairs(p:view()) do keys[#keys + 1] = k end
  lu.assertEquals(keys, { "action", "airborne", "combo", "combo_damage", "elapsed", "facing",
    "frozen", "grounded", "group", "id", "juggle", "juggle_limit", "launched", "max", "opponent",
    "phase", "resources", "sequence", "tags", "tick", "vars", "x", "y" })
  w:close()
end

function TestSandbox:test_math_random_draws_from_the_worlds_seeded_rng()
  local src = [[
    if req.action == "jab" and math.random(1, 6) > 0 then return fg.reject("roll " .. math.random(100)) end]]
  local function rolls(seed)
    local w = fg.world { seed = seed, rules = fg.rules("probe/rules.lua", rules_with(src)) }
    local p = w:spawn()
    local out = {}
    for i = 1, 5 do
      p:request("jab")
      w:advance(6)
      out[i] = p:decision().text
    end
    return out, w:hash()
  end
  local a, ha = rolls(11)
  local b, hb = rolls(11)
  local c = rolls(12)
  lu.assertEquals(a, b)
  lu.assertEquals(ha, hb)
  lu.assertNotEquals(a, c)
  lu.assertStrContains(a[1], "roll ")
  lu.assertStrContains(fails("return math.random()"), "math.random draws from the world's RNG")
  lu.assertStrContains(fails("math.randomseed(1)"), "'math.randomseed' is not available in rules")
end

function TestSandbox:test_instruction_budget_stops_an_endless_loop()
  fg.limits { load_instructions = 200000 }
  local err = fails("local n = 0\nwhile true do n = n + 1 end")
  fg.limits { load_instructions = 20000000 }
  lu.assertStrContains(err, "rules/x.lua:2: framegate: sandboxed chunk ran past its budget of 200000 instructions")
end

function TestSandbox:test_pcall_cannot_swallow_the_instruction_budget()
  fg.limits { load_instructions = 200000 }
  local err = fails([[
    local caught = 0
    for i = 1, 100 do
      pcall(function() while true do end end)
      caught = caught + 1
    end
    return caught]])
  fg.limits { load_instructions = 20000000 }
  lu.assertStrContains(err, "ran past its budget of 200000 instructions")
  lu.assertStrContains(err, "rule traceback:")
end

function TestSandbox:test_memory_cap_stops_string_rep_and_table_growth()
  local err = fails("local s = string.rep('x', 1 << 40)")
  lu.assertStrContains(err, "rules/x.lua:1: framegate: sandboxed chunk went over its memory cap")
  err = fails("local t = {}\nfor i = 1, 1e9 do t[i] = { i } end")
  lu.assertStrContains(err, "rules/x.lua:2: framegate: sandboxed chunk went over its memory cap")
  err = fails("local ok = pcall(string.rep, 'x', 1 << 40)\nlocal n = 1\nreturn n")
  lu.assertStrContains(err, "went over its memory cap")
end

function TestSandbox:test_garbage_is_not_counted_as_growth()
  fg.limits { load_memory = 1 << 20 }
  local ok, n = pcall(run, "local n = 0 for i = 1, 20000 do local t = { i, i, i, i } n = n + #t end return n")
  fg.limits { load_memory = 64 << 20 }
  lu.assertTrue(ok, n)
  lu.assertEquals(n, 80000)
end

function TestSandbox:test_rule_over_budget_drops_the_request_and_leaves_the_world_unchanged()
  local w, p = world_with([[    if req.action == "jab" then while true do end end]])
  local twin, tp = world_with("")
  fg.limits { instructions = 100000 }
  w:advance(3)
  twin:advance(3)
  p:request("jab")
  w:advance()
  twin:advance()
  fg.limits { instructions = 1000000 }
  local d = p:decision()
  lu.assertEquals(d.reason, "rule_error")
  lu.assertStrContains(d.text, "rule failed: rules.lua:10: framegate: request rule ran past its budget")
  lu.assertEquals(w:hash(), twin:hash())
  lu.assertEquals(p:action(), tp:action())
end

function TestSandbox:test_rule_errors_carry_the_rules_own_frames()
  local w, p = world_with([[    if req.action == "jab" then local v = helper(me) return v end]],
    "local function helper(me)\n  return me.nothing.at_all\nend")
  p:request("jab")
  w:advance()
  local trace = w:trace()
  local err
  for _, r in ipairs(trace) do if r.text:find("rule error:", 1, true) then err = r.text end end
  lu.assertStrContains(err, "rule error: rules.lua:3: attempt to index a nil value")
  lu.assertStrContains(err, "rule traceback:")
  lu.assertStrContains(err, "\trules.lua:3: in upvalue 'helper'")
  lu.assertNotStrContains(err, "probe/")
  lu.assertStrContains(err, "in request rule")
  lu.assertNotStrContains(err, "test_sandbox.lua")
end

function TestSandbox:test_views_are_read_only_in_rules()
  local w, p = world_with([[    me.resources.x = 1]])
  p:request("jab")
  w:advance()
  lu.assertStrContains(p:decision().text, "is read-only in rules")
end

function TestSandbox:test_limits_are_checked()
  lu.assertErrorMsgContains("limits.memory: 0 is out of range, expected 1-9223372036854775807",
    fg.limits, { memory = 0 })
  lu.assertEquals(fg.limits().memory, 4 << 20)
end

TestInclude = {}

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  assert(os.execute("mkdir -p '" .. d .. "/moves'"))
  return d
end

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local MAIN = [[
local fg = require "framegate"
local specials = include "moves/specials.lua"
local actions = { idle = { neutral = true, loop = true, duration = 1 } }
for name, a in pairs(specials) do actions[name] = a end
return fg.ruleset "split" { buttons = { "LP" }, actions = actions }
]]

function TestInclude:test_include_runs_a_file_of_the_ruleset_and_records_it()
  local d = tmpdir()
  write(d .. "/rules.lua", MAIN)
  write(d .. "/moves/specials.lua", "return { jab = { input = 'LP', startup = 3, active = 1, recovery = 4 } }")
  local r = fg.rules(d .. "/rules.lua")
  lu.assertEquals(r:actions(), { "idle", "jab" })
  local sources = r:sources()
  lu.assertEquals(#sources, 2)
  lu.assertEquals(sources[1].path, d .. "/rules.lua")
  lu.assertEquals(sources[2].path, d .. "/moves/specials.lua")
  lu.assertStrContains(sources[2].text, "startup = 3")
end

function TestInclude:test_include_outside_the_folder_is_refused()
  local d = tmpdir()
  write(d .. "/rules.lua", MAIN:gsub("moves/specials.lua", "../secrets.lua"))
  local ok, err = pcall(fg.rules, d .. "/rules.lua")
  lu.assertFalse(ok)
  lu.assertStrContains(err,
    "rules.lua:2: framegate: include \"../secrets.lua\": only files inside the ruleset's folder")
  write(d .. "/rules.lua", MAIN:gsub("moves/specials.lua", "/etc/passwd"))
  lu.assertErrorMsgContains("only files inside the ruleset's folder", fg.rules, d .. "/rules.lua")
end

function TestInclude:test_recursive_include_is_refused_with_the_chain()
  local d = tmpdir()
  write(d .. "/rules.lua", MAIN)
  write(d .. "/moves/specials.lua", "return include 'moves/more.lua'")
  write(d .. "/moves/more.lua", "return include 'moves/specials.lua'")
  local ok, err = pcall(fg.rules, d .. "/rules.lua")
  lu.assertFalse(ok)
  lu.assertStrContains(err, "more.lua:1: framegate: include \"moves/specials.lua\": recursive include (")
  lu.assertStrContains(err, "specials.lua -> " .. d .. "/moves/more.lua -> " .. d .. "/moves/specials.lua)")
end

function TestInclude:test_missing_include_names_the_file()
  local d = tmpdir()
  write(d .. "/rules.lua", MAIN)
  lu.assertErrorMsgContains("include \"moves/specials.lua\": cannot read '" .. d .. "/moves/specials.lua'",
    fg.rules, d .. "/rules.lua")
end

function TestInclude:test_field_errors_name_the_file_and_line_where_they_are()
  local d = tmpdir()
  write(d .. "/rules.lua", MAIN)
  write(d .. "/moves/specials.lua", "return {\n  jab = { input = 'LP',\n    startup = 'fast' } }")
  lu.assertErrorMsgContains(d .. "/moves/specials.lua:3: actions.jab.startup: expected an integer, got string 'fast'",
    fg.rules, d .. "/rules.lua")
end

os.exit(lu.LuaUnit.run())
