-- SPDX-License-Identifier: MIT
-- test_windows_in_ticks.lua: every window and buffer counts ticks the same way: `N` means the
-- tick something happens and the N ticks after it (a motion's buffer, the jump buffer), or the
-- N ticks before a window opens (a cancel window's buffer). Each is tested at its edge: N works,
-- N + 1 does not.
local lu = require "luaunit"
local fg = require "framegate"

TestWindowsInTicks = {}

local function names(list)
  local out = {}
  for _, c in ipairs(list) do out[#out + 1] = ("%s@%d"):format(c.name, c.tick + c.age) end
  return table.concat(out, " ")
end

-- buffer = 5: asserted on the completion tick and the 5 ticks after it, not the sixth.
function TestWindowsInTicks:test_a_motion_buffer_of_5_keeps_asking_5_ticks_after_the_press()
  local m = fg.motion("236P", { buffer = 5, buttons = { "LP" }, groups = { P = { "LP" } } })
  lu.assertEquals(names(m:match("2@0 3@1 6@2 LP@3 5@4")), "236P@3 236P@4 236P@5 236P@6 236P@7 236P@8")
  local zero = fg.motion("236P", { buffer = 0, buttons = { "LP" }, groups = { P = { "LP" } } })
  lu.assertEquals(names(zero:match("2@0 3@1 6@2 LP@3 5@4")), "236P@3")
end

-- The jump gate's buffer = 5: a press 5 ticks before landing jumps on landing, 6 does not.
function TestWindowsInTicks:test_the_jump_buffer_of_5_takes_a_press_5_ticks_old()
  local function land_after_press(ticks_before)
    local w = fg.world { buttons = { "jump" }, jump = { buffer = 5, coyote = 0 } }
    local p = w:spawn { grounded = false }
    p:contact(true)
    w:advance()
    p:contact(false)
    w:advance()
    p:press("jump", fg.us_of_tick(w:tick()))
    p:release("jump", fg.us_of_tick(w:tick()) + 1000)
    for _ = 1, ticks_before do w:advance() end
    p:contact(true)
    w:advance()
    return (p:jump())
  end
  lu.assertEquals(land_after_press(5), "jump")
  lu.assertNotEquals(land_after_press(6), "jump")
end

-- A cancel window's buffer = 4: a request 4 ticks before the window waits for it; 5 is refused.
function TestWindowsInTicks:test_a_cancel_window_buffer_of_4_waits_from_4_ticks_before()
  local src = [[
local fg = require "framegate"
return fg.ruleset "w" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true, loop = true },
    slow = { startup = 10, active = 2, recovery = 8,
             cancels = { { from = 10, to = 15, into = { "quick" }, buffer = 4 } } },
    quick = { duration = 10 },
  },
}
]]
  local function ask_at(tick)
    local w = fg.world { rules = fg.rules("w/rules.lua", src) }
    local p = w:spawn()
    w:request(p, "slow")
    w:run(tick) -- the request made now is decided on slow's tick `tick`
    w:request(p, "quick")
    w:run(1)
    return p:decision()
  end
  local d = ask_at(6) -- decided on slow's tick 6; the window opens on its tick 10: 4 ahead
  lu.assertEquals(d.decision, "queued")
  lu.assertEquals(d.text, "queued: quick waits 4 ticks for slow's window 10-15")
  d = ask_at(5) -- 5 ahead
  lu.assertEquals(d.decision, "rejected")
  lu.assertStrContains(d.text, "cancel window 10-15 is not open yet")
end

os.exit(lu.LuaUnit.run())
