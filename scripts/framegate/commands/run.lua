-- framegate run DIR [ARGS...]: runs DIR/run.lua, a sample's scripted playtest.
return {
  usage = "run SAMPLE_DIR [ARGS...]",
  summary = "play a sample's scripted playtest (SAMPLE_DIR/run.lua)",
  run = function(dir, ...)
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
    local result = chunk(...)
    return type(result) == "number" and result or 0
  end,
}
