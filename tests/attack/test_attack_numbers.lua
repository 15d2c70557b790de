-- SPDX-License-Identifier: MIT
-- test_attack_numbers.lua: numbers at the edges from Lua (class 6) and the limit on reloads
-- (class 7). Bound: each call fails at once with a message naming the argument or field, the
-- value and the range; the world keeps the hash of a twin that never saw the call.
local lu = require "luaunit"
local fg = require "framegate"

local RULES = [[
local fg = require "framegate"
return fg.ruleset "probe" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true, loop = true, duration = 1 },
    jab = { input = "LP", startup = 2, active = 1, recovery = 2, priority = %d },
  },
}
]]

local function twins()
  local rules = fg.rules("probe/rules.lua", RULES:format(1))
  local a, b = fg.world { rules = rules, seed = 3 }, fg.world { rules = rules, seed = 3 }
  for _, w in ipairs { a, b } do
    w:spawn()
    w:spawn()
    w:run(5)
  end
  return a, b
end

local function refused(pattern, f, ...)
  local ok, err = pcall(f, ...)
  lu.assertFalse(ok, "expected a refusal matching " .. pattern)
  lu.assertStrContains(tostring(err), pattern)
end

TestNumbers = {}

-- Before: 2^32 + 1 was cast to entity 1, which then acted.
function TestNumbers:test_entity_ids_past_32_bits_name_no_entity()
  local w, twin = twins()
  refused("entity id: 4294967297 is out of range, expected 1-4294967295", w.request, w,
    2 ^ 32 + 1, "jab")
  lu.assertNil(w:entity(2 ^ 32 + 1))
  w:run(10)
  twin:run(10)
  lu.assertEquals(w:hash(), twin:hash())
end

-- Before: NaN and infinities were converted to integers (undefined behaviour), 1e12 wrapped.
function TestNumbers:test_positions_must_be_finite_and_in_range()
  local w, twin = twins()
  refused("spawn.x: -nan is out of range, expected a finite number from -16384 to 16384", w.spawn,
    w, { x = 0 / 0 })
  refused("spawn.y: inf is out of range", w.spawn, w, { y = math.huge })
  refused("position x: 1e+12 is out of range", w:entity(1).position, w:entity(1), 1e12, 0)
  lu.assertEquals(w:stats().entities, 2)
  lu.assertEquals(w:hash(), twin:hash())
end

-- Before: fg.ms(0/0) returned math.mininteger.
function TestNumbers:test_time_helpers_refuse_nan_and_overflow()
  refused("fg.ms: -nan is out of range, expected a finite number", fg.ms, 0 / 0)
  refused("fg.ms: 1e+300 is out of range", fg.ms, 1e300)
  lu.assertEquals(fg.ms(16.5), 16500)
  lu.assertEquals(fg.tick_of_us(math.maxinteger, 60), 553402322211286)
end

-- Before: one edge ten years ahead was taken, and every later edge of that player was refused
-- as "time going back", for good.
function TestNumbers:test_an_edge_far_ahead_is_refused_and_later_input_still_goes_in()
  local w, twin = twins()
  local p = w:entity(1)
  refused("more than 60 s ahead of the world", p.press, p, "LP", 10 * 365 * 24 * 3600 * 1000000)
  local now = fg.us_of_tick(w:tick() + 1, 60)
  p:press("LP", now)
  twin:entity(1):press("LP", now)
  w:run(10)
  twin:run(10)
  lu.assertEquals(w:hash(), twin:hash())
end

TestVersions = {}

-- Class 7: each reload adds a ruleset version, and a world keeps 256. The count is reported
-- before the limit (world:stats, the reload's info); at the limit the reload is refused by
-- name and the old rules keep running. Before: nothing said how many were left.
function TestVersions:test_reloads_report_what_is_left_and_stop_with_a_message()
  local w = twins()
  local stats = w:stats()
  lu.assertEquals(stats.versions, 1)
  lu.assertEquals(stats.versions_max, 256)
  local left
  for i = 1, 255 do
    local info, err = w:reload(fg.rules("probe/rules.lua", RULES:format(i % 2)))
    lu.assertNotNil(info, err)
    left = info.versions_left
    lu.assertEquals(left, 255 - i)
  end
  lu.assertEquals(w:stats().versions, 256)
  local info, err = w:reload(fg.rules("probe/rules.lua", RULES:format(1)))
  lu.assertNil(info)
  lu.assertStrContains(err, "this world holds 256 ruleset versions, the most it keeps")
  -- The rules of the last good reload keep running.
  lu.assertEquals(w:stats().versions, 256)
  w:request(1, "jab")
  w:run(2)
  lu.assertEquals(w:entity(1):action(), "jab")
end

os.exit(lu.LuaUnit.run())
