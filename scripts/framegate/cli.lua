-- framegate.cli: the commands of the `framegate` host. The C host embeds Lua, preloads the
-- framegate module and calls main(...) with the command line. Each command lives in
-- framegate/commands/<name>.lua and returns { usage =, summary =, run = function(...) }.
local M = {}

-- Listed here so `framegate help` shows them in a stable order.
M.order = { "run", "check", "test", "watch", "play", "replay", "synctest", "trace" }

local function load_command(name)
  if not name:match("^[%w_]+$") then return nil end
  local ok, cmd = pcall(require, "framegate.commands." .. name)
  if ok then return cmd end
  if not tostring(cmd):find("module 'framegate.commands." .. name .. "' not found", 1, true) then
    error(cmd, 0)
  end
  return nil
end

local function usage()
  io.stderr:write("usage: framegate COMMAND [ARGS...]\n\ncommands:\n")
  for _, name in ipairs(M.order) do
    local cmd = load_command(name)
    if cmd then io.stderr:write(string.format("  %-36s %s\n", cmd.usage, cmd.summary)) end
  end
  io.stderr:write(string.format("  %-36s %s\n", "lua FILE [ARGS...]", "run a Lua script with the module loaded"))
  return 2
end

function M.main(name, ...)
  if name == nil or name == "help" or name == "--help" or name == "-h" then return usage() end
  local cmd = load_command(name)
  if not cmd then
    io.stderr:write(string.format("framegate: unknown command '%s'\n", name))
    return usage()
  end
  local code = cmd.run(...)
  return type(code) == "number" and code or 0
end

return M
