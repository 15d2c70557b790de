-- SPDX-License-Identifier: MIT
-- test_locomotion.lua: the Lua face of locomotion signals and replication roles.
-- Run: build/default/framegate lua tests/lua/test_locomotion.lua
-- luacheck: globals TestLocomotion TestReplication, ignore 212/self

local lu = require "luaunit"
local fg = require "framegate"

-- Velocity/acceleration components for a direction in degrees (0 = +y, 90 = +x).
local function dir(deg, len)
  local r = math.rad(deg)
  return math.sin(r) * len, math.cos(r) * len
end

local function strafe_at(lo, deg, yaw)
  yaw = yaw or 0
  local vx, vy = dir(deg + yaw, 4)
  local ax, ay = dir(deg + yaw, 10)
  return lo:step { vx = vx, vy = vy, ax = ax, ay = ay, yaw = yaw, strafe = true }
end

TestLocomotion = {}

function TestLocomotion:test_seed_example_minus_170_with_backward_warps_by_plus_10()
  local lo = fg.locomotion()
  lo:reset "Backward"
  local o = strafe_at(lo, -170)
  lu.assertEquals(o.cardinal, "Backward")
  lu.assertAlmostEquals(o.angle, -170, 1e-3)
  lu.assertAlmostEquals(o.warp, 10, 1e-3)
  lu.assertAlmostEquals(fg.locomotion_warp(-170, "Backward"), 10, 1e-6)
  lu.assertEquals(fg.locomotion_normalize(-180), 180)
  lu.assertEquals(fg.locomotion_normalize(540), 180)
end

function TestLocomotion:test_jitter_inside_the_dead_zone_stays_then_a_real_crossing_switches()
  local lo = fg.locomotion()
  local changes = 0
  for _, a in ipairs { 60, 70, 62, 74, 66, 61, 74.5 } do
    local o = strafe_at(lo, a, 25)
    lu.assertEquals(o.cardinal, "Forward")
    if o.cardinal_changed then changes = changes + 1 end
  end
  lu.assertEquals(changes, 0)
  lu.assertEquals(strafe_at(lo, 76, 25).cardinal, "Right")
  -- One way (the default): Right is not widened, so Forward comes back at the base 65 degrees.
  for _, a in ipairs { 70, 66 } do lu.assertEquals(strafe_at(lo, a, 25).cardinal, "Right") end
  lu.assertEquals(strafe_at(lo, 64, 25).cardinal, "Forward")
  lu.assertEquals(lo:cardinal_of(120, "Right"), "Backward")
  lu.assertEquals(lo:cardinal_of(120, "Forward"), "Backward")
  lu.assertEquals(lo:config().hysteresis, "one_way")
  -- Both ways: the current Right holds down to 55 (and up to 125).
  local both = fg.locomotion { hysteresis = "both_ways" }
  lu.assertEquals(both:config().hysteresis, "both_ways")
  lu.assertEquals(strafe_at(both, 76, 25).cardinal, "Right")
  for _, a in ipairs { 70, 56, 64, 58 } do lu.assertEquals(strafe_at(both, a, 25).cardinal, "Right") end
  lu.assertEquals(strafe_at(both, 54, 25).cardinal, "Forward")
  lu.assertEquals(both:cardinal_of(120, "Right"), "Right")
end

function TestLocomotion:test_hysteresis_policy_at_60_64_66_74_76_degrees()
  -- angle = { from Forward, from Right } for each policy
  local want = {
    one_way   = { [60] = { "Forward", "Forward" }, [64] = { "Forward", "Forward" },
                  [66] = { "Forward", "Right" }, [74] = { "Forward", "Right" },
                  [76] = { "Right", "Right" } },
    both_ways = { [60] = { "Forward", "Right" }, [64] = { "Forward", "Right" },
                  [66] = { "Forward", "Right" }, [74] = { "Forward", "Right" },
                  [76] = { "Right", "Right" } },
  }
  for _, policy in ipairs { "one_way", "both_ways" } do
    local lo = fg.locomotion { hysteresis = policy }
    for _, a in ipairs { 60, 64, 66, 74, 76 } do
      lu.assertEquals(lo:cardinal_of(a, "Forward"), want[policy][a][1], policy .. " from Forward at " .. a)
      lu.assertEquals(lo:cardinal_of(a, "Right"), want[policy][a][2], policy .. " from Right at " .. a)
    end
  end
  lu.assertErrorMsgContains("locomotion.hysteresis: 'sideways', expected one_way or both_ways",
    fg.locomotion, { hysteresis = "sideways" })
end

