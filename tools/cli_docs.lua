-- SPDX-License-Identifier: MIT
-- cli_docs.lua: writes the bash completion and the manual page of the `framegate` command from
-- the option parser every command declares its arguments to (framegate.cli, framegate.options),
-- so neither can drift from the commands. Run by the build through the CLI's own host:
--   framegate lua tools/cli_docs.lua bash OUT      the bash completion
--   framegate lua tools/cli_docs.lua man OUT       the manual page, framegate(1)
local cli = require "framegate.cli"
local options = require "framegate.options"

local what, out_path = ...
assert((what == "bash" or what == "man") and out_path, "usage: cli_docs.lua bash|man OUT")

-- Text for roff: backslashes doubled, a leading dot or quote kept from being a request.
local function roff(text)
  text = text:gsub("\\", "\\e")
  return (text:gsub("\n([.'])", "\n\\&%1"):gsub("^([.'])", "\\&%1"))
end

local function man_page()
  local parts = {
    ('.TH FRAMEGATE 1 "" "framegate %s" "framegate manual"'):format(options.version),
    ".SH NAME",
    "framegate \\- run, check, test and replay gameplay rules written in Lua",
    ".SH SYNOPSIS",
    ".B framegate",
    ".I COMMAND",
    "[\\fIOPTIONS\\fR] [\\fIARGS\\fR...]",
    ".br",
    ".B framegate",
    "\\-\\-help | \\-\\-version",
    ".SH DESCRIPTION",
    roff("framegate is the gameplay-logic runtime of action and fighting games: the input buffer, "
      .. "the motion matcher, the request layer, the action state machines and the commit gate, "
      .. "in C, with rules written in Lua 5.4. This command runs a sample's playtest, validates "
      .. "rulesets, runs scenario tests, replays and traces recordings, and runs the rollback "
      .. "sync test. Every command takes -h/--help."),
    ".SH COMMANDS",
  }
  for _, name in ipairs(cli.order) do
    local cmd = cli.command(name)
    parts[#parts + 1] = ".SS " .. name
    parts[#parts + 1] = roff(cmd.summary)
    parts[#parts + 1] = ".PP\n.nf"
    parts[#parts + 1] = roff(options.parser(name, cmd):get_help())
    parts[#parts + 1] = ".fi"
  end
  parts[#parts + 1] = ".SH EXIT STATUS"
  parts[#parts + 1] = ".TP\n0\nsuccess\n.TP\n1\nfailure: a test failed, a check found errors, a "
    .. "replay diverged, a file could not be read\n.TP\n2\nusage error: an unknown command or "
    .. "option, a missing or malformed argument"
  parts[#parts + 1] = ".SH ENVIRONMENT"
  parts[#parts + 1] = ".TP\n.B FG_SCRIPTS\nA folder holding framegate/cli.lua to use instead of "
    .. "the scripts installed with the program (found relative to the executable)."
  parts[#parts + 1] = ".TP\n.B FG_UPDATE_GOLDEN\nWith 1, framegate test writes missing or "
    .. "changed golden files instead of failing."
  parts[#parts + 1] = ".SH SEE ALSO"
  parts[#parts + 1] = "lua5.4(1); the documentation of framegate: its README.md and docs/ folder."
  return table.concat(parts, "\n") .. "\n"
end

local text
if what == "bash" then
  text = "# bash completion for framegate (generated from its option parser)\n"
    .. cli.program():get_bash_complete()
else
  text = man_page()
end
local f = assert(io.open(out_path, "w"))
f:write(text)
f:close()
