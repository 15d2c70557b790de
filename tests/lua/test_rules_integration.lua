-- SPDX-License-Identifier: MIT
-- test_rules_integration.lua: parts of a ruleset that configure other layers: the jump gate and
-- the replicated properties and predicted actions.
local lu = require "luaunit"
local fg = require "framegate"

local function hero(extra)
  local decl = {
    buttons = { "jump", "dash" },
    actions = { idle = { neutral = true, loop = true, duration = 1 } },
  }
  for k, v in pairs(extra) do decl[k] = v end
  return fg.rules(fg.ruleset "hero"(decl))
end

TestRulesIntegration = {}

function TestRulesIntegration:test_rules_declare_the_jump_gate()
  local rules = hero { jump = { button = "jump", buffer = 3, coyote = 2 } }
  local w = fg.world { rules = rules }
  local p = w:spawn { grounded = true }
  p:press("jump", fg.us_of_tick(0))
  w:advance()
  lu.assertEquals((p:jump()), "jump")
end

function TestRulesIntegration:test_bad_jump_declaration_names_the_field()
  lu.assertErrorMsgContains("jump.cooldown: unknown field", hero, { jump = { cooldown = 3 } })
  lu.assertErrorMsgContains("jump.buffer: -1 is out of range, expected 0-600", hero, { jump = { buffer = -1 } })
end

function TestRulesIntegration:test_rules_declare_replicated_state_and_actions()
  local rules = hero {
    replicated = {
      properties = { target_locked = { type = "bool" } },
      actions = { dash = { cooldown = 45 } },
    },
  }
  local seen = {}
  local s = rules:replication {
    owner = { latency = 1 },
    seed = 9,
  }
  local observer = s:join { latency = 2, on_replicated = function(name, value) seen[name] = value end }
  s:set("owner", "target_locked", true)
  for _ = 1, 10 do s:advance() end
  lu.assertTrue(s:get(observer, "target_locked"))
  lu.assertTrue(seen.target_locked)
end

function TestRulesIntegration:test_replication_needs_a_declaration()
  lu.assertErrorMsgContains("declare nothing to replicate", hero({}).replication, hero({}))
  lu.assertErrorMsgContains("replicated.props: unknown field", hero, { replicated = { props = {} } })
end

os.exit(lu.LuaUnit.run())