function TestLocomotion:test_boundaries_are_data()
  local narrow = fg.locomotion { forward_limit_deg = 45, dead_zone_deg = 5 }
  lu.assertEquals(narrow:cardinal_of(52, "Forward"), "Right")
  lu.assertEquals(fg.locomotion():cardinal_of(52, "Forward"), "Forward")
end

function TestLocomotion:test_outside_strafe_cardinal_is_forward_and_warp_is_the_angle()
  local lo = fg.locomotion()
  lo:reset "Left"
  local vx, vy = dir(-120, 3)
  local o = lo:step { vx = vx, vy = vy }
  lu.assertEquals(o.cardinal, "Forward")
  lu.assertAlmostEquals(o.angle, -120, 1e-3)
  lu.assertEquals(o.warp, o.angle)
  lu.assertEquals(o.dir8, "BL")
end

function TestLocomotion:test_pivot_waits_for_both_latches_and_repivots_with_a_new_id()
  local lo = fg.locomotion { pivot_min_time = 0.1, rate = 60 } -- 6 ticks
  lu.assertEquals(lo:config().pivot_min_ticks, 6)
  local o = lo:step { vx = 0, vy = 5, ax = -10, ay = -3 }
  lu.assertTrue(o.pivot_enter)
  lu.assertEquals(o.pivot_id, 1)
  -- re-pivot: still going forward, pushed the other way sideways
  o = lo:step { vx = 0, vy = 4, ax = 10, ay = -3 }
  lu.assertTrue(o.pivot_reenter)
  lu.assertEquals(o.pivot_id, 2)
  -- turned at once, but the time latch holds it for 6 ticks from the re-entry
  local exit_at
  for t = 1, 10 do
    o = lo:step { vx = 5, vy = 0, ax = 20, ay = 0 }
    if o.pivot_exit then exit_at = t; break end
    lu.assertTrue(o.pivot)
  end
  lu.assertEquals(exit_at, 6)
  lu.assertEquals(o.pivot_id, 2)
  lu.assertFalse(lo:state().in_pivot)
end

function TestLocomotion:test_start_stop_wall_and_stop_distance()
  local lo = fg.locomotion { braking_deceleration = 10, wall_ticks = 3 }
  lu.assertTrue(lo:step { ay = 20 }.start)
  local o = lo:step { vy = 4 }
  lu.assertTrue(o.stop)
  lu.assertAlmostEquals(o.stop_distance, 16 / 20, 1e-6)
  lo:reset()
  lu.assertFalse(lo:step { ay = 20 }.wall)
  lu.assertFalse(lo:step { ay = 20 }.wall)
  lu.assertTrue(lo:step { ay = 20 }.wall)
end

function TestLocomotion:test_bad_input_gives_numbers_not_nan()
  local lo = fg.locomotion()
  local nan, inf = 0 / 0, math.huge
  local o = lo:step { vx = nan, vy = inf, ax = -inf, ay = nan, yaw = nan, aim = 1e300, strafe = true }
  lu.assertTrue(o.bad_input)
  for _, k in ipairs { "angle", "warp", "aim_offset", "speed", "stop_distance" } do
    lu.assertTrue(o[k] == o[k], k .. " is NaN")
  end
  lu.assertEquals(o.cardinal, "Forward")
  o = lo:step { yaw = 360 * 65536 + 90, vx = 1 } -- exactly representable as a float
  lu.assertAlmostEquals(o.angle, 0, 1e-3)
end

function TestLocomotion:test_out_table_is_filled_in_place()
  local lo = fg.locomotion()
  local out = {}
  local got = lo:step({ vy = 2 }, out)
  lu.assertIs(got, out)
  lu.assertEquals(out.cardinal, "Forward")
  lu.assertTrue(out.moving)
end

function TestLocomotion:test_state_hash_and_clone()
  local a = fg.locomotion()
  a:step { vx = 0, vy = 5, ax = 0, ay = -20 }
  local b = a:clone()
  lu.assertEquals(a:hash(), b:hash())
  b:step { vx = 5, vy = 0, ax = 20, ay = 0 }
  lu.assertNotEquals(a:hash(), b:hash())
  lu.assertStrContains(tostring(a), "framegate.Locomotion (Forward, in pivot 1)")
  lu.assertEquals(a:state().pivot_id, 1)
end

