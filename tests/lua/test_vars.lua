-- SPDX-License-Identifier: MIT
-- test_vars.lua: per-entity variables. Declared in the ruleset (integers and flags, ranges and
-- start values), read by request rules (me.vars), hooks and hosts (p:var, p:vars), changed only
-- by proposals a request rule makes (fg.set, fg.add) that the gate commits; they survive a
-- snapshot and restore, are in the state hash and pass the sync test. Also the combo and juggle
-- counters on the rule's view (me.combo, me.opponent.combo).
local lu = require "luaunit"
local fg = require "framegate"

local function declaration(extra)
  local decl = {
    buttons = { "LP", "HP" },
    resources = { health = { max = 1000, start = 1000 } },
    vars = { stance = { min = 0, max = 2 }, charge = { min = 0, max = 10, start = 3 },
             armed = { flag = true }, parried = false, count = 0 },
    boxes = { hurt = { x = -20, y = 0, w = 40, h = 100 } },
    actions = {
      idle = { neutral = true, loop = true, duration = 1 },
      hitstun = { duration = 1, interrupts = true },
      blockstun = { duration = 1 },
      switch = { input = "HP", duration = 2 },
      jab = { input = "LP", startup = 1, active = 1, recovery = 1,
              boxes = { { "hit", from = 1, x = 0, y = 0, w = 80, h = 100 } },
              hit = { damage = 10, hitstop = 0, hitstun = 30 } },
      poke = { startup = 1, active = 1, recovery = 10,
               cancels = { { from = 1, to = 11, into = { "jab" }, when = { stance = 1 } },
                           { from = 1, to = 11, into = { "finisher" }, when = { charge = { min = 8 } } } } },
      finisher = { startup = 1, active = 1, recovery = 1,
                   boxes = { { "hit", from = 1, x = 0, y = 0, w = 80, h = 100 } },
                   hit = { damage = 100, hitstop = 0, hitstun = 30 } },
    },
    request = function(me, req)
      if req.action == "switch" then
        fg.set(me, "stance", (me.vars.stance + 1) % 3)
        fg.add(me, "charge", 4)
        fg.set(me, "armed", not me.vars.armed)
        fg.add(me, "count", 1)
      elseif req.action == "finisher" and me.opponent.combo < 2 then
        return fg.reject("finisher needs a 2-hit combo (" .. me.opponent.combo .. ")")
      end
      return fg.default
    end,
  }
  for k, v in pairs(extra or {}) do decl[k] = v end
  return fg.ruleset "stances"(decl)
end

local function duel(extra)
  local rules = declaration(extra)
  local w = fg.world { rules = rules }
  local p1 = w:spawn { x = -30 }
  local p2 = w:spawn { x = 30, facing = "left" }
  return w, p1, p2, rules
end

local function fails(f)
  local ok, err = pcall(f)
  lu.assertFalse(ok)
  return tostring(err)
end

TestVars = {}

function TestVars:test_declared_variables_start_at_their_start_values()
  local _, p1 = duel()
  local rules = fg.rules(declaration())
  lu.assertEquals(p1:vars(), { stance = 0, charge = 3, armed = false, parried = false, count = 0 })
  lu.assertEquals(p1:var("charge"), 3)
  lu.assertEquals(rules:vars().charge, { min = 0, max = 10, start = 3, flag = false })
  lu.assertEquals(rules:vars().armed, { min = 0, max = 1, start = false, flag = true })
  lu.assertStrContains(fails(function() p1:var("stamina") end),
    "'stamina' is not a variable of 'stances' (vars: armed, charge, count, parried, stance)")
end

