-- luacheck configuration for the Lua shipped with framegate, the samples and the tests.
std = "lua54"
max_line_length = 120

-- Rules files run in the sandbox: only these globals exist there (see docs/rules.md). Anything
-- else, os or io for instance, is reported as an undefined global.
stds.framegate_rules = {
  read_globals = {
    "assert", "error", "ipairs", "pairs", "next", "pcall", "xpcall", "select", "tonumber",
    "tostring", "type", "rawequal", "rawlen", "rawget", "rawset", "print", "setmetatable",
    "getmetatable", "load", "require", "include", "_VERSION", "_G",
    "string", "table", "math", "utf8",
  },
}
local rules = { std = "framegate_rules", allow_defined_top = false }
files["samples/*/rules.lua"] = rules
files["samples/*/moves/**"] = rules
files["tests/fault/good/**"] = rules
files["tests/bench/stress_rules*.lua"] = rules

-- Fault-injection data: bad rulesets on purpose (syntax errors, a binary chunk, globals).
exclude_files = { "tests/fault/*_*/**", "tests/fault/*_*" }

-- LuaUnit suites declare their test classes as globals.
files["tests/lua/**"] = { globals = { "Test[%w_]*" }, allow_defined_top = true }
files["tests/play/**"] = { globals = { "Test[%w_]*" }, allow_defined_top = true }
files["tests/attack/**"] = { globals = { "Test[%w_]*" }, allow_defined_top = true }
files["samples/*/scenarios/**"] = { globals = { "Test[%w_]*" }, allow_defined_top = true }
-- The LuaLS definition file declares stubs: unused arguments are its point.
files["scripts/framegate/framegate.d.lua"] = { unused_args = false, unused = false, max_line_length = false }
-- Methods of LuaUnit classes take self whether they use it or not.
self = false

-- The LOVE sample runs on LuaJIT inside LOVE: Lua 5.1 with LuaJIT's extensions and the love table.
files["samples/love/**"] = { std = "luajit", globals = { "love" } }
files["tests/ffi/**"] = { std = "luajit" }
