-- SPDX-License-Identifier: MIT
-- ffi_header.lua: writes the LuaJIT FFI header of the runtime (framegate_ffi.h) from the C
-- compiler's preprocessed framegate.h. LuaJIT's ffi.cdef takes declarations only, so this keeps
-- what came from framegate's own headers and removes what cdef cannot read: function bodies
-- (the static inline helpers, which no library exports), __attribute__s, and declarations that
-- need a system type (FILE, va_list). Integer #defines of the headers become enum constants.
--
--   lua5.4 tools/ffi_header.lua PREPROCESSED INCLUDE_DIR OUT
local pre_path, include_dir, out_path = ...
assert(pre_path and include_dir and out_path, "usage: ffi_header.lua PREPROCESSED INCLUDE_DIR OUT")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  return text
end

-- The preprocessed text that came from framegate's headers (line markers name the file).
local function own_text(pre)
  local keep, out = false, {}
  for line in pre:gmatch("[^\n]*") do
    local file = line:match('^# %d+ "([^"]*)"')
    if file then
      keep = file:find("framegate%.h$") ~= nil or file:find("framegate/[^/]+%.h$") ~= nil
    elseif keep and not line:match("^#") then
      out[#out + 1] = line
    end
  end
  return table.concat(out, "\n")
end

-- Removes __attribute__((...)) with its balanced parentheses.
local function strip_attributes(text)
  local out, i = {}, 1
  while true do
    local s, e = text:find("__attribute__%s*%(", i)
    if not s then break end
    out[#out + 1] = text:sub(i, s - 1)
    local depth, j = 1, e + 1
    while depth > 0 and j <= #text do
      local c = text:sub(j, j)
      if c == "(" then depth = depth + 1 elseif c == ")" then depth = depth - 1 end
      j = j + 1
    end
    i = j
  end
  out[#out + 1] = text:sub(i)
  return table.concat(out)
end

-- Splits the text into top-level items: declarations ending in ';' and function definitions
-- (a head ending in ')' followed by a body in braces).
local function items(text)
  local list, start, depth, i = {}, 1, 0, 1
  while i <= #text do
    local c = text:sub(i, i)
    if c == "{" then
      depth = depth + 1
    elseif c == "}" then
      depth = depth - 1
      if depth == 0 then
        local head = text:sub(start, i):match("^(.-){")
        if head and head:match("%)%s*$") then -- a function definition: ends here
          list[#list + 1] = { text = text:sub(start, i), body = true }
          start = i + 1
        end
      end
    elseif c == ";" and depth == 0 then
      list[#list + 1] = { text = text:sub(start, i) }
      start = i + 1
    end
    i = i + 1
  end
  return list
end

local function squeeze(s)
  return (s:gsub("%s+", " "):gsub("^ ", ""):gsub(" ;$", ";"))
end

local decls = {}
for _, item in ipairs(items(strip_attributes(own_text(read(pre_path))))) do
  local t = squeeze(item.text)
  local unreadable = item.body or t:find("%f[%w_]va_list%f[^%w_]") or t:find("%f[%w_]FILE%f[^%w_]")
    or t:find("^_Static_assert") or t == ";" or t == ""
  if not unreadable then decls[#decls + 1] = t end
end

-- Integer constants: `#define FG_NAME 123` in the headers themselves.
local consts, seen = {}, {}
local headers = { include_dir .. "/framegate.h" }
for name in read(include_dir .. "/framegate.h"):gmatch('#include "framegate/([%w_]+%.h)"') do
  headers[#headers + 1] = include_dir .. "/framegate/" .. name
end
for _, path in ipairs(headers) do
  for name, value in read(path):gmatch("\n#define (FG_[%w_]+)%s+(%-?%d+)%f[^%w_]") do
    if not seen[name] then
      seen[name] = true
      consts[#consts + 1] = ("  %s = %s"):format(name, value)
    end
  end
end

local f = assert(io.open(out_path, "wb"))
f:write("/* framegate_ffi.h: the runtime's C API (framegate.h) for LuaJIT's ffi.cdef. Generated\n",
  "** from the preprocessed headers: declarations only, no function bodies, no attributes. */\n")
if #consts > 0 then f:write("enum {\n", table.concat(consts, ",\n"), "\n};\n") end
for _, d in ipairs(decls) do f:write(d, "\n") end
f:close()
