-- SPDX-License-Identifier: MIT
-- test_reload.lua: reloading a ruleset while a world runs.
local lu = require "luaunit"
local fg = require "framegate"

local DUEL = io.open("samples/duel/rules.lua"):read("a")

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function setup(text)
  local d = os.tmpname()
  os.remove(d)
  sh("mkdir -p '" .. d .. "'")
  local path = d .. "/rules.lua"
  local function save(t)
    local f = assert(io.open(path, "w"))
    f:write(t)
    f:close()
  end
  save(text or DUEL)
  local w = fg.world { rules = path, seed = 7, buffer = 256 }
  local p1 = w:spawn { x = -35 }
  local p2 = w:spawn { x = 35, facing = "left" }
  return w, p1, p2, save, path
end

local function edit(pattern, replacement)
  local out, n = DUEL:gsub(pattern, replacement)
  assert(n == 1, "edit matched " .. n .. " times: " .. pattern)
  return out
end

TestReload = {}

function TestReload:test_state_survives_a_reload()
  local w, p1, p2, save = setup()
  w:play(p1, "LP@0")
  w:run(20)
  p1:resource("meter", 123)
  local health, x = p2:resource("health"), p1:position()
  save(edit("damage = 30,", "damage = 45,"))
  local info = assert(w:reload())
  lu.assertEquals(p2:resource("health"), health)
  lu.assertEquals(p1:resource("meter"), 123)
  lu.assertEquals(p1:position(), x)
  lu.assertEquals(info.changes.changed, { "jab" })
  lu.assertEquals(info.changes.added, {})
  w:play(p1, "LP@0")
  w:run(20)
  lu.assertEquals(p2:resource("health"), health - 45)
end

-- Each edit changes one field the old report could not see (boxes, throws, invulnerability,
-- hit fields beyond the first few, cancel conditions); the report names the action and the field
-- as the designer writes it, and leaves every other action out.
function TestReload:test_reload_names_the_fields_that_changed()
  local cases = {
    { "x = 10, y = 40, w = 40, h = 60", "x = 10, y = 40, w = 55, h = 60", "jab", { "boxes[1].w" } },
    { "tech_window = 7", "tech_window = 9", "grab", { "throw.tech_window" } },
    { "invulnerable = { { from = 0, to = 5 } }", "invulnerable = { { from = 0, to = 7 } }",
      "shoryuken", { "invulnerable[1].to" } },
    { "chip = 25,", "chip = 30,", "super", { "hit.chip" } },
    { "pushback = { hit = 20, block = 16 }", "pushback = { hit = 20, block = 12 }", "super",
      { "hit.pushback.block" } },
    { "launch = { vy = 9 }, knockdown = \"soft\"", "launch = { vy = 9 }, knockdown = \"hard\"",
      "launcher", { "hit.knockdown" } },
    { "to = 28, on = \"hit\", into = { \"jab\" }", "to = 20, on = \"hit\", into = { \"jab\" }",
      "launcher", { "cancels[1].to" } },
    { "damage = 30, hitstop = 6", "damage = 35, hitstop = 7", "jab", { "hit.damage", "hit.hitstop" } },
  }
  for _, c in ipairs(cases) do
    local w, _, _, save = setup()
    save(edit(c[1]:gsub("%p", "%%%0"), c[2]))
    local info = assert(w:reload())
    lu.assertEquals(info.changes.changed, { c[3] }, c[2])
    lu.assertEquals(info.changes.fields[c[3]], c[4], c[2])
    lu.assertEquals(info.changes.added, {})
    lu.assertEquals(info.changes.removed, {})
    w:close()
  end
end

function TestReload:test_reload_of_the_same_rules_changes_nothing()
  local w, _, _, save = setup()
  save(DUEL .. "\n-- a comment only\n")
  local info = assert(w:reload())
  lu.assertEquals(info.changes.changed, {})
  lu.assertEquals(next(info.changes.fields), nil)
end

