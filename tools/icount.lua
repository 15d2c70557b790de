-- SPDX-License-Identifier: MIT
-- icount.lua: instructions per fighter-tick of the stress pipeline, counted by callgrind, and the
-- check against the committed baseline. Instruction counts do not depend on the machine's load,
-- so unlike wall-clock figures they can gate CI.
--
--   lua5.4 tools/icount.lua BENCH_STRESS [--fighters N] [--ticks T] [--build ID]
--                           [--check FILE] [--update FILE] [--limit PERCENT] [--against VALUE]
--                           [--hash-share]   (last: also the state hash's share of the count)
--
-- Runs `BENCH_STRESS --icount N T` under `valgrind --tool=callgrind`, collecting only inside
-- stress_measured_ticks (the ticks after the warm-up: input, w:advance(), cues drained, state
-- hash), and prints the instructions per fighter-tick. --check FILE fails (exit 1) when the figure
-- is more than --limit percent (10) above the baseline in FILE, and skips (exit 77) when FILE was
-- written for another build (--build: build type and compiler; counts differ between -O2 and
-- -O3, gcc and clang). --update FILE writes the baseline. --against VALUE checks against VALUE
-- instead of a file (the test that proves the check can fail uses it). With FG_ICOUNT_UPDATE=1 in
-- the environment, --check FILE rewrites FILE instead of checking it.
-- Refresh the baseline with `bash tools/dev.sh icount --update` (CONTRIBUTING.md says when).

local SKIP = 77

local function usage(msg)
  io.stderr:write("icount.lua: ", msg, "\n",
    "usage: lua5.4 tools/icount.lua BENCH_STRESS [--fighters N] [--ticks T] [--build ID]\n",
    "                               [--check FILE] [--update FILE] [--limit PERCENT] [--against VALUE]\n")
  os.exit(2)
end

local function parse(args)
  local o = { fighters = 100, ticks = 300, limit = 10, build = "unknown" }
  local numeric = { fighters = true, ticks = true, limit = true, against = true }
  if args[#args] == "--hash-share" then o.hash_share, args[#args] = true, nil end
  local i = 1
  while i <= #args do
    local a = args[i]
    local key = a:match("^%-%-(%a+)$")
    if key then
      local v = args[i + 1]
      if v == nil then usage(a .. " needs a value") end
      if numeric[key] then
        local n = tonumber(v)
        if not n or n <= 0 then usage(a .. ": " .. v .. " is not a positive number") end
        v = n
      elseif key ~= "build" and key ~= "check" and key ~= "update" then
        usage("unknown option " .. a)
      end
      o[key] = v
      i = i + 2
    elseif not o.bench then
      o.bench = a
      i = i + 1
    else
      usage("unexpected argument " .. a)
    end
  end
  if not o.bench then usage("BENCH_STRESS (the bench_stress program) is missing") end
  return o
end

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("a")
  local ok, _, code = p:close()
  return out, ok and 0 or code
end

-- Instructions per fighter-tick, and the command that counted them.
local function count(o)
  local out_file = os.tmpname()
  local shown = string.format("valgrind --tool=callgrind --toggle-collect='stress_measured_ticks*' "
    .. "%s --icount %d %d", shell_quote(o.bench), o.fighters, o.ticks)
  local cmd = shown:gsub("^valgrind ", "valgrind --callgrind-out-file=" .. shell_quote(out_file) .. " ")
  local out, code = run(cmd)
  local f = io.open(out_file, "rb")
  local profile = f and f:read("a") or ""
  if f then f:close() end
  local share
  if o.hash_share then -- the state hash's part: fg_world_hash, the parts of it the tick folds
    -- (world_hash.c: fg_world_hash_parts, fg_world_hash_ledger_written; the matcher's part,
    -- fg_motion_kept_step, which the input phase calls for the hash only), each function's
    -- inclusive count. callgrind_annotate may list a function twice (under its source path as
    -- compiled and as written); one is counted, the larger.
    local p = assert(io.popen("callgrind_annotate --inclusive=yes " .. shell_quote(out_file)
      .. " 2>/dev/null"))
    local parts = { fg_world_hash = 0, fg_world_hash_parts = 0, fg_motion_kept_step = 0,
                    fg_world_hash_ledger_written = 0 }
    for line in p:lines() do
      local n, fn = line:match("^%s*([%d,]+) %b()%s+%S-:(%S+)")
      -- A link-time-optimised build names its copies fn.lto_priv.0, fn.constprop.0 and the
      -- like; the runtime keeps these functions out of line (FG_NOINLINE), so each is one.
      fn = fn and fn:match("^[%w_]+")
      if n and parts[fn] then parts[fn] = math.max(parts[fn], tonumber((n:gsub(",", "")))) end
    end
    local hashed = 0
    for _, n in pairs(parts) do hashed = hashed + n end
    p:close()
    share = hashed
  end
  os.remove(out_file)
  if code ~= 0 then
    io.stderr:write("icount.lua: `", cmd, "` failed (exit ", tostring(code), "):\n", out)
    os.exit(1)
  end
  local fighter_ticks = tonumber(out:match("measured fighter%-ticks: (%d+)"))
  local total = tonumber(profile:match("\ntotals: (%d+)") or profile:match("\nsummary: (%d+)"))
  if not fighter_ticks or not total or total == 0 then
    io.stderr:write("icount.lua: no count in the output of `", cmd, "`:\n", out)
    os.exit(1)
  end
  return total / fighter_ticks, shown, share and share / total
end

local function read_baseline(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local b = {}
  for line in f:lines() do
    local k, v = line:match("^(%w[%w_]*)%s+(.-)%s*$")
    if k then b[k] = v end
  end
  f:close()
  b.instructions = tonumber(b.instructions_per_fighter_tick)
  return b
end

local function write_baseline(path, o, figure)
  local f = assert(io.open(path, "wb"))
  f:write("# Instructions per fighter-tick of the stress pipeline under callgrind (tools/icount.lua).\n",
    "# CTest perf.instructions_per_fighter_tick fails when a build of the same kind counts more\n",
    "# than 10% above this figure. Refresh: bash tools/dev.sh icount --update (CONTRIBUTING.md).\n",
    string.format("build %s\nfighters %d\nticks %d\ninstructions_per_fighter_tick %.1f\n",
      o.build, o.fighters, o.ticks, figure))
  f:close()
end

local function commas(x)
  local s = string.format("%.0f", x)
  return (s:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""))
end

local o = parse(arg)
-- The refresh command runs the CTest entry with FG_ICOUNT_UPDATE=1, so the baseline is written
-- with the same build identity and run size the check uses.
if os.getenv("FG_ICOUNT_UPDATE") == "1" and o.check and not o.against then
  o.update, o.check = o.check, nil
  local old = read_baseline(o.update)
  if old then o.fighters, o.ticks = tonumber(old.fighters) or o.fighters, tonumber(old.ticks) or o.ticks end
end
local base
if o.check and not o.against then
  base = read_baseline(o.check)
  if not base or not base.instructions then
    io.stderr:write("icount.lua: ", o.check, ": no instructions_per_fighter_tick line; write one ",
      "with bash tools/dev.sh icount --update\n")
    os.exit(1)
  end
  if base.build ~= o.build then
    print(string.format("icount: the baseline in %s was counted on a %s build, this is %s: "
      .. "skipped (counts differ between optimisation levels and compilers)", o.check,
      tostring(base.build), o.build))
    os.exit(SKIP)
  end
  o.fighters, o.ticks = tonumber(base.fighters) or o.fighters, tonumber(base.ticks) or o.ticks
end

local figure, cmd, share = count(o)
print(string.format("instructions per fighter-tick: %s (%d fighters, %d ticks, %s build)",
  commas(figure), o.fighters, o.ticks, o.build))
if share then
  print(string.format("state hash: %.1f %% of the instructions (fg_world_hash, the parts the "
    .. "tick folds for it and the matcher's part, inclusive)", share * 100))
end
print("counted by: " .. cmd)

if o.update then
  write_baseline(o.update, o, figure)
  print("baseline written to " .. o.update)
end

if o.check or o.against then
  local against = o.against or base.instructions
  local change = (figure / against - 1) * 100
  print(string.format("baseline: %s, change %+.1f%% (limit +%g%%)", commas(against), change,
    o.limit))
  if change > o.limit then
    print(string.format("icount: FAILED: %s instructions per fighter-tick is %.1f%% above the "
      .. "baseline %s. Find what the tick does more (valgrind --tool=callgrind on the command "
      .. "above, then callgrind_annotate); if the work is meant to be there, refresh the "
      .. "baseline in the same commit: bash tools/dev.sh icount --update", commas(figure), change,
      commas(against)))
    os.exit(1)
  elseif change < -o.limit then
    print("icount: the tick got cheaper; refresh the baseline (bash tools/dev.sh icount --update) "
      .. "so a later rise is caught from the new figure")
  end
end
