-- SPDX-License-Identifier: MIT
-- framegate.cli: the commands of the `framegate` host. The C host embeds Lua, preloads the
-- framegate module and calls main(...) with the command line. Each command lives in
-- framegate/commands/<name>.lua and declares its arguments for the one option parser
-- (framegate.options). Exit codes: 0 success, 1 failure, 2 usage error.
local options = require "framegate.options"

local M = {}

-- In the order `framegate --help` lists them.
M.order = { "run", "check", "test", "watch", "play", "replay", "synctest", "trace", "netplay",
  "lua" }

-- `framegate lua FILE` runs in the C host before Lua sees it; this entry gives it a help text.
local lua_command = {
  summary = "run a Lua script with the framegate module loaded (the test host)",
  options = function(p)
    p:argument("file", "The Lua script to run.")
    p:argument("args", "Arguments the script receives in arg and ... ."):args("*")
  end,
}

function M.command(name)
  if name == "lua" then return lua_command end
  if type(name) ~= "string" or not name:match("^[%w_]+$") then return nil end
  for _, known in ipairs(M.order) do
    if known == name then return require("framegate.commands." .. name) end
  end
  return nil
end

-- The parser of the whole program, every command in it: the top-level help, the bash
-- completion and the manual page come from it.
function M.program()
  local p = require("argparse")("framegate")
  p:description("framegate " .. options.version .. ": the gameplay-logic runtime of action and "
    .. "fighting games, scripted in Lua. Every command takes -h/--help.")
  p:epilog("Exit status: 0 success, 1 failure (a test failed, a check found errors, a replay "
    .. "diverged), 2 usage error.")
  p:flag("--version", "Print the version and exit.")
  p:command_target("command")
  for _, name in ipairs(M.order) do options.add(p, name, M.command(name)) end
  return p
end

function M.main(...)
  local argv = { ... }
  local name = argv[1]
  if name == nil then
    io.stderr:write("usage: framegate COMMAND [ARGS...]; 'framegate --help' lists the commands\n")
    return 2
  end
  if name == "--version" then
    io.stdout:write("framegate ", options.version, "\n")
    return 0
  end
  if name == "-h" or name == "--help" or name == "help" then
    local topic = argv[2]
    if name == "help" and topic then
      local cmd = M.command(topic)
      if not cmd then return options.usage_error(nil, ("unknown command '%s'"):format(topic)) end
      io.stdout:write(options.parser(topic, cmd):get_help(), "\n")
      return 0
    end
    io.stdout:write(M.program():get_help(), "\n")
    return 0
  end
  local cmd = M.command(name)
  if not cmd then
    local what = name:sub(1, 1) == "-" and "unknown option '%s'" or "unknown command '%s'"
    return options.usage_error(nil, what:format(name) .. "; commands: "
      .. table.concat(M.order, ", "))
  end
  if not cmd.run then -- lua: only its help reaches here
    local args, code = options.parse(name, cmd, { table.unpack(argv, 2) })
    return args and 0 or code
  end
  return options.exit_code(cmd.run(table.unpack(argv, 2)))
end

return M
