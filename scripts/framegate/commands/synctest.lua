-- framegate synctest RULES_OR_SAMPLE: the rollback sync test on a two-fighter match driven by
-- seeded random input. Every tick rolls back N ticks, re-simulates them with the same input
-- (the Lua rules run again) and compares each tick's state hash with the first run's. A mismatch
-- prints the first divergent tick and the fields that differ, and exits 1.
local fg = require "framegate"
local det = require "framegate.determinism"

local USAGE = "synctest RULES_OR_SAMPLE [--frames N] [--check 1..8] [--seed S] [--activity PCT]"

return {
  usage = "synctest RULES_OR_SAMPLE [OPTIONS]",
  summary = "roll back and re-simulate every tick; report the first divergent tick and fields",
  run = function(...)
    local pos, opts = det.parse({ ... }, { frames = "value", check = "value", seed = "value",
      activity = "value" })
    local function fail(msg)
      io.stderr:write("framegate synctest: " .. msg .. "\nusage: framegate " .. USAGE .. "\n")
      return 2
    end
    if not pos then return fail(opts) end
    if #pos ~= 1 then return fail("which rules? e.g. framegate synctest samples/duel") end
    local frames, e1 = det.int_option(opts, "frames", 600, 1, 10000000)
    local check, e2 = det.int_option(opts, "check", 2, 1, 8)
    local seed, e3 = det.int_option(opts, "seed", 1, 0, math.maxinteger)
    local activity, e4 = det.int_option(opts, "activity", 100, 1, 100)
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
  end,
}
