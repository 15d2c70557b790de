-- SPDX-License-Identifier: MIT
-- test_cli.lua: the `framegate` command line as a shell user meets it. Help goes to stdout with
-- exit 0, --version answers, a usage error is one line on stderr with exit 2, `framegate test`
-- exits 1 however many tests fail (256 included, which a count would wrap to 0), paths with
-- quotes and spaces are just paths, and the commands work from any working directory.
local lu = require "luaunit"
local fg = require "framegate"

local FRAMEGATE = arg[-2] -- the host running this suite
local SAMPLES = os.getenv("FG_SAMPLES") or "samples"

local function sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function tmpdir(name)
  local d = os.tmpname()
  os.remove(d)
  d = d .. (name or "")
  assert(os.execute("mkdir -p " .. sh_quote(d)))
  return d
end

-- Runs framegate with args (already quoted) in folder `cwd`; returns stdout, stderr, exit code.
local function run(args, cwd)
  local err = os.tmpname()
  local p = io.popen(("cd %s && %s %s 2>%s"):format(sh_quote(cwd or "."), sh_quote(FRAMEGATE),
    args, sh_quote(err)))
  local out = p:read("a")
  local _, _, code = p:close()
  local f = io.open(err)
  local stderr = f:read("a")
  f:close()
  os.remove(err)
  return out, stderr, code
end

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

TestCli = {}

function TestCli:test_help_is_on_stdout_with_exit_zero()
  for _, args in ipairs { "--help", "-h", "help" } do
    local out, err, code = run(args)
    lu.assertEquals(code, 0, args)
    lu.assertEquals(err, "", args)
    lu.assertStrContains(out, "Usage: framegate [-h] [--version] <command> ...")
    for _, cmd in ipairs { "run", "check", "test", "watch", "play", "replay", "synctest", "trace",
        "netplay", "lua" } do
      lu.assertStrMatches(out, ".*\n   " .. cmd .. " .*")
    end
  end
end

function TestCli:test_every_command_has_help_on_stdout()
  for _, cmd in ipairs { "run", "check", "test", "watch", "play", "replay", "synctest", "trace",
      "netplay", "lua" } do
    local out, err, code = run(cmd .. " --help")
    lu.assertEquals(code, 0, cmd)
    lu.assertEquals(err, "", cmd)
    lu.assertStrContains(out, "Usage: framegate " .. cmd .. " [-h]")
    local again = run("help " .. cmd)
    lu.assertEquals(again, out)
  end
  -- check --help is help, not a file named --help.
  local out = run("check --help")
  lu.assertNotStrContains(out, "not loaded")
end

function TestCli:test_version()
  local out, err, code = run("--version")
  lu.assertEquals({ out, err, code }, { "framegate " .. fg.version .. "\n", "", 0 })
end

