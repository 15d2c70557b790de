-- SPDX-License-Identifier: MIT
-- framegate.netplay: one node of a match between processes, shared by `framegate netplay`
-- (headless) and its window (framegate.play_net). It reads the options, opens the ENet transport
-- (behind the link shim when asked), the world and the session, and runs one frame at a time:
-- this node's input (a script, or the keyboard through a scratch world), scripted input-delay
-- changes, a simulated network outage, the session's frame, the hashes of confirmed ticks, and
-- the end of the match (finished, a desync report, a disconnect).
local fg = require "framegate"
local det = require "framegate.determinism"
local options = require "framegate.options"
local watch = require "framegate.commands.watch"

local M = {}

-- Input for one player, tick by tick, through a scratch world: what its entity consumes in a
-- tick becomes this node's input record for that tick. The script (or nothing: idle) gives
-- the edges; a window pushes key events into `entity` before `step`.
function M.scripted(rules, seed, script, who)
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

-- "TICK:N" values of a repeatable option, sorted by tick, or nil and a message.
local function tick_pairs(list, option, lo, hi)
  local out = {}
  for _, v in ipairs(list or {}) do
    local tick, n = v:match("^(%d+):(%d+)$")
    tick, n = math.tointeger(tonumber(tick)), math.tointeger(tonumber(n))
    if not tick or not n or n < lo or n > hi then
      return nil, ("%s %s: expected TICK:N with N in %d..%d"):format(option, v, lo, hi)
    end
    out[#out + 1] = { tick = tick, value = n }
  end
  table.sort(out, function(a, b) return a.tick < b.tick end)
  return out
end

--- The node's configuration from parsed arguments (framegate.commands.netplay's options), or
--- nil and a usage message.
function M.config(args)
  local c = { mode = args.mode }
  local ints = {
    { "ticks", "--ticks", 3600, 1, 10000000 }, { "delay", "--delay", 2, 0, 15 },
    { "seed", "--seed", 7, 0, math.maxinteger }, { "speed", "--speed", 1, 1, 20 },
    { "timeout", "--timeout", 120, 1, 86400 }, { "latency", "--latency", 0, 0, 5000 },
    { "jitter", "--jitter", 0, 0, 5000 }, { "loss", "--loss", 0, 0, 100 },
    { "spectators", "--spectators", args.mode == "spectate" and 1 or 0, 0, 8 },
    { "slot", "--slot", 1, 1, 8 },
    { "disconnect", "--disconnect", 5000, 100, 600000 },
    { "rejoin_wait", "--rejoin-wait", 0, 0, 600000 },
  }
  for _, o in ipairs(ints) do
    local v, err = options.int(args, o[2], o[3], o[4], o[5])
    if err then return nil, err end
    c[o[1]] = v
  end
  local err
  c.delay_at, err = tick_pairs(args.delay_at, "--delay-at", 0, 15)
  if not c.delay_at then return nil, err end
  if args.outage then
    local o
    o, err = tick_pairs({ args.outage }, "--outage", 1, 600000)
    if not o then return nil, err end
    c.outage = { tick = o[1].tick, ms = o[1].value }
  end
  c.shots = {}
  for _, v in ipairs(args.shot or {}) do
    local tick, path = v:match("^(%d+):(.+)$")
    if not tick then return nil, ("--shot %s: expected TICK:FILE (e.g. 600:shot.bmp)"):format(v) end
    c.shots[#c.shots + 1] = { tick = tonumber(tick), path = path }
  end
  if c.mode == "spectate" then
    if c.spectators < 1 then return nil, "--spectators: a spectator needs at least 1" end
    if c.slot > c.spectators then
      return nil, ("--slot %d: expected 1..%d (the match's spectators)"):format(c.slot, c.spectators)
    end
    if #c.delay_at > 0 or args.input then return nil, "a spectator has no input (--input, --delay-at)" end
  end
  c.rejoin = args.rejoin or false
  if c.rejoin and c.mode == "local" then return nil, "--rejoin: a local match has no peer to rejoin" end
  if c.rejoin and args.record then
    return nil, "--record: a node that rejoins has no ticks before it; record on a node that stayed "
      .. "(its recording holds the whole match)"
  end
  local rules_arg = c.mode == "local" and args.address or args.rules
  if not rules_arg then return nil, "which rules? e.g. framegate netplay host 7000 samples/duel" end
  c.rules = det.rules_path(rules_arg)
  if not c.rules then
    return nil, rules_arg .. ": no rules file (expected a .lua file or a folder with rules.lua)"
  end
  if args.input then
    c.script, err = watch.read_script(args.input)
    if not c.script then return nil, err end
  end
  if c.mode == "host" then
    c.port = math.tointeger(tonumber(args.address))
    if not c.port or c.port < 0 or c.port > 65535 then return nil, "PORT: expected 0..65535" end
  elseif c.mode ~= "local" then
    local port
    c.host, port = args.address:match("^(.+):(%d+)$")
    c.port = math.tointeger(tonumber(port))
    if not c.host or not c.port or c.port < 1 or c.port > 65535 then
      return nil, "HOST:PORT expected, e.g. 127.0.0.1:7000, got " .. args.address
    end
  end
  -- Nodes as the session counts them from 1: the host plays p1, the joiner p2, spectators follow.
  c.node = c.mode == "host" and 1 or c.mode == "join" and 2 or 2 + c.slot
  c.nodes = 2 + c.spectators
  c.record, c.hashes, c.port_file, c.quiet = args.record, args.hashes, args.port_file, args.quiet
  c.cues = args.cues
  return c
end

-- {---------------------------------------------------------------------- the reference

-- Which of a player's script ticks each match tick carries, as a session assigns them: the input
-- of the ticks fed since the last record lands on the tick `delay` ahead; when the delay grows,
-- the ticks skipped repeat the held input; when it shrinks, input waits for the next free tick.
local function assignment(c)
  local assign, pending = {}, {}
  local received, fed, delay, change = 0, -1, c.delay, 1
  for k = 0, c.ticks - 1 do
    local t = math.max(received, k + delay)
    while c.delay_at[change] and c.delay_at[change].tick <= t do
      delay = c.delay_at[change].value
      change = change + 1
      t = math.max(received, k + delay)
    end
    while fed < t and fed < c.ticks - 1 do
      fed = fed + 1
      pending[#pending + 1] = fed
    end
    local target = math.min(k + delay, c.ticks - 1)
    while received < target do
      assign[received] = {}
      received = received + 1
    end
    if received == target then
      assign[target], pending = pending, {}
      received = received + 1
    end
  end
  return assign
end

--- Both players' scripts in one world without a network, their input on the ticks a session
--- gives it (input delay and its scripted changes included): the reference the processes must
--- equal. Returns the hashes after every tick and the world.
function M.play_local(c)
  local w = det.match(c.rules, c.seed)
  local rec = c.record and w:record(c.record) or nil
  local p = { M.scripted(c.rules, c.seed, c.script, "p1"), M.scripted(c.rules, c.seed, c.script, "p2") }
  local assign = assignment(c)
  local hashes, cues = {}, {}
  for t = 0, c.ticks - 1 do
    for i = 1, 2 do
      for _ = 1, #(assign[t] or {}) do
        p[i].step()
        fg.feed(w, w:entity(i), p[i].world, p[i].entity)
      end
    end
    w:advance()
    hashes[t] = w:hash()
    M.take_cues(w, cues)
  end
  if rec then rec:finish() end
  M.write_cues(c.cues, cues)
  return hashes, w, cues
end

-- The cues presentation emitted since the last call, as `TICK eENTITY NAME` lines.
function M.take_cues(w, into)
  for _, cue in ipairs(w:cues()) do
    into[#into + 1] = ("%d e%d %s"):format(cue.tick, cue.entity, cue.name)
  end
end

function M.write_cues(path, cues)
  if not path then return end
  local f = assert(io.open(path, "w"))
  for _, line in ipairs(cues) do f:write(line, "\n") end
  f:close()
end

function M.write_hashes(path, hashes, ticks)
  if not path then return end
  local f = assert(io.open(path, "w"))
  for t = 0, ticks - 1 do f:write(t, " ", hashes[t] or "-", "\n") end
  f:close()
end

-- }----------------------------------------------------------------------

-- {---------------------------------------------------------------------- a node

--- Opens the node: ENet, the shim, the world, the session and this node's input (c.script, or
--- me = a scratch input source from M.scripted). Returns it, or nil and a message.
function M.open(c, me)
  if not fg.enet then
    return nil, "this build has no ENet transport; install the Debian package libenet-dev and "
      .. "rebuild"
  end
  local ok, enet = pcall(fg.enet, { node = c.node, nodes = c.nodes, host = c.host, port = c.port })
  if not ok then return nil, tostring(enet) end
  if c.port_file then
    local f = assert(io.open(c.port_file .. ".tmp", "w"))
    f:write(enet:port(), "\n")
    f:close()
    assert(os.rename(c.port_file .. ".tmp", c.port_file))
  end
  local n = { c = c, enet = enet, out = c.out or print }
  n.transport = enet:transport()
  if c.latency > 0 or c.jitter > 0 or c.loss > 0 then
    n.link = fg.link { nodes = c.nodes, latency_ms = c.latency, jitter_ms = c.jitter, loss = c.loss,
                       seed = c.seed + c.node, over = n.transport }
    n.transport = n.link:node(c.node)
  end
  n.world = det.match(c.rules, c.seed)
  n.rec = c.record and n.world:record(c.record) or nil
  n.session = fg.session { world = n.world, transport = n.transport, node = c.node,
                           spectators = c.spectators, ticks = c.ticks, delay = c.delay,
                           disconnect_ms = c.disconnect, rejoin_ms = c.rejoin_wait,
                           rejoin = c.rejoin }
  if c.mode ~= "spectate" then
    n.me = me or M.scripted(c.rules, c.seed, c.script, c.node == 1 and "p1" or "p2")
  end
  n.hashes, n.hashed, n.fed, n.frame, n.last, n.change = {}, 0, -1, 0, {}, 1
  n.cues = {}
  n.rate = n.world:rate()
  n.code = 0
  if not c.quiet then
    n.out(("netplay %s: node %d of %d, %s, %d ticks, delay %d%s"):format(c.mode, c.node, c.nodes,
      c.rules, c.ticks, c.delay, n.link and (", shim +%d ms (+-%d), %d%% loss"):format(c.latency,
      c.jitter, c.loss) or ""))
  end
  return n
end

--- Changes this node's input delay now (a key in the window, --delay-at headless).
function M.set_delay(n, delay)
  if not n.me or delay < 0 or delay > 15 then return end
  n.session:delay(delay)
  n.out(("tick %d: input delay %d"):format(n.session:stats().tick, delay))
end

-- This node's input up to the tick it lands on now, after the scripted delay changes due.
local function feed(n)
  local s, c = n.session, n.c
  local t = s:input_tick()
  while c.delay_at[n.change] and c.delay_at[n.change].tick <= t do
    M.set_delay(n, c.delay_at[n.change].value)
    n.change = n.change + 1
    t = s:input_tick()
  end
  while n.fed < t and n.fed < c.ticks - 1 do
    n.me.step()
    s:input_from(n.me.world, n.me.entity)
    n.fed = n.fed + 1
  end
end

-- --outage TICK:MS: once TICK is confirmed, this node drops its connections and goes silent for
-- MS milliseconds of match time (it sleeps), then carries on and reconnects.
local function outage(n, clock)
  local o = n.c.outage
  if not o or n.outage_done or n.session:stats().confirmed < o.tick then return end
  n.outage_done = true
  n.enet:drop()
  n.out(("tick %d: outage: connection dropped for %d ms"):format(n.session:stats().confirmed, o.ms))
  clock:wait(o.ms // n.c.speed)
end

-- One line per second of the match (rates are per second of match time, whatever --speed).
function M.status(n)
  local st = n.session:stats()
  local line = ("tick %d: ping %d ms, delay %d, %d rollbacks/s, deepest %d, advantage %d, "
    .. "%d B/s sent"):format(st.confirmed, st.rtt_us // 1000, st.delay,
      st.rollbacks - (n.last.rollbacks or 0), st.deepest, st.advantage,
      st.bytes_sent - (n.last.bytes or 0))
  n.rollbacks_per_s = st.rollbacks - (n.last.rollbacks or 0)
  n.last.rollbacks, n.last.bytes = st.rollbacks, st.bytes_sent
  return line
end

-- The match pauses for a lost peer and goes on, and a rejoining node gets the match: one line
-- each. A node that rejoined gives input from the first tick it has no record for: its script
-- runs silently up to there (the ticks before are the state it was sent).
local function rejoin_lines(n, was)
  local s = n.session
  local now, st = s:state(), s:stats()
  if now == was then return end
  if now == "waiting" then
    n.out(("tick %d: waiting for a lost peer (%d); the match is paused"):format(st.confirmed,
      st.waiting))
  elseif was == "waiting" and now == "running" then
    n.out(("tick %d: the match goes on"):format(st.confirmed))
  elseif was == "rejoining" and now == "running" then
    n.out(("tick %d: rejoined the match (%d bytes of state)"):format(st.rejoined_at,
      st.state_bytes))
    n.hashed = st.rejoined_at
    if n.me then
      local t = s:input_tick()
      while n.fed < t - 1 do
        n.me.step()
        n.fed = n.fed + 1
      end
    end
  end
end

--- One frame at now (microseconds of match time); clock: a watcher, for the outage's sleep.
--- Returns true while the node goes on.
function M.frame(n, now, clock)
  local s = n.session
  if n.link then n.link:time(now) end
  local was = s:state()
  if n.me and was ~= "rejoining" then feed(n) end
  local good, msg = s:advance(now)
  rejoin_lines(n, was)
  local confirmed = s:stats().confirmed
  for k = n.hashed, confirmed - 1 do n.hashes[k] = s:hash(k) end
  n.hashed = confirmed
  M.take_cues(n.world, n.cues) -- presentation runs on confirmed ticks only
  if not good and not n.message then
    n.message, n.code = msg, 1
    if s:state() == "desynced" then n.finished_at = n.frame + 2 * n.rate end
  end
  n.frame = n.frame + 1
  if n.message then
    return s:state() == "desynced" and n.frame < n.finished_at
      and not (s:report() and s:report().fields_known)
  end
  if s:state() == "finished" then
    -- Linger, answering the peers that still wait for an acknowledgement: a joining node for a
    -- second of the match; node 1, which relays the others' datagrams to each other, until they
    -- have all left (at most 10 s of the match).
    local relay = n.c.node == 1
    n.finished_at = n.finished_at or n.frame + (relay and 10 or 1) * n.rate
    if n.frame >= n.finished_at or (relay and n.enet:connected() == 0) then return false end
  end
  if n.frame % n.rate == 0 then
    local line = M.status(n)
    if not n.c.quiet then n.out(line) end
  end
  if now // n.c.speed > n.c.timeout * 1000000 then
    n.message, n.code = ("gave up after %d s: %s"):format(n.c.timeout, tostring(s)), 1
    return false
  end
  outage(n, clock)
  return true
end

--- The end: the message, the desync report, the recording, the hashes, the summary line.
--- Returns the exit code.
function M.finish(n)
  local s, c = n.session, n.c
  local st = s:stats()
  if n.message then io.stderr:write("framegate netplay: ", n.message, "\n") end
  local report = s:report()
  if report then io.write(report.text) end
  if n.rec then
    local files, count = n.rec:finish()
    n.out(("recorded %d ticks to %s"):format(count, files[1]))
  end
  M.write_hashes(c.hashes, n.hashes, st.confirmed)
  M.write_cues(c.cues, n.cues)
  n.out(("netplay %s: %d ticks confirmed, %d rollbacks, deepest %d, ping %d ms, %d bytes sent, "
    .. "%d rejoins; final hash %s"):format(c.mode, st.confirmed, st.rollbacks, st.deepest,
      st.rtt_us // 1000, st.bytes_sent, n.enet:rejoins(), n.world:hash()))
  return n.code
end

-- }----------------------------------------------------------------------

return M
