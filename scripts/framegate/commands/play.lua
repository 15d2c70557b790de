-- SPDX-License-Identifier: MIT
-- framegate play DIR: opens the playtest window. The window is its own program,
-- framegate-play, built only where SDL2 is installed, so the command line and the runtime never
-- depend on SDL; this command checks the arguments, finds framegate-play next to the
-- `framegate` binary (or on PATH) and runs it with them. Both read them with this parser.
local options = require "framegate.options"

local M = {}

M.summary = "the playtest window (SDL2): boxes, frame meter, inputs, reloads, training mode"
M.epilog = "Keys: F1 lists them in the window; docs/playtest.md describes every key and option."

function M.options(p)
  p:argument("dir", "A sample folder holding rules.lua, or a rules file."):args("?")
  p:option("--script", "Play this input script (TICK p1|p2 INPUT lines, as `watch` reads).")
  p:option("--ticks", "Stop after this many ticks (and print the state hash).")
  p:flag("--fixed", "One tick per display frame on a virtual clock, input stamped with the "
    .. "frame's time: reproducible runs and screenshots.")
  p:option("--shot", "Save the window as a BMP once the world reaches TICK (TICK:FILE; repeatable).")
    :count("*")
  p:option("--record", "Record the session as a replay (reloads included; a reset starts a "
    .. "new file FILE-2, ...).")
  p:option("--replay", "Play a replay back in the window (F5 pause, F6 step, PageUp/PageDown seek).")
  p:option("--config", "Controls file: a Lua table { keys = { LP = \"J\", ... }, pad = { LP = \"x\", ... } }.")
  p:option("--what-if", "Seconds of input re-run against the new rules after a reload (0: off).")
  p:flag("--stats", "Show and print the host's own work per display frame (input, UI, drawing).")
  p:flag("--software", "Use SDL's software renderer.")
  p:flag("--no-vsync", "Do not wait for the display's refresh.")
  p:flag("--poll", "Poll the files for changes instead of using inotify.")
  p:flag("--log", "Print what the window shows as it happens (commands, decisions, hits, reloads).")
end

--- The session options of parsed arguments, or nil and a usage message.
function M.session_options(args)
  local ticks, e1 = options.int(args, "--ticks", nil, 1, math.maxinteger)
  local what_if, e2 = options.int(args, "--what-if", nil, 0, 3600)
  if e1 or e2 then return nil, e1 or e2 end
  if not args.dir and not args.replay then return nil, "a rules folder (or --replay FILE) is needed" end
  local shots = {}
  for _, v in ipairs(args.shot or {}) do
    local tick, path = v:match("^(%d+):(.+)$")
    if not tick then return nil, ("--shot %s: expected TICK:FILE (e.g. 60:shot.bmp)"):format(v) end
    shots[tonumber(tick)] = path
  end
  return { dir = args.dir, script = args.script, ticks = ticks, fixed = args.fixed, shots = shots,
           record = args.record, replay = args.replay, config = args.config, what_if = what_if,
           stats = args.stats, software = args.software, vsync = not args.no_vsync,
           poll = args.poll, log = args.log }
end

local function quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

--- The framegate-play program to run, or nil.
function M.find()
  local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$")
  if here and exists(here .. "/framegate-play") then return here .. "/framegate-play" end
  local p = io.popen("command -v framegate-play 2>/dev/null")
  local found = p and p:read("l")
  if p then p:close() end
  return found ~= "" and found or nil
end

local cmd = options.command("play", M)

-- Checks the arguments here (help and usage errors need no window), then hands the same
-- strings to framegate-play.
function cmd.run(...)
  local argv = { ... }
  local args, code = options.parse("play", cmd, argv)
  if not args then return code end
  local opts, err = M.session_options(args)
  if not opts then return options.usage_error("play", err) end
  local exe = M.find()
  if not exe then
    io.stderr:write("framegate play: the playtest window (framegate-play) is not built here: it "
      .. "needs SDL2. Install the Debian package libsdl2-dev (apt-get install libsdl2-dev), then "
      .. "configure and build again (cmake --preset default && cmake --build --preset default).\n")
    return 1
  end
  local words = { quote(exe) }
  for _, a in ipairs(argv) do words[#words + 1] = quote(a) end
  local ok, how, status = os.execute(table.concat(words, " "))
  if ok then return 0 end
  return how == "exit" and status or 1
end

return cmd
