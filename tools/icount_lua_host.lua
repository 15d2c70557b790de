-- SPDX-License-Identifier: MIT
-- icount_lua_host.lua: instructions per tick of each contender of the Lua host path benchmark
-- (tests/bench/bench_lua_host.lua), counted by callgrind, and each framegate contender's ratio to
-- the pure-Lua buffer. Unlike the benchmark's CPU times these do not move with the machine's load.
--
--   lua5.4 tools/icount_lua_host.lua FRAMEGATE [--short N] [--long M] [--min-ratio R]
--                                    [CONTENDER ...]
--
-- FRAMEGATE is the command-line host (build/release/framegate). Each contender (all of them by
-- default, as `bench_lua_host.lua --list` names them) runs twice under valgrind --tool=callgrind,
-- over the benchmark stream's first N ticks (1,000) and its first M (11,000): the difference of
-- the two counts over M - N is the work of those ticks alone (pushing their edges, the tick, the
-- queries), without start-up, the stream's making or the world's creation. Every contender must
-- give the same answers over the same ticks. --min-ratio R fails (exit 1) when the best framegate
-- contender is less than R times below the pure-Lua buffer.

local BENCH = "tests/bench/bench_lua_host.lua"
local REFERENCE = "pure-Lua buffer"

local function usage(msg)
  io.stderr:write("icount_lua_host.lua: ", msg, "\n",
    "usage: lua5.4 tools/icount_lua_host.lua FRAMEGATE [--short N] [--long M] [--min-ratio R] "
    .. "[CONTENDER ...]\n")
  os.exit(2)
end

local function parse(args)
  local o = { short = 1000, long = 11000, names = {} }
  local i = 1
  while i <= #args do
    local a = args[i]
    local key = a:match("^%-%-([%a-]+)$")
    if key then
      local v = tonumber(args[i + 1] or "")
      if key ~= "short" and key ~= "long" and key ~= "min-ratio" then
        usage("unknown option " .. a)
      end
      if not v or v <= 0 then usage(a .. " needs a positive number") end
      o[key] = v
      i = i + 2
    elseif not o.cli then
      o.cli = a
      i = i + 1
    else
      o.names[#o.names + 1] = a
      i = i + 1
    end
  end
  if not o.cli then usage("FRAMEGATE (the command-line host) is missing") end
  if math.type(o.short) ~= "integer" or math.type(o.long) ~= "integer" or o.long <= o.short
      or o.long > 20000 then
    usage(string.format("--short %s and --long %s: expected whole tick counts, short < long <= "
      .. "20000", o.short, o.long))
  end
  return o
end

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- Runs cmd; returns its output (stdout and stderr) and whether it succeeded.
local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("a")
  local ok = p:close()
  return out, ok
end

local function contenders(cli)
  local out, ok = run(shell_quote(cli) .. " lua " .. BENCH .. " --list")
  if not ok then error("icount_lua_host: " .. BENCH .. " --list failed:\n" .. out, 0) end
  local names = {}
  for line in out:gmatch("[^\n]+") do names[#names + 1] = line end
  return names
end

-- The instructions callgrind counted for one run of contender `name` over `ticks` ticks, and
-- the answers the run gave.
local function count(cli, name, ticks)
  local cmd = string.format("valgrind --tool=callgrind --callgrind-out-file=/dev/null %s lua %s "
    .. "--icount %s --ticks %d", shell_quote(cli), BENCH, shell_quote(name), ticks)
  local out, ok = run(cmd)
  local collected = out:match("Collected : (%d+)")
  local answers = out:match("icount: .-, %d+ ticks, (%d+) answers")
  if not ok or not collected or not answers then
    error("icount_lua_host: no count from\n  " .. cmd .. "\n" .. out, 0)
  end
  return tonumber(collected), tonumber(answers)
end

local function commas(n)
  local s = string.format("%d", n)
  local out = s:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return (out:gsub("^,", ""))
end

local o = parse(arg)
local names = #o.names > 0 and o.names or contenders(o.cli)
local have_reference = false
for _, n in ipairs(names) do have_reference = have_reference or n == REFERENCE end
if not have_reference then names[#names + 1] = REFERENCE end

local per_tick, answers = {}, {}
for _, name in ipairs(names) do
  local a, short_answers = count(o.cli, name, o.short)
  local b, long_answers = count(o.cli, name, o.long)
  per_tick[name] = (b - a) / (o.long - o.short)
  answers[name] = { short_answers, long_answers }
end

for _, name in ipairs(names) do
  local want, got = answers[REFERENCE], answers[name]
  if got[1] ~= want[1] or got[2] ~= want[2] then
    error(string.format("icount_lua_host: %s answered %d and %d times, %s %d and %d: the "
      .. "comparison means nothing", name, got[1], got[2], REFERENCE, want[1], want[2]), 0)
  end
end

print(string.format("Lua host path under callgrind: instructions per tick over ticks %d to %d of "
  .. "the benchmark's stream", o.short + 1, o.long))
local ref = per_tick[REFERENCE]
local best, best_name = 0, nil
for _, name in ipairs(names) do
  local ratio = ref / per_tick[name]
  local against = name == REFERENCE and "the reference"
    or ratio >= 1 and string.format("%.2fx fewer than the %s", ratio, REFERENCE)
    or string.format("%.2fx more than the %s", 1 / ratio, REFERENCE)
  print(string.format("  %-22s %8s   %s", name, commas(math.floor(per_tick[name] + 0.5)), against))
  if name ~= REFERENCE and name:find("^framegate") and ratio > best then
    best, best_name = ratio, name
  end
end

if o["min-ratio"] then
  if not best_name then
    io.stderr:write("icount_lua_host: FAILED: no framegate contender was counted\n")
    os.exit(1)
  end
  if best < o["min-ratio"] then
    print(string.format("icount_lua_host: FAILED: the best framegate contender (%s) counts %.2fx "
      .. "fewer instructions per tick than the %s, expected at least %.2fx", best_name, best,
      REFERENCE, o["min-ratio"]))
    os.exit(1)
  end
  print(string.format("icount_lua_host: ok: %s counts %.2fx fewer instructions per tick than the "
    .. "%s (at least %.2fx expected)", best_name, best, REFERENCE, o["min-ratio"]))
end
