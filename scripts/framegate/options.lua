-- SPDX-License-Identifier: MIT
-- framegate.options: the one option parser of every `framegate` command (Debian's lua-argparse).
-- A command module declares its arguments in options(parser) and does its work in main(args);
-- options.command wraps the two into run(...), which takes the command line as strings and
-- returns the exit code: 0 success, 1 failure, 2 usage error. `-h`/`--help` prints the
-- command's help on stdout (exit 0); a usage error is one line on stderr (exit 2).
local argparse = require "argparse"

local M = {}

M.version = require("framegate").version

-- Adds the arguments of command module `cmd` to parser p (a parser or an argparse command).
local function declare(p, cmd)
  if p.summary then p:summary(cmd.summary) end -- a command of the program's parser
  p:description(cmd.description or cmd.summary)
  if cmd.epilog then p:epilog(cmd.epilog) end
  cmd.options(p)
  return p
end

-- A stand-alone parser for one command: its usage line reads "framegate NAME ...".
function M.parser(name, cmd)
  return declare(argparse("framegate " .. name), cmd)
end

-- Adds command `name` (module cmd) to the parser of the whole program.
function M.add(program, name, cmd)
  return declare(program:command(name), cmd)
end

-- Prints a usage error on one line and returns its exit code.
function M.usage_error(name, msg)
  local who = name and ("framegate " .. name) or "framegate"
  io.stderr:write(("%s: %s (see '%s --help')\n"):format(who, msg, who))
  return 2
end

-- True when argv asks for help (before a "--" that ends the options).
function M.wants_help(argv)
  for _, a in ipairs(argv) do
    if a == "--" then return false end
    if a == "-h" or a == "--help" then return true end
  end
  return false
end

-- Parses argv for command `name`; returns the argument table, or nil and the exit code once
-- the help (0) or a usage error (2) has been printed.
function M.parse(name, cmd, argv)
  local p = M.parser(name, cmd)
  if M.wants_help(argv) then
    io.stdout:write(p:get_help(), "\n")
    return nil, 0
  end
  local ok, args = p:pparse(argv)
  if not ok then return nil, M.usage_error(name, args) end
  return args
end

-- The exit code a command's result stands for: 0, 1 or 2, never a count that could wrap.
function M.exit_code(result)
  if result == nil or result == 0 or result == true then return 0 end
  if result == 2 then return 2 end
  return 1
end

-- Turns a command module (name, summary, options, main) into one the CLI runs: cmd.run(...)
-- parses the strings it is given and calls main(args).
function M.command(name, cmd)
  cmd.name = name
  cmd.run = function(...)
    local args, code = M.parse(name, cmd, { ... })
    if not args then return code end
    return M.exit_code(cmd.main(args))
  end
  return cmd
end

-- An integer option within [lo, hi] (argparse gives strings), or nil and a message naming it.
function M.int(args, option, default, lo, hi)
  local v = args[(option:gsub("^%-+", ""):gsub("%-", "_"))]
  if v == nil then return default end
  local n = math.tointeger(tonumber(v))
  if not n or n < lo or n > hi then
    return nil, string.format("%s %s: expected an integer %d..%d", option, v, lo, hi)
  end
  return n
end

return M
