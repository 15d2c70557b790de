-- SPDX-License-Identifier: MIT
-- test_bench_table.lua: the generated performance tables (tools/bench_table.lua) match the
-- committed benchmark output, and the check fails when a table or the output is changed alone.
local lu = require "luaunit"

local FILES = { "README.md", "docs/determinism.md", "docs/locomotion.md", "docs/netplay.md",
                "tests/bench/baseline/bench.txt" }

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function spit(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

-- A copy of the files the generator reads, in a fresh directory.
local function copy_tree()
  local root = os.tmpname()
  os.remove(root)
  assert(os.execute("mkdir -p '" .. root .. "/docs' '" .. root .. "/tests/bench/baseline'"))
  for _, f in ipairs(FILES) do spit(root .. "/" .. f, slurp(f)) end
  return root
end

-- Runs the check on root: exit status and everything printed.
local function check(root)
  local p = io.popen("lua5.4 tools/bench_table.lua --check '" .. root .. "' 2>&1")
  local out = p:read("a")
  local ok = p:close()
  return ok == true, out
end

TestBenchTable = {}

function TestBenchTable:test_the_committed_tables_match_the_committed_output()
  local ok, out = check(".")
  lu.assertTrue(ok, out)
  lu.assertStrContains(out, "generated blocks match")
end

function TestBenchTable:test_a_figure_edited_by_hand_fails_the_check()
  local root = copy_tree()
  local readme = slurp(root .. "/README.md")
  local block = readme:match("<!%-%- bench:stress %-%->\n(.-)<!%-%- /bench:stress %-%->")
  lu.assertNotNil(block)
  local row = block:match("\n(| 1,000 | [^\n]+)")
  lu.assertNotNil(row)
  local edited = row:gsub("^| 1,000 | [^|]+|", "| 1,000 | 1 |")
  spit(root .. "/README.md", (readme:gsub(row:gsub("%p", "%%%0"), (edited:gsub("%%", "%%%%")))))
  local ok, out = check(root)
  lu.assertFalse(ok)
  lu.assertStrContains(out, "README.md, block bench:stress")
  lu.assertStrContains(out, "in the file: | 1,000 | 1 |")
end

function TestBenchTable:test_new_output_without_new_tables_fails_the_check()
  local root = copy_tree()
  local path = root .. "/tests/bench/baseline/bench.txt"
  local text = slurp(path)
  local changed = text:gsub("(\n%s+1000%s+)[%d.]+", "%11.5", 1)
  lu.assertNotEquals(changed, text)
  spit(path, changed)
  local ok, out = check(root)
  lu.assertFalse(ok)
  lu.assertStrContains(out, "block bench:stress")
  lu.assertStrContains(out, "generated:   | 1,000 | 1.50 |")
end

function TestBenchTable:test_output_missing_a_line_names_the_benchmark()
  local root = copy_tree()
  local path = root .. "/tests/bench/baseline/bench.txt"
  spit(path, (slurp(path):gsub("\n[^\n]*save %+ restore[^\n]*", "")))
  local ok, out = check(root)
  lu.assertFalse(ok)
  lu.assertStrContains(out, "section bench_determinism has no line matching")
end

function TestBenchTable:test_a_memory_line_of_one_size_is_refused_and_nothing_is_written()
  local root = copy_tree()
  local path = root .. "/tests/bench/baseline/bench.txt"
  local text = slurp(path)
  local changed = text:gsub("(\nmemory: [^:\n]+: )[^\n]*", "%11 MiB 7.5", 1)
  lu.assertNotEquals(changed, text)
  spit(path, changed)
  local before = slurp(root .. "/README.md")
  local ok, out = check(root)
  lu.assertFalse(ok)
  lu.assertStrContains(out, "the memory line gives 1 working-set size(s) (`1 MiB 7.5`); "
    .. "expected two or more")
  local p = io.popen("lua5.4 tools/bench_table.lua --write '" .. root .. "' 2>&1")
  local wout = p:read("a")
  lu.assertNotEquals(p:close(), true)
  lu.assertStrContains(wout, "expected two or more")
  lu.assertEquals(slurp(root .. "/README.md"), before)
end

os.exit(lu.LuaUnit.run())
