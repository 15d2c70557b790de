-- main.lua: a LOVE game on framegate through LuaJIT's FFI. The ruleset is built with the C
-- builder and the world runs on framegate's fixed-step loop (duel.lua); LOVE reads the keyboard
-- and draws the two fighters between the last two committed states.
--
--   love samples/love [--header PATH] [--lib PATH]     play: arrows move, j jab, k strong
--   love samples/love --frames N                       scripted run for N frames, then quit
--
-- The library and its FFI header come from --header/--lib, or from FRAMEGATE_PREFIX (the prefix
-- framegate was installed to), or from /usr/local and /usr.
local duel = require "duel"
local locate = require "locate"

local game = {}

local KEYS = { left = "left", right = "right", down = "down", up = "up", j = "j", k = "k" }

function love.load(args)
  local o = locate.options(args)
  local header, lib = locate.find(o)
  if not header then
    print("love sample: " .. lib)
    love.event.quit(2)
    return
  end
  duel.load(header, lib)
  game.duel = duel.new()
  game.frames = o.frames and tonumber(o.frames)
  game.frame = 0
  game.start = love.timer.getTime()
end

-- Host time in microseconds: the scripted run uses a fixed 60 fps clock, play uses the wall clock.
local function now_us()
  if game.frames then return duel.frame_us(game.frame) end
  return math.floor((love.timer.getTime() - game.start) * 1000000)
end

function love.keypressed(key)
  if key == "escape" then love.event.quit(0) end
  if game.duel and not game.frames and KEYS[key] then game.duel:key(KEYS[key], true, now_us()) end
end

function love.keyreleased(key)
  if game.duel and not game.frames and KEYS[key] then game.duel:key(KEYS[key], false, now_us()) end
end

function love.update()
  local d = game.duel
  if not d then return end
  if game.frames then
    local k = duel.SCRIPT[game.frame]
    if k then d:key(k[1], k[2], now_us()) end
  end
  d:frame(now_us())
  game.frame = game.frame + 1
  if game.frames and game.frame >= game.frames then
    local f = d:fighters()
    for _, e in ipairs(d.events) do print(e) end
    print(("frames %d, tick %d, e1 health %d, e2 health %d, state hash %s"):format(game.frame,
      d:tick(), f[1].health, f[2].health, d:hash()))
    love.event.quit(0)
  end
end

local COLORS = {
  startup = { 0.95, 0.8, 0.2 }, active = { 0.95, 0.25, 0.2 }, recovery = { 0.3, 0.5, 0.95 },
  stun = { 1, 1, 1 }, neutral = { 0.3, 0.8, 0.4 },
}

local function color_of(state)
  if state:find("stun") then return COLORS.stun end
  for _, phase in ipairs { "startup", "active", "recovery" } do
    if state:find(phase) then return COLORS[phase] end
  end
  return COLORS.neutral
end

function love.draw()
  local d = game.duel
  if not d then return end
  local w, h = love.graphics.getDimensions()
  local ground = h - 60
  love.graphics.setColor(0.5, 0.5, 0.5)
  love.graphics.line(0, ground, w, ground)
  for i, f in ipairs(d:fighters()) do
    local x = w / 2 + f.x * 3
    love.graphics.setColor(color_of(f.state))
    love.graphics.rectangle("fill", x - 20, ground - 120 - f.y * 3, 40, 120)
    love.graphics.rectangle("fill", x + f.facing * 20, ground - 95 - f.y * 3, f.facing * 14, 12)
    local bar = (w / 2 - 40) * f.health / 1000
    love.graphics.setColor(0.9, 0.2, 0.2)
    if i == 1 then
      love.graphics.rectangle("fill", 20, 20, bar, 14)
    else
      love.graphics.rectangle("fill", w - 20 - bar, 20, bar, 14)
    end
    love.graphics.setColor(1, 1, 1)
    love.graphics.print(("e%d %s"):format(i, f.state), i == 1 and 20 or w / 2 + 20, 44)
  end
  love.graphics.print(("tick %d  alpha %.2f  hash %s   arrows move, j jab, k strong, esc quits")
    :format(d:tick(), d:alpha(), d:hash()), 20, h - 30)
end
