-- SPDX-License-Identifier: MIT
-- test_world.lua: the world, entity and loop bindings as a designer or a tool uses them.
local lu = require "luaunit"
local fg = require "framegate"

local function world(opts)
  opts = opts or {}
  opts.buttons = opts.buttons or { "LP", "HP", "jump" }
  return fg.world(opts)
end

TestWorld = {}

function TestWorld:test_module_has_a_version()
  lu.assertStrMatches(fg.version, "%d+%.%d+%.%d+")
end

function TestWorld:test_userdata_have_names_and_tostring()
  local w = world()
  local p = w:spawn()
  lu.assertStrContains(tostring(w), "framegate.World (tick 0, 1 entities, 60 Hz)")
  lu.assertEquals(tostring(p), "framegate.Entity (1)")
  lu.assertEquals(getmetatable(w).__name, "framegate.World")
  lu.assertEquals(getmetatable(p).__name, "framegate.Entity")
  lu.assertStrContains(tostring(fg.loop()), "framegate.Loop (60 Hz")
end

function TestWorld:test_press_lands_in_its_tick()
  local w = world()
  local p = w:spawn()
  p:press("LP", fg.us_of_tick(3) + 10)
  w:advance(3)
  lu.assertEquals(p:input().pressed, {})
  lu.assertFalse(p:held("LP"))
  w:advance()
  lu.assertEquals(p:input().pressed, { "LP" })
  lu.assertTrue(p:held("LP"))
  lu.assertEquals(p:held_for("LP"), 1)
  local edges = p:edges()
  lu.assertEquals(#edges, 1)
  lu.assertEquals(edges[1].tick, 3)
  lu.assertEquals(edges[1].action, "LP")
end

function TestWorld:test_errors_name_the_problem_at_the_callers_line()
  local w = world()
  local p = w:spawn()
  local ok, err = pcall(function() p:press("MK", 0) end)
  lu.assertFalse(ok)
  lu.assertStrContains(err, "bad argument #1 to 'press' (unknown action 'MK' "
    .. "(declared: up, down, left, right, HP, LP, jump))")
  p:press("LP", 2000)
  ok, err = pcall(function() p:release("LP", 1000) end)
  lu.assertFalse(ok)
  lu.assertStrContains(err, "test_world.lua:")
  lu.assertStrContains(err, "time may not go back")
  lu.assertErrorMsgContains("time must be an integer number of microseconds", p.press, p, "HP", 1.5)
  lu.assertErrorMsgContains("world.tick_rate: 0, expected 1..100000 Hz", fg.world, { rate = 0 })
  lu.assertErrorMsgContains("buttons: 'LP' is declared twice", fg.world, { buttons = { "LP", "LP" } })
  lu.assertErrorMsgContains("field 'buttons[2]': expected a name, got number", fg.world,
    { buttons = { "LP", 3 } })
  lu.assertErrorMsgContains("world.rate: expected an integer, got 1.5", fg.world, { rate = 1.5 })
end

function TestWorld:test_bad_input_leaves_the_world_unchanged()
  local w = world()
  local p = w:spawn()
  p:press("LP", 1000)
  w:advance(2)
  local before = w:hash()
  lu.assertFalse(pcall(p.stick, p, 0 / 0, 0, 50000))
  lu.assertFalse(pcall(p.stick, p, math.huge, 0, 50000))
  lu.assertFalse(pcall(p.press, p, "LP", 60000))   -- already held
  lu.assertFalse(pcall(p.dir, p, 10, 60000))
  lu.assertFalse(pcall(p.press, p, "HP", -1))
  lu.assertEquals(w:hash(), before)
end

function TestWorld:test_snapshot_restore_continues_identically()
  local w = world()
  local p = w:spawn()
  w:advance(5)
  local snap = w:save()
  local hashes = {}
  for t = 5, 40 do
    if t % 6 == 0 then p:press("HP", fg.us_of_tick(t)) end
    if t % 6 == 3 then p:release("HP", fg.us_of_tick(t)) end
    w:advance()
    hashes[t] = w:hash()
  end
  w:restore(snap)
  lu.assertEquals(w:tick(), 5)
  for t = 5, 40 do
    if t % 6 == 0 then p:press("HP", fg.us_of_tick(t)) end
    if t % 6 == 3 then p:release("HP", fg.us_of_tick(t)) end
    w:advance()
    lu.assertEquals(w:hash(), hashes[t])
  end
  local other = fg.world { buttons = { "LP" }, buffer = 16 }
  local ok, err = pcall(other.restore, other, snap)
  lu.assertFalse(ok)
  lu.assertStrContains(err, "another layout")
end

function TestWorld:test_jump_gate_from_lua()
  local w = fg.world { buttons = { "jump" }, jump = { buffer = 6, coyote = 6 } }
  local p = w:spawn { grounded = false }
  p:press("jump", fg.ms(10))
  w:advance()
  local result, why = p:jump()
  lu.assertEquals(result, "never_grounded")
  lu.assertStrContains(why, "never grounded since spawn")
  p:contact(true)
  w:advance()
  lu.assertEquals((p:jump()), "jump")
  lu.assertFalse(p:ground().permission)
  local trace = w:trace()
  local texts = {}
  for _, r in ipairs(trace) do if r.kind == "jump" then texts[#texts + 1] = r.text end end
  lu.assertEquals(#texts, 2)
  lu.assertStrContains(texts[2], "t=1 e1 accepted: jump")
end

function TestWorld:test_device_keys_and_socd()
  local w = world()
  local p = w:spawn()
  p:bind("a", "left")
  p:bind("d", "right")
  p:bind("j", "LP")
  p:input_map { socd_horizontal = "last" }
  p:key("a", true, 1000)
  p:key("d", true, 2000)
  p:key("j", true, 3000)
  w:advance()
  lu.assertEquals((p:direction()), 6)
  lu.assertTrue(p:held("LP"))
  lu.assertErrorMsgContains("socd_horizontal", p.input_map, p, { socd_horizontal = "up" })
  local x, y, pad = fg.stick(0.0, -1.0)
  lu.assertAlmostEquals(y, -1.0, 1e-6)
  lu.assertEquals(x, 0)
  lu.assertEquals(pad, 2)
end

function TestWorld:test_facing_flips_relative_directions()
  local w = world()
  local p = w:spawn { facing = "left" }
  p:dir(6, 1000)
  w:advance()
  local abs, rel = p:direction()
  lu.assertEquals(abs, 6)
  lu.assertEquals(rel, 4)
  lu.assertEquals(p:facing(), "left")
  lu.assertEquals(fg.relative(3, "left"), 1)
end

function TestWorld:test_loop_counts_clamped_time()
  local loop = fg.loop { rate = 60, max_frame_us = 100000 }
  lu.assertEquals(loop:frame(0), 0)
  lu.assertEquals(loop:frame(16667), 1)
  loop:tick_done()
  lu.assertEquals(loop:frame(16667 + 1000000), 6)
  local s = loop:stats()
  lu.assertEquals(s.clamped_us, 900000)
  lu.assertEquals(s.clamped_frames, 1)
  lu.assertErrorMsgContains("host clock went back", loop.frame, loop, 5)
end

function TestWorld:test_closed_world_refuses_use()
  local w = world()
  local p = w:spawn()
  w:close()
  lu.assertErrorMsgContains("closed world", w.advance, w)
  lu.assertErrorMsgContains("closed world", p.press, p, "LP", 0)
  lu.assertEquals(tostring(w), "framegate.World (closed)")
  w:close() -- closing twice is harmless
end

os.exit(lu.LuaUnit.run())
