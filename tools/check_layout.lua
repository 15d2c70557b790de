-- SPDX-License-Identifier: MIT
-- check_layout.lua: checks the filing rules of CONTRIBUTING.md over the source tree.
--
--   lua5.4 tools/check_layout.lua [ROOT]
--
-- 1. No source file is longer than MAX_LINES lines.
-- 2. Every source file opens with a comment (its job, in a few lines).
-- 3. Every public function (FG_API in runtime/include) is defined in the file that owns its
--    prefix. A file owns fg_<stem> and fg_<first word of its stem> (world_input.c owns fg_world),
--    plus the prefixes OWNERS lists for it; a function belongs to the owner of its longest
--    matching prefix, so a prefix names one place to look.
-- 4. Every LuaUnit file under tests/ runs its tests (a file that never calls LuaUnit.run
--    defines its tests, runs none and passes).
-- Prints every violation and exits 1 when there is one. CTest runs it (lint.layout).

local MAX_LINES = 1200
local root = arg[1] or "."

-- Prefixes a file owns beyond its own name: small companion types of its concept, or the parts
-- of a bigger concept it holds. Longer prefixes win, so "fg_world_trace" sends fg_world_trace_at
-- to trace.c although world.c owns fg_world.
local OWNERS = {
  ["base.c"] = { "fg_alloc", "fg_allocator", "fg_realloc", "fg_free", "fg_error", "fg_status",
                 "fg_hash", "fg_hash64", "fg_hasher", "fg_crc32", "fg_rng", "fg_tick_of", "fg_us", "fg_version" },
  ["input.c"] = { "fg_action_names", "fg_buffer", "fg_bits", "fg_device", "fg_numpad", "fg_socd",
                  "fg_stick" },
  ["inputfuzz.c"] = { "fg_input_fuzz" },
  ["dispatch.c"] = { "fg_dispatcher" },
  -- The input-script parser sits with the notation parsers, whose helpers it shares.
  ["motion_parse.c"] = { "fg_motion_script_parse" },
  ["jump.c"] = { "fg_ground" },
  ["locomotion.c"] = { "fg_loco", "fg_cardinal", "fg_dir8" },
  ["playback.c"] = { "fg_cycle_track", "fg_commit" },
  ["collide.c"] = { "fg_box", "fg_guard", "fg_knockdown", "fg_miss", "fg_rect", "fg_throw_step" },
  ["ruleset.c"] = { "fg_action_def", "fg_action_has_tag", "fg_contact", "fg_physics", "fg_queue" },
  ["ruleset_hits.c"] = { "fg_combat" },
  ["ruleset_projectile.c"] = { "fg_projectile_def", "fg_ruleset_add_projectile",
                               "fg_ruleset_find_projectile" },
  ["projectile.c"] = { "fg_world_projectile", "fg_world_projectiles",
                       "fg_world_spawn_projectile" },
  ["vars.c"] = { "fg_var", "fg_world_var", "fg_world_propose_var", "fg_ruleset_add_var",
                 "fg_ruleset_var", "fg_ruleset_find_var" },
  ["findings.c"] = { "fg_severity" },
  ["request.c"] = { "fg_decision", "fg_reason", "fg_phase" },
  ["replication.c"] = { "fg_rep" },
  ["record.c"] = { "fg_recorder", "fg_world_record" },
  ["replay_verify.c"] = { "fg_player" },
  ["statediff.c"] = { "fg_state_diff", "fg_world_diff" },
  ["meter.c"] = { "fg_world_meter" },
  ["trace.c"] = { "fg_world_trace", "fg_world_note_error", "fg_transition" },
  ["stage.c"] = { "fg_platform", "fg_block", "fg_ground_mode" },
  ["world_stage.c"] = { "fg_world_set_stage", "fg_world_ground_mode", "fg_world_support" },
  ["tick.c"] = { "fg_world_advance", "fg_world_event", "fg_world_cue", "fg_world_cues",
                 "fg_world_push_cue",
                 "fg_world_report_event", "fg_world_marker_name" },
}

