-- SPDX-License-Identifier: MIT
-- test_netplay_window.lua: netplay in the playtest window, run headless (under xvfb-run) by
-- `framegate-play lua`. A window node in this process plays a headless `framegate netplay`
-- process over ENet on 127.0.0.1: with both players scripted, the two processes' hashes after
-- every tick equal the local run's and the last frame draws the fighters where the local run
-- puts them; with the window's player on the (injected) keyboard, PageUp changes the input delay
-- mid-match, the keys reach the match on both sides, and the host's recording replays. The
-- `framegate netplay --window` command line runs framegate-play the same way.
local lu = require "luaunit"
local netplay = require "framegate.netplay"
local play_net = require "framegate.play_net"
local view = require "framegate.play_view"

local CLI = os.getenv("FG_CLI") or "build/ci/framegate"
local SCRIPT = "samples/duel/netplay.txt"
-- The documented layout (docs/playtest.md): world x to screen, the ground line, the P1 colour.
local ORIGIN_X, GROUND_Y, SCALE = 640, 380, 1.5
local P1, P2 = { 90, 190, 255 }, { 255, 150, 90 }

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  sh("mkdir -p '" .. d .. "'")
  return d
end

local function read(path)
  local f = io.open(path)
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

-- Waits (up to 60 s) for a background process's output to hold its summary line.
local function wait_for(path, pattern)
  for _ = 1, 600 do
    local text = read(path)
    if text and text:find(pattern) then return text end
    os.execute("sleep 0.1")
  end
  error(path .. ": no line matching " .. pattern .. "\n" .. tostring(read(path)))
end

-- A 32-bit BMP as SDL saves it: pixel(x, y) -> r, g, b (y down from the top).
local function read_bmp(path)
  local data = assert(read(path))
  assert(data:sub(1, 2) == "BM", path .. ": not a BMP")
  local offset = string.unpack("<I4", data, 11)
  local width, height, _, bpp = string.unpack("<i4i4I2I2", data, 19)
  assert(bpp == 32, path .. ": expected 32 bits per pixel")
  local masks = { string.unpack("<I4I4I4", data, 55) }
  local function shift(m) local s = 0; while m & 1 == 0 do m, s = m >> 1, s + 1 end; return s end
  local rs, gs, bs = shift(masks[1]), shift(masks[2]), shift(masks[3])
  return function(x, y)
    local row = height > 0 and (math.abs(height) - 1 - y) or y
    local v = string.unpack("<I4", data, offset + (row * width + x) * 4 + 1)
    return { (v >> rs) & 255, (v >> gs) & 255, (v >> bs) & 255 }
  end
end

