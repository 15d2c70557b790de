-- SPDX-License-Identifier: MIT
-- test_definitions.lua: the LuaLS definition file declares exactly what the bindings register:
-- every function of the module and of each class, none missing and none extra, each with a
-- ---@param per parameter and a ---@return.
local lu = require "luaunit"
local fg = require "framegate"

local META = "scripts/framegate/framegate.d.lua"

-- Reads the meta file: module functions and fields, and methods per class.
local function declared()
  local f = assert(io.open(META))
  local text = f:read("a")
  f:close()
  local module, classes, alias, pending = {}, {}, {}, nil
  for line in text:gmatch("[^\n]+") do
    local class = line:match("^%-%-%-@class ([%w_.]+)")
    if class then pending = class end
    local var = line:match("^local ([%w_]+) = {}")
    if var and pending then
      alias[var] = pending
      classes[pending] = classes[pending] or {}
      pending = nil
    end
    local mfield = line:match("^framegate%.([%w_]+) = ")
    if mfield then module[mfield] = true end
    local mfunc = line:match("^function framegate%.([%w_]+)%(")
    if mfunc then module[mfunc] = true end
    local owner, sep, name = line:match("^function ([%w_]+)([:.])([%w_]+)%(")
    if owner and owner ~= "framegate" and alias[owner] then classes[alias[owner]][name] = sep end
    local field_owner, field = line:match("^([%w_]+)%.([%w_]+) = ")
    if field_owner and alias[field_owner] then classes[alias[field_owner]][field] = "." end
  end
  return module, classes
end

local function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- The methods a registered metatable exposes (a table __index, or a C __index over a table).
local function methods_of(tname)
  local mt = debug.getregistry()[tname]
  assert(mt, "no metatable " .. tname)
  local index = rawget(mt, "__index")
  if type(index) == "function" then
    local _, t = debug.getupvalue(index, 1)
    index = t
  end
  local out = {}
  for k in pairs(index or {}) do out[k] = ":" end
  return out
end

local CLASSES = { "framegate.World", "framegate.Entity", "framegate.Rules", "framegate.Loop",
  "framegate.Watcher", "framegate.ReplayReader", "framegate.ReplayWriter", "framegate.Dispatcher",
  "framegate.CycleTrack", "framegate.PlaybackOwner", "framegate.Motion", "framegate.MotionSet",
  "framegate.Locomotion", "framegate.Replication", "framegate.SyncTest", "framegate.Recording",
  "framegate.Player", "framegate.InputFuzz", "framegate.Link", "framegate.Session" }
-- The ENet transport is built only with ENet's development files.
if fg.enet then CLASSES[#CLASSES + 1] = "framegate.ENet" end

TestDefinitions = {}

function TestDefinitions:test_module_declares_every_registered_function_and_no_other()
  local module = declared()
  if not fg.enet then module.enet = nil end
  lu.assertEquals(keys(module), keys(fg))
end

function TestDefinitions:test_replay_table_matches()
  local _, classes = declared()
  lu.assertEquals(keys(classes["framegate.replaylib"]), keys(fg.replay))
end

function TestDefinitions:test_every_class_declares_its_methods_and_no_other()
  local _, classes = declared()
  for _, tname in ipairs(CLASSES) do
    lu.assertNotNil(classes[tname], tname .. " is not declared")
    lu.assertEquals(keys(classes[tname]), keys(methods_of(tname)), tname)
    for name, sep in pairs(classes[tname]) do
      lu.assertEquals(sep, ":", tname .. "." .. name .. " is a method: declare it with ':'")
    end
  end
end

function TestDefinitions:test_every_registered_class_is_checked()
  local registered = {}
  for k, v in pairs(debug.getregistry()) do
    -- framegate.View, framegate.Event and framegate.Verdict have fields, not methods: their
    -- classes are documented without functions.
    if type(k) == "string" and k:match("^framegate%.") and type(v) == "table" and rawget(v, "__index")
        and k ~= "framegate.View" and k ~= "framegate.Event" and k ~= "framegate.Verdict" then
      registered[#registered + 1] = k
    end
  end
  table.sort(registered)
  local checked = { table.unpack(CLASSES) }
  table.sort(checked)
  lu.assertEquals(registered, checked)
end

-- Every declared function documents each named parameter (`---@param name type`, `...` too) and
-- what it returns (`---@return`; `---@return nil` when the binding returns nothing), in the doc
-- block right above it.
function TestDefinitions:test_every_function_documents_its_params_and_return()
  local f = assert(io.open(META))
  local text = f:read("a")
  f:close()
  local block, problems, count = {}, {}, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("^%-%-%-") then
      block[#block + 1] = line
    else
      local name, params = line:match("^function ([%w_.:]+)%(([^)]*)%)")
      if name then
        count = count + 1
        local documented, returns = {}, false
        for _, doc in ipairs(block) do
          local p = doc:match("^%-%-%-@param%s+([%w_.]+)%??%s+%S")
          if p then documented[p] = true end
          if doc:match("^%-%-%-@return%s+%S") then returns = true end
        end
        for p in params:gmatch("[%w_.]+") do
          if not documented[p] then
            problems[#problems + 1] = name .. ": no ---@param " .. p .. " with a type"
          end
        end
        if not returns then problems[#problems + 1] = name .. ": no ---@return" end
      end
      block = {}
    end
  end
  lu.assertTrue(count > 100, "found only " .. count .. " declared functions")
  lu.assertEquals(problems, {})
end

os.exit(lu.LuaUnit.run())
