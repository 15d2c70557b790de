-- SPDX-License-Identifier: MIT
-- test_hooks.lua: rules and presentation hooks propose; the runtime decides. A hook cannot change
-- gameplay state, a failing hook does not stop the tick, a failing rule drops only its request.
local lu = require "luaunit"
local fg = require "framegate"

local function declaration(extra)
  local decl = {
    buttons = { "LP" },
    resources = { health = { max = 100, start = 100 } },
    actions = {
      idle = { neutral = true, loop = true, duration = 1 },
      jab = { input = "LP", startup = 2, active = 1, recovery = 3,
              markers = { { tick = 2, marker = "hit" } },
              hit = { damage = 10, range = 80, hitstop = 0, hitstun = 5, blockstun = 3 } },
      hitstun = { duration = 1, interrupts = true },
      blockstun = { duration = 1 },
    },
  }
  for k, v in pairs(extra or {}) do decl[k] = v end
  return fg.ruleset "hooked"(decl)
end

local function duel(extra)
  local w = fg.world { rules = declaration(extra) }
  local p1 = w:spawn { x = -20 }
  local p2 = w:spawn { x = 20, facing = "left" }
  return w, p1, p2
end

local function rule_errors(w)
  local out = {}
  for _, r in ipairs(w:trace()) do
    if r.text:find("rule error", 1, true) then out[#out + 1] = r.text end
  end
  return out
end

TestHooks = {}

function TestHooks:test_hook_writing_state_gets_an_error_and_changes_nothing()
  local plain, q1 = duel()
  local w, p1 = duel { on_event = function(me) me.x = 500 end }
  q1:request("jab")
  p1:request("jab")
  plain:run(10)
  w:run(10)
  lu.assertEquals(w:hash(), plain:hash())
  local errors = rule_errors(w)
  lu.assertEquals(#errors, 1)
  lu.assertStrContains(errors[1], "'x' is read-only in rules")
  lu.assertEquals(w:committed("hit"), 1)
end

function TestHooks:test_events_are_read_only_records_that_keep_their_values()
  local kept = {}
  local w, p1 = duel { on_event = function(_, ev) kept[#kept + 1] = ev; ev.tick = 0 end }
  p1:request("jab")
  w:run(10)
  lu.assertEquals(#kept, 1)
  local ev = kept[1]
  lu.assertEquals({ ev.marker, ev.action, ev.layer, ev.contact, ev.target },
    { "hit", "jab", "body", "hit", 2 })
  lu.assertNotEquals(ev.tick, 0)
  lu.assertStrContains(rule_errors(w)[1], "event field 'tick' is read-only")
  local names = {}
  for k in pairs(ev) do names[#names + 1] = k end
  lu.assertEquals(names, { "action", "contact", "entity", "kind", "layer", "marker", "occurrence",
    "reported", "sequence", "target", "tick" })
  lu.assertStrContains(tostring(ev), "framegate.Event (hit of entity 1, jab, tick ")
  local tick = ev.tick
  p1:request("jab")
  w:run(10)
  lu.assertEquals(#kept, 2)
  lu.assertEquals({ ev.marker, ev.tick }, { "hit", tick }) -- a copy: later events leave it alone
  lu.assertTrue(kept[2].tick > tick)
end

function TestHooks:test_hook_that_raises_does_not_stop_the_tick()
  local w, p1, p2 = duel { on_event = function() error("presentation exploded") end }
  p1:request("jab")
  lu.assertEquals(w:run(10), 10)
  lu.assertEquals(p2:resource("health"), 90)
  local errors = rule_errors(w)
  lu.assertEquals(#errors, 1)
  lu.assertStrContains(errors[1], "test_hooks.lua:")
  lu.assertStrContains(errors[1], "presentation exploded")
end

function TestHooks:test_failing_rule_drops_its_request_and_leaves_the_world_as_if_none()
  local plain = duel()
  local w, p1 = duel { request = function() error("rule bug") end }
  p1:request("jab")
  plain:run(10)
  w:run(10)
  lu.assertEquals(w:hash(), plain:hash())
  local d = w:decisions()[1]
  lu.assertEquals(d.decision, "rejected")
  lu.assertEquals(d.reason, "rule_error")
  lu.assertStrContains(d.text, "rule bug")
end

function TestHooks:test_rule_verdicts_reach_the_decision()
  local w, p1 = duel { request = function(_, req)
    if req.action == "jab" then return fg.reject("no jabs today") end
    return fg.default
  end }
  p1:request("jab")
  w:run(1)
  lu.assertEquals(w:decisions()[1].text, "rejected by rule: jab (no jabs today)")
  local bad = duel { request = function() return { verdict = "accept" } end }
  bad:request(bad:entity(1), "jab")
  bad:run(1)
  lu.assertStrContains(bad:decisions()[1].text, "returned a plain table")
end

function TestHooks:test_views_are_read_only_everywhere()
  local w, p1 = duel()
  local view = p1:view()
  lu.assertErrorMsgContains("read-only", function() view.x = 1 end)
  lu.assertErrorMsgContains("read-only", function() view.resources.health = 1 end)
  lu.assertEquals(view.resources.health, 100)
  lu.assertEquals(w:tick(), 0)
end

function TestHooks:test_cues_only_from_on_event()
  lu.assertErrorMsgContains("only be emitted from an on_event hook", fg.cue, "boom")
  local w, p1 = duel { on_event = function(_, ev) fg.cue("spark", ev) end }
  p1:request("jab")
  w:run(5)
  local cues = w:cues()
  lu.assertEquals(#cues, 1)
  lu.assertEquals(cues[1].name, "spark")
  lu.assertEquals(cues[1].a, 2) -- the event's target
  lu.assertEquals(#w:cues(), 0)  -- drained
end

function TestHooks:test_cue_params_from_an_event_a_table_or_nothing()
  local seen = {}
  local w, p1 = duel { on_event = function(_, ev)
    seen[#seen + 1] = ev
    fg.cue("from_event", ev)
    fg.cue("from_table", { a = 7, b = -3 })
    fg.cue("from_names", { target = 11, occurrence = 12 })
    fg.cue("a_wins", { a = 1, target = 2, b = 3, occurrence = 4 })
    fg.cue("bare")
    fg.cue("not_a_table", 42)
  end }
  p1:request("jab")
  w:run(5)
  lu.assertEquals(#seen, 1)
  local got = {}
  for _, c in ipairs(w:cues()) do got[#got + 1] = { c.name, c.a, c.b } end
  lu.assertEquals(got, {
    { "from_event", seen[1].target, seen[1].occurrence },
    { "from_table", 7, -3 }, { "from_names", 11, 12 }, { "a_wins", 1, 3 },
    { "bare", 0, 0 }, { "not_a_table", 0, 0 } })
  lu.assertErrorMsgContains("only be emitted from an on_event hook", fg.cue, "after", seen[1])
end

function TestHooks:test_every_event_field_reads_as_pairs_lists_it()
  local kept
  local w, p1 = duel { on_event = function(_, ev) kept = ev end }
  p1:request("jab")
  w:run(10)
  local listed = {}
  for k, v in pairs(kept) do listed[k] = v end
  local fields = { "action", "bounce", "combo", "contact", "counter", "damage", "entity",
    "hit_box", "hurt_box", "kind", "layer", "marker", "miss", "occurrence", "other", "projectile",
    "reported", "sequence", "target", "tick", "x", "y" }
  for _, k in ipairs(fields) do lu.assertEquals(kept[k], listed[k], k) end
  lu.assertEquals(kept.kind, "marker")
  lu.assertNil(kept.damage) -- a marker event has no contact fields
  lu.assertNil(kept.x)
  for _, k in ipairs { "a", "b", "", "actions", "act", "hit", "hit_boxes", "comb", "contacts",
    "count", "ticks", "xy", "z", "Action", 1, true } do
    lu.assertNil(kept[k], tostring(k))
  end
  lu.assertErrorMsgContains("framegate.Event expected",
    getmetatable(kept).__index, {}, "tick")
end

function TestHooks:test_restore_is_a_rollback_unless_fresh()
  local seen = 0
  local w, p1 = duel { on_event = function() seen = seen + 1 end }
  local snap = w:save()
  p1:request("jab")
  w:run(5)
  lu.assertEquals(seen, 1)
  w:restore(snap)               -- a rollback: the re-simulated hit is not presented again
  p1:request("jab")
  w:run(5)
  lu.assertEquals(seen, 1)
  w:restore(snap, { fresh = true })  -- a new take: presentation starts over
  p1:request("jab")
  w:run(5)
  lu.assertEquals(seen, 2)
end

os.exit(lu.LuaUnit.run())
