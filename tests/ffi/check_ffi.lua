-- SPDX-License-Identifier: MIT
-- check_ffi.lua: the generated framegate_ffi.h works in LuaJIT as it is: ffi.cdef takes it
-- whole (no function bodies, no attributes), and every function the public headers export
-- (FG_API) resolves in libframegate, except those that need a C-only type (FILE, va_list),
-- which the header leaves out. Then a world is built and advanced through it.
--   luajit check_ffi.lua FFI_HEADER INCLUDE_DIR LIBRARY
local ffi = require "ffi"
local header_path, include_dir, lib_path = ...

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local header = read(header_path)
assert(not header:find("__attribute__", 1, true), "the FFI header has an __attribute__")
assert(not header:find("inline", 1, true), "the FFI header has an inline function")
ffi.cdef(header)
local C = ffi.load(lib_path)

local files = { include_dir .. "/framegate.h" }
for name in read(include_dir .. "/framegate.h"):gmatch('#include "framegate/([%w_]+%.h)"') do
  files[#files + 1] = include_dir .. "/framegate/" .. name
end
local found, skipped, missing = 0, 0, {}
for _, path in ipairs(files) do
  -- Each FG_API declaration up to its ';'.
  for decl in read(path):gmatch("FG_API([^;]*);") do
    local name = decl:match("([%w_]+)%s*%(")
    if decl:find("va_list") or decl:find("FILE") then
      skipped = skipped + 1
    elseif name and not name:find("^__") then
      local ok = pcall(function() return C[name] end)
      if ok then found = found + 1 else missing[#missing + 1] = name end
    end
  end
end
if #missing > 0 then
  error("declared in the headers but not usable through the FFI header: " .. table.concat(missing, ", "))
end
assert(found > 100, "only " .. found .. " functions found: is the header scan broken?")

-- A world through the FFI: defaults, a spawn, ticks, a hash that changes with time.
local err = ffi.new("fg_error")
local b = C.fg_ruleset_builder_create("ffi", nil)
local idle = ffi.new("fg_action_def[1]")
idle[0] = C.fg_action_def_default("idle")
idle[0].neutral, idle[0].loop = true, true
assert(C.fg_ruleset_add_action(b, idle, err) == 0, ffi.string(C.fg_error_message(err)))
local out = ffi.new("fg_findings *[1]")
assert(C.fg_findings_create(nil, out, err) == 0, ffi.string(C.fg_error_message(err)))
local findings = ffi.gc(out[0], C.fg_findings_destroy)
local rules = C.fg_ruleset_build(b, findings, err)
C.fg_ruleset_builder_destroy(b)
assert(rules ~= nil, ffi.string(C.fg_error_message(err)))
assert(C.fg_findings_count(findings) == 0)
-- A finding by value through the FFI, its long path whole.
local long = string.rep("deep/", 2000) .. "rules.lua"
assert(C.fg_findings_add(findings, C.FG_SEVERITY_WARNING, long, 12, "a note", err) == 0)
local x = C.fg_findings_get(findings, 0)
assert(ffi.string(x.path) == long and ffi.string(x.message) == "a note" and x.line == 12)
local cfg = ffi.new("fg_world_config[1]")
cfg[0] = C.fg_world_config_default()
cfg[0].rules = rules
local w = C.fg_world_create(cfg, err)
C.fg_ruleset_unref(rules)
assert(w ~= nil, ffi.string(C.fg_error_message(err)))
local sp, id = ffi.new("fg_spawn"), ffi.new("fg_entity[1]")
sp.grounded = true
assert(C.fg_world_spawn(w, sp, id, err) == 0, ffi.string(C.fg_error_message(err)))
local h0 = C.fg_world_hash(w)
for _ = 1, 10 do assert(C.fg_world_advance(w, err) == 0, ffi.string(C.fg_error_message(err))) end
assert(C.fg_world_tick(w) == 10)
assert(C.fg_world_hash(w) ~= h0)
C.fg_world_destroy(w)
print(("ffi: %d functions resolve, %d left out (FILE, va_list); a world ran 10 ticks"):format(found,
  skipped))
