-- SPDX-License-Identifier: MIT
-- test_rules.lua: bad ruleset data from Lua. Each mistake is an error that names the path of the
-- field and the value, and nothing is loaded: no Rules, no world, the rules already loaded keep
-- working. Then `framegate check`, which reports the same findings for a file.
local lu = require "luaunit"
local fg = require "framegate"
local check = require "framegate.commands.check"

-- A valid declaration; `patch` breaks one thing in it.
local function declaration(patch)
  local decl = {
    buttons = { "LP" },
    resources = { meter = { max = 100 } },
    actions = {
      idle = { neutral = true, loop = true },
      jab = { input = "LP", startup = 4, active = 2, recovery = 7,
              cancels = { { from = 4, to = 12, on = "hit", into = { "special" } } } },
      fireball = { startup = 13, active = 2, recovery = 31, tags = { "special" } },
    },
  }
  if patch then patch(decl) end
  return fg.ruleset "tester"(decl)
end

-- The error of loading a broken declaration (and that loading it failed).
local function load_error(patch)
  local ok, err = pcall(fg.rules, declaration(patch))
  lu.assertFalse(ok, "the broken declaration loaded")
  lu.assertIsString(err)
  return err
end

local function invalid(...)
  return "invalid ruleset 'tester':\n  " .. table.concat({ ... }, "\n  ")
end

TestBadRules = {}

function TestBadRules:test_valid_declaration_loads()
  local rules = fg.rules(declaration())
  lu.assertEquals(rules:name(), "tester")
  lu.assertEquals(rules:actions(), { "fireball", "idle", "jab" })
  lu.assertEquals(rules:action("jab").duration, 13)
end

function TestBadRules:test_wrong_types_name_the_field_and_the_value()
  lu.assertEquals(load_error(function(d) d.actions.jab.startup = "fast" end),
    invalid("actions.jab.startup: expected an integer, got string 'fast'"))
  lu.assertEquals(load_error(function(d) d.actions.jab.startup = 4.5 end),
    invalid("actions.jab.startup: expected an integer, got 4.5"))
  lu.assertEquals(load_error(function(d) d.actions.jab.cancels = "LP" end),
    "actions.jab.cancels: expected a list of windows, got string 'LP'")
  lu.assertEquals(load_error(function(d) d.actions.jab.loop = 1 end),
    invalid("actions.jab.loop: expected true or false, got 1"))
  lu.assertEquals(load_error(function(d) d.actions.jab.tags = { 3 } end),
    "actions.jab.tags[1]: expected a name, got 3")
  lu.assertEquals(load_error(function(d) d.actions.jab.cost = { meter = "lots" } end),
    invalid("actions.jab.cost.meter: expected an integer, got string 'lots'"))
  lu.assertEquals(load_error(function(d) d.actions[1] = {} end),
    "actions: expected name = value entries, found key 1")
  lu.assertEquals(load_error(function(d) d.request = 5 end),
    "request: expected a function, got number")
  local ok, err = pcall(fg.rules, 42)
  lu.assertFalse(ok)
  lu.assertEquals(err, "expected a ruleset table (fg.ruleset \"name\" { ... }), got 42")
end

function TestBadRules:test_bad_words_list_what_is_expected()
  lu.assertEquals(load_error(function(d) d.actions.jab.cancels[1].on = "hti" end),
    invalid("actions.jab.cancels[1].on: 'hti', expected always, hit, block, whiff or contact"))
  lu.assertEquals(load_error(function(d) d.actions.jab.root_motion = "fake" end),
    invalid("actions.jab.root_motion: 'fake', expected authoritative, suggested or presentation"))
  lu.assertEquals(load_error(function(d) d.actions.idle.hold = "x" end),
    invalid("actions.idle.hold: string 'x', expected a numpad direction 1..9 (2 = down, 6 = forward)"))
  lu.assertEquals(load_error(function(d) d.actions.jab.duration = 10 end),
    invalid("actions.jab.duration: 10, but startup + active + recovery = 13"))
end

function TestBadRules:test_negative_frames_are_refused()
  lu.assertEquals(load_error(function(d) d.actions.jab.startup = -1 end),
    invalid("actions.jab.startup: -1, expected a count of ticks >= 0"))
  lu.assertEquals(load_error(function(d) d.actions.jab.cancels[1].from = -2 end),
    invalid("actions.jab.cancels[1].from: -2, expected a tick >= 0"))
  lu.assertEquals(load_error(function(d) d.actions.jab.markers = { { tick = -1, marker = "hit" } } end),
    invalid("actions.jab.markers[1].tick: -1 is outside jab (ticks 0-12)"))
  lu.assertEquals(load_error(function(d) d.actions.jab.cost = { meter = -5 } end),
    invalid("actions.jab.cost.meter: -5, expected a cost >= 0"))