-- The node configuration the command line would give (argparse's table of strings).
local function config(args)
  args.delay_at = args.delay_at or {}
  local c = assert(netplay.config(args))
  return c
end

TestNetplayWindow = {}

function TestNetplayWindow:setUp()
  lu.skipIf(not require("framegate").enet, "this build has no ENet transport (libenet-dev)")
end

-- Both players scripted: the window hosts, a headless process joins.
function TestNetplayWindow:test_the_window_plays_a_headless_process()
  local d = tmpdir()
  local ticks = 600
  local lines = {}
  local c = config { mode = "host", address = "0", rules = "samples/duel", input = SCRIPT,
                     ticks = tostring(ticks), speed = "2", hashes = d .. "/host.txt",
                     record = d .. "/host.fgr", quiet = true }
  local code, s = play_net.session(c, {
    software = true, shots = { { tick = ticks, path = d .. "/end.bmp" } },
    out = function(line) lines[#lines + 1] = line end,
    on_frame = function(s)
      if s.frames ~= 0 then return end
      sh(("'%s' netplay join 127.0.0.1:%d samples/duel --input %s --ticks %d --speed 2 --quiet "
        .. "--hashes '%s/join.txt' >'%s/join.out' 2>&1 &"):format(CLI, s.node.enet:port(), SCRIPT,
          ticks, d, d))
    end })
  local out = table.concat(lines, "\n")
  lu.assertEquals(code, 0, out)
  wait_for(d .. "/join.out", "netplay join: " .. ticks .. " ticks confirmed")
  -- The same ticks as the local run, on both sides.
  local ref = config { mode = "local", address = "samples/duel", input = SCRIPT,
                       ticks = tostring(ticks) }
  local hashes, w = netplay.play_local(ref)
  local host, join = read(d .. "/host.txt"), read(d .. "/join.txt")
  lu.assertEquals(host, join)
  local n = 0
  for t, h in host:gmatch("(%d+) (%x+)\n") do
    lu.assertEquals(h, hashes[tonumber(t)], "tick " .. t)
    n = n + 1
  end
  lu.assertEquals(n, ticks)
  lu.assertEquals(s.world:hash(), w:hash())
  sh(("'%s' replay '%s/host.fgr' >/dev/null"):format(CLI, d))
  -- The last frame: each fighter's facing line (4 px above the ground, 30 px towards the
  -- opponent) where the local run's world puts it, in the fighter's colour; the mode line is on.
  lu.assertStrContains(out, "shot: tick " .. ticks .. " confirmed, world at " .. ticks)
  local pixel = read_bmp(d .. "/end.bmp")
  for i, colour in ipairs { P1, P2 } do
    local x = w:entity(i):position()
    local sx = math.floor(ORIGIN_X + SCALE * x)
    local dir = i == 1 and 1 or -1
    lu.assertEquals(pixel(sx + dir * 15, GROUND_Y - 4), colour, "P" .. i .. "'s facing line")
    lu.assertNotEquals(pixel(sx - dir * 15, GROUND_Y - 4), colour, "P" .. i .. " elsewhere")
  end
  lu.assertStrContains(s.mode_text, "host finished")
  lu.assertStrContains(s.mode_text, "delay 2")
  lu.assertEquals(view.colours.p1, P1)
end

-- The window's player on the keyboard: a headless host plays its script; in the window, PageUp
-- raises the input delay to 3 and J (LP) presses reach both sides.
function TestNetplayWindow:test_keyboard_and_a_delay_key_mid_match()
  local d = tmpdir()
  local ticks = 480
  sh(("'%s' netplay host 0 samples/duel --input %s --ticks %d --speed 2 --quiet --port-file "
    .. "'%s/port' --hashes '%s/host.txt' --record '%s/host.fgr' >'%s/host.out' 2>&1 &"):format(
      CLI, SCRIPT, ticks, d, d, d, d))
  local port = tonumber(wait_for(d .. "/port", "%d+"))
  local lines = {}
  local c = config { mode = "join", address = "127.0.0.1:" .. port, rules = "samples/duel",
                     ticks = tostring(ticks), speed = "2", hashes = d .. "/join.txt",
                     quiet = true }
  local code, s = play_net.session(c, {
    software = true, out = function(line) lines[#lines + 1] = line end,
    on_frame = function(s)
      local t = s.node.session:stats().tick
      if s.frames % 40 == 0 and t > 30 then s.win:inject_key("J", true) end
      if s.frames % 40 == 5 and t > 30 then s.win:inject_key("J", false) end
      if t >= 200 and not s.delay_keyed then
        s.delay_keyed = true
        s.win:inject_key("PageUp", true)
        s.win:inject_key("PageUp", false)
      end
    end })
  local out = table.concat(lines, "\n")
  lu.assertEquals(code, 0, out)
  lu.assertStrMatches(out, ".*tick %d+: input delay 3\n.*")
  lu.assertEquals(s.node.session:stats().delay, 3)
  wait_for(d .. "/host.out", "netplay host: " .. ticks .. " ticks confirmed")
  lu.assertEquals(read(d .. "/join.txt"), read(d .. "/host.txt"))
  -- The keyboard's presses are in the match: P2's input panel shows LP held.
  local lp = 0
  for _, row in ipairs(s.players[2].inputs) do
    if row.buttons:find("LP") then lp = lp + 1 end
  end
  lu.assertTrue(lp >= 3, "rows with LP held: " .. lp)
  sh(("'%s' replay '%s/host.fgr' >/dev/null"):format(CLI, d))
end

-- Two windows: this process's window hosts with its player on the (injected) keyboard, and a
-- second `framegate netplay join --window` process plays its script in a window of its own. Both
-- confirm every tick with the same hashes, the keyboard's presses reach the joining side, and the
-- joining window's last frame draws P1 where the host's world puts it.
function TestNetplayWindow:test_two_windows_play_each_other()
  local d = tmpdir()
  local ticks = 360
  local lines = {}
  local c = config { mode = "host", address = "0", rules = "samples/duel", ticks = tostring(ticks),
                     speed = "2", hashes = d .. "/host.txt", quiet = true }
  local code, s = play_net.session(c, {
    software = true, out = function(line) lines[#lines + 1] = line end,
    on_frame = function(s)
      if s.frames == 0 then
        sh(("'%s' netplay join 127.0.0.1:%d samples/duel --input %s --ticks %d --speed 2 "
          .. "--quiet --window --software --hashes '%s/join.txt' --shot %d:'%s/join.bmp' "
          .. ">'%s/join.out' 2>&1 &"):format(CLI, s.node.enet:port(), SCRIPT, ticks, d, ticks,
            d, d))
      end
      local t = s.node.session:stats().tick
      if s.frames % 40 == 0 and t > 30 then s.win:inject_key("J", true) end
      if s.frames % 40 == 5 and t > 30 then s.win:inject_key("J", false) end
    end })
  local out = table.concat(lines, "\n")
  lu.assertEquals(code, 0, out)
  local joined = wait_for(d .. "/join.out", "netplay join: " .. ticks .. " ticks confirmed")
  lu.assertStrContains(joined, "shot: tick " .. ticks)
  local host, join = read(d .. "/host.txt"), read(d .. "/join.txt")
  lu.assertEquals(select(2, host:gsub("\n", "")), ticks)
  lu.assertEquals(join, host)
  -- The keyboard drove P1 on the host: its presses are in the match both windows ran.
  local lp = 0
  for _, row in ipairs(s.players[1].inputs) do
    if row.buttons:find("LP") then lp = lp + 1 end
  end
  lu.assertTrue(lp >= 3, "rows with LP held: " .. lp)
  local pixel = read_bmp(d .. "/join.bmp")
  local x = s.world:entity(1):position()
  local sx = math.floor(ORIGIN_X + SCALE * x)
  lu.assertEquals(pixel(sx + 15, GROUND_Y - 4), P1, "P1's facing line in the joining window")
end

-- The command line: `framegate netplay ... --window` runs framegate-play; a spectator window.
function TestNetplayWindow:test_the_command_line_opens_the_window()
  local d = tmpdir()
  local ticks = 240
  local common = ("samples/duel --ticks %d --speed 2 --quiet --spectators 1"):format(ticks)
  sh(("'%s' netplay host 0 %s --input %s --port-file '%s/port' --hashes '%s/host.txt' "
    .. ">'%s/host.out' 2>&1 &"):format(CLI, common, SCRIPT, d, d, d))
  local port = tonumber(wait_for(d .. "/port", "%d+"))
  sh(("'%s' netplay join 127.0.0.1:%d %s --input %s >'%s/join.out' 2>&1 &"):format(CLI, port,
    common, SCRIPT, d))
  sh(("'%s' netplay spectate 127.0.0.1:%d %s --window --software --hashes '%s/spec.txt' "
    .. "--shot %d:'%s/spec.bmp' >'%s/spec.out' 2>&1"):format(CLI, port, common, d, ticks, d, d))
  local out = read(d .. "/spec.out")
  lu.assertStrContains(out, "netplay spectate: " .. ticks .. " ticks confirmed")
  lu.assertStrContains(out, "shot: tick " .. ticks)
  wait_for(d .. "/host.out", "netplay host: " .. ticks .. " ticks confirmed")
  lu.assertEquals(read(d .. "/spec.txt"), read(d .. "/host.txt"))
  lu.assertNotNil(read_bmp(d .. "/spec.bmp"))
end

os.exit(lu.LuaUnit.run())
