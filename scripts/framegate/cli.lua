-- framegate.cli: the commands of the `framegate` host. The C host embeds Lua, preloads the
-- framegate module and calls main(...) with the command line.
local M = {}

local commands = {}
local order = {}

local function command(name, usage, summary, fn)
  commands[name] = { usage = usage, summary = summary, run = fn }
  order[#order + 1] = name
end

local function usage()
  io.stderr:write("usage: framegate COMMAND [ARGS...]\n\ncommands:\n")
  for _, name in ipairs(order) do
    io.stderr:write(string.format("  %-34s %s\n", commands[name].usage, commands[name].summary))
  end
  io.stderr:write("  lua FILE [ARGS...]                 run a Lua script with the module loaded\n")
  return 2
end

local function file_exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

-- `framegate run DIR [ARGS...]` runs DIR/run.lua, the sample's scripted playtest.
command("run", "run SAMPLE_DIR [ARGS...]", "play a sample's scripted playtest (DIR/run.lua)",
  function(dir, ...)
    if not dir then
      io.stderr:write("framegate run: which sample? e.g. framegate run samples/platformer\n")
      return 2
    end
    local script = dir:match("%.lua$") and dir or (dir:gsub("/+$", "") .. "/run.lua")
    if not file_exists(script) then
      io.stderr:write(string.format("framegate run: %s: no such file\n", script))
      return 2
    end
    local chunk, err = loadfile(script, "t")
    if not chunk then
      io.stderr:write("framegate run: " .. err .. "\n")
      return 1
    end
    local result = chunk(...)
    return type(result) == "number" and result or 0
  end)

M.commands = commands

function M.main(name, ...)
  if name == nil or name == "help" or name == "--help" or name == "-h" then return usage() end
  local cmd = commands[name]
  if not cmd then
    io.stderr:write(string.format("framegate: unknown command '%s'\n", name))
    return usage()
  end
  return cmd.run(...)
end

return M
