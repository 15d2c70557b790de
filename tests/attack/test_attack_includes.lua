-- SPDX-License-Identifier: MIT
-- test_attack_includes.lua: a ruleset folder arranged by an attacker (class 8). Bound: each load
-- fails within a second with a message naming the include and why; before, a symlink carried the
-- load out of the folder and a FIFO held it forever.
local lu = require "luaunit"
local fg = require "framegate"

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function folder()
  local d = os.tmpname()
  os.remove(d)
  sh("mkdir -p '" .. d .. "/rules'")
  return d
end

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local MAIN = [[
local fg = require "framegate"
local extra = include "%s"
return fg.ruleset "probe" {
  buttons = { "LP" },
  actions = {
    idle = { neutral = true, loop = true, duration = 1 },
    jab = { input = "LP", startup = extra.startup, active = 1, recovery = 2 },
  },
}
]]

local function load_fails(path)
  local t0 = os.clock()
  local ok, err = pcall(fg.rules, path)
  lu.assertFalse(ok, "the load should fail")
  lu.assertTrue(os.clock() - t0 < 1.0)
  return tostring(err)
end

TestIncludes = {}

function TestIncludes:test_a_symlink_out_of_the_folder_is_refused()
  local d = folder()
  write(d .. "/secret.lua", "return { startup = 3 }\n")
  sh("ln -s '" .. d .. "/secret.lua' '" .. d .. "/rules/moves.lua'")
  write(d .. "/rules/rules.lua", MAIN:format("moves.lua"))
  local err = load_fails(d .. "/rules/rules.lua")
  lu.assertStrContains(err, 'include "moves.lua": it resolves to')
  lu.assertStrContains(err, "outside the ruleset's folder")
  lu.assertStrContains(err, "rules.lua:2:")
  -- A link inside the folder is fine.
  write(d .. "/rules/real.lua", "return { startup = 3 }\n")
  sh("ln -s real.lua '" .. d .. "/rules/alias.lua'")
  write(d .. "/rules/rules.lua", MAIN:format("alias.lua"))
  lu.assertNotNil(fg.rules(d .. "/rules/rules.lua"))
  sh("rm -rf '" .. d .. "'")
end

function TestIncludes:test_a_fifo_or_a_folder_is_refused_without_blocking()
  local d = folder()
  sh("mkfifo '" .. d .. "/rules/pipe.lua'")
  write(d .. "/rules/rules.lua", MAIN:format("pipe.lua"))
  local err = load_fails(d .. "/rules/rules.lua")
  lu.assertStrContains(err, "cannot read '" .. d .. "/rules/pipe.lua': not a regular file")
  sh("mkdir '" .. d .. "/rules/dir.lua'")
  write(d .. "/rules/rules.lua", MAIN:format("dir.lua"))
  lu.assertStrContains(load_fails(d .. "/rules/rules.lua"), "it is a folder")
  -- The rules file itself may not be a FIFO either.
  sh("mkfifo '" .. d .. "/rules/main.lua'")
  lu.assertStrContains(load_fails(d .. "/rules/main.lua"), "not a regular file")
  sh("rm -rf '" .. d .. "'")
end

os.exit(lu.LuaUnit.run())