function TestLocomotion:test_config_errors_name_the_field_value_and_range()
  lu.assertErrorMsgContains("locomotion.forward_limit_deg: 200, expected a value in (0, 180)",
    fg.locomotion, { forward_limit_deg = 200 })
  lu.assertErrorMsgContains("locomotion: unknown field 'forward_limit'", fg.locomotion, { forward_limit = 60 })
  lu.assertErrorMsgContains("locomotion.wall_ticks: 0 is out of range, expected 1-65535", fg.locomotion,
    { wall_ticks = 0 })
  lu.assertErrorMsgContains("give pivot_min_ticks or pivot_min_time, not both", fg.locomotion,
    { pivot_min_ticks = 3, pivot_min_time = 0.1 })
  lu.assertErrorMsgContains("locomotion.dead_zone_deg: expected a number, got string '10'", fg.locomotion,
    { dead_zone_deg = "10" })
  lu.assertErrorMsgContains("cardinal: 'back' is not one of Forward, Right, Backward, Left",
    fg.locomotion_warp, 10, "back")
  lu.assertErrorMsgContains("locomotion input: unknown field 'velocity'", fg.locomotion().step,
    fg.locomotion(), { velocity = 1 })
  lu.assertErrorMsgContains("locomotion input: field names must be strings, got a number key",
    fg.locomotion().step, fg.locomotion(), { 1 })
  -- Of several unknown fields, the bytewise-smallest is named, whatever order pairs visits.
  lu.assertErrorMsgContains("locomotion: unknown field 'alpha'", fg.locomotion,
    { zeta = 1, alpha = 2, mid = 3 })
  lu.assertEquals(fg.locomotion { rate = 120, pivot_min_time = 0.2 }:config().pivot_min_ticks, 24)
end

