-- SPDX-License-Identifier: MIT
-- framegate netplay host PORT RULES | join HOST:PORT RULES | local RULES: a two-player match of
-- a ruleset between two processes over ENet (UDP), rollback and all. Headless: this node's
-- player follows a script (--input FILE, the format of `framegate watch --script`: lines
-- `TICK p1|p2 INPUT`, `repeat N`); the host plays p1, the joiner p2. Once a second it prints the
-- round trip, the input delay, rollbacks per second and the deepest re-simulation; at the end
-- the final hash. `local` plays both players' scripts in one world without a network, as the
-- reference the two processes must equal. --record writes the whole match as one replay;
-- --hashes writes the hash after every tick; --latency, --jitter and --loss put the link shim
-- in front of the real network; --speed runs the match that many times faster than real time.
local fg = require "framegate"
local det = require "framegate.determinism"
local options = require "framegate.options"
local watch = require "framegate.commands.watch"

local M = {
  summary = "play a match between two processes over UDP (rollback); report desyncs by field",
}

function M.options(p)
  p:argument("mode", "host, join, or local (both players in one world, no network).")
    :choices { "host", "join", "local" }
  p:argument("address", "host: the PORT to listen on (0: any free one); join: HOST:PORT; "
    .. "local: the rules.")
  p:argument("rules", "A rules file, or a sample folder holding rules.lua."):args("?")
  p:option("--input", "The script this node's player follows (framegate watch --script format).")
  p:option("--ticks", "The match's length in ticks (default 3600).")
  p:option("--delay", "Input delay in ticks, 0..15 (default 2).")
  p:option("--seed", "The world's seed; both nodes must use the same (default 7).")
  p:option("--record", "Write the match as one replay file.")
  p:option("--hashes", "Write `TICK HASH` for every tick of the match.")
  p:option("--port-file", "host: write the port listened on to this file.")
  p:option("--latency", "Link shim: milliseconds added to what this node sends.")
  p:option("--jitter", "Link shim: up to this many milliseconds more, per datagram.")
  p:option("--loss", "Link shim: percent of what this node sends that is lost.")
  p:option("--speed", "Run this many times faster than real time, 1..20 (default 1).")
  p:option("--timeout", "Give up after this many seconds of real time (default 120).")
  p:flag("--quiet", "Print only the end of the match.")
end