function TestVars:test_a_request_rule_proposes_and_the_gate_commits()
  local w, p1, p2 = duel()
  p1:request("switch")
  w:run(1)
  lu.assertEquals(p1:vars(), { stance = 1, charge = 7, armed = true, parried = false, count = 1 })
  lu.assertEquals(p2:vars().stance, 0) -- each entity has its own
  w:run(3)
  p1:request("switch")
  w:run(1)
  -- add keeps the value in its range (7 + 4 -> 10), set toggles the flag back
  lu.assertEquals(p1:vars(), { stance = 2, charge = 10, armed = false, parried = false, count = 2 })
  local lines = {}
  for _, r in ipairs(w:trace_records()) do
    if r.kind == "var" then lines[#lines + 1] = r.text end
  end
  lu.assertEquals(#lines, 8)
  lu.assertStrContains(lines[6], "var charge: 7 -> 10 (add 4)")
end

function TestVars:test_the_view_reads_variables_in_rules_and_hooks()
  local seen
  local w, p1 = duel { on_event = function(me, ev)
    if ev.kind == "hit" then seen = { me.vars.stance, me.vars.armed } end
  end }
  p1:request("switch")
  w:run(3)
  p1:request("jab")
  w:run(3)
  lu.assertEquals(seen, { 1, true })
  local names = {}
  for k in pairs(p1:view().vars) do names[#names + 1] = k end
  lu.assertEquals(names, { "armed", "charge", "count", "parried", "stance" })
  lu.assertStrContains(fails(function() p1:view().vars.stance = 2 end), "read-only")
end

function TestVars:test_nothing_else_may_change_a_variable()
  local errors = {}
  local w, p1 = duel { on_event = function(me)
    local ok, err = pcall(fg.set, me, "stance", 2)
    errors[#errors + 1] = not ok and tostring(err) or "accepted"
  end }
  p1:request("jab")
  w:run(3)
  lu.assertStrContains(errors[1], "variables change only through a request rule")
  lu.assertEquals(p1:var("stance"), 0)
  -- from the host, between ticks
  lu.assertStrContains(fails(function() fg.set(p1:view(), "stance", 1) end),
    "variables change only through a request rule")
end

function TestVars:test_a_proposal_out_of_range_fails_the_rule_and_drops_its_proposals()
  local w, p1 = duel { request = function(me, req)
    if req.action == "switch" then
      fg.add(me, "count", 5)
      fg.set(me, "stance", 3)
    end
    return fg.default
  end }
  p1:request("switch")
  w:run(1)
  lu.assertEquals(p1:var("count"), 0) -- the add before the error is dropped with it
  local d = p1:decision()
  lu.assertStrContains(d.text, "set stance: 3, expected a value in 0..2 (vars.stance)")
  lu.assertStrContains(d.text, "test_vars.lua:")
end

function TestVars:test_variables_survive_a_snapshot_and_restore()
  local w, p1 = duel()
  p1:request("switch")
  w:run(1)
  local snap, hash = w:save(), w:hash()
  lu.assertEquals(p1:var("stance"), 1)
  w:run(3)
  p1:request("switch")
  w:run(1)
  lu.assertEquals(p1:var("stance"), 2)
  lu.assertNotEquals(w:hash(), hash) -- the variables are in the hash
  w:restore(snap)
  lu.assertEquals(p1:vars(), { stance = 1, charge = 7, armed = true, parried = false, count = 1 })
  lu.assertEquals(w:hash(), hash)
  -- the diff names the variable
  w:run(3)
  p1:request("switch")
  w:run(1)
  local found = false
  for _, d in ipairs(w:diff(snap, w:save())) do
    if d.path == "e1.combat.vars[4]" then found = d.hashed end -- stance: the 5th by name
  end
  lu.assertTrue(found)
end

function TestVars:test_the_sync_test_re_runs_the_proposals_without_divergence()
  local w, p1, p2 = duel()
  local st = w:synctest { check = 4 }
  for i = 1, 40 do
    if i % 5 == 0 then p1:request("switch") end
    if i % 7 == 0 then p2:request("switch") end
    local ok, report = st:advance(1)
    lu.assertTrue(ok, report and report.text)
  end
  lu.assertEquals(p1:var("count"), 8)
  lu.assertEquals(p2:var("count"), 5)
end

function TestVars:test_a_rule_allows_a_move_by_the_opponents_combo_count()
  local w, p1, p2 = duel()
  p1:request("finisher")
  w:run(1)
  lu.assertStrContains(p1:decision().text, "finisher needs a 2-hit combo (0)")
  p1:request("jab")
  w:run(3)
  p1:request("jab")
  w:run(3)
  lu.assertEquals(p2:combat().combo, 2)
  p1:request("finisher") -- the rule reads the same counter as p:combat()
  w:run(1)
  lu.assertEquals({ p1:decision().action, p1:decision().decision }, { "finisher", "accepted" })
end

function TestVars:test_the_rule_view_shows_combo_and_juggle_counters()
  local w, p1, p2 = duel()
  p1:request("jab")
  w:run(3)
  local v = p2:view()
  lu.assertEquals({ v.combo, v.combo_damage, v.juggle, v.juggle_limit, v.launched },
    { 1, 10, 0, 0, false })
  lu.assertEquals(p1:view().opponent.combo, 1)
  lu.assertEquals(p1:view().opponent.id, 2)
end

function TestVars:test_a_cancel_window_opens_by_a_variable()
  local w, p1 = duel { request = function() return fg.default end }
  p1:request("poke")
  w:run(3)
  p1:request("jab")
  w:run(1)
  lu.assertEquals(p1:decision().decision, "rejected")
  lu.assertStrContains(p1:decision().text, "cancel window 1-11 needs stance = 1 (is 0)")
  lu.assertEquals(p1:decision().reason, "window_needs_var")
  w:run(20)
  local w2, q1 = duel { request = function(me, req)
    if req.action == "switch" then fg.set(me, "stance", 1) fg.add(me, "charge", 4) end
    return fg.default
  end }
  q1:request("switch")
  w2:run(5)
  q1:request("poke")
  w2:run(3)
  q1:request("jab")
  w2:run(1)
  lu.assertEquals({ q1:decision().decision, q1:decision().reason }, { "accepted", "cancel" })
  w2:run(20)
  q1:request("poke")
  w2:run(3)
  q1:request("finisher")
  w2:run(1)
  lu.assertStrContains(q1:decision().text, "cancel window 1-11 needs charge in 8..2000000000 (is 7)")
end

-- The meter's phase agrees with the decision: a window whose condition fails shows as recovery.
function TestVars:test_a_window_whose_condition_fails_is_not_shown_open()
  local function phase_in_recovery(stance)
    local w, p1 = duel { request = function(me, req)
      if req.action == "switch" then fg.set(me, "stance", stance) end
      return fg.default
    end }
    p1:request("switch")
    w:run(5)
    p1:request("poke")
    w:run(4)
    local name, elapsed, _, phase = p1:action()
    lu.assertEquals({ name, elapsed }, { "poke", 3 })
    return phase
  end
  lu.assertEquals(phase_in_recovery(0), "recovery") -- stance 0, charge 3: neither window opens
  lu.assertEquals(phase_in_recovery(1), "cancel") -- stance 1 opens the window into jab
end

-- An action's own changes: on every start (a set, a flag, an add kept in range) and on each hit
-- that lands (not on a whiff), traced like a rule's, in the hash and under the sync test.
local function with_effects(effects)
  local actions = declaration().actions
  for name, e in pairs(effects) do
    for k, v in pairs(e) do actions[name][k] = v end
  end
  return actions
end

function TestVars:test_actions_change_variables_on_start_and_on_hit()
  local actions = with_effects {
    jab = { on_start = { set = { stance = 2, armed = true }, add = { count = 1 } },
            on_hit = { add = { charge = 5 } } } }
  local w, p1, p2 = duel { actions = actions }
  p1:request("jab")
  w:run(4)
  lu.assertEquals({ p1:var("stance"), p1:var("armed"), p1:var("count"), p1:var("charge") },
    { 2, true, 1, 8 })
  lu.assertTrue(p2:resource("health") < 1000, "the jab landed")
  local texts = {}
  for _, r in ipairs(w:trace()) do
    if r.text:find(" var ", 1, true) then texts[#texts + 1] = r.text end
  end
  lu.assertEquals(texts, { "t=0 e1 var armed: 0 -> 1 (set 1)", "t=0 e1 var stance: 0 -> 2 (set 2)",
    "t=0 e1 var count: 0 -> 1 (add 1)", "t=1 e1 var charge: 3 -> 8 (add 5)" })
  w:run(30)
  p1:request("jab")
  w:run(4)
  lu.assertEquals({ p1:var("count"), p1:var("charge") }, { 2, 10 }, "kept in range: 8 + 5 -> 10")

  -- Out of reach: the start changes, the hit's does not.
  local v = fg.world { rules = declaration { actions = actions } }
  local q1 = v:spawn { x = -300 }
  v:spawn { x = 300, facing = "left" }
  q1:request("jab")
  v:run(4)
  lu.assertEquals({ q1:var("count"), q1:var("charge") }, { 1, 3 })

  local s = fg.world { rules = declaration { actions = actions } }
  local s1 = s:spawn { x = -30 }
  s:spawn { x = 30, facing = "left" }
  local st = s:synctest { check = 8 }
  for t = 0, 80 do
    if t % 20 == 0 then s1:request("jab") end
    local ok, report = st:advance()
    if not ok then lu.fail(report.text) end
  end
  lu.assertEquals(s1:var("count"), 5)
end

function TestVars:test_mistakes_in_action_changes_name_the_field()
  local function load(effects)
    return fails(function() fg.world { rules = declaration { actions = with_effects(effects) } } end)
  end
  lu.assertStrContains(load { jab = { on_start = { set = { stamina = 1 } } } },
    "actions.jab.on_start.set.stamina: 'stamina' is not a variable of 'stances' "
    .. "(vars: armed, charge, count, parried, stance)")
  lu.assertStrContains(load { jab = { on_hit = { set = { stance = 3 } } } },
    "actions.jab.on_hit.set.stance: 3, expected a value in 0..2")
  lu.assertStrContains(load { jab = { on_hit = { add = { charge = "lots" } } } },
    "actions.jab.on_hit.add.charge: expected an integer, got string 'lots'")
  lu.assertStrContains(load { jab = { on_start = { toggle = { armed = true } } } },
    "actions.jab.on_start.toggle")
  lu.assertStrContains(load { jab = { on_start = { add = { a = 1, b = 1, c = 1, d = 1, e = 1 } } } },
    "'e': an action makes at most 4 variable changes (on_start and on_hit together)")
end

function TestVars:test_mistakes_in_the_declaration_name_the_field()
  local function load(vars)
    return fails(function() fg.world { rules = declaration { vars = vars } } end)
  end
  lu.assertStrContains(load { stance = { min = 0, max = 2, start = 5 } },
    "vars.stance.start: 5, expected a value in 0..2")
  lu.assertStrContains(load { stance = { min = 3, max = 2 } }, "vars.stance.max: 2 is below min (3)")
  lu.assertStrContains(load { stance = { min = 0, max = 2, step = 1 } }, "vars.stance.step")
  lu.assertStrContains(load { stance = "high" }, "vars.stance")
  lu.assertStrContains(load { stance = 1.5 }, "vars.stance: 1.5, expected an integer start value")
  local function with_window(when)
    local actions = declaration().actions
    actions.poke.cancels[1].when = when
    return fails(function() fg.world { rules = declaration { actions = actions } } end)
  end
  lu.assertStrContains(with_window { stamina = 1 }, "actions.poke.cancels[1].when.stamina: "
    .. "'stamina' is not a variable of 'stances' (vars: armed, charge, count, parried, stance)")
  lu.assertStrContains(with_window { charge = { min = 5, max = 3 } },
    "actions.poke.cancels[1].when.charge: min 5 is above max 3")
  lu.assertStrContains(with_window { stance = 1, charge = 2 },
    "actions.poke.cancels[1].when: 2 variables, expected one ({ stance = 2 })")
  lu.assertStrContains(with_window { stance = "high" },
    "actions.poke.cancels[1].when.stance: string 'high', expected an integer, a boolean or { min =, max = }")
  local many = {}
  for i = 1, 9 do many["v" .. i] = 0 end
  lu.assertStrContains(load(many), "at most 8 variables per ruleset")
end

os.exit(lu.LuaUnit.run())
