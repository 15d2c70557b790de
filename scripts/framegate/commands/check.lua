-- framegate check RULES...: validates ruleset files without running a world. Prints every
-- finding with the file and the path of the field (errors, then lint warnings), and a summary
-- line per file. Exit code 0 when every file loads, 1 when one does not, 2 for a usage error.
local fg = require "framegate"
local options = require "framegate.options"

local M = {
  summary = "validate ruleset files: every error and warning with its path",
}

function M.options(p)
  p:argument("rules", "Ruleset files (.lua) to validate."):args("*")
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

-- Checks one file; returns true when it loads.
function M.check(file, out)
  out = out or io.stdout
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
  local code = 0
  for _, file in ipairs(files) do
    if not M.check(file) then code = 1 end
  end
  return code
end

return options.command("check", M)