end

function TestBadRules:test_windows_and_markers_stay_inside_the_action()
  lu.assertEquals(load_error(function(d) d.actions.jab.cancels[1].to = 13 end),
    invalid("actions.jab.cancels[1].to: 13 is past the end of jab (13 ticks)"))
  lu.assertEquals(load_error(function(d) d.actions.jab.markers = { { tick = 13, marker = "hit" } } end),
    invalid("actions.jab.markers[1].tick: 13 is outside jab (ticks 0-12)"))
end

function TestBadRules:test_unknown_targets_are_refused()
  lu.assertEquals(load_error(function(d) d.actions.jab.cancels[1].into = { "fireball", "hadoken" } end),
    invalid("actions.jab.cancels[1].into[2]: 'hadoken' is neither an action nor a tag"))
  lu.assertEquals(load_error(function(d) d.actions.jab.next = "idel" end),
    invalid("actions.jab.next: 'idel' is not an action"))
  lu.assertEquals(load_error(function(d) d.actions.jab.layer = "arms" end),
    invalid("actions.jab.layer: 'arms' is not a declared layer"))
  lu.assertEquals(load_error(function(d) d.actions.jab.cost = { stamina = 5 } end),
    invalid("actions.jab.cost.stamina: no resource 'stamina' is declared"))
end

function TestBadRules:test_typos_are_unknown_fields()
  lu.assertEquals(load_error(function(d) d.actions.jab.startpu = 4 end),
    invalid("actions.jab.startpu: unknown field (expected one of: startup, active, recovery, "
      .. "duration, loop, neutral, hold, priority, group, requires, layer, input, next, tags, "
      .. "cancels, markers, move, root_motion, cost, hit, interrupts, forbids, boxes, invulnerable, "
      .. "throw, followup, spawn, landing, landing_recovery, gravity, on_start, on_hit)"))
  lu.assertEquals(load_error(function(d) d.actions.jab.cancels[1].intoo = {} end),
    invalid("actions.jab.cancels[1].intoo: unknown field (expected one of: from, to, on, into, buffer, when)"))
  lu.assertEquals(load_error(function(d) d.resources.meter.maximum = 3 end),
    invalid("resources.meter.maximum: unknown field (expected one of: max, start, regen, every)"))
  -- A field of the declaration itself has no leading dot.
  lu.assertStrContains(load_error(function(d) d.actoins = {} end),
    "actoins: unknown field (expected one of: name, buttons, groups, layers, resources, motions,")
  lu.assertNotStrContains(load_error(function(d) d.actoins = {} end), ".actoins")
end

function TestBadRules:test_bad_motion_notation_names_its_column()
  lu.assertEquals(load_error(function(d) d.motions = { fireball = { "23x6LP" } } end),
    invalid('motions.fireball: fireball: "23x6LP": unexpected \'x\' at column 3, expected a '
      .. "direction or button"))
  lu.assertEquals(load_error(function(d) d.actions.jab.input = "2MK" end),
    invalid('actions.jab.input: jab: "2MK": unexpected \'M\' at column 2, expected a direction '
      .. "or button"))
  lu.assertEquals(load_error(function(d) d.motions = { fireball = { window = 12 } } end),
    'motions.fireball: needs a notation, as in { "236P", window = 12 }')
end

function TestBadRules:test_motion_step_gaps_are_checked_where_they_are_written()
  local rules = fg.rules(declaration(function(d)
    d.motions = { fireball = { "236LP", gaps = { 0, 0, 4 } } }
  end))
  lu.assertEquals(rules:name(), "tester")
  lu.assertEquals(load_error(function(d) d.motions = { fireball = { "236LP", gaps = { 0, -1 } } } end),
    "motions.fireball.gaps[2]: -1 is out of range, expected 0-3600 ticks (0 = the step's default)")
  lu.assertEquals(load_error(function(d) d.motions = { fireball = { "236LP", gaps = "8" } } end),
    "motions.fireball.gaps: expected a list of step gaps such as { 12, 12, 8 }, got string '8'")
  lu.assertEquals(load_error(function(d) d.motions = { fireball = { "236LP", gaps = { 1, 1, 1, 1 } } } end),
    invalid('motions.fireball: fireball: "236LP": gaps[4] = 1, but the motion has 3 step gaps '
      .. "(gaps[1..3])"))
end

