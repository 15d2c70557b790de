-- SPDX-License-Identifier: MIT
-- bench_lua_host.lua: the cost of polling input from a Lua game, side by side in one process.
--
-- The job: one player, 8 bindings, every tick the tick's edges go in, the tick advances, and
-- the game asks "pressed this tick?" and "held?" of every binding. Contenders:
--   framegate, handles     w:action_id once, then e:pressed(h) and e:held(h)
--   framegate, poll        e:poll(t) once per tick, then bit tests on t.pressed and t.held
--   framegate, masks       e:masks() once per tick (pressed, released, held as integers), then
--                          bit tests
--   framegate, drive       e:drive() once, then push(h, down, t) per edge and advance() per tick
--                          (the tick, then the masks), plain functions bound to the player
--   framegate, names       e:input() and e:held(name), the name-based API
--   pure-Lua buffer        a minimal input buffer written here for the comparison
-- Every contender sees the same edge stream and pushes a tick's edges in the same inline loop; the
-- order of contenders rotates each round and the median round is printed, with the Lua bytes each
-- contender allocates per tick (one more round with the collector stopped). Figures are CPU time
-- (os.clock); nothing here asserts on time.
--
--   framegate lua tests/bench/bench_lua_host.lua [--smoke]
--   framegate lua tests/bench/bench_lua_host.lua --list | --icount NAME [--ticks N]
-- (--list names the contenders; --icount runs one of them once, untimed, for callgrind:
-- tools/icount_lua_host.lua counts the instructions per tick of each that way.)
local fg = require "framegate"

local smoke, only, only_ticks, list = false, nil, nil, false
do
  local args, i = arg or {}, 1
  while i <= #args do
    local a = args[i]
    if a == "--smoke" or a == "smoke" then
      smoke = true
    elseif a == "--list" then
      list = true
    elseif a == "--icount" or a == "--ticks" then
      local v = args[i + 1]
      if v == nil then error(a .. " needs a value", 0) end
      if a == "--icount" then
        only = v
      else
        only_ticks = math.tointeger(tonumber(v))
        if not only_ticks or only_ticks < 1 or only_ticks > 20000 then
          error("--ticks: " .. v .. " is not a tick count from 1 to 20000", 0)
        end
      end
      i = i + 1
    else
      error("unknown argument " .. a .. " (expected --smoke, --list, --icount NAME, --ticks N)", 0)
    end
    i = i + 1
  end
end

local BUTTONS = { "LP", "MP", "HP", "LK", "MK", "HK", "dash", "block" }
local TICKS = smoke and 200 or 20000
local ROUNDS = smoke and 1 or 7

