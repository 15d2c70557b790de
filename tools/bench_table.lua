-- SPDX-License-Identifier: MIT
-- bench_table.lua: the README's performance tables and the docs' figure tables, generated from the
-- committed benchmark output (tests/bench/baseline/bench.txt, written by `bash tools/dev.sh bench`),
-- so no figure in them can go stale or be typed by hand.
--
--   lua5.4 tools/bench_table.lua [--write | --check] [ROOT]
--
-- Each generated block sits between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` in its file.
-- --write rewrites the blocks; --check (the default; CTest lint.bench_table) exits 1 naming every
-- block that differs from what the baseline gives, with the first differing line. A benchmark
-- whose output no longer has a line this script reads is an error naming the benchmark and the
-- line expected: change the benchmark and this script together.

local BASELINE = "tests/bench/baseline/bench.txt"

local mode, root = "--check", "."
for _, a in ipairs(arg) do
  if a == "--write" or a == "--check" then mode = a else root = a end
end

local function read(path)
  local f, err = io.open(root .. "/" .. path, "rb")
  if not f then
    io.stderr:write("bench_table.lua: ", err, "\n")
    os.exit(1)
  end
  local text = f:read("a")
  f:close()
  return text
end

-- {=================================================================== the baseline, by section

local sections = {}
do
  local name
  for line in read(BASELINE):gmatch("([^\n]*)\n?") do
    local header = line:match("^== (%S+)")
    if header then
      name = header
      sections[name] = {}
    elseif name then
      table.insert(sections[name], line)
    end
  end
end

-- The captures of the first line of section `name` matching `pattern`, as numbers where they are.
local function find(name, pattern)
  local lines = sections[name]
  if not lines then
    error(string.format("%s: no `== %s` section (run bash tools/dev.sh bench)", BASELINE, name), 0)
  end
  for _, line in ipairs(lines) do
    local caps = { line:match(pattern) }
    if caps[1] then
      for i, c in ipairs(caps) do caps[i] = tonumber((c:gsub(",", ""))) or c end
      return table.unpack(caps)
    end
  end
  error(string.format("%s: section %s has no line matching `%s` (its output changed: update "
    .. "tools/bench_table.lua with it)", BASELINE, name, pattern), 0)
end

-- }===================================================================

-- {=================================================================== number formatting

local function commas(x)
  local s = string.format("%.0f", x)
  local sign, digits = s:match("^(%-?)(%d+)$")
  return sign .. digits:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
end

-- Three significant figures at most, thousands with commas.
local function num(x)
  if type(x) ~= "number" then return tostring(x) end
  if math.abs(x) >= 100 or x == math.floor(x) then return commas(x) end
  if math.abs(x) >= 10 then return string.format("%.1f", x) end
  if math.abs(x) >= 1 then return string.format("%.2f", x) end
  return string.format("%.3f", x)
end

local function bytes(x)
  if x >= 10240 then return string.format("%.0f KB", x / 1024) end
  if x >= 1024 then return string.format("%.1f KB", x / 1024) end
  return string.format("%.0f B", x)
end

local function pct(x) return string.format("%.1f %%", x) end

local function ratio(x) return string.format("%.2fx", x) end

-- A paragraph or a list item cut into lines of at most 100 columns, as the rest of the docs are
-- (a list item's following lines indented by two spaces). Table rows are left whole.
local function wrap(text)
  if text:match("^|") or text == "" then return text end
  local indent = text:match("^%- ") and "  " or ""
  local lines, line = {}, ""
  for word in text:gmatch("%S+") do
    if line ~= "" and #line + 1 + #word > 100 then
      lines[#lines + 1] = line
      line = indent .. word
    else
      line = line == "" and word or line .. " " .. word
    end
  end
  lines[#lines + 1] = line
  return table.concat(lines, "\n")
end

-- }===================================================================

local function machine()
  local date = find("machine", "^date: (.+)$")
  local commit = find("machine", "^commit: (%S+)")
  local cpu = find("machine", "^cpu: (.+)$")
  local before = find("machine", "^load before: (.+)$")
  local after = find("icount", "^load after: (.+)$")
  return string.format("Measured %s at commit %s, release preset (GCC link-time optimisation), "
    .. "%s; load average %s before the run and %s after.", date, commit, cpu, before, after)
end

-- {=================================================================== README: the whole tick

local STRESS_SIZES = { 2, 100, 1000, 3000, 10000 }

local function stress_rows()
  local rows = {}
  for _, n in ipairs(STRESS_SIZES) do
    local ns, tps, calls, allocs, garbage, mem, hash = find("bench_stress",
      "^%s*" .. n .. "%s+([%d.]+)%s+([%d.]+)%s+([%d.]+)%s+([%d.]+)%s+([%d.]+)%s+([%d.]+)%s+([%d.]+)%s*$")
    local icount = find("icount", "^instructions per fighter%-tick: ([%d,]+) %(" .. n .. " fighters")
    local ihash
    for i, line in ipairs(sections.icount) do
      if line:match("%(" .. n .. " fighters") then
        ihash = tonumber((sections.icount[i + 1] or ""):match("^state hash: ([%d.]+) %%"))
      end
    end
    if not ihash then
      error(BASELINE .. ": section icount has no `state hash:` line after " .. n .. " fighters", 0)
    end
    rows[#rows + 1] = { n = n, ns = ns, tps = tps, calls = calls, allocs = allocs,
                        garbage = garbage, mem = mem, hash = hash, icount = icount, ihash = ihash }
  end
  return rows
end

local function block_stress()
  local out = {}
  local function put(s) out[#out + 1] = wrap(s) end
  local rows = stress_rows()
  local edges = find("bench_stress", "%(input: ([%d.]+) edges per fighter per second%)")
  put(string.format("`bench_stress`: N fighters of the stress fighter, paired in duels, %s edges "
    .. "per fighter per second of seeded human-rate input, read tick by tick as a replay or a "
    .. "network feed delivers it, cues drained and the state hash taken every tick; median of 5 "
    .. "runs, taken in rounds that run every size once, so that a slow stretch of the machine "
    .. "falls on every size alike. Instructions per fighter-tick are callgrind's count on a "
    .. "shorter run of the same pipeline (`tools/icount.lua`). %s", num(edges), machine()))
  put("")
  put("| fighters | ns per fighter-tick | instructions per fighter-tick | ticks per second | "
    .. "state hash: share of the time / of the instructions | Lua calls per fighter-tick | "
    .. "C allocations per tick | Lua garbage per tick | bytes per fighter |")
  put("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
  for _, r in ipairs(rows) do
    put(string.format("| %s | %s | %s | %s | %s / %s | %s | %s | %s | %s |", commas(r.n),
      num(r.ns), commas(r.icount), commas(r.tps), pct(r.hash), pct(r.ihash), num(r.calls),
      num(r.allocs), bytes(r.garbage), commas(r.mem)))
  end
  put("")
  local nb, boxed, ranged, rel, coll = find("bench_stress", "^hits as boxes, (%d+) fighters: "
    .. "([%d.]+) ns per fighter%-tick with boxes, ([%d.]+) with the range shorthand %(([%d.]+)x%); "
    .. "the collision phase alone: ([%d.]+) ns")
  put(string.format("- Hits as boxes (`tests/bench/stress_rules_boxes.lua`: hit boxes instead of "
    .. "ranges, default hurt and push boxes), %s fighters: %s ns per fighter-tick against %s with "
    .. "the range shorthand (%s); the collision phase alone %s ns per entity-tick.", commas(nb),
    num(boxed), num(ranged), ratio(rel), num(coll)))
  local nc, c_ns, c_allocs = find("bench_stress", "^the same (%d+) fighters decided in C only "
    .. "%(no Lua rule or hook%): ([%d.]+) ns per fighter%-tick, ([%d.]+) allocations per tick")
  put(string.format("- The same %s fighters decided in C only: %s ns per fighter-tick, %s "
    .. "allocations per tick.", commas(nc), num(c_ns), num(c_allocs)))
  local fast_edges, nf, fast_ns = find("bench_stress", "^4x the input rate %(([%d.]+) edges per "
    .. "fighter per second%), (%d+) fighters: ([%d.]+) ns")
  put(string.format("- 4x the input rate (%s edges per fighter per second), %s fighters: %s ns "
    .. "per fighter-tick.", num(fast_edges), commas(nf), num(fast_ns)))
  local long_ns = find("bench_stress", "^a 5%-minute match %(18000 ticks%), 100 fighters: ([%d.]+) ns")
  put(string.format("- A 5-minute match (18,000 ticks, 100 fighters): %s ns per fighter-tick; "
    .. "the cost does not grow with past ticks or buffer length.", num(long_ns)))
  local c_m, c_cmds = find("bench_stress", "^%s*framegate %(C%)%s+([%d.]+) ns per fighter%-tick"
    .. "%s+%((%d+) commands%)")
  local l_m, l_cmds = find("bench_stress", "^%s*pure Lua reference%s+([%d.]+) ns per fighter%-tick"
    .. "%s+%((%d+) commands%)")
  put(string.format("- The input buffer and motion matcher alone, against a pure-Lua buffer and "
    .. "matcher written for the comparison (`tests/bench/lua_reference_matcher.lua`), 1,000 "
    .. "fighters on the same stream in the same process: %s against %s ns per fighter-tick, %s. "
    .. "The reference keeps only the rules the stress patterns need (no specificity tie-break, "
    .. "no skipped diagonals), so its command count differs a little (%s against %s).", num(c_m),
    num(l_m), ratio(l_m / c_m), commas(l_cmds), commas(c_cmds)))
  local i_lo_n, idle_lo, play_lo, i_hi_n, idle_hi, play_hi = find("bench_stress",
    "^C only, idle %(no input%) and playing, median of 3: (%d+) fighters ([%d.]+) and ([%d.]+), "
    .. "(%d+) fighters ([%d.]+) and ([%d.]+) ns per fighter%-tick")
  local grow_idle, grow_play = idle_hi / idle_lo, play_hi / play_lo
  local text = string.format("- Idle fighters (no input: each stands in its neutral state) "
    .. "against the same fighters playing, C only: %s and %s ns per fighter-tick at %s fighters, "
    .. "%s and %s at %s. From %s to %s fighters the idle tick's cost grows %s, the playing one's "
    .. "%s.", num(idle_lo), num(play_lo), commas(i_lo_n), num(idle_hi), num(play_hi),
    commas(i_hi_n), commas(i_lo_n), commas(i_hi_n), ratio(grow_idle), ratio(grow_play))
  if grow_play > grow_idle + 0.1 then
    text = text .. " What grows most with the world is the work of fighters in action (moves, "
      .. "requests, hits, and the state they bring in), more than the tick every fighter pays."
  end
  put(text)
  -- The machine's memory: where a load that waits on the one before jumps in cost.
  local lat = {}
  local mem = find("bench_stress",
    "^memory: ns per dependent load by working set %(median of 3%): (.*)$")
  for mib, ns in tostring(mem):gmatch("(%d+) MiB ([%d.]+)") do
    lat[#lat + 1] = { mib = tonumber(mib), ns = tonumber(ns) }
  end
  if #lat < 2 then
    error(string.format("%s: section bench_stress: the memory line gives %d working-set size(s) "
      .. "(`%s`); expected two or more, each as `N MiB ns`", BASELINE, #lat, tostring(mem)), 0)
  end
  local figures = {}
  for i, l in ipairs(lat) do figures[i] = string.format("%s MiB %s", commas(l.mib), num(l.ns)) end
  put(string.format("- This machine's memory: a load whose address comes from the load before (as "
    .. "an edge's ring slot, or the trie nodes it advances) costs, by working set, %s ns: %s as "
    .. "much in %s MiB as in %s. A tick touches about 1 KB of each fighter's state "
    .. "(docs/architecture.md, \"Memory layout\"): 1,000 fighters' fit in 1 MiB, 10,000 "
    .. "fighters' need 10.", table.concat(figures, ", "), num(lat[#lat].ns / lat[1].ns) .. "x",
    commas(lat[#lat].mib), commas(lat[1].mib)))
  -- The targets, computed from the rows above.
  local lo, hi = math.huge, 0
  for _, r in ipairs(rows) do
    if r.n >= 100 then lo, hi = math.min(lo, r.ns), math.max(hi, r.ns) end
  end
  local by = {}
  for _, r in ipairs(rows) do by[r.n] = r end
  put("")
  local function verdict(x) return x <= 20 and "met" or "missed" end
  put(string.format("Targets: at most 250 ns per fighter-tick from 100 to 10,000 fighters (here "
    .. "%s to %s: %s) with max/min at most 1.3 (here %.2f: %s); the state hash at most 20 %% of "
    .. "the tick at 1,000 fighters (here %s of the time, %s; %s of the instructions, %s) and at "
    .. "10,000 (%s of the time, %s; %s of the instructions, %s). The time share compares "
    .. "alternating blocks of ticks with the hash and without it (a world hashed every tick folds "
    .. "each fighter's part during its tick), the median of the five runs' shares, and moves with "
    .. "the load; the instruction share (callgrind, shorter run) does not.",
    num(lo), num(hi), hi <= 250 and "met" or "missed", hi / lo,
    hi / lo <= 1.3 and "met" or "missed", pct(by[1000].hash), verdict(by[1000].hash),
    pct(by[1000].ihash), verdict(by[1000].ihash), pct(by[10000].hash), verdict(by[10000].hash),
    pct(by[10000].ihash), verdict(by[10000].ihash)))
  return table.concat(out, "\n")
end

-- }===================================================================

-- {=================================================================== README: the Lua host path

local function block_lua_host()
  local out = {}
  local function put(s) out[#out + 1] = wrap(s) end
  local bindings, ticks, edges, rounds = find("bench_lua_host", "^Lua host path: 1 player, (%d+) "
    .. "bindings, a pressed and a held query per binding per tick, (%d+) ticks, (%d+) edges; "
    .. "median of (%d+) rounds")
  local rows, fastest_lua = {}, math.huge
  for _, line in ipairs(sections.bench_lua_host) do
    local name, ns = line:match("^%s+(.-)%s%s+([%d.]+) ns per tick")
    if name then
      rows[#rows + 1] = { name = name, ns = tonumber(ns) }
      if not name:match("^framegate") then fastest_lua = math.min(fastest_lua, tonumber(ns)) end
    end
  end
  if #rows == 0 or fastest_lua == math.huge then
    error(BASELINE .. ": section bench_lua_host has no contender rows", 0)
  end
  table.sort(rows, function(a, b) return a.ns < b.ns end)
  put(string.format("`tests/bench/bench_lua_host.lua`: a Lua game polling one player, %s bindings, "
    .. "a pressed and a held query per binding per tick, %s ticks with %s edges, the same edge "
    .. "stream for every contender, the order rotated each round; CPU time, median of %s rounds. "
    .. "Each tick includes pushing its edges and `w:advance()`. %s", bindings, commas(ticks),
    commas(edges), rounds, machine()))
  put("")
  put("| contender | ns per tick | against the fastest pure-Lua row |")
  put("| --- | ---: | ---: |")
  local best_fg = math.huge
  for _, r in ipairs(rows) do
    if r.name:match("^framegate") then best_fg = math.min(best_fg, r.ns) end
    local rel = r.ns == fastest_lua and "the reference"
      or r.ns < fastest_lua and string.format("%.2fx faster", fastest_lua / r.ns)
      or string.format("%.2fx slower", r.ns / fastest_lua)
    put(string.format("| %s | %s | %s |", r.name, commas(r.ns), rel))
  end
  put("")
  put(string.format("Target: framegate's fastest Lua path at least 3x faster than the fastest "
    .. "pure-Lua row (here %.2fx: %s).", fastest_lua / best_fg,
    fastest_lua / best_fg >= 3 and "met" or "missed"))
  return table.concat(out, "\n")
end

-- }===================================================================

-- {=================================================================== README: per layer

local function block_layers()
  local out = {}
  local function put(s) out[#out + 1] = wrap(s) end
  put("| benchmark | figure |")
  put("| --- | --- |")
  local e2 = find("bench_input", "^buffer push%+consume, 2 edges/tick%s+([%d.]+)")
  local w2, a2 = find("bench_input", "^world press%+advance, 2 edges/tick%s+([%d.]+)%s+%S+%s+(%d+)")
  local e8 = find("bench_input", "^buffer push%+consume, 8 edges/tick%s+([%d.]+)")
  local w8, a8 = find("bench_input", "^world press%+advance, 8 edges/tick%s+([%d.]+)%s+%S+%s+(%d+)")
  local ne = find("bench_input", "^input layer: (%d+) entities")
  put(string.format("| `bench_input`: push + consume, %s entities, 8 / 2 edges per tick | %s / %s "
    .. "ns per edge; world path %s / %s ns, %s / %s allocations per tick |", commas(ne), num(e8),
    num(e2), num(w8), num(w2), a8, a2))
  local patterns, state, nm = find("bench_motion", "^motion bench: (%d+) patterns %b(), state (%d+) "
    .. "bytes per entity, (%d+) entities")
  local human, hedges, hallocs = find("bench_motion", "^%s*human rate%s+([%d.]+) ns per entity%-tick "
    .. "%(([%d.]+) edges/s, %d+ commands%), (%d+) allocations")
  local idle = find("bench_motion", "^%s*idle%s+([%d.]+) ns per entity%-tick")
  put(string.format("| `bench_motion`: %s patterns, %s entities (%s bytes of matcher state each) | "
    .. "%s ns per entity-tick at human rate (%s edges/s), %s idle; %s allocations |", patterns,
    commas(nm), commas(state), num(human), num(hedges), num(idle), hallocs))
  local gmix = find("bench_gate", "^mixed %b()%s+%d+ candidates%s+[%d.]+ M/s%s+([%d.]+) ns/candidate")
  local gfull = find("bench_gate", "^accepted, 16th marker of a full ledger%s+%d+ candidates%s+"
    .. "[%d.]+ M/s%s+([%d.]+) ns")
  local gticks, gpeak = find("bench_gate", "^ledger over (%d+) ticks"), find("bench_gate",
    "peak (%d+); allocations")
  put(string.format("| `bench_gate`: event candidates decided | %s ns per candidate (mixed), %s "
    .. "into a full ledger; ledger %s bytes at most after %s ticks of footsteps |", num(gmix),
    num(gfull), commas(gpeak), commas(gticks)))
  local bc = find("bench_behavior", "^requests decided in C%s+.-:%s+([%d.]+) ns per entity%-tick")
  local bl = find("bench_behavior", "^requests through a Lua request rule%s+.-:%s+([%d.]+) ns")
  put(string.format("| `bench_behavior`: 2 layers, 40 actions, a request every 10 ticks | %s ns "
    .. "per entity-tick in C, %s with a Lua rule |", num(bc), num(bl)))
  local rl = find("bench_reload", "^reload of 50 actions and 30 motions: median ([%d.]+) ms")
  local rc = find("bench_reload", "^request%-rule call with budgets.-: ([%d.]+) ns")
  local rp = find("bench_reload", "^the same call by plain lua_pcall, no budgets:%s+([%d.]+) ns")
  put(string.format("| `bench_reload`: 50 actions, 30 motions | reload %s ms; a rule call %s ns "
    .. "with budgets, %s without |", num(rl), num(rc), num(rp)))
  local sr = find("bench_determinism", "^%s*save %+ restore%s+([%d.]+) ns")
  local rb = find("bench_determinism", "^%s*8%-tick rollback%s+([%d.]+) us")
  local rs = find("bench_determinism", "^%s*replay re%-simulation%s+([%d.]+) fighter%-ticks/s")
  local _, hshare = find("bench_determinism", "^%s*hash%s+([%d.]+) ns%s+([%d.]+) %% of a tick "
    .. "%(target")
  put(string.format("| `bench_determinism`: the sample duel | save + restore %s us; 8-tick "
    .. "rollback %s us; replay %s M fighter-ticks/s; hash %s of a tick |", num(sr / 1000), num(rb),
    num(rs / 1e6), pct(hshare)))
  local lc = find("bench_locomotion", "^%s*compute step%s+([%d.]+) ns/entity")
  put(string.format("| `bench_locomotion`: compute step | %s ns per entity |", num(lc)))
  local bpt = find("bench_replay", "^file size:.-([%d.]+) bytes per fighter%-tick")
  local wr = find("bench_replay", "^write:%s+([%d.]+) M records/s")
  local rd = find("bench_replay", "^read %(open%+check%+iterate%):%s+([%d.]+) M records/s")
  put(string.format("| `bench_replay`: a 2-fighter stream | %s bytes per fighter-tick; %s M "
    .. "records/s written, %s M read |", num(bpt), num(wr), num(rd)))
  local med, worst_pct
  local lines = sections.bench_session or {}
  for i, line in ipairs(lines) do
    if line:match("^worst") then
      local l2 = lines[i + 1] or ""
      med = tonumber(l2:match("median ([%d.]+) us"))
      worst_pct = l2:match("= [%d.]+%% / [%d.]+%% / ([%d.]+)%%")
    end
  end
  if not med or not worst_pct then
    error(BASELINE .. ": section bench_session has no `worst` case with its CPU line", 0)
  end
  local bps = find("bench_session", "per player: (%d+) bytes/s of datagrams")
  put(string.format("| `bench_session`: the duel over the link, rollbacks every frame | %s us CPU "
    .. "per frame (median; worst %s%% of 16.7 ms); %s bytes/s per player |", num(med), worst_pct,
    commas(bps)))
  return table.concat(out, "\n")
end

-- }===================================================================

-- {=================================================================== docs/determinism.md

local function block_determinism()
  local out = {}
  local function put(s) out[#out + 1] = wrap(s) end
  local f = function(p) return find("bench_determinism", p) end
  local snap = f("^%s*snapshot%s+(%d+) bytes")
  put(machine())
  put("")
  put("| | figure | target |")
  put("|---|---|---|")
  put(string.format("| snapshot of the match | %s bytes | |", commas(snap)))
  local lines = sections.bench_determinism
  local tick_f, hash_f, share_f, tick_t, hash_t, share_t
  for _, line in ipairs(lines) do
    local t = line:match("^%s*tick %(Lua rules%)%s+([%d.]+) ns")
    local h, s = line:match("^%s*hash%s+([%d.]+) ns%s+([%d.]+) %%")
    if t then
      if not tick_f then tick_f = tonumber(t) else tick_t = tonumber(t) end
    elseif h then
      if not hash_f then hash_f, share_f = tonumber(h), tonumber(s)
      else hash_t, share_t = tonumber(h), tonumber(s) end
    end
  end
  if not (tick_f and tick_t and hash_f and hash_t) then
    error(BASELINE .. ": section bench_determinism lacks the two tick and hash lines", 0)
  end
  put(string.format("| tick, frantic random input (~30 edges/s per fighter) | %s us | |",
    num(tick_f / 1000)))
  put(string.format("| hash | %s us (%s of that tick) | <= 20 %% |", num(hash_f / 1000),
    pct(share_f)))
  put(string.format("| tick, typical input (~8 edges/s) | %s us | |", num(tick_t / 1000)))
  put(string.format("| hash | %s us (%s of that tick) | |", num(hash_t / 1000), pct(share_t)))
  put(string.format("| save | %s us | |", num(f("^%s*save%s+([%d.]+) ns") / 1000)))
  put(string.format("| restore | %s us | |", num(f("^%s*restore%s+([%d.]+) ns") / 1000)))
  put(string.format("| save + restore | %s us | <= 1 us |",
    num(f("^%s*save %+ restore%s+([%d.]+) ns") / 1000)))
  put(string.format("| 8-tick rollback (1 restore + 8 ticks with Lua rules) | %s us | <= 100 us |",
    num(f("^%s*8%-tick rollback%s+([%d.]+) us"))))
  put(string.format("| sync test at distance 8, per checked tick | %s us | |",
    num(f("^%s*sync test, distance 8%s+([%d.]+) us"))))
  put(string.format("| replay re-simulation, checkpoints verified | %s M fighter-ticks/s | "
    .. ">= 500,000 |", num(f("^%s*replay re%-simulation%s+([%d.]+) fighter") / 1e6)))
  return table.concat(out, "\n")
end

-- }===================================================================

-- {=================================================================== docs/locomotion.md

local function block_locomotion()
  local out = {}
  local function put(s) out[#out + 1] = wrap(s) end
  local f = function(p) return find("bench_locomotion", p) end
  local n, ticks = f("^locomotion: (%d+) entities, (%d+) ticks")
  local mean, best = f("^%s*compute step%s+([%d.]+) ns/entity %(mean%), ([%d.]+) in the best")
  put(string.format("%s entities, %s ticks. %s", commas(n), commas(ticks), machine()))
  put("")
  put("| | figure |")
  put("|---|---|")
  put(string.format("| compute step | %s ns per entity (mean over the run), %s in the best tick |",
    num(mean), num(best)))
  put(string.format("| gather / read-back | %s / %s ns per entity |",
    num(f("^%s*gather%s+([%d.]+) ns")), num(f("^%s*read%-back%s+([%d.]+) ns"))))
  local ms, meps = f("^%s*inline tick%s+([%d.]+) ms/tick, ([%d.]+) M entity%-ticks/s")
  put(string.format("| inline tick (gather, compute, read-back, world) | %s ms, %s M "
    .. "entity-ticks/s |", num(ms), num(meps)))
  local w1, e1, wait1 = f("^%s*1 worker%s+%+ world%s+([%d.]+) ms/tick, ([%d.]+) M entity%-ticks/s.-"
    .. "waited (%d+)%% of the tick")
  put(string.format("| compute on 1 worker | %s ms per tick, %s M entity-ticks/s; the simulation "
    .. "thread waited %s%% of the tick |", num(w1), num(e1), wait1))
  local w2, e2 = f("^%s*2 workers %+ world%s+([%d.]+) ms/tick, ([%d.]+) M entity%-ticks/s")
  put(string.format("| compute on 2 workers | %s ms per tick, %s M entity-ticks/s |", num(w2),
    num(e2)))
  return table.concat(out, "\n")
end

-- }===================================================================

-- {=================================================================== docs/netplay.md

local function block_netplay()
  local out = {}
  local function put(s) out[#out + 1] = wrap(s) end
  put(machine())
  put("")
  put("| case | re-simulated per frame | CPU per displayed frame: median / 99th / worst | of a 16.7 "
    .. "ms frame (worst) | bytes/s per player (datagrams / with UDP+IPv4 headers) |")
  put("|---|---|---|---|---|")
  local names = { ["150ms"] = "150 ms round trip, 2% loss", worst = "8 ticks each way: an 8-tick "
    .. "rollback every frame" }
  local lines, rows = sections.bench_session or {}, 0
  for i, line in ipairs(lines) do
    local case, resim, deepest = line:match("^(%S+)%s+%d+ ms one way.-([%d.]+) ticks re%-simulated "
      .. "per frame, deepest (%d+)")
    if case and names[case] then
      local cpu, per = lines[i + 1] or "", lines[i + 2] or ""
      local med, p99, worst = cpu:match("median ([%d.]+) us, mean [%d.]+ us, 99th ([%d.]+) us, "
        .. "worst ([%d.]+) us")
      local worst_pct = cpu:match("= [%d.]+%% / [%d.]+%% / ([%d.]+)%%")
      local bps, udp = per:match("per player: (%d+) bytes/s of datagrams.-, (%d+) bytes/s with")
      if not (med and worst_pct and bps) then
        error(BASELINE .. ": section bench_session: case " .. case .. " lacks its CPU or bytes "
          .. "line", 0)
      end
      put(string.format("| %s | %s ticks (deepest %s) | %s / %s / %s µs | %s%% | %s / %s |",
        names[case], resim, deepest, med, p99, worst, worst_pct, commas(tonumber(bps)),
        commas(tonumber(udp))))
      rows = rows + 1
    end
  end
  if rows ~= 2 then error(BASELINE .. ": section bench_session: expected its two cases", 0) end
  return table.concat(out, "\n")
end

-- }===================================================================

local BLOCKS = {
  { file = "README.md", name = "stress", make = block_stress },
  { file = "README.md", name = "lua_host", make = block_lua_host },
  { file = "README.md", name = "layers", make = block_layers },
  { file = "docs/determinism.md", name = "determinism", make = block_determinism },
  { file = "docs/locomotion.md", name = "locomotion", make = block_locomotion },
  { file = "docs/netplay.md", name = "netplay", make = block_netplay },
}

local function escape(s) return (s:gsub("%p", "%%%0")) end

local texts, failed = {}, false
for _, b in ipairs(BLOCKS) do
  texts[b.file] = texts[b.file] or read(b.file)
  local open_tag, close_tag = "<!-- bench:" .. b.name .. " -->", "<!-- /bench:" .. b.name .. " -->"
  local text = texts[b.file]
  local s, e = text:find(escape(open_tag) .. "\n(.-)" .. escape(close_tag))
  if not s then
    io.stderr:write(string.format("bench_table.lua: %s: no `%s` ... `%s` block\n", b.file,
      open_tag, close_tag))
    os.exit(1)
  end
  local ok, generated = pcall(b.make)
  if not ok then
    io.stderr:write("bench_table.lua: ", generated, "\n")
    os.exit(1)
  end
  local current = text:sub(s + #open_tag + 1, e - #close_tag)
  local wanted = generated .. "\n"
  if current ~= wanted then
    if mode == "--write" then
      texts[b.file] = text:sub(1, s + #open_tag) .. wanted .. text:sub(e - #close_tag + 1)
      b.changed = true
    else
      failed = true
      local cl, wl, i = {}, {}, 1
      for l in current:gmatch("([^\n]*)\n") do cl[#cl + 1] = l end
      for l in wanted:gmatch("([^\n]*)\n") do wl[#wl + 1] = l end
      while cl[i] == wl[i] do i = i + 1 end
      io.stderr:write(string.format("bench_table.lua: %s, block bench:%s (line %d of the block) "
        .. "differs from what %s gives:\n  in the file: %s\n  generated:   %s\n", b.file, b.name, i,
        BASELINE, cl[i] or "(nothing)", wl[i] or "(nothing)"))
    end
  end
end

if mode == "--write" then
  for file, text in pairs(texts) do
    local f = assert(io.open(root .. "/" .. file, "wb"))
    f:write(text)
    f:close()
  end
  for _, b in ipairs(BLOCKS) do
    print(string.format("%s bench:%s %s", b.file, b.name, b.changed and "rewritten" or "unchanged"))
  end
elseif failed then
  io.stderr:write("bench_table.lua: the figures are generated: run `bash tools/dev.sh bench` "
    .. "(measures and rewrites) or `lua5.4 tools/bench_table.lua --write` (rewrites from the "
    .. "committed output); never edit a generated block by hand\n")
  os.exit(1)
else
  print(string.format("bench_table.lua: %d generated blocks match %s", #BLOCKS, BASELINE))
end
