-- SPDX-License-Identifier: MIT
-- framegate watch DIR: a playtest that reloads the rules whenever they are saved. Two duelists
-- fight from a scripted input stream (--script FILE) or from the keyboard; transitions, request
-- decisions with their reasons and the frame meter are printed as they happen. After each
-- reload the last seconds of input are re-run against the new rules (what-if) and what now
-- comes out differently is listed.
--
-- Script files hold one line per input: `TICK p1|p2 INPUT-SCRIPT` (the notation of world:play,
-- ticks relative to TICK), `repeat N` to start the script again every N ticks, # for comments.
-- Keys: w a s d directions (held for a few ticks), j k LP HP, u i LK HK, q quits.
local fg = require "framegate"
local options = require "framegate.options"

local M = {}

--- Reads an input script: { events = { {tick=, who=, input=} }, period = N or nil }, or nil and
--- a message naming the file and line.
function M.read_script(path)
  local f, err = io.open(path, "r")
  if not f then return nil, err end
  local events, period = {}, nil
  local n = 0
  for line in f:lines() do
    n = n + 1
    line = line:gsub("#.*$", ""):match("^%s*(.-)%s*$")
    if line ~= "" then
      local every = line:match("^repeat%s+(%d+)$")
      local tick, who, input = line:match("^(%d+)%s+(p[12])%s+(.+)$")
      if every then
        period = tonumber(every)
      elseif tick then
        events[#events + 1] = { tick = tonumber(tick), who = who, input = input }
      else
        f:close()
        return nil, ("%s:%d: expected 'TICK p1|p2 INPUT' or 'repeat N', got '%s'"):format(path, n, line)
      end
    end
  end
  f:close()
  table.sort(events, function(a, b) return a.tick < b.tick end)
  return { events = events, period = period }
end

local KEYS = { w = 8, a = 4, s = 2, d = 6 }
local BUTTONS = { j = "LP", k = "HP", u = "LK", i = "HK" }

--- Opens what a playtest needs, shared by `watch` and the `play` window: the world with its
--- two duelists, the input script, the file watcher and the what-if snapshots. opts: dir,
--- script, keys, poll, what_if, out (as for M.session).
function M.open(opts)
  local rules = opts.dir:match("%.lua$") and opts.dir or (opts.dir:gsub("/+$", "") .. "/rules.lua")
  local w = fg.world { rules = rules, seed = 7, buffer = 512, trace = 16384 }
  local s = { world = w, reloads = {}, rules = rules, snapshots = {}, what_if = opts.what_if or 3,
              out = opts.out or print }
  s.p1 = w:spawn { x = -35 }
  s.p2 = w:spawn { x = 35, facing = "left" }
  if opts.script then
    local script, err = M.read_script(opts.script)
    if not script then error(err, 0) end
    s.script = script
  end
  local files = {}
  s.texts = {}
  for _, src in ipairs(fg.rules(rules):sources()) do
    files[#files + 1] = src.path
    s.texts[src.path] = src.text
  end
  s.watcher = fg.watcher { files = files, keyboard = opts.keys, poll = opts.poll }
  return s
end

-- The text of each file, by path (nil for one that cannot be read).
local function read_texts(paths)
  local texts = {}
  for _, path in ipairs(paths) do
    local f = io.open(path, "r")
    if f then
      texts[path] = f:read("a")
      f:close()
    end
  end
  return texts
end

-- Whether any file's text differs between two reads.
local function texts_differ(a, b)
  for path, text in pairs(b) do if a[path] ~= text then return true end end
  for path in pairs(a) do if b[path] == nil then return true end end
  return false
end

--- Plays the script's inputs due at tick t and keeps one snapshot a second for the what-if.
function M.before_tick(s, t)
  local w, script = s.world, s.script
  if script then
    local base = script.period and (t // script.period) * script.period or 0
    for _, e in ipairs(script.events) do
      if base + e.tick == t then w:play(e.who == "p1" and s.p1 or s.p2, e.input) end
    end
  end
  if t % w:rate() == 0 then
    s.snapshots[#s.snapshots + 1] = { tick = t, data = w:save() }
    if #s.snapshots > s.what_if + 2 then table.remove(s.snapshots, 1) end
  end
end

--- Reloads the rules from their files and reports through s.out: ok with what changed and the
--- what-if over the last seconds, or the error (the old rules keep running).
function M.reload(s)
  local w, out = s.world, s.out
  local info, err = w:reload()
  if info then
    local changed = {}
    for _, k in ipairs { "added", "changed", "removed" } do
      local names = {}
      for i, name in ipairs(info.changes[k]) do
        local fields = k == "changed" and info.changes.fields[name]
        names[i] = fields and ("%s (%s)"):format(name, table.concat(fields, ", ")) or name
      end
      if #names > 0 then changed[#changed + 1] = k .. " " .. table.concat(names, ",") end
    end
    -- The content hash covers the data, not the rule functions: an edit to request or on_event
    -- alone is still a change.
    local texts = read_texts(info.files)
    if info.hash == info.previous_hash and texts_differ(s.texts or {}, texts) then
      changed[#changed + 1] = "changed the rule functions (the data is the same)"
    end
    s.texts = texts
    out(("t=%d reload: ok, '%s' hash %s%s%s"):format(w:tick(), info.name, info.hash,
      #changed > 0 and ("; " .. table.concat(changed, "; ")) or "",
      info.message and ("; " .. info.message) or ""))
    s.reloads[#s.reloads + 1] = { tick = w:tick(), ok = true, info = info }
    local from = s.snapshots[1]
    for i = #s.snapshots, 1, -1 do
      if s.snapshots[i].tick <= w:tick() - s.what_if * w:rate() then from = s.snapshots[i]; break end
    end
    if s.what_if > 0 and from then
      local report = w:what_if { from = from.data }
      out(("what-if: ticks %d-%d against the new rules: %d difference%s%s"):format(report.from,
        report.to - 1, report.differences, report.differences == 1 and "" or "s",
        report.complete and "" or " (some input was no longer stored)"))
      for _, line in ipairs(report.lines) do out("  " .. line) end
      s.reloads[#s.reloads].what_if = report
    end
    -- Included files may have changed: watch what the new rules read.
    local paths = {}
    for _, p in ipairs(info.files) do paths[#paths + 1] = p end
    s.watcher:set(paths)
  else
    out(("t=%d reload failed, the old rules keep running:\n%s"):format(w:tick(), err))
    s.reloads[#s.reloads + 1] = { tick = w:tick(), ok = false, message = err }
  end
end

-- A fighter with nothing to show: in a neutral state, not frozen, nothing waiting.
local function is_free(p)
  local v = p:view()
  return v.phase == "neutral" and v.frozen == 0
end

--- Runs a playtest session. opts: dir (a folder with rules.lua, or a rules file), script (path),
--- ticks (stop after; nil: until q), fast (no real-time pacing), keys (keyboard input),
--- record (a replay file to write),
--- what_if (seconds re-run after a reload, 0: off), poll (no inotify), out (function(line)),
--- on_tick (function(session, tick), called before each tick: tests edit files from it).
--- Returns the session: { world =, p1 =, p2 =, reloads = { {tick=, ok=, message=} }, ... }.
function M.session(opts)
  local s = M.open(opts)
  local w, out, watcher = s.world, s.out, s.watcher
  local rate = w:rate()
  local printed = 0
  local meter_from, busy = 0, false
  local held = { dir = 5, until_tick = 0 }
  if opts.record then s.recorder = w:record(opts.record, { every = rate }) end
  out(("framegate watch: %s (%s), %d Hz%s"):format(s.rules, watcher:mode(), rate,
    opts.script and (", script " .. opts.script) or ""))

  local function report_trace()
    for _, r in ipairs(w:trace(printed)) do
      if r.kind ~= "input" and not r.text:find(" event ", 1, true) then out(r.text) end
    end
    printed = w:tick()
  end

  local function on_keys(keys)
    for k in keys:gmatch(".") do
      if k == "q" then s.quit = true
      elseif KEYS[k] then held.dir, held.until_tick = KEYS[k], w:tick() + 8
      elseif BUTTONS[k] then w:play(s.p1, BUTTONS[k] .. "@0")
      end
    end
  end

  local start = watcher:clock()
  local tick_us = 1000000 // rate
  while not s.quit and (not opts.ticks or w:tick() < opts.ticks) do
    local t = w:tick()
    if opts.on_tick then opts.on_tick(s, t) end
    if held.until_tick == t and held.dir ~= 5 then held.dir = 5; w:play(s.p1, "5@0") end
    M.before_tick(s, t)
    local wait_ms = 0
    if not opts.fast then
      local due = start + (t + 1) * tick_us
      wait_ms = math.max(0, (due - watcher:clock()) // 1000)
    end
    local changed, keys = watcher:wait(wait_ms)
    if #keys > 0 then on_keys(keys) end
    if held.until_tick > t and held.dir ~= 5 then w:play(s.p1, held.dir .. "@0") end
    if #changed > 0 then M.reload(s) end
    w:advance()
    report_trace()
    for _, c in ipairs(w:cues()) do out(("t=%d cue %s e%d"):format(c.tick, c.name, c.entity)) end
    -- The meter is printed per exchange: from the tick someone left neutral to the tick both
    -- are free again (or the 240 ticks the meter keeps), so its summary is of a whole action.
    local now = w:tick()
    local free = is_free(s.p1) and is_free(s.p2)
    if not busy then
      if free then meter_from = now else busy = true end
    elseif free or now - meter_from >= 240 then
      out((w:meter(meter_from, now - 1):gsub("\nlegend:.*$", "")))
      meter_from, busy = now, not free
    end
  end
  if s.recorder then
    s.recorder:finish()
    out(("recorded %s: ticks 0-%d, %d reload%s"):format(opts.record, w:tick() - 1, #s.reloads,
      #s.reloads == 1 and "" or "s"))
  end
  if opts.ticks then out(("t=%d hash %s"):format(w:tick(), w:hash())) end
  if opts.ticks then out(("t=%d hash %s"):format(w:tick(), w:hash())) end
  watcher:close()
  return s
end

M.summary = "playtest DIR's rules, reloading them on save (what-if after each reload)"

function M.options(p)
  p:argument("dir", "A sample folder holding rules.lua, or a rules file.")
  p:option("--script", "Play this input script (TICK p1|p2 INPUT lines) instead of the keyboard.")
  p:option("--ticks", "Stop after this many ticks.")
  p:option("--what-if", "Seconds of input re-run against the new rules after a reload (0: off).")
  p:option("--record", "Record the playtest, reloads included, into this replay file (.fgr).")
  p:flag("--fast", "Run as fast as possible instead of in real time.")
  p:flag("--keys", "Read the keyboard too (the default without --script).")
  p:flag("--poll", "Poll the files for changes instead of using inotify.")
end

function M.main(args)
  local ticks, e1 = options.int(args, "--ticks", nil, 0, math.maxinteger)
  local what_if, e2 = options.int(args, "--what-if", nil, 0, 3600)
  if e1 or e2 then return options.usage_error("watch", e1 or e2) end
  local opts = { dir = args.dir, script = args.script, ticks = ticks, what_if = what_if,
    fast = args.fast, keys = args.keys or not args.script, poll = args.poll, record = args.record }
  local ok, err = pcall(M.session, opts)
  if not ok then
    io.stderr:write("framegate watch: " .. tostring(err) .. "\n")
    return 1
  end
  return 0
end

return options.command("watch", M)
