-- framegate test [OPTIONS] PATH...: runs scenario files (or every *.lua in a folder) with
-- LuaUnit and prints its summary; the exit code is the number of failures and errors.
-- Options are LuaUnit's (-o text|tap|junit, -n FILE, -p PATTERN, -v, ...) plus --update-golden.
local function lua_files(dir)
  local p = io.popen(("ls -1 '%s' 2>/dev/null"):format(dir))
  local files = {}
  for name in p:lines() do
    if name:match("%.lua$") then files[#files + 1] = dir .. "/" .. name end
  end
  p:close()
  table.sort(files)
  return files
end

local function is_dir(path)
  local p = io.popen(("test -d '%s' && echo dir"):format(path))
  local out = p:read("a")
  p:close()
  return out:find("dir") ~= nil
end

-- LuaUnit options that take a value.
local with_value = { ["-o"] = true, ["--output"] = true, ["-n"] = true, ["--name"] = true,
  ["-p"] = true, ["--pattern"] = true, ["-x"] = true, ["--exclude"] = true,
  ["-r"] = true, ["--repeat"] = true }

return {
  usage = "test [-o text|tap|junit] [-n FILE] PATH...",
  summary = "run scenario files with LuaUnit (exit code = failures)",
  run = function(...)
    local args, files = {}, {}
    local argv = { ... }
    local i = 1
    local scenario = require "framegate.scenario"
    while i <= #argv do
      local a = argv[i]
      if a == "--update-golden" then
        scenario.update_golden = true
      elseif with_value[a] then
        args[#args + 1] = a
        args[#args + 1] = argv[i + 1]
        i = i + 1
      elseif a:sub(1, 1) == "-" then
        args[#args + 1] = a
      elseif is_dir(a) then
        for _, f in ipairs(lua_files(a)) do files[#files + 1] = f end
      else
        files[#files + 1] = a
      end
      i = i + 1
    end
    if #files == 0 then
      io.stderr:write("framegate test: which scenario files? e.g. framegate test samples/duel/scenarios\n")
      return 2
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
    -- With no arguments LuaUnit would read the command line (ours) instead.
    local has_output = false
    for _, a in ipairs(args) do has_output = has_output or a == "-o" or a == "--output" end
    if not has_output then
      table.insert(args, 1, "text")
      table.insert(args, 1, "-o")
    end
    return lu.LuaUnit.run(table.unpack(args))
  end,
}
