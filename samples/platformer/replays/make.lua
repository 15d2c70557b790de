-- SPDX-License-Identifier: MIT
-- Makes the sample replays of this folder (run from the repository's root):
--
--   framegate run samples/platformer --record samples/platformer/replays/run.fgr
--       run.fgr: the scripted playtest of run.lua (ledge, coyote jump, air attack, platform)
--   framegate lua samples/platformer/replays/make.lua
--       random-run.fgr: a minute of seeded random input for two runners on the stage, so
--       jumps, falls, platforms, drops and sparks happen in every order
--
-- CI replays every one of them (framegate replay FILE --fps 30,60,120,144,240) and requires the
-- hashes recorded in them.
local fg = require "framegate"

local RULES = "samples/platformer/rules.lua"
local here = "samples/platformer/replays/"

local w = fg.world { rules = RULES, seed = 11 }
w:spawn { x = -300, y = 40 }
w:spawn { x = 300, y = 120, facing = "left" }
local rec = w:record(here .. "random-run.fgr", { every = 30, meta = { made_by = "make.lua" } })
local fz = fg.input_fuzz(2026, 30)
for _ = 1, 3600 do
  fz:tick(w)
  w:advance()
end
local files, ticks = rec:finish()
print(string.format("%s: %d ticks, final hash %s", files[1], ticks, w:hash()))
