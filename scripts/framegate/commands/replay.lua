-- SPDX-License-Identifier: MIT
-- framegate replay FILE: re-simulates a replay tick by tick and verifies every motion command,
-- checkpoint and the final hash. On a divergence it reports the first divergent tick and, when
-- the replay embeds the ruleset it was recorded with, the fields that differ from a run of that
-- ruleset. --fps 30,60,120,144,240 plays it again through the host loop at each display rate,
-- with jittered frames and an occasional clamped hitch, and requires the same hashes.
local fg = require "framegate"
local det = require "framegate.determinism"
local options = require "framegate.options"
local whatif = require "framegate.whatif"

local function fail(msg, code)
  io.stderr:write("framegate replay: " .. msg .. "\n")
  return code or 1
end

-- Plays one pass; returns ok, world, player, message.
local function play(reader, rules, opts)
  local okw, w = pcall(fg.replay.world, reader, rules)
  if not okw then return false, nil, nil, w end
  local p = w:replay_player(reader, opts)
  local okr, ok, msg = pcall(p.run, p)
  if not okr then return false, w, p, ok end
  return ok, w, p, msg
end

-- Rules other than the recorded ones cannot verify a replay, but they can say what they change:
-- the recorded inputs run on against them from the branch tick (--from, default the start),
-- compared tick by tick with the recorded run. Exit code 1 all the same: nothing was verified.
local function what_if(file, reader, rules, where, from)
  local recorded, rwhere = det.replay_rules(reader, file, { embedded = true })
  if not recorded then recorded, rwhere = det.replay_rules(reader, file, {}) end
  if not recorded then return fail("what-if: " .. rwhere) end
  local report, msg = whatif.run(file, recorded, rules, { from = from })
  if not report then return fail("what-if: " .. msg) end
  print(string.format("what-if %s: the recorded inputs against %s (the replay runs %s)", file,
    where, rwhere))
  for _, l in ipairs(whatif.format(report)) do print(l) end
  return 1
end

local M = {
  summary = "re-simulate a replay, verify every checkpoint; --fps plays it through the host loop",
}

function M.options(p)
  p:argument("replay", "The replay file (.fgr).")
  p:option("--rules", "Re-simulate with this ruleset instead of the recorded path; rules other "
    .. "than the recorded ones report a what-if: the recorded inputs run on against them, and "
    .. "the decisions and the outcome they change.")
  p:option("--from", "With --rules: the tick the what-if's rules take over at (default: the "
    .. "replay's first tick).")
  p:flag("--embedded", "Re-simulate with the ruleset source embedded in the replay.")
  p:option("--fps", "Also play it through the host loop at these display rates, e.g. "
    .. "30,60,120,144,240.")
  p:option("--jitter", "Frame-time jitter in percent for --fps (0..90, default 30).")
  p:option("--seed", "Seed of the frame-time jitter (default 1).")
end

function M.main(args)
  local opts, pos = args, { args.replay }
  if opts.rules and opts.embedded then
    return options.usage_error("replay", "--rules and --embedded exclude each other")
  end
  local jitter, e1 = options.int(opts, "--jitter", 30, 0, 90)
  local seed, e2 = options.int(opts, "--seed", 1, 0, math.maxinteger)
  local from, e3 = options.int(opts, "--from", nil, 0, math.maxinteger)
  if not (jitter and seed) or e3 then return options.usage_error("replay", e1 or e2 or e3) end
  if from and not opts.rules then
    return options.usage_error("replay", "--from is the branch tick of a what-if: it needs --rules")
  end
  local rates = {}
  for r in (opts.fps or ""):gmatch("[^,]+") do
    local n = math.tointeger(tonumber(r))
    if not n or n < 1 or n > 1000 then return fail("--fps " .. opts.fps .. ": expected rates "
      .. "1..1000 separated by commas, e.g. 30,60,120,144,240", 2) end
    rates[#rates + 1] = n
  end
  local file = pos[1]
  local okr, reader = pcall(fg.replay.open, file)
  if not okr then return fail(reader) end
  local header, stats = reader:header(), reader:stats()
  local rules, where = det.replay_rules(reader, file, opts)
  if not rules then return fail(where) end
  local same, ok = reader:check_ruleset(math.tointeger(tonumber(rules:hash(), 16)))
  if not same then
    fail(ok .. " (" .. where .. "); replay with --embedded to use the recorded source")
    if opts.rules then return what_if(file, reader, rules, where, from) end
    return 1
  end
  if header.runtime_version ~= fg.version then
    print(string.format("note: recorded by framegate %s, this is %s", header.runtime_version,
      fg.version))
  end
  local src_same, differing = det.same_source(reader, rules)
  if src_same == false then
    print(string.format("note: the ruleset's source differs from the recorded %s (the same "
      .. "data, so its rule functions changed)", differing))
  end
  print(string.format("replay %s: %d Hz, seed %d, ticks %d..%s, rules %s", file,
    header.tick_rate, header.seed, header.start_tick,
    stats.final_tick and tostring(stats.final_tick) or "?", where))

  local passed, w, p, message = play(reader, rules, {})
  if not passed then
    print(message)
    if p then
      local s = p:status()
      local tick, lines = det.reference_diff(file, rules)
      if tick then
        print(string.format("first divergent tick: %d (against a run of the recorded ruleset):",
          tick))
        for _, l in ipairs(lines) do print("  " .. l) end
      elseif s.diverged then
        print(string.format("first divergent tick: between %d and %d (the last verified tick "
          .. "and the first failed check); the recorded ruleset diverges the same way, so the "
          .. "runtime or the platform computes differently", s.last_good_tick + 1,
          s.divergent_tick))
      end
    end
    return 1
  end
  local s = p:status()
  local final = w:hash()
  local finals = s.last_tick >= 0 and 1 or 0
  print(string.format("  tick by tick: %d ticks, %d edges, %d commands, %d checkpoints%s "
    .. "verified%s; final hash %s", s.tick - header.start_tick, s.inputs, s.commands,
    s.checkpoints - finals, finals == 1 and " and the final hash" or "",
    s.reloads > 0 and string.format(", %d reload(s) applied", s.reloads) or "", final))
  if s.clamped_us > 0 then
    print(string.format("  the recording clamped %d us of slow frames", s.clamped_us))
  end
  local failed = false
  for _, fps in ipairs(rates) do
    local okf, wf, pf, mf = play(reader, rules, { fps = fps, jitter = jitter, seed = seed + fps })
    if okf and wf:hash() == final then
      local sf = pf:status()
      print(string.format("  %3d fps: %d frames (jitter +-%d%%, %d us clamped by the loop), "
        .. "same checkpoints, final hash %s", fps, sf.frames, jitter, sf.loop_clamped_us,
        wf:hash()))
    else
      failed = true
      print(string.format("  %3d fps: %s", fps, mf or ("final hash " .. (wf and wf:hash() or "?")
        .. " differs from " .. final)))
    end
  end
  if failed then return 1 end
  return 0
end

return options.command("replay", M)