function TestCli:test_usage_errors_are_one_line_with_exit_two()
  local cases = {
    { "", "usage: framegate COMMAND [ARGS...]; 'framegate --help' lists the commands\n" },
    { "bogus", "framegate: unknown command 'bogus'; commands: run, check, test, watch, play, "
      .. "replay, synctest, trace, netplay, lua (see 'framegate --help')\n" },
    { "--bogus", "framegate: unknown option '--bogus'; commands: run, check, test, watch, "
      .. "play, replay, synctest, trace, netplay, lua (see 'framegate --help')\n" },
    { "replay", "framegate replay: missing argument 'replay' (see 'framegate replay --help')\n" },
    { "synctest x --check", "framegate synctest: option '--check' requires an argument "
      .. "(see 'framegate synctest --help')\n" },
    { "synctest x --check 9", "framegate synctest: --check 9: expected an integer 1..8 "
      .. "(see 'framegate synctest --help')\n" },
    { "test -o xml x.lua", "framegate test: argument for option '-o' must be one of 'text', "
      .. "'tap', 'junit' (see 'framegate test --help')\n" },
    { "lua", "framegate lua: missing argument 'file' (see 'framegate lua --help')\n" },
    { "play", "framegate play: a rules folder (or --replay FILE) is needed (see 'framegate play --help')\n" },
    { "play x --shot 12", "framegate play: --shot 12: expected TICK:FILE (e.g. 60:shot.bmp) "
      .. "(see 'framegate play --help')\n" },
    { "netplay spectate 127.0.0.1:7000 x --slot 2", "framegate netplay: --slot 2: expected 1..1 "
      .. "(the match's spectators) (see 'framegate netplay --help')\n" },
    { "netplay join 127.0.0.1:7000 x --delay-at 600", "framegate netplay: --delay-at 600: "
      .. "expected TICK:N with N in 0..15 (see 'framegate netplay --help')\n" },
    { "netplay join 127.0.0.1:7000 x --outage 10:0", "framegate netplay: --outage 10:0: "
      .. "expected TICK:N with N in 1..600000 (see 'framegate netplay --help')\n" },
    { "netplay spectate 127.0.0.1:7000 x --input y", "framegate netplay: a spectator has no "
      .. "input (--input, --delay-at) (see 'framegate netplay --help')\n" },
    { "netplay host 7000 x --window --shot 5", "framegate netplay: --shot 5: expected TICK:FILE "
      .. "(e.g. 600:shot.bmp) (see 'framegate netplay --help')\n" },
    { "netplay host 7000 x --spectators 9", "framegate netplay: --spectators 9: expected an "
      .. "integer 0..8 (see 'framegate netplay --help')\n" },
  }
  for _, c in ipairs(cases) do
    local out, err, code = run(c[1])
    lu.assertEquals({ out, err, code }, { "", c[2], 2 }, "framegate " .. c[1])
  end
end

-- 256 failing tests: an exit status that counted them would be 256 % 256 = 0.
function TestCli:test_test_exits_one_for_256_failures()
  local d = tmpdir()
  local lines = { "TestMany = {}" }
  for i = 1, 256 do
    lines[#lines + 1] = ("function TestMany:test_%03d() error('no') end"):format(i)
  end
  write(d .. "/many.lua", table.concat(lines, "\n") .. "\n")
  local out, _, code = run("test -o tap " .. sh_quote(d .. "/many.lua"))
  lu.assertEquals(code, 1)
  lu.assertStrContains(out, "1..256")
  lu.assertStrContains(out, "not ok 256")
  os.execute("rm -rf " .. sh_quote(d))
end

-- A folder with a quote and a space in its name: listed without a shell.
function TestCli:test_test_runs_a_folder_whose_name_has_a_quote()
  local d = tmpdir("/it's a dir")
  write(d .. "/b_pass.lua", "TestB = {}\nfunction TestB:test_ok() end\n")
  write(d .. "/a_pass.lua", "TestA = {}\nfunction TestA:test_ok() end\n")
  write(d .. "/notes.txt", "not a scenario\n")
  local out, err, code = run("test -v " .. sh_quote(d))
  lu.assertEquals(err, "")
  lu.assertEquals(code, 0)
  lu.assertStrContains(out, "Ran 2 tests")
  lu.assertTrue(out:find("TestA.test_ok", 1, true) < out:find("TestB.test_ok", 1, true))
  local _, missing_err, missing_code = run("test " .. sh_quote(d .. "/missing"))
  lu.assertEquals(missing_code, 1)
  lu.assertStrContains(missing_err, "missing")
  os.execute("rm -rf " .. sh_quote(d:match("^(.*)/[^/]*$")))
end

-- From an unrelated folder: the CLI finds its own scripts, and samples find their files.
function TestCli:test_commands_work_from_another_folder()
  local d = tmpdir()
  local samples = SAMPLES:sub(1, 1) == "/" and SAMPLES or (os.getenv("PWD") .. "/" .. SAMPLES)
  local out, err, code = run("check " .. sh_quote(samples .. "/duel/rules.lua"), d)
  lu.assertEquals(code, 0, err)
  lu.assertStrContains(out, ": ok: ruleset 'duelist'")
  out, err, code = run("run " .. sh_quote(samples .. "/duel"), d)
  lu.assertEquals(code, 0, err)
  lu.assertStrContains(out, "t=11  e1 accepted: hadouken cancels jab at tick 5")
  os.execute("rm -rf " .. sh_quote(d))
end

os.exit(lu.LuaUnit.run())