function TestBadRules:test_every_error_of_a_declaration_is_listed()
  lu.assertEquals(load_error(function(d)
    d.actions.jab.cancels[1].to = 20
    d.actions.jab.cost = { stamina = 1 }
    d.resources.meter.start = 200
  end), invalid("resources.meter: start 200, expected 0..max (100)",
    "actions.jab.cancels[1].to: 20 is past the end of jab (13 ticks)",
    "actions.jab.cost.stamina: no resource 'stamina' is declared"))
end

function TestBadRules:test_nothing_is_loaded_and_what_was_loaded_keeps_running()
  local good = fg.rules(declaration())
  local w = fg.world { rules = good }
  local p = w:spawn()
  w:run(5)
  local hash, tick = w:hash(), w:tick()
  -- A world refuses broken rules the same way and is not created.
  local ok, err = pcall(fg.world, { rules = declaration(function(d) d.actions.jab.recovery = -7 end) })
  lu.assertFalse(ok)
  lu.assertStrContains(err, "actions.jab.recovery: -7, expected a count of ticks >= 0")
  -- The running world and its rules did not change.
  lu.assertEquals(w:hash(), hash)
  lu.assertEquals(w:tick(), tick)
  lu.assertEquals(good:actions(), { "fireball", "idle", "jab" })
  p:request("jab")
  w:run(1)
  lu.assertEquals(p:action(), "jab")
  collectgarbage()
end

function TestBadRules:test_a_file_names_itself_in_every_error()
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write('local fg = require "framegate"\nreturn fg.ruleset "broken" {\n'
    .. '  actions = { idle = { neutral = true, startpu = 3 } },\n}\n')
  f:close()
  local ok, err = pcall(fg.rules, path)
  os.remove(path)
  lu.assertFalse(ok)
  lu.assertStrContains(err, path .. ":3: actions.idle.startpu: unknown field")
end

TestBadRequests = {}

function TestBadRequests:test_unknown_action_or_source_is_an_argument_error()
  local w = fg.world { rules = declaration() }
  local p = w:spawn()
  w:run(1)
  local hash = w:hash()
  lu.assertErrorMsgContains("bad argument #1 to 'request' ('jabb' is not an action of 'tester')",
    function() p:request("jabb") end)
  lu.assertErrorMsgContains("bad argument #2 to 'request' (invalid option 'human')",
    function() p:request("jab", "human") end)
  w:run(1)
  lu.assertEquals(#w:decisions(), 0)
  lu.assertEquals(p:action(), "idle")
  lu.assertNotEquals(w:hash(), hash) -- the tick ran
end

-- `framegate check` prints into a buffer here.
local function buffer()
  local b = { text = "" }
  function b:write(s) self.text = self.text .. s end
  return b
end

local function write_file(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

TestCheckCommand = {}

function TestCheckCommand:test_valid_rules_pass_with_a_summary()
  local out = buffer()
  local root = os.getenv("FG_SAMPLES") or "samples"
  local file = root .. "/duel/rules.lua"
  lu.assertTrue(check.check(file, out))
  lu.assertStrMatches(out.text, "^" .. file:gsub("%p", "%%%0")
    .. ": ok: ruleset 'duelist', 24 actions, hash %x+, 0 warnings\n$")
end

function TestCheckCommand:test_every_error_is_printed_with_its_path()
  local path = write_file([[
local fg = require "framegate"
return fg.ruleset "broken" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true },
    jab = { startup = 4, active = 2, recovery = 7,
            cancels = { { from = 4, to = 14, into = { "hadoken" } } } },
  },
}
]])
  local out = buffer()
  lu.assertFalse(check.check(path, out))
  os.remove(path)
  lu.assertEquals(out.text,
    path .. ":7: actions.jab.cancels[1].to: 14 is past the end of jab (13 ticks)\n"
    .. path .. ":7: actions.jab.cancels[1].into[1]: 'hadoken' is neither an action nor a tag\n"
    .. path .. ": not loaded: 2 errors, 0 warnings\n")
end

function TestCheckCommand:test_lint_warnings_are_printed_and_do_not_fail()
  local path = write_file([[
local fg = require "framegate"
return fg.ruleset "linted" {
  buttons = { "LP" },
  motions = { fireball = { "236LP" }, double = { "236236LP" } },
  actions = { idle = { neutral = true }, fireball = { startup = 3 }, double = { startup = 4 } },
}
]])
  local out = buffer()
  lu.assertTrue(check.check(path, out))
  os.remove(path)
  lu.assertStrContains(out.text, path .. ": motions: warning: fireball (236LP) is contained in "
    .. "double (236236LP)")
  lu.assertStrContains(out.text, path .. ": ok: ruleset 'linted', 3 actions")
  lu.assertStrContains(out.text, ", 1 warning\n")
