-- SPDX-License-Identifier: MIT
-- test_reload_watch.lua: `framegate watch` reloads the rules when they are saved, while the
-- playtest keeps running, and shows what the edit changes.
local lu = require "luaunit"
local fg = require "framegate"
local watch = require "framegate.commands.watch"
local det = require "framegate.determinism"

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function copy_duel()
  local d = os.tmpname()
  os.remove(d)
  sh("mkdir -p '" .. d .. "' && cp samples/duel/rules.lua samples/duel/playtest.txt '" .. d .. "'/")
  return d
end

local function rewrite(path, from, to)
  local f = assert(io.open(path))
  local text = f:read("a")
  f:close()
  local edited, n = text:gsub(from, to)
  assert(n == 1, from)
  f = assert(io.open(path, "w"))
  f:write(edited)
  f:close()
end

local function run(opts)
  local lines = {}
  opts.out = function(line) lines[#lines + 1] = line end
  local s = watch.session(opts)
  return s, table.concat(lines, "\n")
end

TestWatch = {}

function TestWatch:test_saving_the_rules_mid_run_reloads_them_on_the_next_tick()
  local d = copy_duel()
  local edited_at
  local s, text = run { dir = d, script = d .. "/playtest.txt", ticks = 300, fast = true,
    on_tick = function(_, t)
      if t == 150 then
        rewrite(d .. "/rules.lua", "damage = 30,", "damage = 55,")
        edited_at = t
      end
    end }
  lu.assertEquals(#s.reloads, 1)
  lu.assertTrue(s.reloads[1].ok)
  lu.assertEquals(s.reloads[1].tick, edited_at)
  lu.assertStrContains(text, "t=150 reload: ok, 'duelist' hash ")
  lu.assertStrContains(text, "; changed jab (hit.damage)")
  -- The next loop of the script (tick 240) hits with the new damage.
  lu.assertStrContains(text, "t=244 e2 hit by e1's jab: 55 damage")
  lu.assertStrContains(text, "t=4 e2 hit by e1's jab: 30 damage")
  lu.assertStrContains(text, "e1   ssssA======")
end

function TestWatch:test_a_broken_save_keeps_the_old_rules_and_the_fix_is_picked_up()
  local d = copy_duel()
  local s, text = run { dir = d, script = d .. "/playtest.txt", ticks = 80, fast = true,
    on_tick = function(_, t)
      if t == 20 then rewrite(d .. "/rules.lua", "damage = 30,", "damage = ,") end
      if t == 40 then rewrite(d .. "/rules.lua", "damage = ,", "damage = 31,") end
    end }
  lu.assertEquals(#s.reloads, 2)
  lu.assertFalse(s.reloads[1].ok)
  lu.assertStrContains(s.reloads[1].message, "rules.lua:57: unexpected symbol near ','")
  lu.assertStrContains(text, "t=20 reload failed, the old rules keep running:")
  lu.assertTrue(s.reloads[2].ok)
  lu.assertEquals(s.reloads[2].tick, 40)
end

function TestWatch:test_what_if_after_a_reload_lists_what_the_edit_changes()
  local d = copy_duel()
  local s, text = run { dir = d, script = d .. "/playtest.txt", ticks = 200, fast = true, what_if = 2,
    on_tick = function(_, t)
      if t == 130 then
        rewrite(d .. "/rules.lua", 'from = 4, to = 12, on = "hit"', 'from = 4, to = 4, on = "hit"')
      end
    end }
  lu.assertTrue(s.reloads[1].ok)
  local report = s.reloads[1].what_if
  lu.assertEquals(report.from, 0)
  lu.assertEquals(report.to, 130)
  lu.assertStrContains(text, "what-if: ticks 0-129 against the new rules: 1 difference")
  lu.assertStrContains(text, "  tick 11: e1 hadouken now rejected: jab is in active (tick 5 of 13); cancel window 4-4 "
    .. "has closed (was accepted: hadouken cancels jab")
end

function TestWatch:test_real_time_reload_lands_within_100_ms_of_the_save()
  local d = copy_duel()
  local saved_us
  local s = run { dir = d, ticks = 30, what_if = 0,
    on_tick = function(session, t)
      if t == 5 then
        rewrite(d .. "/rules.lua", "damage = 30,", "damage = 32,")
        saved_us = session.watcher:clock()
      end
    end }
  lu.assertEquals(#s.reloads, 1)
  -- At 60 Hz, 100 ms is six ticks.
  lu.assertTrue(s.reloads[1].tick - 5 <= 6, "reloaded at tick " .. s.reloads[1].tick)
  lu.assertNotNil(saved_us)
end

function TestWatch:test_polling_fallback_sees_the_save_too()
  local d = copy_duel()
  local s = run { dir = d, ticks = 20, fast = true, poll = true, what_if = 0,
    on_tick = function(_, t) if t == 3 then rewrite(d .. "/rules.lua", "damage = 30,", "damage = 33,") end end }
  lu.assertEquals(s.watcher and #s.reloads, 1)
  lu.assertEquals(s.reloads[1].tick, 3)
end

function TestWatch:test_watcher_reports_only_changed_files()
  local d = copy_duel()
  local w = fg.watcher { files = { d .. "/rules.lua", d .. "/playtest.txt" } }
  local changed = w:wait(0)
  lu.assertEquals(changed, {})
  rewrite(d .. "/playtest.txt", "repeat 240", "repeat 241")
  changed = w:wait(50)
  lu.assertEquals(changed, { d .. "/playtest.txt" })
  lu.assertEquals(w:wait(0), {})
  w:close()
  lu.assertErrorMsgContains("closed watcher", w.wait, w, 0)
  lu.assertStrContains(tostring(w), "framegate.Watcher (closed)")
end

-- Cues the gate committed are shown; each meter spans one exchange, so its summary is of a
-- whole action (never "startup 0, active 0" for a chunk cut mid-action).
function TestWatch:test_cues_show_and_the_meter_follows_exchanges()
  local d = copy_duel()
  local _, text = run { dir = d, script = d .. "/playtest.txt", ticks = 240, fast = true }
  lu.assertStrContains(text, "t=4 cue hitspark e1")
  lu.assertNotStrContains(text, "startup 0, active 0")
  lu.assertStrContains(text, "e1: startup 4, active 1, cancelled after 5")
  lu.assertStrContains(text, "e1: startup 7, active 1, cancelled after 8")
  for row in text:gmatch("\ne1   ([^\n]*)") do
    lu.assertNotEquals(row:sub(1, 1), ".", "a meter starts where the exchange starts: " .. row)
  end
end

-- The ruleset's hash covers its data, not its functions: an edit to the request rule alone is
-- still reported as a change.
function TestWatch:test_an_edit_to_a_rule_function_alone_is_a_change()
  local d = copy_duel()
  local _, text = run { dir = d, script = d .. "/playtest.txt", ticks = 40, fast = true,
    on_tick = function(_, t)
      if t == 20 then
        rewrite(d .. "/rules.lua", 'fg%.reject%("super needs a full bar', 'fg.reject("super needs a full gauge')
      end
    end }
  lu.assertStrContains(text, "t=20 reload: ok, 'duelist' hash ")
  lu.assertStrContains(text, "; changed the rule functions (the data is the same)")
end

-- --record writes the playtest, reloads included, as a replay that verifies.
function TestWatch:test_record_writes_a_replay_that_verifies()
  local d = copy_duel()
  local path = d .. "/take.fgr"
  local _, text = run { dir = d, script = d .. "/playtest.txt", ticks = 120, fast = true,
    record = path, on_tick = function(_, t)
      if t == 60 then rewrite(d .. "/rules.lua", "damage = 30,", "damage = 55,") end
    end }
  lu.assertStrContains(text, "recorded " .. path .. ": ticks 0-119, 1 reload")
  local reader = fg.replay.open(path)
  lu.assertEquals(reader:stats().final_tick, 119)
  local rules = det.replay_rules(reader, path, { embedded = true })
  local w = fg.replay.world(reader, rules)
  local p = w:replay_player(reader)
  local ok, msg = p:run()
  lu.assertTrue(ok, msg)
  lu.assertEquals(p:status().reloads, 1)
end

function TestWatch:test_cli_runs_a_scripted_playtest_and_refuses_bad_scripts()
  local d = copy_duel()
  lu.assertEquals(watch.run(d, "--script", d .. "/playtest.txt", "--ticks", "10", "--fast"), 0)
  local bad = d .. "/bad.txt"
  local f = assert(io.open(bad, "w"))
  f:write("0 p3 LP@0\n")
  f:close()
  lu.assertEquals(watch.run(d, "--script", bad, "--ticks", "10", "--fast"), 1)
  lu.assertEquals(watch.run(d, "--bogus"), 2)
end

os.exit(lu.LuaUnit.run())
