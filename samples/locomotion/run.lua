-- samples/locomotion/run.lua: locomotion signals driven by a scripted stick path.
--
--   framegate run samples/locomotion            (or: framegate lua samples/locomotion/run.lua)
--
-- A tiny movement model turns the stick into acceleration and velocity; fg.locomotion turns those
-- into what an animation graph reads. Each tick prints the cardinal direction, the locomotion and
-- orientation-warping angles and the events (start, stop, pivot enter/exit, wall).

local fg = require "framegate"

local RATE = 60
local DT = 1 / RATE
local MAX_SPEED, MAX_ACCEL, BRAKING, TURN_RATE = 6.0, 20.0, 20.0, 540.0

-- The stick path: each segment holds the stick for a number of ticks. `strafe` locks the body to
-- the aim (yaw 0); otherwise the body turns toward where it moves. `wall` stops the body dead, as
-- a wall in front would.
local path = {
  { ticks = 20, x = 0, y = 1, note = "run forward" },
  { ticks = 24, x = 0, y = -1, note = "reverse: a pivot; it ends once turned and 0.2 s have passed" },
  { ticks = 8, x = 0, y = 0, note = "let go: stop" },
  { ticks = 18, x = 0, y = 1, strafe = true, note = "strafe (body locked to the aim): forward" },
  { ticks = 4, x = -0.9, y = -0.45, strafe = true, note = "pivot toward back-left..." },
  { ticks = 16, x = 0.9, y = -0.45, strafe = true, note = "...counter-steer to back-right: a re-pivot" },
  { ticks = 8, x = 0, y = 1, strafe = true, note = "forward again" },
  { ticks = 150, circle = true, strafe = true, note = "stick round a circle and a bit: cardinals with hysteresis" },
  { ticks = 10, x = 1, y = 0, wall = true, strafe = true, note = "push right into a wall" },
  { ticks = 4, x = 0, y = 0, note = "let go" },
}

local function length(x, y) return math.sqrt(x * x + y * y) end

-- Turns `from` toward `to` (degrees) by at most `step`.
local function turn_toward(from, to, step)
  local d = fg.locomotion_normalize(to - from)
  if math.abs(d) <= step then return to end
  return from + (d > 0 and step or -step)
end

local loco = fg.locomotion { rate = RATE, pivot_min_time = 0.2, braking_deceleration = BRAKING }
local body = { vx = 0, vy = 0, yaw = 0 }
local out = {}
local tick = 0

print(("%4s  %-13s %-8s %4s %7s %7s %6s  %s"):format(
  "tick", "stick", "cardinal", "dir", "angle", "warp", "speed", "events"))

for _, seg in ipairs(path) do
  print(("      -- %s"):format(seg.note))
  for i = 1, seg.ticks do
    local sx, sy = seg.x or 0, seg.y or 0
    if seg.circle then -- clockwise from forward
      local a = math.rad(3 * (i - 1)) -- 180 degrees a second
      sx, sy = math.sin(a), math.cos(a)
    end
    local ax, ay = sx * MAX_ACCEL, sy * MAX_ACCEL

    -- Movement: accelerate toward the stick, brake without input, cap the speed.
    local vx, vy = body.vx + ax * DT, body.vy + ay * DT
    if sx == 0 and sy == 0 then
      local v = length(vx, vy)
      local keep = v > BRAKING * DT and (v - BRAKING * DT) / v or 0
      vx, vy = vx * keep, vy * keep
    end
    local v = length(vx, vy)
    if v > MAX_SPEED then vx, vy = vx * MAX_SPEED / v, vy * MAX_SPEED / v end
    if seg.wall then vx, vy = 0, 0 end
    body.vx, body.vy = vx, vy

    -- Yaw policy: strafe follows the aim; otherwise the body turns toward its travel.
    if seg.strafe then
      body.yaw = 0
    elseif length(vx, vy) > 0.05 then
      local travel = math.deg(math.atan(vx, vy))
      body.yaw = turn_toward(body.yaw, travel, TURN_RATE * DT)
    end

    loco:step({ vx = vx, vy = vy, ax = ax, ay = ay, yaw = body.yaw, aim = 0,
                strafe = seg.strafe or false }, out)

    local events = {}
    if out.start then events[#events + 1] = "start" end
    if out.stop then events[#events + 1] = ("stop (%.2f m to rest)"):format(out.stop_distance) end
    if out.pivot_reenter then
      events[#events + 1] = ("re-pivot #%d"):format(out.pivot_id)
    elseif out.pivot_enter then
      events[#events + 1] = ("pivot #%d"):format(out.pivot_id)
    end
    if out.pivot_exit then events[#events + 1] = ("pivot #%d done"):format(out.pivot_id) end
    if out.pivot_cancel then events[#events + 1] = ("pivot #%d cancelled"):format(out.pivot_id) end
    if out.wall then events[#events + 1] = "wall" end
    if out.cardinal_changed then events[#events + 1] = "-> " .. out.cardinal end

    print(("%4d  (%5.2f,%5.2f) %-8s %4s %7.1f %7.1f %6.2f  %s"):format(
      tick, sx + 0.0, sy + 0.0, out.cardinal, out.dir8, out.angle, out.warp, out.speed,
      table.concat(events, ", ")))
    tick = tick + 1
  end
end

print(("state hash %016x"):format(loco:hash()))