end

function TestCheckCommand:test_malformed_fields_and_lua_errors_are_one_finding()
  local typo = write_file('return { actions = { idle = { neutral = true, startpu = 3 } } }\n')
  local syntax = write_file("return {\n  actions = = 3\n}\n")
  local out = buffer()
  lu.assertFalse(check.check(typo, out))
  lu.assertFalse(check.check(syntax, out))
  os.remove(typo)
  os.remove(syntax)
  lu.assertStrContains(out.text, typo .. ":1: actions.idle.startpu: unknown field")
  lu.assertStrContains(out.text, typo .. ": not loaded: 1 error, 0 warnings\n")
  -- Lua names the file relative to its ruleset's folder; the report line names it as given.
  local name = syntax:match("[^/]+$")
  lu.assertStrContains(out.text, syntax .. ": " .. name .. ":2: unexpected symbol near '='\n")
  lu.assertNotStrContains(out.text, syntax .. ": " .. syntax)
end

function TestCheckCommand:test_no_file_is_a_usage_error()
  local stderr = io.stderr
  local err = buffer()
  io.stderr = err -- luacheck: ignore
  local code = check.run()
  io.stderr = stderr -- luacheck: ignore
  lu.assertEquals(code, 2)
  lu.assertEquals(err.text, "framegate check: which rules? e.g. framegate check "
    .. "samples/duel/rules.lua (see 'framegate check --help')\n")
end

function TestCheckCommand:test_exit_codes()
  local path = write_file('return { actions = { idle = { neutral = true, loop = "yes" } } }\n')
  local root = os.getenv("FG_SAMPLES") or "samples"
  local stdout = io.stdout
  -- run() prints to stdout; point it at a buffer for the duration.
  local out = buffer()
  io.stdout = out -- luacheck: ignore
  local good = check.run(root .. "/duel/rules.lua")
  local bad = check.run(root .. "/duel/rules.lua", path)
  io.stdout = stdout -- luacheck: ignore
  os.remove(path)
  lu.assertEquals(good, 0)
  lu.assertEquals(bad, 1)
  lu.assertStrContains(out.text, path .. ":1: actions.idle.loop: expected true or false")
end


