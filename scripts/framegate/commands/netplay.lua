-- SPDX-License-Identifier: MIT
-- framegate netplay host PORT RULES | join HOST:PORT RULES | spectate HOST:PORT RULES |
-- local RULES: a two-player match of a ruleset between processes over ENet (UDP), rollback and
-- all, with spectators; a node whose process restarted comes back with --rejoin. Headless, this
-- node's player follows a script (--input FILE, the format of `framegate watch --script`: lines
-- `TICK p1|p2 INPUT`, `repeat N`); the host plays p1, the joiner p2. --window plays it in the
-- playtest window instead (framegate-play), on the keyboard or the script. Once a second it
-- prints the round trip, the input delay, rollbacks per second and the deepest re-simulation; at
-- the end the final hash. `local` plays both players' scripts in one world without a network, as
-- the reference the processes must equal. The node itself is framegate.netplay.
local options = require "framegate.options"
local netplay = require "framegate.netplay"

local M = {
  summary = "play a match between processes over UDP (rollback), with spectators; report "
    .. "desyncs by field",
}

function M.options(p)
  p:argument("mode", "host, join, spectate, or local (both players in one world, no network).")
    :choices { "host", "join", "spectate", "local" }
  p:argument("address", "host: the PORT to listen on (0: any free one); join and spectate: "
    .. "HOST:PORT; local: the rules.")
  p:argument("rules", "A rules file, or a sample folder holding rules.lua."):args("?")
  p:option("--input", "The script this node's player follows (framegate watch --script format).")
  p:option("--ticks", "The match's length in ticks (default 3600).")
  p:option("--delay", "Input delay in ticks, 0..15 (default 2).")
  p:option("--delay-at", "Change the input delay once this node's input reaches TICK "
    .. "(TICK:DELAY; repeatable).")
    :count("*")
  p:option("--spectators", "Spectators the match waits for, 0..8; every node must give the same "
    .. "(default 0; spectate: 1).")
  p:option("--slot", "spectate: which spectator this node is, 1..spectators (default 1).")
  p:option("--seed", "The world's seed; every node must use the same (default 7).")
  p:option("--record", "Write the match as one replay file.")
  p:option("--hashes", "Write `TICK HASH` for every tick of the match.")
  p:option("--cues", "Write the presentation cues of the match, one `TICK eN NAME` line each.")
  p:option("--port-file", "host: write the port listened on to this file.")
  p:option("--latency", "Link shim: milliseconds added to what this node sends.")
  p:option("--jitter", "Link shim: up to this many milliseconds more, per datagram.")
  p:option("--loss", "Link shim: percent of what this node sends that is lost.")
  p:option("--outage", "Drop the connection once tick TICK is confirmed and stay silent for MS "
    .. "milliseconds of match time, then reconnect (TICK:MS; tests rejoining).")
  p:option("--disconnect", "A peer silent for this many milliseconds of match time is "
    .. "disconnected, 100..600000 (default 5000).")
  p:option("--rejoin-wait", "Past --disconnect, pause the match for this many more milliseconds "
    .. "for a lost peer to come back or rejoin, 0..600000 (default 0: the disconnect ends it).")
  p:flag("--rejoin", "This node lost the match (its process restarted): take the state of the "
    .. "match in progress from the first player (the second, for the host) and play on.")
  p:option("--speed", "Run this many times faster than real time, 1..20 (default 1).")
  p:option("--timeout", "Give up after this many seconds of real time (default 120).")
  p:flag("--window", "Play in the playtest window (framegate-play, needs SDL2): the keyboard "
    .. "drives this node's player unless --input scripts it; PageUp/PageDown change the delay.")
  p:option("--shot", "--window: save the window as a BMP once tick TICK is confirmed "
    .. "(TICK:FILE; repeatable).")
    :count("*")
  p:option("--config", "--window: the controls file (as `framegate play --config`).")
  p:flag("--software", "--window: SDL's software renderer.")
  p:flag("--quiet", "Print only the end of the match.")
end

local function quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- --window from the `framegate` command: the same arguments go to framegate-play, which has
-- the window module.
local function run_window(argv)
  local play = require "framegate.commands.play"
  local exe = play.find()
  if not exe then
    io.stderr:write("framegate netplay: --window needs the playtest window (framegate-play), "
      .. "which is not built here: install the Debian package libsdl2-dev, then configure and "
      .. "build again.\n")
    return 1
  end
  local words = { quote(exe), "netplay" }
  for _, a in ipairs(argv) do words[#words + 1] = quote(a) end
  local ok, how, status = os.execute(table.concat(words, " "))
  if ok then return 0 end
  return how == "exit" and status or 1
end

function M.main(args, argv)
  local c, err = netplay.config(args)
  if not c then return options.usage_error("netplay", err) end
  if c.mode == "local" then
    local hashes, w = netplay.play_local(c)
    netplay.write_hashes(c.hashes, hashes, c.ticks)
    print(("netplay local %s: %d ticks, final hash %s"):format(c.rules, c.ticks, w:hash()))
    return 0
  end
  if args.window then
    if package.preload["framegate.sdl"] then return require("framegate.play_net").main(c, args) end
    return run_window(argv)
  end
  local n, msg = netplay.open(c)
  if not n then
    io.stderr:write("framegate netplay: " .. msg .. "\n")
    return 1
  end
  local fg = require "framegate"
  local clock = fg.watcher { files = {} }
  local start = clock:clock()
  local frame_us = 1000000 // n.rate
  local frames = 0
  while netplay.frame(n, (clock:clock() - start) * c.speed, clock) do
    frames = frames + 1
    local wait = (start + frames * frame_us // c.speed - clock:clock()) // 1000
    if wait > 0 then clock:wait(wait) end
  end
  return netplay.finish(n)
end

local cmd = options.command("netplay", M)

-- The raw arguments go along to framegate-play for --window.
function cmd.run(...)
  local argv = { ... }
  local args, code = options.parse("netplay", cmd, argv)
  if not args then return code end
  return options.exit_code(M.main(args, argv))
end

return cmd
