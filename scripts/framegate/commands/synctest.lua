-- SPDX-License-Identifier: MIT
-- framegate synctest RULES_OR_SAMPLE: the rollback sync test on a two-fighter match driven by
-- seeded random input. Every tick rolls back N ticks, re-simulates them with the same input
-- (the Lua rules run again) and compares each tick's state hash with the first run's. A mismatch
-- prints the first divergent tick and the fields that differ, and exits 1.
local fg = require "framegate"
local det = require "framegate.determinism"
local options = require "framegate.options"

local M = {
  summary = "roll back and re-simulate every tick; report the first divergent tick and fields",
}

function M.options(p)
  p:argument("rules", "A rules file, or a sample folder holding rules.lua.")
  p:option("--frames", "Ticks to run (default 600).")
  p:option("--check", "Ticks rolled back and re-simulated every tick, 1..8 (default 2).")
  p:option("--seed", "Seed of the random input (default 1).")
  p:option("--activity", "Percent of ticks with new input, 1..100 (default 100).")
end

function M.main(args)
  local function fail(msg) return options.usage_error("synctest", msg) end
  local pos = { args.rules }
  local frames, e1 = options.int(args, "--frames", 600, 1, 10000000)
  local check, e2 = options.int(args, "--check", 2, 1, 8)
  local seed, e3 = options.int(args, "--seed", 1, 0, math.maxinteger)
  local activity, e4 = options.int(args, "--activity", 100, 1, 100)
  if not (frames and check and seed and activity) then return fail(e1 or e2 or e3 or e4) end
  local path = det.rules_path(pos[1])
  if not path then return fail(pos[1] .. ": no rules file (expected a .lua file or a folder "
    .. "with rules.lua)") end
  local ok, w = pcall(det.match, path, seed)
  if not ok then
    io.stderr:write("framegate synctest: " .. tostring(w) .. "\n")
    return 1
  end
  local st = w:synctest { check = check }
  local fz = fg.input_fuzz(seed, activity)
  for _ = 1, frames do
    fz:tick(w)
    local passed, report = st:advance()
    if not passed then
      io.write(report.text)
      io.write(string.format("framegate synctest: %s diverges at tick %d (seed %d, check %d)\n",
        path, report.tick, seed, check))
      return 1
    end
  end
  local s = st:stats()
  print(string.format("synctest %s: %d ticks, each rolled back %d and re-simulated: %d ticks "
    .. "re-simulated, %d hashes compared, all equal; final hash %s", path, s.ticks, check,
    s.resimulated, s.compared, w:hash()))
  return 0
end

return options.command("synctest", M)