-- Ten faults of ten kinds in one file, in a folder deep enough that Lua itself would shorten its
-- name: every finding is printed, each line whole and naming the whole path.
function TestCheckCommand:test_ten_faults_of_ten_kinds_from_a_deep_folder_print_ten_findings()
  local dir = os.tmpname()
  os.remove(dir)
  dir = dir .. "/a_folder_with_a_rather_long_name/another_folder_with_a_long_name_too"
    .. "/and_one_more_level_so_the_path_runs_past_any_short_buffer"
  assert(os.execute("mkdir -p '" .. dir .. "'"))
  local path = dir .. "/faults.lua"
  local f = assert(io.open(path, "w"))
  f:write([[
local fg = require "framegate"
return fg.ruleset "faulty" {
  buttons = { "LP", "HP", "LK" },
  resources = { meter = { max = 100 } },
  actions = {
    idle = { neutral = true, loop = true, duration = 1 },
    jab = { input = "LP", startup = 4, active = 2, recovery = 7, startpu = 3,
            cancels = { { from = 4, to = 14, into = { "hadoken" } } } },
    strong = { input = "HP", startup = "fast", active = 2, recovery = 7 },
    kick = { input = "LK", startup = 5, active = 2, recovery = 9,
             markers = { { tick = 26, marker = "hit" } } },
    shoryuken = { startup = 3, active = 10, recovery = 28, cost = { meter = -5, stamina = 3 } },
    taunt = { layer = "arms", duration = 10 },
    sweep = { startup = -1, active = 2, recovery = 3, next = "nowhere" },
  },
}
]])
  f:close()
  local out = buffer()
  lu.assertFalse(check.check(path, out))
  os.execute("rm -rf '" .. dir:match("^(.-/a_folder_with_a_rather_long_name)") .. "'")
  local lines = {}
  for line in out.text:gmatch("[^\n]+") do lines[#lines + 1] = line end
  local want = {
    ":7: actions.jab.startpu: unknown field (expected one of: startup, active, recovery, "
      .. "duration, loop, neutral, hold, priority, group, requires, layer, input, next, tags, "
      .. "cancels, markers, move, root_motion, cost, hit, interrupts, forbids, boxes, invulnerable, "
      .. "throw, followup, spawn, landing, landing_recovery, gravity, on_start, on_hit)",
    ":9: actions.strong.startup: expected an integer, got string 'fast'",
    ":8: actions.jab.cancels[1].to: 14 is past the end of jab (13 ticks)",
    ":8: actions.jab.cancels[1].into[1]: 'hadoken' is neither an action nor a tag",
    ":11: actions.kick.markers[1].tick: 26 is outside kick (ticks 0-15)",
    ":12: actions.shoryuken.cost.meter: -5, expected a cost >= 0",
    ":12: actions.shoryuken.cost.stamina: no resource 'stamina' is declared",
    ":14: actions.sweep.startup: -1, expected a count of ticks >= 0",
    ":14: actions.sweep.next: 'nowhere' is not an action",
    ":13: actions.taunt.layer: 'arms' is not a declared layer",
  }
  lu.assertEquals(#lines, #want + 1)
  for i, w in ipairs(want) do lu.assertEquals(lines[i], path .. w) end
  lu.assertEquals(lines[#lines], path .. ": not loaded: 10 errors, 0 warnings")
end

-- Over a thousand faults: every one printed with its line, none lost to a cap (the validator
-- once kept 64 and said how many it dropped).
function TestCheckCommand:test_over_a_thousand_faults_print_every_finding()
  local src = { 'local fg = require "framegate"', 'return fg.ruleset "many" {',
    '  actions = {', '    idle = { neutral = true },' }
  for i = 1, 160 do
    local windows = {}
    for k = 1, 8 do windows[k] = string.format("{ from = 0, to = %d, into = 'idle' }", 5 + k) end
    src[#src + 1] = string.format("    a%03d = { startup = 2, active = 2, recovery = 2, "
      .. "cancels = { %s } },", i, table.concat(windows, ", "))
  end
  src[#src + 1] = "  },\n}\n"
  local path = write_file(table.concat(src, "\n"))
  local out = buffer()
  lu.assertFalse(check.check(path, out))
  os.remove(path)
  local n = 0
  for line in out.text:gmatch("[^\n]+") do
    if line:find(": %d+ is past the end of a%d%d%d %(6 ticks%)$") then n = n + 1 end
  end
  lu.assertEquals(n, 1280)
  lu.assertStrContains(out.text, path .. ":164: actions.a160.cancels[8].to: 13 is past the end "
    .. "of a160 (6 ticks)\n")
  lu.assertStrContains(out.text, path .. ": not loaded: 1280 errors, 0 warnings")
  lu.assertNotStrContains(out.text, "more findings")
end

-- A bad notation is reported beside other errors (the motions are checked one by one even when
-- the set as a whole is not compiled).
function TestCheckCommand:test_a_bad_notation_is_reported_beside_other_errors()
  local path = write_file([[
local fg = require "framegate"
return fg.ruleset "two" {
  buttons = { "LP" },
  motions = { fireball = { "23x6LP" } },
  actions = { idle = { neutral = true }, jab = { startup = -1, active = 2, recovery = 7 } },
}
]])
  local out = buffer()
  lu.assertFalse(check.check(path, out))
  os.remove(path)
  lu.assertStrContains(out.text, path .. ":5: actions.jab.startup: -1, expected a count of ticks >= 0\n")
  lu.assertStrContains(out.text, path .. ":4: motions.fireball: fireball: \"23x6LP\": unexpected 'x' "
    .. "at column 3, expected a direction or button\n")
  lu.assertStrContains(out.text, path .. ": not loaded: 2 errors, 0 warnings\n")
end

-- A Lua error in a file in a deep folder names the file relative to its ruleset's folder: never
-- Lua's "...end/of/it", never the machine's folders.
function TestCheckCommand:test_a_lua_error_names_a_deep_file_relative_to_its_ruleset()
  local dir = os.tmpname()
  os.remove(dir)
  local top = dir
  dir = dir .. "/a_folder_with_a_rather_long_name/another_folder_with_a_long_name_too"
  assert(os.execute("mkdir -p '" .. dir .. "'"))
  local path = dir .. "/broken.lua"
  local f = assert(io.open(path, "w"))
  f:write("local fg = require 'framegate'\nreturn fg.ruleset 'x' { actions = 1 + nil }\n")
  f:close()
  local ok, err = pcall(fg.rules, path)
  os.execute("rm -rf '" .. top .. "'")
  lu.assertFalse(ok)
  lu.assertStrContains(err, "broken.lua:2: attempt to perform arithmetic on a nil value")
  lu.assertNotStrContains(err, "...")
  lu.assertNotStrContains(err, dir)
end

os.exit(lu.LuaUnit.run())
