-- luacheck configuration for the Lua shipped with framegate, the samples and the tests.
std = "lua54"
max_line_length = 120
-- LuaUnit suites declare their test classes as globals.
files["tests/lua/**"] = { globals = { "Test[%w_]*" }, allow_defined_top = true }
files["tests/scenarios/**"] = { globals = { "Test[%w_]*" }, allow_defined_top = true }
files["samples/*/scenarios/**"] = { globals = { "Test[%w_]*" }, allow_defined_top = true }
-- Methods of LuaUnit classes take self whether they use it or not.
self = false
