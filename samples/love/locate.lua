-- locate.lua: finds framegate_ffi.h and libframegate for the LuaJIT samples. Command-line
-- options win (--header PATH, --lib PATH), then FRAMEGATE_PREFIX (an install prefix), then the
-- usual prefixes; the library falls back to the system's search (ffi.load "framegate").
local M = {}

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

-- Options from an argument list: --header, --lib, --frames.
function M.options(args)
  local o = {}
  local i = 1
  while i <= #args do
    local name = args[i]:match("^%-%-(%w+)$")
    if name and args[i + 1] then
      o[name] = args[i + 1]
      i = i + 2
    else
      i = i + 1
    end
  end
  return o
end

-- The header and library paths to load, or nil and a message saying what to pass.
function M.find(o)
  local prefixes = {}
  if os.getenv("FRAMEGATE_PREFIX") then prefixes[#prefixes + 1] = os.getenv("FRAMEGATE_PREFIX") end
  prefixes[#prefixes + 1] = "/usr/local"
  prefixes[#prefixes + 1] = "/usr"
  local header, lib = o.header, o.lib
  for _, p in ipairs(prefixes) do
    if not header and exists(p .. "/include/framegate_ffi.h") then header = p .. "/include/framegate_ffi.h" end
    for _, dir in ipairs { "lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu" } do
      if not lib and exists(p .. "/" .. dir .. "/libframegate.so") then
        lib = p .. "/" .. dir .. "/libframegate.so"
      end
    end
  end
  if not header then
    return nil, "framegate_ffi.h not found: pass --header PATH or set FRAMEGATE_PREFIX to the "
      .. "prefix framegate was installed to"
  end
  return header, lib or "framegate"
end

return M
