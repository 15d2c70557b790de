-- framegate run DIR [ARGS...]: runs DIR/run.lua, a sample's scripted playtest.
-- With --record FILE the playtest is recorded as replays: every stretch of ticks the script runs
-- without restoring or editing the world between them (a round that starts from a snapshot, say)
-- becomes one replay: FILE for the first, then FILE-2, FILE-3, ... (see docs/determinism.md).
local fg = require "framegate"

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

return {
  usage = "run DIR [--record FILE] [ARGS...]",
  summary = "play a sample's scripted playtest (SAMPLE_DIR/run.lua); --record writes replays",
  run = function(dir, ...)
    local args, record = {}, nil
    local rest = { dir, ... }
    local i = 1
    while i <= #rest do
      if rest[i] == "--record" then
        record = rest[i + 1]
        if not record then
          io.stderr:write("framegate run: --record needs a file name\n")
          return 2
        end
        i = i + 2
      else
        args[#args + 1] = rest[i]
        i = i + 1
      end
    end
    dir = table.remove(args, 1)
    if not dir then
      io.stderr:write("framegate run: which sample? e.g. framegate run samples/duel\n")
      return 2
    end
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
    local finish = record and record_worlds(record)
    local ok, result = pcall(chunk, table.unpack(args))
    if finish then
      local okf, files, ticks = pcall(finish)
      if not okf then
        io.stderr:write("framegate run: recording: " .. tostring(files) .. "\n")
        return 1
      end
      io.stderr:write(string.format("framegate run: recorded %d ticks in %d replay(s): %s\n",
        ticks, #files, table.concat(files, " ")))
    end
    if not ok then error(result, 0) end
    return type(result) == "number" and result or 0
  end,
}
