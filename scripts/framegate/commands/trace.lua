-- SPDX-License-Identifier: MIT
-- framegate trace FILE: re-simulates a replay and exports its per-tick records as Chrome trace
-- event JSON (open it in ui.perfetto.dev or chrome://tracing). One process per entity, with a
-- track per action layer (each action a slice, named, with why it started), and tracks for input
-- edges, motion commands, request decisions (with their reasons), committed events and hits,
-- presentation cues, plus counters for every resource. --meter FROM-TO prints the frame meter of
-- a tick range (at most 240 ticks) as the re-simulation passes it.
local fg = require "framegate"
local det = require "framegate.determinism"
local options = require "framegate.options"

local function fail(msg, code)
  io.stderr:write("framegate trace: " .. msg .. "\n")
  return code or 1
end

-- JSON text of a Lua string.
local function jstr(s)
  return '"' .. tostring(s):gsub('[%c"\\]', function(c)
    if c == '"' then return '\\"' elseif c == "\\" then return "\\\\"
    elseif c == "\n" then return "\\n" elseif c == "\t" then return "\\t" end
    return string.format("\\u%04x", c:byte())
  end) .. '"'
end

-- JSON object of a flat table of strings and numbers, keys in sorted order.
local function jobj(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    parts[i] = jstr(k) .. ":" .. (type(v) == "number" and string.format("%d", v) or jstr(v))
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

local TRACKS = { input = 1, commands = 2, decisions = 3, events = 4, cues = 5, errors = 6 }
local TRACK_ORDER = { "input", "commands", "decisions", "events", "cues", "errors" }
local LAYER_TID = 10

local M = {
  summary = "export a replay's ticks as Chrome trace JSON (Perfetto); --meter prints a frame meter",
}

function M.options(p)
  p:argument("replay", "The replay file (.fgr).")
  p:option("-o --output", "The JSON file to write (default: the replay's name, .trace.json).")
  p:option("--meter", "Print the frame meter of ticks FROM-TO (at most 240 ticks), e.g. 0-59.")
  p:option("--rules", "Re-simulate with this ruleset instead of the recorded path.")
  p:flag("--embedded", "Re-simulate with the ruleset source embedded in the replay.")
end

function M.main(parsed)
  local opts, pos = parsed, { parsed.replay }
  opts.o = parsed.output
  local mfrom, mto
  if opts.meter then
    local a, b = opts.meter:match("^(%d+)%-(%d+)$")
    mfrom, mto = math.tointeger(tonumber(a)), math.tointeger(tonumber(b))
    if not mfrom or mto < mfrom or mto - mfrom >= 240 then
      return fail("--meter " .. opts.meter .. ": expected FROM-TO, at most 240 ticks "
        .. "(e.g. --meter 0-59)", 2)
    end
  end
  local file = pos[1]
  local okr, reader = pcall(fg.replay.open, file)
  if not okr then return fail(reader) end
  local rules, where = det.replay_rules(reader, file, opts)
  if not rules then return fail(where) end
  local same, msg = reader:check_ruleset(math.tointeger(tonumber(rules:hash(), 16)))
  if not same then return fail(msg .. " (" .. where .. ")") end
  local okw, w = pcall(fg.replay.world, reader, rules, { trace = 65536 })
  if not okw then return fail(w) end
  local header = reader:header()
  local rate = header.tick_rate
  local function ts(tick) return tick * 1000000 // rate end
  local tick_us = 1000000 // rate

  local events = {}
  local function add(e) events[#events + 1] = e end
  local entities = {}
  for id = 1, 64 do
    if not w:entity(id) then break end
    entities[#entities + 1] = id
    add(string.format('{"name":"process_name","ph":"M","pid":%d,"args":{"name":%s}}', id,
      jstr(string.format("e%d (%s)", id, rules:name()))))
    for _, name in ipairs(TRACK_ORDER) do
      local tid = TRACKS[name]
      add(string.format('{"name":"thread_name","ph":"M","pid":%d,"tid":%d,"args":{"name":%s}}',
        id, tid, jstr(name)))
      add(string.format('{"name":"thread_sort_index","ph":"M","pid":%d,"tid":%d,'
        .. '"args":{"sort_index":%d}}', id, tid, tid))
    end
  end
  local function instant(pid, tid, tick, name, args)
    add(string.format('{"name":%s,"ph":"i","s":"t","pid":%d,"tid":%d,"ts":%d,"args":%s}',
      jstr(name), pid, tid, ts(tick), jobj(args)))
  end
  -- Open action slices per entity and layer: {name, start tick, why}.
  local open, layer_named = {}, {}
  local function close_slice(pid, layer, tick)
    local o = open[pid] and open[pid][layer]
    if not o then return end
    add(string.format('{"name":%s,"ph":"X","pid":%d,"tid":%d,"ts":%d,"dur":%d,"args":%s}',
      jstr(o.name), pid, LAYER_TID + layer, ts(o.tick), math.max(ts(tick) - ts(o.tick), 1),
      jobj { started = o.why, tick = o.tick, ticks = tick - o.tick }))
    open[pid][layer] = nil
  end
  local last_res = {}

  -- The replay's hash records and reloads mark every entity's event track; its input edges and
  -- commands come back from the re-simulation with their names.
  local rd2 = fg.replay.open(file)
  for rec in rd2:records() do
    if rec.type == "checkpoint" or rec.type == "final" then
      for _, id in ipairs(entities) do
        instant(id, TRACKS.events, rec.tick, rec.type, { tick = rec.tick,
          hash = string.format("%016x", rec.hash) })
      end
    elseif rec.type == "reload" then
      for _, id in ipairs(entities) do
        instant(id, TRACKS.events, rec.tick, "reload", { tick = rec.tick,
          old_hash = string.format("%016x", rec.old_hash),
          new_hash = string.format("%016x", rec.new_hash) })
      end
    elseif rec.type == "clamp" then
      instant(entities[1] or 1, TRACKS.events, rec.tick, "clamped", { us = rec.clamped_us })
    end
  end
  rd2:close()

  local p = w:replay_player(reader)
  local meter
  while not p:status().done do
    local tick = w:tick()
    local ok, err = p:step()
    for _, r in ipairs(w:trace_records(tick)) do
      local args = { tick = r.tick, text = r.text:gsub("^t=%d+ e%d+ ", "") }
      if r.kind == "transition" then
        local layer_name, from, to, why = r.text:match("^t=%-?%d+ e%d+ (%S+): (%S+) %-> (%S+) %((%w+)")
        local layer = r.a
        if layer_name and not (layer_named[r.entity] and layer_named[r.entity][layer]) then
          layer_named[r.entity] = layer_named[r.entity] or {}
          layer_named[r.entity][layer] = true
          add(string.format('{"name":"thread_name","ph":"M","pid":%d,"tid":%d,'
            .. '"args":{"name":%s}}', r.entity, LAYER_TID + layer, jstr("layer " .. layer_name)))
        end
        close_slice(r.entity, layer, r.tick)
        if to and to ~= "(none)" then
          open[r.entity] = open[r.entity] or {}
          open[r.entity][layer] = { name = to, tick = r.tick, why = why or "?", from = from }
        end
      elseif r.kind == "decision" then
        args.decision, args.reason = r.decision, r.reason
        instant(r.entity, TRACKS.decisions, r.tick, r.decision .. ": " .. args.text, args)
      elseif r.kind == "input" then
        instant(r.entity, TRACKS.input, r.tick, args.text:gsub("^input ", ""), args)
      elseif r.kind == "command" then
        instant(r.entity, TRACKS.commands, r.tick, args.text, args)
      elseif r.kind == "event" or r.kind == "hit" then
        instant(r.entity, TRACKS.events, r.tick, args.text, args)
      elseif r.kind == "rule_error" then
        instant(r.entity, TRACKS.errors, r.tick, "rule error", args)
      elseif r.kind == "jump" or r.kind == "contact" then
        instant(r.entity, TRACKS.decisions, r.tick, args.text, args)
      end
    end
    for _, c in ipairs(w:cues()) do
      instant(c.entity, TRACKS.cues, c.tick, c.name, { tick = c.tick, a = c.a, b = c.b })
    end
    for _, id in ipairs(entities) do
      local e = w:entity(id)
      local prev = last_res[id] or {}
      local now = {}
      for k, v in pairs(e:view().resources) do now[k] = v end
      local changed = false
      for k, v in pairs(now) do if prev[k] ~= v then changed = true end end
      if changed then
        add(string.format('{"name":"resources","ph":"C","pid":%d,"ts":%d,"args":%s}', id,
          ts(tick), jobj(now)))
      end
      last_res[id] = now
    end
    if mto and tick == mto then meter = w:meter(mfrom, mto) end
    if not ok then
      io.stderr:write("framegate trace: " .. err .. " (the trace stops here)\n")
      break
    end
  end
  local last = w:tick()
  for pid, layers in pairs(open) do
    for layer in pairs(layers) do close_slice(pid, layer, last) end
  end
  local out = opts.o or (file:gsub("%.fgr$", "") .. ".trace.json")
  local f, ferr = io.open(out, "w")
  if not f then return fail(ferr) end
  f:write('{"displayTimeUnit":"ms","otherData":', jobj { replay = file, rules = where,
    tick_rate = rate, tick_us = tick_us }, ',"traceEvents":[\n')
  f:write(table.concat(events, ",\n"))
  f:write("\n]}\n")
  f:close()
  print(string.format("trace %s: %d ticks, %d trace events written to %s (open it in "
    .. "ui.perfetto.dev)", file, last - header.start_tick, #events, out))
  if opts.meter then
    if meter then
      print(string.format("frame meter, ticks %d-%d:", mfrom, mto))
      io.write(meter)
    else
      return fail(string.format("--meter %s: the replay ends at tick %d", opts.meter, last - 1))
    end
  end
  return 0
end

return options.command("trace", M)
