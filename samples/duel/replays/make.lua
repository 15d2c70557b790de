-- Makes the sample replays of this folder (run from the repository's root):
--
--   framegate run samples/duel --record samples/duel/replays/playtest.fgr
--       playtest.fgr, playtest-2.fgr ... playtest-15.fgr: the fifteen rounds of run.lua, one replay
--       each (every round restores the starting snapshot and sets it up, which starts a take)
--   framegate lua samples/duel/replays/make.lua
--       random-match.fgr: a minute of seeded random input between the two duelists
--       reload.fgr: the same kind of match with a hot reload at tick 300 (the jab hits harder),
--       the new source embedded in the replay
--
-- CI replays every one of them (framegate replay FILE --fps 30,60,120,144,240) in each build,
-- gcc and clang, -O0 and -O2, and requires the hashes recorded in them.
local fg = require "framegate"

local RULES = "samples/duel/rules.lua"
local here = "samples/duel/replays/"

local function match()
  local w = fg.world { rules = RULES, seed = 7 }
  w:spawn { x = -35 }
  w:spawn { x = 35, facing = "left" }
  return w
end

local function play(w, fz, ticks)
  for _ = 1, ticks do
    fz:tick(w)
    w:advance()
  end
end

do
  local w = match()
  local rec = w:record(here .. "random-match.fgr", { every = 30, meta = { made_by = "make.lua" } })
  play(w, fg.input_fuzz(2024, 25), 3600)
  local files, ticks = rec:finish()
  print(string.format("%s: %d ticks, final hash %s", files[1], ticks, w:hash()))
end

do
  local w = match()
  local rec = w:record(here .. "reload.fgr", { every = 30, meta = { made_by = "make.lua" } })
  local fz = fg.input_fuzz(77, 40)
  play(w, fz, 300)
  local source = io.open(RULES):read("a")
  local harder, n = source:gsub("hit = { damage = 30,", "hit = { damage = 45,")
  assert(n == 1, "make.lua: the jab's damage was not found in " .. RULES)
  w:replace_rules(fg.load_rules_source(RULES, harder))
  play(w, fz, 600)
  local files, ticks = rec:finish()
  print(string.format("%s: %d ticks, a reload at tick 300, final hash %s", files[1], ticks,
    w:hash()))
end
