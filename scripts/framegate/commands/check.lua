-- SPDX-License-Identifier: MIT
-- framegate check RULES...: validates ruleset files without running a world. Prints every
-- finding with the file and the path of the field (errors, then lint warnings), and a summary
-- line per file. A MUGEN or IKEMEN command file (FILE.cmd) is loaded as fg.motion_cmd loads it:
-- per command, its compiled form and its findings. Exit code 0 when every file loads, 1 when one
-- does not, 2 for a usage error.
local fg = require "framegate"
local options = require "framegate.options"

local M = {
  summary = "validate ruleset or .cmd files: every error and warning with its path",
}

function M.options(p)
  p:argument("rules", "Ruleset files (.lua) or MUGEN/IKEMEN command files (.cmd) to validate.")
    :args("*")
  p:option("--mode", "Command mode for .cmd files: flags (default, as MUGEN) or consume.")
end

-- The findings of a load failure. A ruleset the validator refused reads
--   "FILE: invalid ruleset 'NAME':\n  PATH: MESSAGE\n  PATH: warning: MESSAGE ..."
-- one finding per line; any other failure (a malformed field, a Lua syntax error, a missing file)
-- is a single finding.
local function failure_findings(err)
  err = tostring(err)
  local head, rest = err:match("^(.-invalid ruleset '[^']*'):\n(.*)$")
  local found = {}
  if not head then
    found[1] = { text = err, warning = false }
    return found
  end
  for line in (rest .. "\n"):gmatch("  ([^\n]*)\n") do
    found[#found + 1] = { text = line, warning = line:find(": warning", 1, true) ~= nil }
  end
  return found
end

-- "FILE: TEXT", unless the text already starts with the file (a message from Lua itself:
-- "FILE:3: unexpected symbol", or the loader's "FILE: actions.jab.startpu: unknown field").
local function located(file, text)
  if text:sub(1, #file) == file and text:sub(#file + 1, #file + 1) == ":" then return text end
  return file .. ": " .. text
end

-- Checks a .cmd file: per command (in id order, alternatives together), its compiled form, then
-- the findings that name it; notes about the file itself first. Returns true when it loads.
function M.check_cmd(file, out, mode)
  local f, why = io.open(file, "rb")
  if not f then
    out:write(string.format("%s: not loaded: %s\n", file, why))
    return false
  end
  local text = f:read("a")
  f:close()
  local ok, set = pcall(fg.motion_cmd, text, { source = file, mode = mode })
  if not ok then
    out:write(located(file, tostring(set)) .. "\n")
    out:write(string.format("%s: not loaded: 1 error\n", file))
    return false
  end
  local by_name, notes, warnings = {}, 0, 0
  for _, finding in ipairs(set:findings()) do
    if finding.kind == "note" then notes = notes + 1 else warnings = warnings + 1 end
    if finding.motion then
      by_name[finding.motion] = by_name[finding.motion] or {}
      table.insert(by_name[finding.motion], finding.text)
    else
      out:write(finding.text .. "\n")
    end
  end
  local names = set:names()
  for _, name in ipairs(names) do
    for form in (set:describe(name) .. "\n"):gmatch("([^\n]*)\n") do
      out:write(string.format("%s: %s: %s\n", file, name, form))
    end
    for _, found in ipairs(by_name[name] or {}) do
      out:write(string.format("%s: %s:   %s\n", file, name, found))
    end
  end
  out:write(string.format("%s: ok: %d commands, %s mode, %d note%s, %d warning%s\n", file,
    #names, set:mode(), notes, notes == 1 and "" or "s", warnings, warnings == 1 and "" or "s"))
  return true
end

-- Checks one file; returns true when it loads.
function M.check(file, out, mode)
  out = out or io.stdout
  if file:match("%.[cC][mM][dD]$") then return M.check_cmd(file, out, mode) end
  local ok, rules = pcall(fg.rules, file)
  if ok then
    local warnings = 0
    for _, f in ipairs(rules:findings()) do
      local msg = f.message
      if not msg:find("^warning") then msg = "warning: " .. msg end
      out:write(string.format("%s: %s: %s\n", file, f.path, msg))
      warnings = warnings + 1
    end
    out:write(string.format("%s: ok: ruleset '%s', %d actions, hash %s, %d warning%s\n", file,
      rules:name(), #rules:actions(), rules:hash(), warnings, warnings == 1 and "" or "s"))
    return true
  end
  local errors, warnings = 0, 0
  for _, f in ipairs(failure_findings(rules)) do
    out:write(located(file, f.text) .. "\n")
    if f.warning then warnings = warnings + 1 else errors = errors + 1 end
  end
  out:write(string.format("%s: not loaded: %d error%s, %d warning%s\n", file, errors,
    errors == 1 and "" or "s", warnings, warnings == 1 and "" or "s"))
  return false
end

function M.main(args)
  local files = args.rules
  if #files == 0 then
    return options.usage_error("check", "which rules? e.g. framegate check samples/duel/rules.lua")
  end
  local mode = args.mode
  if mode and mode ~= "flags" and mode ~= "consume" then
    return options.usage_error("check", "--mode " .. mode .. ": expected flags or consume")
  end
  local code = 0
  for _, file in ipairs(files) do
    if not M.check(file, nil, mode) then code = 1 end
  end
  return code
end

return options.command("check", M)
