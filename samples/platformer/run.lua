-- A scripted platformer playtest: the jump buffer, coyote time and the jump permission, tick by
-- tick. The host (this script) owns a tiny physics model and reports ground contact each tick;
-- framegate owns the input buffer and decides every jump, with the reason.
--
--   framegate run samples/platformer
local fg = require "framegate"

local RATE = 60
local w = fg.world {
  rate = RATE,
  buttons = { "jump" },
  jump = { button = "jump", buffer = 6, coyote = 6 },  -- 100 ms each at 60 Hz
}
local hero = w:spawn { grounded = true }

-- The level: a ledge at height 40 until x = 300, a floor at 0 until x = 600, a pit at -200.
local function floor_at(x)
  if x < 300 then return 40 elseif x < 600 then return 0 else return -200 end
end

-- The input script, in milliseconds since the start; each press is held for 15 ms.
local presses = {
  { 2000, "stand still for 2 s, then jump: the grounded tick is refreshed every tick" },
  { 3883, "run off the ledge (3833 ms), press 50 ms later: inside the 100 ms coyote window" },
  { 3903, "press again 20 ms later: refused, the jump permission is spent until a landing" },
  { 4200, "press 50 ms before landing (4250 ms): the 100 ms buffer keeps it for the landing" },
  { 4816, "run off the floor (4666 ms), press 150 ms later: the coyote window has expired" },
  { 5700, "on the pit floor: a new landing restored the permission, the jump works" },
}
for _, p in ipairs(presses) do
  hero:press("jump", fg.ms(p[1]))
  hero:release("jump", fg.ms(p[1] + 15))
end

-- Host physics in presentation units. It reads the committed jump decision of each tick.
local x, y, vy = 0, 40, 0
local RUN_FROM_MS, SPEED, GRAVITY, JUMP_V = 3000, 6, -0.9, 9

local function ms_of(tick) return fg.us_of_tick(tick, RATE) // 1000 end

print("framegate platformer playtest at 60 Hz: jump buffer 6 ticks, coyote window 6 ticks")
print("")
print("tick    time      x      y  ground  what happened")
local quiet, last_ground = 0, true
for tick = 0, 380 do
  local floor = floor_at(x)
  hero:contact(y == floor and vy == 0)
  w:advance()
  local result, why = hero:jump()
  if result == "jump" then vy = JUMP_V end
  if ms_of(tick) >= RUN_FROM_MS then x = x + SPEED end
  floor = floor_at(x)
  if y > floor or vy > 0 then
    vy = vy + GRAVITY
    y = y + vy
    if y <= floor then y, vy = floor, 0 end
  end

  local g = hero:ground()
  local events = {}
  if #hero:input().pressed > 0 then events[#events + 1] = "jump pressed" end
  if g.grounded ~= last_ground then
    events[#events + 1] = g.grounded and "lands" or "leaves the ground"
  end
  if result ~= "no_press" and not (result ~= "jump" and #hero:input().pressed == 0) then
    events[#events + 1] = why
  end
  if #events > 0 then
    if quiet > 0 then print(string.format("            ... %d tick%s", quiet, quiet == 1 and "" or "s")) end
    quiet = 0
    print(string.format("%4d %6d ms %6.1f %6.1f  %-6s  %s", tick, ms_of(tick), x, y,
      g.grounded and "yes" or "no", table.concat(events, "; ")))
  else
    quiet = quiet + 1
  end
  last_ground = g.grounded
end
if quiet > 0 then print(string.format("            ... %d tick%s", quiet, quiet == 1 and "" or "s")) end

print("")
print("the input script:")
for _, p in ipairs(presses) do print(string.format("  %5d ms  %s", p[1], p[2])) end
print(string.format("\n%d ticks, final state hash %s", w:tick(), w:hash()))
