-- SPDX-License-Identifier: MIT
-- framegate test [OPTIONS] PATH...: runs scenario files (or every *.lua in a folder) with
-- LuaUnit and prints its summary. Exit code 0 when every test passed, 1 when one failed or
-- errored (whatever the count), 2 for a usage error. The options are passed on to LuaUnit.
local fs = require "framegate.fs"
local options = require "framegate.options"

local M = {
  summary = "run scenario files with LuaUnit (exit 1 when a test fails)",
}

function M.options(p)
  p:argument("paths", "Scenario files, or folders whose *.lua files are run."):args("*")
  p:option("-o --output", "Output format."):choices { "text", "tap", "junit" }:default("text")
  p:option("-n --name", "The file the junit output is written to.")
  p:option("-p --pattern", "Run only the tests whose name matches this Lua pattern.")
    :count("*")
  p:option("-x --exclude", "Skip the tests whose name matches this Lua pattern."):count("*")
  p:option("-r --repeat", "Run every test this many times.")
  p:flag("-v --verbose", "List every test as it runs.")
  p:flag("-q --quiet", "Print only the summary.")
  p:flag("-f --failure", "Stop at the first failure.")
  p:flag("-e --error", "Stop at the first error.")
  p:flag("--update-golden", "Write missing or changed golden files instead of failing.")
end

-- The scenario files a path names: itself, or a folder's *.lua files in sorted order.
local function scenario_files(path, into)
  if fs.kind(path) ~= "directory" then
    into[#into + 1] = path
    return true
  end
  local names, err = fs.dir(path)
  if not names then return nil, err end
  for _, name in ipairs(names) do
    if name:match("%.lua$") and fs.kind(path .. "/" .. name) == "file" then
      into[#into + 1] = path:gsub("/+$", "") .. "/" .. name
    end
  end
  return true
end

-- LuaUnit's own command line for the parsed options.
local function luaunit_args(args)
  local out = { "-o", args.output }
  if args.name then out[#out + 1] = "-n"; out[#out + 1] = args.name end
  for _, pat in ipairs(args.pattern) do out[#out + 1] = "-p"; out[#out + 1] = pat end
  for _, pat in ipairs(args.exclude) do out[#out + 1] = "-x"; out[#out + 1] = pat end
  if args["repeat"] then out[#out + 1] = "-r"; out[#out + 1] = args["repeat"] end
  for _, flag in ipairs { "verbose", "quiet", "failure", "error" } do
    if args[flag] then out[#out + 1] = "--" .. flag end
  end
  return out
end

function M.main(args)
  local scenario = require "framegate.scenario"
  if args.update_golden then scenario.update_golden = true end
  local _, bad_repeat = options.int(args, "--repeat", nil, 1, 1000000)
  if bad_repeat then return options.usage_error("test", bad_repeat) end
  local files = {}
  for _, path in ipairs(args.paths) do
    local ok, err = scenario_files(path, files)
    if not ok then
      io.stderr:write("framegate test: " .. err .. "\n")
      return 1
    end
  end
  if #files == 0 then
    return options.usage_error("test", "which scenario files? e.g. framegate test samples/duel/scenarios")
  end
  local owner = {}
  for _, file in ipairs(files) do
    local before = {}
    for k, v in pairs(_G) do before[k] = v end
    local chunk, err = loadfile(file, "t")
    if not chunk then
      io.stderr:write("framegate test: " .. err .. "\n")
      return 1
    end
    chunk()
    for k, v in pairs(_G) do
      if type(k) == "string" and k:match("^Test") and before[k] ~= v then
        if owner[k] then
          io.stderr:write(("framegate test: %s is defined by %s and %s\n"):format(k, owner[k], file))
          return 1
        end
        owner[k] = file
      end
    end
  end
  local lu = require "luaunit"
  -- LuaUnit returns the number of failures and errors; the exit code says only whether any.
  local failures = lu.LuaUnit.run(table.unpack(luaunit_args(args)))
  return failures == 0 and 0 or 1
end

return options.command("test", M)