-- The script's input for one player, tick by tick, through a scratch world: what its entity
-- consumes in a tick becomes this node's input record for that tick.
local function scripted(rules, seed, script, who)
  local w = det.match(rules, seed)
  local entity = w:entity(who == "p1" and 1 or 2)
  local self = { world = w, entity = entity }
  function self.step()
    local t = w:tick()
    if script then
      local base = script.period and (t // script.period) * script.period or 0
      for _, e in ipairs(script.events) do
        if e.who == who and base + e.tick == t then w:play(entity, e.input) end
      end
    end
    w:advance()
  end
  return self
end

local function write_hashes(path, hashes, ticks)
  if not path then return end
  local f = assert(io.open(path, "w"))
  for t = 0, ticks - 1 do f:write(t, " ", hashes[t] or "-", "\n") end
  f:close()
end

-- Both players' scripts into one world, without a session: the reference. The first `delay`
-- ticks have no input and the script's ticks 0..delay land together in tick `delay`, as they
-- do in a session.
local function play_local(args, rules, script, ticks, delay, seed)
  local w = det.match(rules, seed)
  local rec = args.record and w:record(args.record) or nil
  local p = { scripted(rules, seed, script, "p1"), scripted(rules, seed, script, "p2") }
  local hashes = {}
  for t = 0, ticks - 1 do
    if t >= delay then
      for _ = 1, t == delay and delay + 1 or 1 do
        for i = 1, 2 do
          p[i].step()
          fg.feed(w, w:entity(i), p[i].world, p[i].entity)
        end
      end
    end
    w:advance()
    hashes[t] = w:hash()
  end
  if rec then rec:finish() end
  write_hashes(args.hashes, hashes, ticks)
  print(("netplay local %s: %d ticks, final hash %s"):format(rules, ticks, w:hash()))
  return 0
end

-- One line per second of the match (rates are per second of match time, whatever --speed).
local function report_line(s, last)
  local st = s:stats()
  local line = ("tick %d: ping %d ms, delay %d, %d rollbacks/s, deepest %d, advantage %d, "
    .. "%d B/s sent"):format(st.confirmed, st.rtt_us // 1000, st.delay,
      st.rollbacks - (last.rollbacks or 0), st.deepest, st.advantage,
      st.bytes_sent - (last.bytes or 0))
  last.rollbacks, last.bytes = st.rollbacks, st.bytes_sent
  return line
end

function M.main(args)
  local function fail(msg) return options.usage_error("netplay", msg) end
  local ticks, e1 = options.int(args, "--ticks", 3600, 1, 10000000)
  local delay, e2 = options.int(args, "--delay", 2, 0, 15)
  local seed, e3 = options.int(args, "--seed", 7, 0, math.maxinteger)
  local speed, e4 = options.int(args, "--speed", 1, 1, 20)
  local timeout, e5 = options.int(args, "--timeout", 120, 1, 86400)
  local latency, e6 = options.int(args, "--latency", 0, 0, 5000)
  local jitter, e7 = options.int(args, "--jitter", 0, 0, 5000)
  local loss, e8 = options.int(args, "--loss", 0, 0, 100)
  if not (ticks and delay and seed and speed and timeout and latency and jitter and loss) then
    return fail(e1 or e2 or e3 or e4 or e5 or e6 or e7 or e8)
  end
  local rules_arg = args.mode == "local" and args.address or args.rules
  if not rules_arg then return fail("which rules? e.g. framegate netplay host 7000 samples/duel") end
  local rules = det.rules_path(rules_arg)
  if not rules then return fail(rules_arg .. ": no rules file (expected a .lua file or a folder "
    .. "with rules.lua)") end
  local script
  if args.input then
    local err
    script, err = watch.read_script(args.input)
    if not script then return fail(err) end
  end
  if args.mode == "local" then return play_local(args, rules, script, ticks, delay, seed) end
  if not fg.enet then
    io.stderr:write("framegate netplay: this build has no ENet transport; install the Debian "
      .. "package libenet-dev and rebuild\n")
    return 1
  end

  local host, port
  if args.mode == "host" then
    port = math.tointeger(tonumber(args.address))
    if not port or port < 0 or port > 65535 then return fail("PORT: expected 0..65535") end
  else
    host, port = args.address:match("^(.+):(%d+)$")
    port = math.tointeger(tonumber(port))
    if not host or not port or port < 1 or port > 65535 then
      return fail("HOST:PORT expected, e.g. 127.0.0.1:7000, got " .. args.address)
    end
  end
  local node = args.mode == "host" and 1 or 2
  local ok, enet = pcall(fg.enet, { node = node, nodes = 2, host = host, port = port })
  if not ok then
    io.stderr:write("framegate netplay: " .. tostring(enet) .. "\n")
    return 1
  end
  if args.port_file then
    local f = assert(io.open(args.port_file .. ".tmp", "w"))
    f:write(enet:port(), "\n")
    f:close()
    assert(os.rename(args.port_file .. ".tmp", args.port_file))
  end
  local transport, link = enet:transport(), nil
  if latency > 0 or jitter > 0 or loss > 0 then
    link = fg.link { nodes = 2, latency_ms = latency, jitter_ms = jitter, loss = loss,
                     seed = seed + node, over = transport }
    transport = link:node(node)
  end
  local w = det.match(rules, seed)
  local rec = args.record and w:record(args.record) or nil
  local s = fg.session { world = w, transport = transport, node = node, ticks = ticks,
                         delay = delay }
  local me = scripted(rules, seed, script, node == 1 and "p1" or "p2")
  local clock = fg.watcher { files = {} }
  local start = clock:clock()
  local frame_us = 1000000 // w:rate()
  local hashes, hashed = {}, 0
  local fed, frame, last, finished_at = -1, 0, {}, nil
  if not args.quiet then
    print(("netplay %s: node %d of 2, %s, %d ticks, delay %d%s"):format(args.mode, node, rules,
      ticks, delay, link and (", shim +%d ms (+-%d), %d%% loss"):format(latency, jitter, loss) or ""))
  end
  local code, message = 0, nil
  while true do
    local now = (clock:clock() - start) * speed
    if link then link:time(now) end
    local t = s:input_tick()
    while fed < t and fed < ticks - 1 do
      me.step()
      s:input_from(me.world, me.entity)
      fed = fed + 1
    end
    local good, msg = s:advance(now)
    local confirmed = s:stats().confirmed
    for k = hashed, confirmed - 1 do hashes[k] = s:hash(k) end
    hashed = confirmed
    if not good and not message then
      message = msg
      code = 1
      if s:state() == "desynced" then finished_at = frame + 2 * w:rate() end
    end
    if message and s:state() ~= "desynced" then break end
    if message and (frame >= finished_at or (s:report() and s:report().fields_known)) then
      break
    end
    if not message and s:state() == "finished" then
      finished_at = finished_at or frame + w:rate() // 2 -- answer the peer a little longer
      if frame >= finished_at then break end
    end
    if not args.quiet and frame % w:rate() == 0 and frame > 0 then
      print(report_line(s, last))
    end
    if now // speed > timeout * 1000000 then
      message = ("gave up after %d s: %s"):format(timeout, tostring(s))
      code = 1
      break
    end
    frame = frame + 1
    local wait = (start + frame * frame_us // speed - clock:clock()) // 1000
    if wait > 0 then clock:wait(wait) end
  end
  local st = s:stats()
  if message then io.stderr:write("framegate netplay: ", message, "\n") end
  local report = s:report()
  if report then io.write(report.text) end
  if rec then
    local files, n = rec:finish()
    print(("recorded %d ticks to %s"):format(n, files[1]))
  end
  write_hashes(args.hashes, hashes, st.confirmed)
  print(("netplay %s: %d ticks confirmed, %d rollbacks, deepest %d, ping %d ms, %d bytes sent; "
    .. "final hash %s"):format(args.mode, st.confirmed, st.rollbacks, st.deepest,
      st.rtt_us // 1000, st.bytes_sent, w:hash()))
  return code
end

return options.command("netplay", M)