function TestReload:test_instance_in_flight_finishes_on_its_old_definition()
  local w, p1, _, save = setup()
  w:play(p1, "HP@0")
  w:run(3)
  save(edit("strong = { input = \"HP\", requires = \"grounded\", startup = 7, active = 3, recovery = 16,",
            "strong = { input = \"HP\", requires = \"grounded\", startup = 7, active = 3, recovery = 40,"))
  assert(w:reload())
  local name, _, duration = p1:action()
  lu.assertEquals(name, "strong")
  lu.assertEquals(duration, 26)
  w:run(60)
  w:play(p1, "HP@0")
  w:run(2)
  name, _, duration = p1:action()
  lu.assertEquals(name, "strong")
  lu.assertEquals(duration, 50)
end

function TestReload:test_new_requests_use_the_new_request_rule()
  local w, p1, _, save = setup()
  p1:resource("meter", 300)
  save(edit('if req.action == "super" and me.resources.meter < 300 then',
            'if req.action == "super" and me.resources.meter < 301 then'))
  assert(w:reload())
  w:play(p1, "2@0 3@1 6@2 2@3 3@4 6@5 P@6 5@8")
  w:run(20)
  lu.assertStrContains(p1:decision().text, "super needs a full bar (300/300)")
end

function TestReload:test_old_hooks_never_run_again_after_a_reload()
  local w, p1, _, save = setup()
  for i = 1, 3 do
    save(edit('fg.cue%(ev.contact == "hit" and "hitspark"', 'fg.cue(ev.contact == "hit" and "hitspark' .. i .. '"'))
    assert(w:reload())
  end
  w:cues()
  w:play(p1, "LP@0")
  w:run(20)
  local names = {}
  for _, c in ipairs(w:cues()) do names[#names + 1] = c.name end
  lu.assertEquals(names, { "hitspark3", "swing" }) -- the contact, then the jab's swing marker
end

function TestReload:test_failed_reload_keeps_the_old_rules_and_says_where()
  local w, p1, _, save = setup()
  w:run(5)
  local before = w:hash()
  save(edit("startup = 4, active = 2, recovery = 7,", "startup = 4, active = 2, recovery = -7,"))
  local info, err = w:reload()
  lu.assertNil(info)
  lu.assertStrMatches(err, ".*/rules%.lua:%d+: .*actions%.jab%.recovery.*")
  lu.assertEquals(w:hash(), before)
  w:play(p1, "LP@0")
  w:run(2)
  lu.assertEquals((p1:action()), "jab")
end

function TestReload:test_reload_is_recorded_in_the_trace_with_the_content_hash()
  local w, _, _, save = setup()
  w:run(4)
  save(edit("damage = 30,", "damage = 31,"))
  local info = assert(w:reload())
  local line
  for _, r in ipairs(w:trace()) do
    if r.text:find("reload:", 1, true) then line = r.text end
  end
  lu.assertStrContains(line, "t=4 e0 reload: slot 0 runs 'duelist' version 1, content " .. info.hash)
  lu.assertStrContains(line, "(was " .. info.previous_hash .. "), source " .. info.source_hash)
  lu.assertNotEquals(info.hash, info.previous_hash)
end

function TestReload:test_on_reload_sees_what_changed()
  local w, _, _, save = setup()
  save(edit("  on_event = function", [[
  on_reload = function(info)
    return "reloaded " .. info.name .. ": " .. table.concat(info.changes.changed, ",")
  end,
  on_event = function]]):gsub("damage = 30,", "damage = 20,"))
  local info = assert(w:reload())
  lu.assertEquals(info.message, "reloaded duelist: jab")
end

function TestReload:test_reload_with_a_path_a_table_or_rules()
  local w = setup()
  local info = assert(w:reload("samples/duel/rules.lua"))
  lu.assertEquals(info.name, "duelist")
  local rules = fg.rules("samples/duel/rules.lua")
  assert(w:reload(rules))
  -- Rules built from a table read no file: the reload lists none (it failed with "attempt to
  -- index a number value" before, its stack one off).
  local small = { buttons = { "LP" }, actions = { idle = { neutral = true, loop = true, duration = 1 } } }
  local v = fg.world { rules = fg.ruleset "small"(small) }
  info = assert(v:reload(fg.ruleset "small"(small)))
  lu.assertEquals(info.files, {})
  lu.assertEquals(info.changes.changed, {})
  assert(v:reload(small))
  local bad, err = w:reload { buttons = { "LP" }, actions = { idle = { neutral = true } } }
  lu.assertNil(bad)
  lu.assertStrContains(err, "buttons differ")
  local ok, msg = pcall(function() return w:reload(42) end)
  lu.assertFalse(ok)
  lu.assertStrContains(msg, "bad argument #1 to 'reload' (a path, a ruleset table or Rules expected, got number)")
end

function TestReload:test_rules_built_from_a_table_need_a_path_to_reload()
  local w = fg.world { rules = { buttons = { "LP" },
    actions = { idle = { neutral = true, loop = true, duration = 1 } } } }
  local info, err = w:reload()
  lu.assertNil(info)
  lu.assertStrContains(err, "were not loaded from a file; pass a path")
end

function TestReload:test_reload_during_a_tick_is_refused()
  -- Rules built from a host table are host closures: they could reach the world mid-tick.
  local w
  local decl = { buttons = { "LP" }, actions = { idle = { neutral = true, loop = true, duration = 1 },
    jab = { input = "LP", startup = 1, active = 1, recovery = 1 } },
    request = function() w:reload("samples/duel/rules.lua") return fg.default end }
  w = fg.world { rules = decl }
  local p = w:spawn()
  p:request("jab")
  w:advance()
  lu.assertStrContains(p:decision().text, "world:reload: not during a tick")
end

TestWhatIf = {}

function TestWhatIf:test_what_if_lists_decisions_the_new_rules_change()
  local w, p1, _, save = setup()
  w:run(10)
  local snap = w:save()
  w:play(p1, "LP@0 2@6 3@8 6@10 P@11 5@14")
  w:run(40)
  local live_hash = w:hash()
  save(edit('cancels = { { from = 4, to = 12, on = "hit", into = { "special", "super" }, buffer = 4 } } },',
            'cancels = { { from = 4, to = 4, on = "hit", into = { "special", "super" }, buffer = 4 } } },'))
  assert(w:reload())
  local hash_after_reload = w:hash()
  local report = w:what_if { from = snap }
  lu.assertEquals(report.from, 10)
  lu.assertEquals(report.to, 50)
  lu.assertTrue(report.complete)
  lu.assertEquals(report.differences, 1)
  lu.assertStrContains(report.lines[1], "tick 21: e1 hadouken now rejected: jab is in active (tick "
    .. "5 of 13); cancel window 4-4 has closed (was accepted: hadouken cancels jab at tick 5 "
    .. "(window 4-12 on hit))")
  lu.assertNotEquals(report.shadow_hash, report.hash)
  lu.assertEquals(w:hash(), hash_after_reload)
  lu.assertNotEquals(live_hash, hash_after_reload)
end

function TestWhatIf:test_what_if_with_the_same_rules_finds_no_difference()
  local w, p1 = setup()
  local snap = w:save()
  w:play(p1, "HP@0 2@8 3@9 6@10 P@11 5@13")
  w:run(40)
  local report = w:what_if { from = snap }
  lu.assertEquals(report.differences, 0)
  lu.assertEquals(report.lines, {})
end

function TestWhatIf:test_what_if_with_other_rules_leaves_the_world_alone()
  local w, p1 = setup()
  local snap = w:save()
  w:play(p1, "6@0 2@2 3@4 P@5 5@7")
  w:run(20)
  local before = w:hash()
  local free = fg.rules("free/rules.lua", DUEL:gsub("cost = { meter = 100 }, ", ""))
  local report = w:what_if { from = snap, rules = free }
  lu.assertEquals(report.lines,
    { "tick 5: e1 shoryuken now accepted: shoryuken from crouch (was rejected: shoryuken costs "
      .. "100 meter, have 0)" })
  lu.assertEquals(w:hash(), before)
  lu.assertEquals(p1:history(), {})
end

os.exit(lu.LuaUnit.run())