-- The edge stream: per tick a list of {button index, is press, microsecond time}, seeded, about
-- what a busy human produces (a few edges a second per button).
local function make_stream(ticks, seed)
  local x, held, stream = seed, {}, {}
  local function rnd(n)
    x = (x * 1103515245 + 12345) % 2147483648
    return x % n
  end
  for t = 1, ticks do
    local edges = {}
    if rnd(4) == 0 then
      for k = 1, rnd(3) + 1 do
        local b = rnd(#BUTTONS) + 1
        held[b] = not held[b]
        edges[#edges + 1] = { b, held[b], fg.us_of_tick(t - 1) + k * 100 }
      end
    end
    stream[t] = edges
  end
  return stream
end

-- {=================================================================== a pure-Lua input buffer

-- What a small Lua game writes itself: edges queue until their tick, the tick folds them into
-- pressed/released flags and the held state, and the last 32 consumed edges are kept.
local LuaBuffer = {}
LuaBuffer.__index = LuaBuffer

local function lua_buffer(nbuttons)
  local b = setmetatable({ tick = 0, pending = {}, npending = 0, ring = {}, nring = 0,
                           pressed_ = {}, released_ = {}, held_ = {} }, LuaBuffer)
  for i = 1, nbuttons do b.pressed_[i], b.released_[i], b.held_[i] = false, false, false end
  for i = 1, 32 do b.ring[i] = { 0, false, 0 } end
  b.n = nbuttons
  return b
end

function LuaBuffer:push(button, down, time_us)
  local n = self.npending + 1
  local e = self.pending[n]
  if not e then e = {}; self.pending[n] = e end
  e[1], e[2], e[3] = button, down, time_us
  self.npending = n
end

function LuaBuffer:advance()
  local pressed, released, held = self.pressed_, self.released_, self.held_
  for i = 1, self.n do pressed[i], released[i] = false, false end
  local ring = self.ring
  for i = 1, self.npending do
    local e = self.pending[i]
    local b = e[1]
    if e[2] then pressed[b], held[b] = true, true else released[b], held[b] = true, false end
    local slot = self.nring % 32 + 1
    local r = ring[slot]
    r[1], r[2], r[3] = b, e[2], e[3]
    self.nring = self.nring + 1
  end
  self.npending = 0
  self.tick = self.tick + 1
end

function LuaBuffer:pressed(b) return self.pressed_[b] end
function LuaBuffer:held(b) return self.held_[b] end

-- }===================================================================

-- The timed part of a round: CPU time, and the Lua heap's growth in bytes (meaningful in the
-- round run with the collector stopped, see below).
local function start()
  local k0 = collectgarbage("count")
  return os.clock(), k0
end

local function stop(t0, k0)
  local dt = os.clock() - t0
  return dt, (collectgarbage("count") - k0) * 1024
end

-- A world with one player and the handles of the bindings.
local function framegate_player()
  local w = fg.world { buttons = BUTTONS }
  local p = w:spawn()
  local hs = {}
  for i, b in ipairs(BUTTONS) do hs[i] = w:action_id(b) end
  return w, p, hs
end

local contenders = {}

contenders[#contenders + 1] = { name = "framegate, handles", run = function(stream, ticks)
  local w, p, hs = framegate_player()
  local n, answers = #hs, 0
  local t0, k0 = start()
  for t = 1, ticks do
    local edges = stream[t]
    for i = 1, #edges do
      local e = edges[i]
      if e[2] then p:press(hs[e[1]], e[3]) else p:release(hs[e[1]], e[3]) end
    end
    w:advance()
    for i = 1, n do
      local h = hs[i]
      if p:pressed(h) then answers = answers + 1 end
      if p:held(h) then answers = answers + 1 end
    end
  end
  local dt, bytes = stop(t0, k0)
  w:close()
  return dt, answers, bytes
end }

contenders[#contenders + 1] = { name = "framegate, poll", run = function(stream, ticks)
  local w, p, hs = framegate_player()
  local bits = {}
  for i = 1, #hs do bits[i] = 1 << hs[i] end
  local n, answers, rec = #hs, 0, {}
  local t0, k0 = start()
  for t = 1, ticks do
    local edges = stream[t]
    for i = 1, #edges do
      local e = edges[i]
      if e[2] then p:press(hs[e[1]], e[3]) else p:release(hs[e[1]], e[3]) end
    end
    w:advance()
    p:poll(rec)
    local pressed, held = rec.pressed, rec.held
    for i = 1, n do
      local bit = bits[i]
      if pressed & bit ~= 0 then answers = answers + 1 end
      if held & bit ~= 0 then answers = answers + 1 end
    end
  end
  local dt, bytes = stop(t0, k0)
  w:close()
  return dt, answers, bytes
end }

contenders[#contenders + 1] = { name = "framegate, masks", run = function(stream, ticks)
  local w, p, hs = framegate_player()
  local bits = {}
  for i = 1, #hs do bits[i] = 1 << hs[i] end
  local n, answers = #hs, 0
  local t0, k0 = start()
  for t = 1, ticks do
    local edges = stream[t]
    for i = 1, #edges do
      local e = edges[i]
      if e[2] then p:press(hs[e[1]], e[3]) else p:release(hs[e[1]], e[3]) end
    end
    w:advance()
    local pressed, _, held = p:masks()
    for i = 1, n do
      local bit = bits[i]
      if pressed & bit ~= 0 then answers = answers + 1 end
      if held & bit ~= 0 then answers = answers + 1 end
    end
  end
  local dt, bytes = stop(t0, k0)
  w:close()
  return dt, answers, bytes
end }

contenders[#contenders + 1] = { name = "framegate, drive", run = function(stream, ticks)
  local w, p, hs = framegate_player()
  local push, advance = p:drive()
  local bits = {}
  for i = 1, #hs do bits[i] = 1 << hs[i] end
  local n, answers = #hs, 0
  local t0, k0 = start()
  for t = 1, ticks do
    local edges = stream[t]
    for i = 1, #edges do
      local e = edges[i]
      push(hs[e[1]], e[2], e[3])
    end
    local pressed, _, held = advance()
    for i = 1, n do
      local bit = bits[i]
      if pressed & bit ~= 0 then answers = answers + 1 end
      if held & bit ~= 0 then answers = answers + 1 end
    end
  end
  local dt, bytes = stop(t0, k0)
  w:close()
  return dt, answers, bytes
end }

contenders[#contenders + 1] = { name = "framegate, names", run = function(stream, ticks)
  local w, p = framegate_player()
  local n, answers = #BUTTONS, 0
  local t0, k0 = start()
  for t = 1, ticks do
    local edges = stream[t]
    for i = 1, #edges do
      local e = edges[i]
      if e[2] then p:press(BUTTONS[e[1]], e[3]) else p:release(BUTTONS[e[1]], e[3]) end
    end
    w:advance()
    local pressed = p:input().pressed
    for i = 1, n do
      local name = BUTTONS[i]
      for k = 1, #pressed do
        if pressed[k] == name then answers = answers + 1; break end
      end
      if p:held(name) then answers = answers + 1 end
    end
  end
  local dt, bytes = stop(t0, k0)
  w:close()
  return dt, answers, bytes
end }

contenders[#contenders + 1] = { name = "pure-Lua buffer", run = function(stream, ticks)
  local b = lua_buffer(#BUTTONS)
  local n, answers = #BUTTONS, 0
  local t0, k0 = start()
  for t = 1, ticks do
    local edges = stream[t]
    for i = 1, #edges do
      local e = edges[i]
      b:push(e[1], e[2], e[3])
    end
    b:advance()
    for i = 1, n do
      if b:pressed(i) then answers = answers + 1 end
      if b:held(i) then answers = answers + 1 end
    end
  end
  local dt, bytes = stop(t0, k0)
  return dt, answers, bytes
end }

if list then
  for _, c in ipairs(contenders) do print(c.name) end
  return
end

-- --icount NAME [--ticks N]: one untimed run of one contender over the stream's first N ticks
-- (20,000 by default), for an instruction count. The stream is the whole 20,000 ticks whatever N
-- is, so two counts at different N differ by the N ticks' work alone (tools/icount_lua_host.lua).
if only then
  local stream = make_stream(20000, 2024)
  for _, c in ipairs(contenders) do
    if c.name == only then
      local ticks = only_ticks or #stream
      local _, a = c.run(stream, ticks)
      print(string.format("icount: %s, %d ticks, %d answers", c.name, ticks, a))
      return
    end
  end
  local names = {}
  for _, c in ipairs(contenders) do names[#names + 1] = "'" .. c.name .. "'" end
  error("--icount: no contender named '" .. only .. "' (contenders: " .. table.concat(names, ", ")
        .. ")", 0)
end

local stream = make_stream(TICKS, 2024)
local times, answers, garbage = {}, {}, {}
for i = 1, #contenders do times[i] = {} end
for round = 1, ROUNDS do
  for k = 0, #contenders - 1 do
    local i = (round - 1 + k) % #contenders + 1
    collectgarbage("collect")
    local dt, a = contenders[i].run(stream, #stream)
    times[i][#times[i] + 1] = dt
    answers[i] = a
  end
end

-- One more, untimed round per contender with the collector stopped, so the heap's growth is
-- every byte the ticks allocated (a collection in the middle would hide some).
for i = 1, #contenders do
  collectgarbage("collect")
  collectgarbage("stop")
  local _, _, bytes = contenders[i].run(stream, #stream)
  collectgarbage("restart")
  garbage[i] = bytes / TICKS
end

-- Every contender must have given the same answers, or the comparison means nothing.
for i = 2, #contenders do
  if answers[i] ~= answers[1] then
    error(string.format("%s answered %d times, %s %d", contenders[i].name, answers[i],
                        contenders[1].name, answers[1]))
  end
end

local function median(xs)
  table.sort(xs)
  return xs[(#xs + 1) // 2]
end

local edges = 0
for t = 1, #stream do edges = edges + #stream[t] end
print(string.format("Lua host path: 1 player, %d bindings, a pressed and a held query per binding "
  .. "per tick, %d ticks, %d edges; median of %d rounds, order rotated", #BUTTONS, TICKS, edges,
  ROUNDS))
local base
for i, c in ipairs(contenders) do
  if c.name == "pure-Lua buffer" then base = median(times[i]) end
end
for i, c in ipairs(contenders) do
  local m = median(times[i])
  print(string.format("  %-22s %9.1f ns per tick   %5.2fx the pure-Lua buffer   %7.1f Lua bytes "
                      .. "allocated per tick", c.name, m / TICKS * 1e9, m / base, garbage[i]))
end
