-- SPDX-License-Identifier: MIT
-- framegate run DIR [ARGS...]: runs DIR/run.lua, a sample's scripted playtest.
-- With --record FILE the playtest is recorded as replays: every stretch of ticks the script runs
-- without restoring or editing the world between them (a round that starts from a snapshot, say)
-- becomes one replay: FILE for the first, then FILE-2, FILE-3, ... (see docs/determinism.md).
local fg = require "framegate"
local options = require "framegate.options"

-- The first world the playtest creates is recorded in takes; returns a function that finishes.
local function record_worlds(path)
  local make_world = fg.world
  local recordings = {}
  fg.world = function(opts)
    local w = make_world(opts)
    if #recordings == 0 then recordings[1] = w:record(path, { takes = true }) end
    return w
  end
  return function()
    fg.world = make_world
    local files, ticks = {}, 0
    for _, rec in ipairs(recordings) do
      local list, n = rec:finish()
      for _, f in ipairs(list) do files[#files + 1] = f end
      ticks = ticks + n
    end
    return files, ticks
  end
end

local M = {
  summary = "play a sample's scripted playtest (SAMPLE_DIR/run.lua); --record writes replays",
}

function M.options(p)
  p:argument("sample", "A sample folder holding run.lua, or a .lua script.")
  p:argument("args", "Arguments for the script (after --), in its arg table and ... ."):args("*")
  p:option("--record", "Record the playtest as replays: FILE, then FILE-2, FILE-3, ...")
end

function M.main(args)
  local dir = args.sample
  local script = dir:match("%.lua$") and dir or (dir:gsub("/+$", "") .. "/run.lua")
  local f = io.open(script, "r")
  if not f then
    io.stderr:write(string.format("framegate run: %s: no such file\n", script))
    return 2
  end
  f:close()
  local chunk, err = loadfile(script, "t")
  if not chunk then
    io.stderr:write("framegate run: " .. err .. "\n")
    return 1
  end
  local finish = args.record and record_worlds(args.record)
  -- The script sees itself as arg[0], as under the stock interpreter: samples find their
  -- files beside it, whatever the working directory.
  local saved_arg = arg
  arg = { [0] = script, table.unpack(args.args) } -- luacheck: ignore 121
  local ok, result = pcall(chunk, table.unpack(args.args))
  arg = saved_arg -- luacheck: ignore 121
  if finish then
    local okf, files, ticks = pcall(finish)
    if not okf then
      io.stderr:write("framegate run: recording: " .. tostring(files) .. "\n")
      return 1
    end
    io.stderr:write(string.format("framegate run: recorded %d ticks in %d replay(s): %s\n",
      ticks, #files, table.concat(files, " ")))
  end
  if not ok then -- the script's own error, on one line: no host traceback
    io.stderr:write("framegate run: " .. tostring(result):match("^[^\n]*") .. "\n")
    return 1
  end
  return type(result) == "number" and result or 0
end

return options.command("run", M)
