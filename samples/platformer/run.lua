-- SPDX-License-Identifier: MIT
-- A scripted platformer playtest on a stage: the runner's run, coyote time off a ledge, an air
-- attack landing into recovery, a jump buffered through that recovery, a one-way platform from
-- below, from above and dropped through, a thrown spark. Every tick that changes
-- something prints a line: position, what the runner stands on, its state, and what framegate
-- decided, with the reason. Grounded/airborne comes from the stage (docs/stage.md).
--
--   framegate run samples/platformer
local fg = require "framegate"

-- The rules sit beside this file, wherever it is run from.
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$")
local RULES = (here and here ~= "" and here .. "/" or "samples/platformer/") .. "rules.lua"
local w = fg.world { rules = RULES }
local hero = w:spawn { x = -300, y = 40 }

-- The input, in ticks from the start (numpad: 6 forward, 2 down, 5 neutral); each line says why.
local script = {
  { 5, "shoot", "throw a spark: it flies right and is gone after its 60-tick lifetime" },
  { 30, "6", "run right along the ledge (a block 40 high that ends at x = 100)" },
  { 134, "jump", "4 ticks after running off the ledge: inside the 6-tick coyote window" },
  { 145, "attack", "an air attack: landing during it costs 10 ticks of recovery" },
  { 150, "5", "let go of the stick in the air" },
  { 176, "jump", "during the landing recovery: refused, and kept by the 6-tick jump buffer" },
  { 240, "2", "hold down ..." },
  { 241, "jump", "... and jump: drop through the one-way platform" },
  { 246, "5", "" },
  { 270, "jump", "under the platform: up through it from below, landing on it from above" },
  { 330, "6", "run off the platform's end, fall to the floor, run into the right wall" },
}
local s = {}
for _, e in ipairs(script) do s[#s + 1] = e[2] .. "@" .. e[1] end
w:play(hero, table.concat(s, " "))

print("framegate platformer playtest at 60 Hz: a runner on a stage (floor 0, walls -400 and 800,")
print("a ledge block to x = 100 at height 40, a one-way platform at height 70 from x = 260 to 420)")
print("")
print("tick      x      y  on          state                what happened")
local quiet, last, at_wall, last_on = 0, nil, false, hero:support()
local function flush()
  if quiet > 0 then print(string.format("          ... %d tick%s", quiet, quiet == 1 and "" or "s")) end
  quiet = 0
end
for tick = 0, 480 do
  w:advance()
  local x, y = hero:position()
  local state = hero:action()
  local said = {}
  for _, r in ipairs(w:trace(tick)) do
    local text = r.text:gsub("^t=%d+ e%d+ ", "")
    if not text:find("^input") and not text:find("^event") and not text:find("^command") then
      said[#said + 1] = text
    end
  end
  local on = hero:support()
  if on ~= last_on then
    said[#said + 1] = on == "air" and ("leaves " .. last_on) or ("on " .. on)
  end
  last_on = on
  if x >= 800 and not at_wall then said[#said + 1] = "stopped by the right wall" end
  at_wall = x >= 800
  local line = hero:support() .. state
  if #said > 0 or line ~= last then
    flush()
    print(string.format("%4d %7.1f %6.1f  %-10s  %-20s %s", tick, x, y, hero:support(), state,
      table.concat(said, "; ")))
  else
    quiet = quiet + 1
  end
  last = line
end
flush()
print("")
print("the input script:")
for _, e in ipairs(script) do
  if e[3] ~= "" then print(string.format("  %4d  %-6s  %s", e[1], e[2], e[3])) end
end
print(string.format("\n%d ticks, final state hash %s", w:tick(), w:hash()))
