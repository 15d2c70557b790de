-- SPDX-License-Identifier: MIT
-- test_chains.lua: several actions on one input. A chain's steps share a button and the state
-- picks the step (see samples/brawler for the mashed P, P, K); any number of actions may share a
-- motion, with no silent cap; an input that fits none of its actions says so, naming each.
local lu = require "luaunit"
local fg = require "framegate"

local function world_of(src)
  local w = fg.world { rules = fg.rules("chains/rules.lua", src) }
  local p = w:spawn { x = -35 }
  w:spawn { x = 35, facing = "left" }
  return w, p
end

TestChains = {}

-- Six stances, each in its own group, each with its own LP attack: the fifth and sixth are as
-- reachable as the first.
function TestChains:test_six_actions_share_one_motion_and_each_is_reached()
  local lines = { 'local fg = require "framegate"', 'return fg.ruleset "stances" {',
    '  buttons = { "LP" },', '  actions = {', '    idle = { neutral = true, loop = true },' }
  for k = 1, 6 do
    lines[#lines + 1] = ('    stance%d = { neutral = true, loop = true, group = "g%d" },'):format(k, k)
    lines[#lines + 1] = ('    strike%d = { input = "LP", requires = "g%d", duration = 10 },'):format(k, k)
  end
  lines[#lines + 1] = "  },\n}\n"
  local src = table.concat(lines, "\n")
  for k = 1, 6 do
    local w, p = world_of(src)
    w:request(p, "stance" .. k)
    w:run(1)
    w:play(p, "LP@0")
    w:run(2)
    lu.assertEquals((p:action()), "strike" .. k, "stance " .. k)
  end
end

function TestChains:test_an_input_that_fits_none_of_its_actions_names_each()
  local w, p = world_of([[
local fg = require "framegate"
return fg.ruleset "jabs" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true, loop = true },
    dizzy = { group = "dizzy", duration = 40 },
    stand_jab = { input = "LP", requires = "grounded", duration = 10 },
    air_jab = { input = "LP", requires = "airborne", duration = 10 },
  },
}
]])
  w:request(p, "dizzy")
  w:run(1)
  w:play(p, "LP@0")
  w:run(3)
  local texts = {}
  for _, d in ipairs(w:decisions(p)) do texts[#texts + 1] = d.text end
  lu.assertEquals(texts, {
    "accepted: dizzy from idle",
    "rejected: input LP asks for air_jab or stand_jab, and none fits: air_jab needs airborne "
      .. "(fighter is dizzy); stand_jab needs grounded (fighter is dizzy)",
  })
  lu.assertEquals(w:decisions(p)[2].reason, "nothing_fits")
end

function TestChains:test_a_followup_no_window_leads_to_is_refused_when_loading()
  local ok, err = pcall(fg.rules, "chains/rules.lua", [[
local fg = require "framegate"
return fg.ruleset "orphan" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true, loop = true },
    jab = { input = "LP", duration = 10 },
    jab2 = { input = "LP", followup = true, duration = 10 },
  },
}
]])
  lu.assertFalse(ok)
  lu.assertStrContains(err, "actions.jab2.followup: no cancel window of another action leads to "
    .. "jab2, so it could never start")
end

-- Five long-named actions on one input: the "none fits" text names all five, whole, in the
-- decisions, the trace's lines and a what-if line (texts were cut at 255 or 511 bytes).
function TestChains:test_a_long_none_fits_text_is_never_cut()
  local lines = { 'local fg = require "framegate"', 'return fg.ruleset "long" {',
    '  buttons = { "LP" },', '  actions = {', '    idle = { neutral = true, loop = true },',
    '    dizzy = { group = "dizzy", duration = 40 },' }
  for k = 1, 5 do
    lines[#lines + 1] = ('    strike_with_a_longer_name_%d = { input = "LP", requires = '
      .. '"group_with_a_long_name_%d", duration = 10 },'):format(k, k)
    lines[#lines + 1] = ('    stance_with_a_long_name_%d = { neutral = true, group = '
      .. '"group_with_a_long_name_%d" },'):format(k, k)
  end
  lines[#lines + 1] = "  },\n}\n"
  local src = table.concat(lines, "\n")
  local w, p = world_of(src)
  w:request(p, "dizzy")
  w:run(1)
  local snap = w:save()
  w:play(p, "LP@0")
  w:run(3)
  local want = {}
  for k = 1, 5 do
    want[k] = ("strike_with_a_longer_name_%d needs group_with_a_long_name_%d (fighter is dizzy)")
      :format(k, k)
  end
  local whole = "rejected: input LP asks for strike_with_a_longer_name_1, strike_with_a_longer_name_2, "
    .. "strike_with_a_longer_name_3, strike_with_a_longer_name_4 or strike_with_a_longer_name_5, "
    .. "and none fits: " .. table.concat(want, "; ")
  local ds = w:decisions(p)
  lu.assertEquals(ds[#ds].text, whole)
  lu.assertTrue(#whole > 500)
  local line
  for _, r in ipairs(w:trace()) do
    if r.text:find("none fits", 1, true) then line = r.text end
  end
  lu.assertStrContains(line, whole)
  -- The what-if of rules where the first strike may start while dizzy: it now fits, and the
  -- line carries the old text whole.
  local report = w:what_if { from = snap, rules = fg.rules("chains/rules.lua",
    (src:gsub('requires = "group_with_a_long_name_1"', 'requires = "dizzy"'))) }
  lu.assertEquals(report.differences, 1)
  lu.assertStrContains(report.lines[1], "(was " .. whole .. ")")
end

function TestChains:test_queue_policy_is_read_and_checked()
  local base = [[
local fg = require "framegate"
return fg.ruleset "q" {
  buttons = { "LP" },
  queue = QUEUE,
  actions = { idle = { neutral = true, loop = true } },
}
]]
  local function load(q) return pcall(fg.rules, "q/rules.lua", (base:gsub("QUEUE", q))) end
  lu.assertTrue(load('{ depth = 4, order = "fifo", expiry = 30 }'))
  lu.assertTrue(load('{ order = "latest" }'))
  local ok, err = load('{ depth = 5, order = "newest" }')
  lu.assertFalse(ok)
  lu.assertStrContains(err, "queue.order: 'newest', expected fifo or latest")
  lu.assertStrContains(err, "queue.depth: 5 is out of range, expected 1-4")
end

os.exit(lu.LuaUnit.run())