-- {==================================================================== replication

local function recorder()
  local log = {}
  local function hooks(tag)
    return {
      on_replicated = function(name, value) log[#log + 1] = { tag, "value", name, value } end,
      on_action = function(name, seq, how) log[#log + 1] = { tag, "action", name, seq, how } end,
      on_rollback = function(name, seq, reason, text) log[#log + 1] = { tag, "rollback", name, seq, reason, text } end,
    }
  end
  local function count(tag, kind)
    local n = 0
    for _, e in ipairs(log) do if e[1] == tag and e[2] == kind then n = n + 1 end end
    return n
  end
  return log, hooks, count
end

local function session(hooks, extra)
  local owner = hooks "owner"
  owner.latency, owner.loss = 3, extra and extra.loss or 0
  return fg.replication {
    properties = {
      target_locked = "bool",
      weapon = { values = { "fists", "sword", "bow" }, initial = "fists" },
      ammo = { type = "int", min = 0, max = 99, initial = 10, replicate = "all" },
    },
    actions = { dash = { cooldown = 30 } },
    owner = owner,
    authority = hooks "authority",
    seed = extra and extra.seed or 1,
  }
end

TestReplication = {}

function TestReplication:test_late_join_sees_current_state_but_no_past_dash()
  local log, hooks, count = recorder()
  local s = session(hooks)
  s:set("owner", "target_locked", true)
  s:set("owner", "weapon", "bow")
  lu.assertEquals(s:get("owner", "weapon"), "bow")
  lu.assertEquals({ s:try "dash" }, { true, 1 })
  s:advance(20)
  local late = s:join(hooks "late")
  lu.assertEquals(s:role(late), "observer")
  s:advance(10)
  lu.assertEquals(s:get(late, "weapon"), "bow")
  lu.assertEquals(s:get(late, "target_locked"), true)
  lu.assertEquals(s:get(late, "ammo"), 10)
  lu.assertEquals(count("late", "value"), 2)
  lu.assertEquals(count("late", "action"), 0)
  local values = {}
  for _, e in ipairs(log) do if e[1] == "late" then values[e[3]] = e[4] end end
  lu.assertEquals(values, { target_locked = true, weapon = "bow" })
  s:advance(10)
  lu.assertTrue((s:try "dash"))
  s:advance(10)
  lu.assertEquals(count("late", "action"), 1)
  lu.assertEquals(count("owner", "action"), 4) -- predicted + confirmed, twice
end

function TestReplication:test_dash_rejected_by_authority_cooldown_rolls_back_with_a_reason()
  local log, hooks, count = recorder()
  local s = session(hooks)
  local obs = s:join(hooks "obs")
  s:set_cooldown("authority", "dash", 50)
  lu.assertTrue((s:try "dash"))
  s:advance(10)
  lu.assertEquals(count("owner", "rollback"), 1)
  local rb
  for _, e in ipairs(log) do if e[2] == "rollback" then rb = e end end
  lu.assertEquals(rb[3], "dash")
  lu.assertEquals(rb[4], 1)
  lu.assertEquals(rb[5], "cooldown")
  lu.assertEquals(rb[6], "dash #1 rejected by the authority: its cooldown runs until tick 50")
  lu.assertEquals(s:cooldown("owner", "dash"), 50)
  lu.assertEquals({ s:try "dash" }, { false, 50 })
  lu.assertEquals(count("obs", "action"), 0)
  lu.assertEquals(s:stats("owner").rejected, 1)
  lu.assertEquals(s:stats(obs).replicated, 0)
end

function TestReplication:test_latency_and_loss_do_not_duplicate_a_dash()
  local log, hooks = recorder()
  local s = session(hooks, { loss = 0.3, seed = 99 })
  local a = s:join { latency = 2, loss = 0.4, on_action = hooks("a").on_action }
  local b = s:join { latency = 6, loss = 0.2, on_action = hooks("b").on_action }
  for _ = 1, 900 do
    s:try "dash"
    s:advance(1)
  end
  s:advance(300)
  local seqs = { authority = {}, a = {}, b = {} }
  for _, e in ipairs(log) do
    if e[2] == "action" and seqs[e[1]] then table.insert(seqs[e[1]], e[4]) end
  end
  lu.assertTrue(#seqs.authority >= 15)
  lu.assertEquals(seqs.a, seqs.authority)
  lu.assertEquals(seqs.b, seqs.authority)
  lu.assertTrue(s:stats(a).lost > 0)
  lu.assertTrue(s:stats(b).retransmitted > 0)
  lu.assertEquals(s:stats("owner").pending, 0)
end

function TestReplication:test_a_failing_hook_is_reported_after_the_call_and_the_session_goes_on()
  local _, hooks, count = recorder()
  local s = session(hooks)
  local obs = s:join { on_action = function() error("boom") end }
  s:try "dash"
  lu.assertErrorMsgContains("replication: on_action of node 2 failed:", s.advance, s, 10)
  lu.assertEquals(s:tick(), 10) -- every tick ran
  lu.assertEquals(s:stats(obs).replicated, 1)
  lu.assertEquals(count("authority", "action"), 1)
  s:advance(1) -- the error was reported once
end

function TestReplication:test_a_hook_cannot_change_the_session()
  local s
  local seen
  s = fg.replication {
    properties = { target_locked = "bool" },
    authority = {
      on_replicated = function() seen = select(2, pcall(s.set, s, "authority", "target_locked", false)) end,
    },
  }
  s:set("authority", "target_locked", true)
  lu.assertStrContains(seen, "fg_rep_set called from inside a hook")
  lu.assertEquals(s:get("authority", "target_locked"), true)
end

function TestReplication:test_errors_name_the_thing_and_change_nothing()
  local _, hooks = recorder()
  local s = session(hooks)
  local obs = s:join()
  local h = s:hash()
  lu.assertErrorMsgContains("replication: weapon: 'axe' is not one of fists, sword, bow", s.set, s, "owner",
    "weapon", "axe")
  lu.assertErrorMsgContains("replication: ammo: 100 is outside [0, 99]", s.set, s, "owner", "ammo", 100)
  lu.assertErrorMsgContains("replication: ammo expects an integer, got a number with a fraction", s.set, s,
    "owner", "ammo", 1.5)
  lu.assertErrorMsgContains("observer 2 cannot set 'weapon'", s.set, s, obs, "weapon", "bow")
  lu.assertErrorMsgContains("replication: no property 'wepon' (declared: ammo, target_locked, weapon)", s.set,
    s, "owner", "wepon", 1)
  lu.assertErrorMsgContains("replication: no action 'roll' (declared: dash)", s.try, s, "roll")
  lu.assertErrorMsgContains("replication: node 7 is not joined", s.get, s, 7, "weapon")
  lu.assertErrorMsgContains("replication: join.latency: 0 is out of range, expected 1-1000", s.join, s, { latency = 0 })
  lu.assertErrorMsgContains("replication: join.on_action: expected a function, got number", s.join, s,
    { on_action = 1 })
  lu.assertEquals(#s:observers(), 1)
  lu.assertEquals(s:hash(), h)
  lu.assertErrorMsgContains("replication: property 'w': initial 'b' is not one of its values", fg.replication,
    { properties = { w = { values = { "a" }, initial = "b" } } })
  lu.assertErrorMsgContains("replication: unknown field 'latency'", fg.replication, { latency = 3 })
  lu.assertErrorMsgContains("replication: property 'w': values are for an enum, but type is 'int'",
    fg.replication, { properties = { w = { type = "int", values = { "a" } } } })
  lu.assertErrorMsgContains("replication: property 'hp': initial 0 is outside [1, 5]", fg.replication,
    { properties = { hp = { type = "int", min = 1, max = 5, initial = 0 } } })
  lu.assertStrContains(tostring(s), "framegate.Replication (tick 0, 1 observers)")
  s:close()
  lu.assertErrorMsgContains("replication: the session is closed", s.tick, s)
end

-- }====================================================================

return lu.LuaUnit.run(...)