local function lines_of(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  return text
end

local function list(cmd)
  local out, p = {}, assert(io.popen(cmd))
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  table.sort(out)
  return out
end

local problems = {}
local function problem(fmt, ...) problems[#problems + 1] = string.format(fmt, ...) end

-- 1 and 2: length and opening comment. Fault-injection fixtures are bad files on purpose.
local sources = list("cd '" .. root .. "' && find runtime bindings tools scripts samples tests " ..
  "-type f \\( -name '*.c' -o -name '*.h' -o -name '*.lua' \\) ! -path 'tests/fault/*' " ..
  "! -path '*/build/*' 2>/dev/null")
for _, rel in ipairs(sources) do
  local text = lines_of(root .. "/" .. rel)
  local n = select(2, text:gsub("\n", "")) + ((text ~= "" and text:sub(-1) ~= "\n") and 1 or 0)
  if n > MAX_LINES then
    problem("%s: %d lines, at most %d (split it by concept)", rel, n, MAX_LINES)
  end
  local first = text:match("^%s*(.-)\n") or text
  local opens = rel:match("%.lua$") and (first:match("^%-%-") or first:match("^#!"))
    or first:match("^/%*")
  if not opens then
    problem("%s: does not open with a comment saying what the file does", rel)
  end
end

-- 4: LuaUnit files that run what they define.
local unit_files = 0
for _, rel in ipairs(sources) do
  if rel:match("^tests/.*%.lua$") then
    local text = lines_of(root .. "/" .. rel)
    if text:match("require%s*%(?%s*[\"']luaunit[\"']") then
      unit_files = unit_files + 1
      if not text:match("LuaUnit%.run") then
        problem("%s: requires luaunit but never calls lu.LuaUnit.run(), so its tests never run " ..
          "(end it with os.exit(lu.LuaUnit.run()))", rel)
      end
    end
  end
end

-- 3: public functions and the files that own their prefixes.
local owned = {} -- prefix -> { file, ... }
local function own(prefix, file)
  owned[prefix] = owned[prefix] or {}
  owned[prefix][file] = true
end
local cfiles = list("cd '" .. root .. "' && find runtime -name '*.c'")
local defined = {} -- function name -> file
for _, rel in ipairs(cfiles) do
  local file = rel:match("[^/]+$")
  local stem = file:gsub("%.c$", "")
  own("fg_" .. stem, file)
  own("fg_" .. stem:match("^[^_]+"), file)
  for _, p in ipairs(OWNERS[file] or {}) do own(p, file) end
  for line in (lines_of(root .. "/" .. rel) .. "\n"):gmatch("(.-)\n") do
    -- A definition starts at column 0 and its line does not end a declaration.
    local name = line:match("^[%a_][%w_ %*]-[ %*](fg_[%w_]+)%(")
    if name and not line:match(";%s*$") then defined[name] = defined[name] or file end
  end
end

local function owner_of(name)
  local best, files = -1, nil
  for prefix, fs in pairs(owned) do
    local boundary = name:sub(#prefix + 1, #prefix + 1)
    if #prefix > best and name:sub(1, #prefix) == prefix and (boundary == "_" or boundary == "") then
      best, files = #prefix, fs
    end
  end
  return files
end

local headers = list("cd '" .. root .. "' && find runtime/include -name '*.h'")
local public = {}
for _, rel in ipairs(headers) do
  local text = lines_of(root .. "/" .. rel)
  for decl in text:gmatch("FG_API%s+([^;{]-%()") do
    local name = decl:match("(fg_[%w_]+)%s*%($")
    if name then public[#public + 1] = { name = name, header = rel } end
  end
end
table.sort(public, function(a, b) return a.name < b.name end)
for _, fn in ipairs(public) do
  local file = defined[fn.name]
  local owners = owner_of(fn.name)
  if not file then
    problem("%s (%s): declared FG_API but defined in no runtime/**/*.c", fn.name, fn.header)
  elseif not owners then
    problem("%s is in %s, but no file owns its prefix (name it after its file, or list the " ..
      "prefix in OWNERS of tools/check_layout.lua)", fn.name, file)
  elseif not owners[file] then
    local names = {}
    for f in pairs(owners) do names[#names + 1] = f end
    table.sort(names)
    problem("%s is in %s, but its prefix belongs to %s", fn.name, file, table.concat(names, ", "))
  end
end

if #problems > 0 then
  for _, p in ipairs(problems) do io.stderr:write("layout: ", p, "\n") end
  io.stderr:write(string.format("layout: %d problems (%d files, %d public functions checked)\n",
    #problems, #sources, #public))
  os.exit(1)
end
print(string.format("layout: %d files, %d public functions: every file opens with its job, " ..
  "none is over %d lines, every public function sits in the file that owns its prefix, " ..
  "%d LuaUnit files each run their tests", #sources, #public, MAX_LINES, unit_files))
