-- framegate play DIR: opens the playtest window. The window is its own program,
-- framegate-play, built only where SDL2 is installed, so the command line and the runtime never
-- depend on SDL; this command finds it next to the `framegate` binary (or on PATH) and runs it
-- with the same arguments.
local M = {}

M.usage = "play DIR [--script FILE] [--record FILE] ..."
M.summary = "the playtest window (SDL2): boxes, frame meter, inputs, training mode"

local function quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

--- The framegate-play program to run, or nil.
function M.find()
  local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$")
  if here and exists(here .. "/framegate-play") then return here .. "/framegate-play" end
  local p = io.popen("command -v framegate-play 2>/dev/null")
  local found = p and p:read("l")
  if p then p:close() end
  return found ~= "" and found or nil
end

function M.run(...)
  local exe = M.find()
  if not exe then
    io.stderr:write("framegate play: the playtest window (framegate-play) is not built here: it "
      .. "needs SDL2. Install the Debian package libsdl2-dev (apt-get install libsdl2-dev), then "
      .. "configure and build again (cmake --preset default && cmake --build --preset default).\n")
    return 1
  end
  local args = { quote(exe) }
  for _, a in ipairs { ... } do args[#args + 1] = quote(a) end
  local ok, how, code = os.execute(table.concat(args, " "))
  if ok then return 0 end
  return how == "exit" and code or 1
end

return M
