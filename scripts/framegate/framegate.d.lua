-- SPDX-License-Identifier: MIT
---@meta framegate
-- LuaLS definitions of the framegate module, for completion and type checks in rules, scenarios
-- and tools. Point your editor at scripts/ (see docs/rules.md, "Editor setup"). Checked against
-- the bindings by tests/lua/test_definitions.lua: no function missing, none extra, and each
-- function with a ---@param per parameter and a ---@return (`---@return nil`: returns nothing).

---@alias framegate.Facing "right"|"left"
---@alias framegate.GroundMode "stage"|"contacts"
---A stage in pixels (docs/stage.md): y grows upwards.
---@alias framegate.Stage { floor?: number, walls?: number[], platforms?: { x: number, y: number, w: number, one_way?: boolean }[], blocks?: { x: number, y: number, w: number, h: number }[] }
---@alias framegate.Source "command"|"ai"|"replay"|"script"
---@alias framegate.DecisionKind "accepted"|"queued"|"rejected"|"replaced"|"expired"|"dropped"

---@class framegate.Verdict
---@field verdict "default"|"accept"|"queue"|"reject"
---@field ticks? integer
---@field text? string

---@class framegate.View  read-only: rules propose, the runtime decides
---@field id integer
---@field tick integer
---@field facing framegate.Facing
---@field x number
---@field y number
---@field frozen integer ticks of hitstop left
---@field action string
---@field group string
---@field airborne boolean
---@field grounded boolean
---@field elapsed integer
---@field phase string
---@field resources table<string, integer> the amounts now
---@field max table<string, integer> the declared maximum of each resource
---@field tags table<string, boolean> whether the body's action has a tag (pairs: its tags, sorted)
---@field sequence integer the body action's sequence number (the gate's event stamp)
---@field vars table<string, integer|boolean> the declared variables (a boolean for a flag)
---@field combo integer hits taken in the current combo
---@field combo_damage integer
---@field juggle integer juggle points spent in the current combo
---@field juggle_limit integer of its ruleset, 0 = none
---@field launched boolean in the air from a hit
---@field opponent? framegate.View the fighter it faces (nil without one): `me.opponent.combo`

---@class framegate.Request
---@field action string
---@field source framegate.Source
---@field tick integer
---@field default framegate.DecisionKind the data's decision
---@field reason string
---@field text string
---@field layer string

---@class framegate.Event  read-only: a committed event and its names, fixed when it was made
---@field marker string
---@field tick integer
---@field entity integer
---@field action string
---@field sequence integer
---@field occurrence integer
---@field layer string
---@field target integer
---@field contact "hit"|"block"|"none"
---@field reported boolean
---@field kind "marker"|"hit"|"throw"|"clash"|"struck"|"bounce"
---@field bounce? "wall"|"ground" bounces: what the launched entity bounced off (target: the attacker)
---@field projectile? integer contacts and clashes: the projectile's id
---@field other? integer clashes: the other projectile's id

---@class framegate.Projectile  a live projectile, read after the last tick
---@field id integer
---@field owner framegate.Entity
---@field team integer
---@field name string its kind in the owner's ruleset
---@field facing framegate.Facing
---@field x number
---@field y number
---@field vx number
---@field vy number
---@field prev_x number
---@field prev_y number
---@field age integer ticks since the spawn
---@field lifetime integer
---@field hits integer hits left
---@field durability integer clash strength left
---@field boxes { kind: "hit", x0: number, y0: number, x1: number, y1: number, index: integer }[]

---@class framegate.Decision
---@field tick integer
---@field entity integer
---@field action string
---@field decision framegate.DecisionKind
---@field reason string
---@field source string
---@field text string

---@class framegate.ReloadInfo
---@field name string
---@field slot integer
---@field tick integer
---@field hash string content hash of the compiled ruleset
---@field previous_hash string
---@field source_hash string hash of the files' text
---@field files string[]
---@field changes { added: string[], removed: string[], changed: string[], fields: table<string, string[]> }
---@field message? string what on_reload returned

---@class framegate.WhatIf
---@field from integer
---@field to integer
---@field differences integer
---@field lines string[] "tick 1042: e1 hadouken now accepted: hadouken from idle (was rejected: ...)"
---@field complete boolean false if some input was no longer stored
---@field hash string
---@field shadow_hash string

---@class framegate.Declaration
---@field buttons string[]
---@field groups? table<string, string[]>
---@field layers? string[]
---@field resources? table<string, { max: integer, start?: integer, regen?: integer, regen_every?: integer }>
---@field vars? table<string, integer|boolean|{ min?: integer, max?: integer, start?: integer|boolean, flag?: boolean }> per-entity variables (docs/hits.md)
---@field physics? table
---@field stage? framegate.Stage
---@field motions? table<string, string|table>
---@field actions table<string, table>
---@field request? fun(me: framegate.View, req: framegate.Request): framegate.Verdict
---@field on_event? fun(me: framegate.View, ev: framegate.Event)
---@field on_reload? fun(info: framegate.ReloadInfo): string?

---@class framegate
local framegate = {}

---@type string
framegate.version = ""
---@type framegate.Verdict let the cancel-window data decide
framegate.default = {}

-- {---------------------------------------------------------------------- rules and verdicts

---Names a ruleset declaration: `fg.ruleset "duelist" { ... }`.
---@param name string
---@return fun(decl: framegate.Declaration): framegate.Declaration
function framegate.ruleset(name) end

---Compiles rules: a path (read in the sandbox), a path and its text, a declaration or Rules.
---@param source string|framegate.Declaration|framegate.Rules
---@param text? string
---@return framegate.Rules
function framegate.rules(source, text) end

---@param text? string
---@return framegate.Verdict
function framegate.accept(text) end

---@param text? string
---@return framegate.Verdict
function framegate.reject(text) end

---@param ticks integer 1..600
---@param text? string
---@return framegate.Verdict
function framegate.queue(ticks, text) end

---Proposes a value for one of the rule's entity's variables (a boolean for a flag); only inside a
---request rule. The gate commits it at the end of the tick's contacts; out of range is an error.
---@param me framegate.View
---@param name string
---@param value integer|boolean
---@return nil
function framegate.set(me, name, value) end

---Proposes adding n to one of the rule's entity's variables (kept in its range when committed);
---only inside a request rule.
---@param me framegate.View
---@param name string
---@param n integer
---@return nil
function framegate.add(me, name, n) end

---A presentation cue for the host; only inside on_event.
---@param name string
---@param params? table
---@return nil
function framegate.cue(name, params) end

---Budgets of rule calls and loads; returns the limits in force.
---@param limits? { instructions?: integer, memory?: integer, load_instructions?: integer, load_memory?: integer }
---@return { instructions: integer, memory: integer, load_instructions: integer, load_memory: integer }
function framegate.limits(limits) end

---Runs text as a rules file would run (sandbox, load budget) and returns its results.
---@param text string
---@param chunkname? string
---@return any ...
function framegate.sandboxed(text, chunkname) end

-- }----------------------------------------------------------------------

-- {---------------------------------------------------------------------- time and input

---@param us integer
---@param rate? integer
---@return integer tick
function framegate.tick_of_us(us, rate) end

---@param tick integer
---@param rate? integer
---@return integer us
function framegate.us_of_tick(tick, rate) end

---@param ms number
---@return integer us
function framegate.ms(ms) end

---@param numpad integer
---@param facing framegate.Facing
---@return integer
function framegate.relative(numpad, facing) end

---@param x number
---@param y number
---@param opts? { deadzone?: number, outer?: number, exponent?: number, threshold?: number }
---@return number x, number y, integer numpad
function framegate.stick(x, y, opts) end

---@param opts? { rate?: integer, max_frame_us?: integer }
---@return framegate.Loop
function framegate.loop(opts) end

-- }----------------------------------------------------------------------

-- {---------------------------------------------------------------------- worlds

---@param opts { rules?: string|framegate.Declaration|framegate.Rules, rate?: integer, seed?: integer, entities?: integer, buffer?: integer, trace?: integer, trace_text?: integer, buttons?: string[], jump?: { button: string, buffer?: integer, coyote?: integer, action?: string }, ground?: framegate.GroundMode }
---@return framegate.World
function framegate.world(opts) end

---Seeded random input (activity in percent: 100 is frantic mashing, 25 a typical match).
---@param seed integer
---@param activity? integer
---@return framegate.InputFuzz
function framegate.input_fuzz(seed, activity) end

---Rules compiled from text in the sandbox; includes come from files when given.
---@param path string
---@param text string
---@param files? { path: string, text: string }[]
---@return framegate.Rules
function framegate.load_rules_source(path, text, files) end

---Tells a playtest host when files change; reads terminal keys with keyboard = true.
---@param opts { files?: string[], keyboard?: boolean, poll?: boolean }
---@return framegate.Watcher
function framegate.watcher(opts) end

-- }----------------------------------------------------------------------

-- {---------------------------------------------------------------------- the gate

---@param opts table
---@return framegate.Dispatcher
function framegate.dispatcher(opts) end

---@param opts table
---@return framegate.CycleTrack
function framegate.cycle_track(opts) end

---@param opts? table
---@return framegate.PlaybackOwner
function framegate.playback_owner(opts) end

-- }----------------------------------------------------------------------

-- {---------------------------------------------------------------------- motions

---A motion pattern compiled from notation ("236P", "~D, DF, F, x").
---@param notation string
---@param opts? table name, mode, buttons, groups, profile, ...
---@return framegate.Motion
function framegate.motion(notation, opts) end

---Several named motions matched together, with arbitration.
---@param opts { motions: table<string, string|table>, buttons?: table, groups?: table, profile?: string, mode?: "consume"|"flags" }
---@return framegate.MotionSet
function framegate.motion_set(opts) end

---The [Command] blocks of a MUGEN or IKEMEN .cmd text, in flags mode unless opts.mode says
---"consume". opts: source (the name messages start with), mode, buttons, groups, profile.
---@param text string
---@param opts? table
---@return framegate.MotionSet
function framegate.motion_cmd(text, opts) end

-- }----------------------------------------------------------------------

-- {---------------------------------------------------------------------- locomotion, replication

---@param config? table
---@return framegate.Locomotion
function framegate.locomotion(config) end

---@param angle number
---@return number angle in (-180, 180]
function framegate.locomotion_normalize(angle) end

---@param angle number
---@param cardinal string
---@return number
function framegate.locomotion_warp(angle, cardinal) end

---@param opts table
---@return framegate.Replication
function framegate.replication(opts) end

-- }----------------------------------------------------------------------

---@class framegate.replaylib
local replay = {}
---@type integer
replay.format_major = 0
---@type integer
replay.format_minor = 0
---@param path string
---@param opts? { name?: string, partial?: boolean }
---@return framegate.ReplayReader
function replay.open(path, opts) end
---@param bytes string
---@param opts? { name?: string, partial?: boolean }
---@return framegate.ReplayReader
function replay.load(bytes, opts) end
---@param path string
---@param opts? { name?: string, partial?: boolean }
---@return table
function replay.read(path, opts) end
---@param bytes string
---@param opts? { name?: string, partial?: boolean }
---@return table
function replay.decode(bytes, opts) end
---@param path string? nil: in memory
---@param header table
---@param opts? { chunk_size?: integer }
---@return framegate.ReplayWriter
function replay.writer(path, header, opts) end
---@param path string? nil: in memory
---@param contents { header: table, records: table[] }
---@param opts? { chunk_size?: integer }
---@return string|true bytes_or_true the bytes when path is nil
function replay.write(path, contents, opts) end
---A world created and set up as the replay's recording started.
---@param reader framegate.ReplayReader
---@param rules string|framegate.Rules
---@param opts? { trace?: integer }
---@return framegate.World
function replay.world(reader, rules, opts) end
---@param reader framegate.ReplayReader
---@param slot? integer
---@return string? path
---@return { path: string, text: string }[] files
function replay.rules(reader, slot) end
framegate.replay = replay

---@class framegate.World
local World = {}
---The stage bodies move on; with a table, replaces it (fields left out keep their value).
---@param stage? framegate.Stage
---@return framegate.Stage|framegate.World
function World:stage(stage) end
---Where grounded/airborne comes from: "stage" (a world with rules, by default) or "contacts".
---@return framegate.GroundMode
function World:ground_mode() end
---@param opts? string|{ rules?: string, x?: number, y?: number, facing?: framegate.Facing, grounded?: boolean, opponent?: framegate.Entity }
---@return framegate.Entity
function World:spawn(opts) end
---@param id integer
---@return framegate.Entity?
function World:entity(id) end
---@return framegate.Projectile[]
function World:projectiles() end
---@param owner framegate.Entity
---@param name string a projectile kind of the owner's ruleset
---@param opts? { x?: number, y?: number, facing?: framegate.Facing }
---@return integer id
function World:spawn_projectile(owner, name, opts) end
---@param n? integer
---@return integer next_tick
function World:advance(n) end
---@param n? integer
---@return integer next_tick
function World:run(n) end
---@return integer
function World:tick() end
---Counters: calls into Lua (rules, hooks), bytes the world allocated, entities, tick.
---@return { rule_calls: integer, hook_calls: integer, memory: integer, entities: integer, tick: integer }
function World:stats() end
---@return integer
function World:rate() end
---@return string
function World:hash() end
---@return string snapshot
function World:save() end
---A rollback by default (presented ticks do not call on_event again); `fresh = true` starts a
---new timeline whose presentation starts over at the restored tick.
---@param snapshot string
---@param opts? { fresh?: boolean }
---@return nil
function World:restore(snapshot, opts) end
---@param from_tick? integer
---@return { tick: integer, entity: integer, kind: string, code: integer, text: string }[]
function World:trace(from_tick) end
---@return nil
function World:trace_clear() end
---@return nil
function World:close() end
---@param source? string|framegate.Declaration|framegate.Rules
---@param slot? integer|string
---@return framegate.ReloadInfo? info
---@return string? message
function World:reload(source, slot) end
---@param opts { from: string, rules?: string|framegate.Rules, slot?: integer|string }
---@return framegate.WhatIf
function World:what_if(opts) end
---@param entity framegate.Entity|integer
---@param action string
---@param source? framegate.Source
---@return nil
function World:request(entity, action, source) end
---@param entity framegate.Entity|integer
---@param action string
---@return framegate.DecisionKind kind, string text
function World:evaluate(entity, action) end
---@param entity? framegate.Entity|integer
---@return framegate.Decision[]
function World:decisions(entity) end
---@param marker string
---@return integer
function World:committed(marker) end
---@return framegate.Event[]
function World:events() end
---@param from? integer default: 60 ticks ago
---@param to? integer default: the last tick
---@return string
function World:meter(from, to) end
---@return { name: string, tick: integer, entity: integer, a: integer, b: integer }[]
function World:cues() end
---The handle of a declared action or direction (its C action id), for Entity:pressed and the
---other per-tick queries.
---@param name string
---@return integer
function World:action_id(name) end
---Fills t[id] with every entity's last tick as Entity:poll fills a record (made once, then
---reused), clears entries past the last entity, and returns t: one call per tick for all fighters.
---@param t table
---@return { tick: integer, dir: integer, pressed: integer, released: integer, held: integer }[]
function World:poll(t) end
---@param entity framegate.Entity|integer
---@param layer string|integer a layer's name or index (0 = the first)
---@param sequence integer
---@param marker string
---@param occurrence? integer
---@return nil
function World:report_event(entity, layer, sequence, marker, occurrence) end
---@param entity framegate.Entity|integer
---@param script string "LP@0 2@6 3@8 6@10 P@11"
---@param opts? { hold?: integer, absolute?: boolean }
---@return integer next_tick
function World:play(entity, script, opts) end
---Field-level differences between two snapshots of this world (w:save()).
---@param a string
---@param b string
---@param max? integer
---@return { path: string, a: string, b: string, hashed: boolean, text: string }[] diffs
---@return integer count all differences, beyond max too
function World:diff(a, b, max) end
---@param opts? { check?: integer }
---@return framegate.SyncTest
function World:synctest(opts) end
---Records this world into a replay (a path, or nil: in memory). takes: a new file per stretch of
---ticks between restores or edits (PATH, PATH-2, ...).
---@param path? string
---@param opts? { every?: integer, takes?: boolean, meta?: table<string, string> }
---@return framegate.Recording
function World:record(path, opts) end
---@param reader framegate.ReplayReader
---@param opts? { fps?: integer, jitter?: integer, seed?: integer, verify?: boolean } verify = false: feed the recorded input only (a what-if against other rules)
---@return framegate.Player
function World:replay_player(reader, opts) end
---@param from_tick? integer
---@return { tick: integer, entity: integer, kind: string, code: integer, a: integer, b: integer, c: integer, d: integer, text: string, decision?: string, reason?: string }[]
function World:trace_records(from_tick) end
---Swaps a slot's ruleset at the next tick boundary (what world:reload does underneath, without
---its checks and reports).
---@param rules framegate.Rules
---@param slot? integer 0-based
---@return nil
function World:replace_rules(rules, slot) end

---@class framegate.SyncTest
local SyncTest = {}
---@param n? integer
---@return boolean passed
---@return { tick: integer, checked_at: integer, distance: integer, expected: string, got: string, diffs: table[], ndiffs: integer, text: string }? report
function SyncTest:advance(n) end
---@return { ticks: integer, rollbacks: integer, resimulated: integer, compared: integer, resets: integer }
function SyncTest:stats() end
---@return table? report
function SyncTest:report() end
---@return nil
function SyncTest:close() end

---@class framegate.Recording
local Recording = {}
---@return string[]|string files_or_bytes
---@return integer ticks
function Recording:finish() end
---@return integer
function Recording:ticks() end
---@param us integer
---@return nil
function Recording:clamp(us) end

---@class framegate.Player
local Player = {}
---@param n? integer
---@return boolean ok
---@return string? message
function Player:step(n) end
---@return boolean ok
---@return string? message
function Player:run() end
---@return table
function Player:status() end
---@return nil
function Player:close() end

---@class framegate.InputFuzz
local InputFuzz = {}
---@param world framegate.World
---@return nil
function InputFuzz:tick(world) end

---@class framegate.Entity
local Entity = {}
---@param action integer|string
---@param time_us integer
---@return nil
function Entity:press(action, time_us) end
---@param action integer|string
---@param time_us integer
---@return nil
function Entity:release(action, time_us) end
---@param numpad integer 1..9
---@param time_us integer
---@return nil
function Entity:dir(numpad, time_us) end
---@param grounded boolean
---@return nil
function Entity:contact(grounded) end
---What it stands on after the last movement: "air", "floor", "platform N" or "block N".
---@return string
function Entity:support() end
---An action is a handle (the integer w:action_id returns) or a name; handles skip the lookup.
---@param action integer|string
---@return boolean
function Entity:held(action) end
---@param action integer|string
---@return integer
function Entity:held_for(action) end
---The handle of a declared action or direction: its C action id.
---@param name string
---@return integer
function Entity:action_id(name) end
---Whether the last tick consumed a press of action (a direction: entered). Allocates nothing.
---@param action integer|string
---@return boolean
function Entity:pressed(action) end
---Whether the last tick consumed a release of action (a direction: left). Allocates nothing.
---@param action integer|string
---@return boolean
function Entity:released(action) end
---Fills t with the last tick's input as bit masks (bit 1 << handle) and returns it.
---@param t table
---@return { tick: integer, dir: integer, pressed: integer, released: integer, held: integer }
function Entity:poll(t) end
---The last tick's pressed, released and held masks (bit 1 << handle) and numpad direction, as
---plain integers: one call per tick, no table.
---@return integer pressed, integer released, integer held, integer dir
function Entity:masks() end
---The two calls a host makes for this player every tick, as plain functions bound to it (no
---method lookup, no check of self): push(action, down, time_us) is a press when down is true and
---a release when false, as Entity:press and Entity:release; advance() runs one tick as
---World:advance() does and returns this entity's masks as Entity:masks() does. Both keep the
---entity and its world alive.
---@return fun(action: integer|string, down: boolean, time_us: integer) push
---@return fun(): integer, integer, integer, integer advance
function Entity:drive() end
---Fills t like Entity:input() returns, reusing t and its lists, and returns it.
---@param t table
---@return { tick: integer, dir: integer, pressed: string[], released: string[], held: string[] }
function Entity:input_into(t) end
---@return integer
function Entity:id() end
---@return integer absolute, integer relative
function Entity:direction() end
---@param set? framegate.Facing sets the facing (and returns nothing)
---@return framegate.Facing?
function Entity:facing(set) end
---@return table
function Entity:ground() end
---@return string result, string text
function Entity:jump() end
---@return table[]
function Entity:edges() end
---@return table[]
function Entity:pending() end
---@return table
function Entity:input() end
---@param control string|integer a one-character key or a control code
---@param action integer|string
---@return nil
function Entity:bind(control, action) end
---@param control string|integer a one-character key or a control code
---@param down boolean
---@param time_us integer
---@return nil
function Entity:key(control, down, time_us) end
---@param x number
---@param y number
---@param time_us integer
---@return number x, number y
function Entity:stick(x, y, time_us) end
---@param fx number
---@param fy number
---@param fz? number
---@return nil
function Entity:camera(fx, fy, fz) end
---@param opts table
---@return nil
function Entity:input_map(opts) end
---@param action string
---@param source? framegate.Source
---@return nil
function Entity:request(action, source) end
---@return string[]
function Entity:history() end
---@param layer? string|integer a layer's name or index (0 = the first, the default)
---@return string? name, integer elapsed, integer duration, string phase, integer sequence
function Entity:action(layer) end
---@param layer? string|integer a layer's name or index (0 = the first, the default)
---@return string
function Entity:state(layer) end
---@param name string a motion's name, or an action whose input it is
---@return string text, table numbers { fired, reason, step, reached, steps, value, limit, tick, other }
function Entity:explain(name) end
---@param name string
---@param set? integer sets the amount (and returns nothing)
---@return integer?
function Entity:resource(name, set) end
---@param x? number sets the position (and returns nothing)
---@param y? number
---@return number? x, number? y
function Entity:position(x, y) end
---@return framegate.Decision?
function Entity:decision() end
---@return integer
function Entity:frozen() end
---@return framegate.View
function Entity:view() end
---The combat state: combo, combo_damage, juggle, juggle_limit, launched, knockdown ("none",
---"soft", "hard"), grabbed_by, tech_until, throw_invuln_until, pushback (pixels left), team, owner,
---wall_bounce, ground_bounce (a hit armed them and they are not used yet), bounces (the combo's).
---@return table
function Entity:combat() end
---The live boxes as the collision phase tests them, in world pixels: { kind =, x0 =, y0 =,
---x1 =, y1 =, index = } (index in the action's boxes, or "default").
---@param kind? "hurt"|"hit"|"push"|"throw"
---@return table[]
function Entity:boxes(kind) end
---0 (the default) fights its opponent only; entities with teams fight every other team.
---@param team integer
---@return nil
function Entity:team(team) end
---The entity never hits its owner (a projectile and who threw it); nil clears it.
---@param owner? framegate.Entity
---@return nil
function Entity:owner(owner) end
---One declared variable's value (a boolean for a flag).
---@param name string
---@return integer|boolean
function Entity:var(name) end
---Every declared variable: { name = value }.
---@return table<string, integer|boolean>
function Entity:vars() end

---@class framegate.Rules
local Rules = {}
---@return string
function Rules:name() end
---@return string
function Rules:hash() end
---@return string[]
function Rules:actions() end
---The compiled definition; `hit` (range in pixels, damage, hitstop, hitstun, blockstun, meter,
---low, overhead, ..., wall_bounce / ground_bounce = { vx, vy, stun } when declared) when the action hits, a list of them when it has several; `throw` likewise;
---`boxes` with `hit = n` / `throw = n` on a box that uses another definition than the first.
---@param name string
---@return table?
function Rules:action(name) end
---Pixels: gravity, ground_y, min_gap, stage_min, stage_max.
---@return { gravity: number, ground_y: number, min_gap: number, stage_min: number, stage_max: number }
function Rules:physics() end
---The stage a world with these rules starts with.
---@return framegate.Stage
function Rules:stage() end
---The declared variables: { name = { min =, max =, start =, flag = } }.
---@return table<string, { min: integer, max: integer, start: integer|boolean, flag: boolean }>
function Rules:vars() end
---@return { path: string, message: string, severity: "error"|"warning", warning: boolean, line?: integer }[]
function Rules:findings() end
---@return { path: string, text: string }[]
function Rules:sources() end
---The ruleset's replication declaration, if any.
---@return table?
function Rules:replication() end

---@class framegate.Loop
local Loop = {}
---@param host_now_us integer
---@return integer ticks_due
function Loop:frame(host_now_us) end
---@return nil
function Loop:tick_done() end
---@param host_us integer
---@return integer us
function Loop:map(host_us) end
---@return number
function Loop:alpha() end
---@return integer
function Loop:due() end
---@return table
function Loop:stats() end

---@class framegate.Watcher
local Watcher = {}
---@param paths string[]
---@return nil
function Watcher:set(paths) end
---@param ms integer
---@return string[] changed, string keys
function Watcher:wait(ms) end
---@return integer us
function Watcher:clock() end
---@return "inotify"|"polling"
function Watcher:mode() end
---@return nil
function Watcher:close() end

---@class framegate.ReplayReader
local Reader = {}
---@return table? record nil at the end
function Reader:next() end
---@return table? record nil at the end
function Reader:peek() end
---@return fun(reader: framegate.ReplayReader): table? iterator
---@return framegate.ReplayReader reader
function Reader:records() end
---@return framegate.ReplayReader self
function Reader:rewind() end
---@return table
function Reader:header() end
---@return table
function Reader:stats() end
---@return string
function Reader:name() end
---@param hash integer the loaded ruleset's 64-bit hash
---@return boolean ok
---@return string? message
function Reader:check_ruleset(hash) end
---@return nil
function Reader:close() end

---@class framegate.ReplayWriter
local Writer = {}
---@param input table an input record
---@return framegate.ReplayWriter self
function Writer:input(input) end
---@param command table a command record
---@return framegate.ReplayWriter self
function Writer:command(command) end
---@param tick integer
---@param hash integer
---@return framegate.ReplayWriter self
function Writer:checkpoint(tick, hash) end
---@param tick integer
---@param hash integer
---@return framegate.ReplayWriter self
function Writer:final(tick, hash) end
---@param tick integer
---@param us integer
---@return framegate.ReplayWriter self
function Writer:clamp(tick, us) end
---@param info table
---@return framegate.ReplayWriter self
function Writer:reload(info) end
---@param rec table
---@return framegate.ReplayWriter self
function Writer:record(rec) end
---@return framegate.ReplayWriter self
function Writer:flush() end
---@return string|true bytes_or_true the bytes when writing to memory
function Writer:finish() end
---@return string
function Writer:bytes() end
---@return { records: integer, bytes: integer, finished: boolean }
function Writer:stats() end
---@return nil
function Writer:close() end

---@class framegate.Dispatcher
local Dispatcher = {}
---@param channel integer
---@param seq integer
---@return framegate.Dispatcher self
function Dispatcher:begin(channel, seq) end
---@param candidate { channel?: integer, seq: integer, marker: string|integer, occurrence?: integer, clip?: string, time?: number }
---@return "Accepted"|"Duplicate"|"StaleAction"
function Dispatcher:dispatch(candidate) end
---@param candidate { channel?: integer, seq: integer, marker: string|integer, occurrence?: integer, clip?: string, time?: number }
---@return "Accepted"|"Duplicate"|"StaleAction"
function Dispatcher:classify(candidate) end
---@param channel integer
---@return integer seq 0: none yet
function Dispatcher:live(channel) end
---@param channel integer
---@return { marker: string|integer, id: integer, closed_below: integer, window: integer }[]
function Dispatcher:ledger(channel) end
---@return integer
function Dispatcher:hash() end
---@return string
function Dispatcher:snapshot() end
---@param snapshot string
---@return framegate.Dispatcher self
function Dispatcher:restore(snapshot) end
---@return string
function Dispatcher:describe() end

---@class framegate.CycleTrack
local CycleTrack = {}
---@param token { slot: integer, generation: integer }
---@param from integer
---@param to integer
---@return table batch
function CycleTrack:sample(token, from, to) end
---@return { tick: integer, name: string?, id: integer }[]
function CycleTrack:markers() end

---@class framegate.PlaybackOwner
local Owner = {}
---@param token { slot: integer, generation: integer }
---@param cursor? integer
---@return framegate.PlaybackOwner self
function Owner:begin(token, cursor) end
---@return framegate.PlaybackOwner self
function Owner:stop() end
---@param batch { token: { slot: integer, generation: integer }, from: integer, to: integer, events?: { tick: integer, id: integer, occurrence?: integer, marker?: string }[] }
---@return "Committed"|"AlreadyCommitted"|"StalePlayback"|"CursorGap"
function Owner:commit(batch) end
---@return table[] events delivered and not drained, oldest first
function Owner:delivered() end
---@return table[] events the same list; the queue is emptied
function Owner:drain() end
---@return integer
function Owner:hash() end
---@return string
function Owner:snapshot() end
---@param snapshot string
---@return framegate.PlaybackOwner self
function Owner:restore(snapshot) end
---@return string
function Owner:describe() end

---@class framegate.Motion
local Motion = {}
---@param script string
---@param profile? string
---@return table[] commands
function Motion:match(script, profile) end
---@param script string
---@param profile? string
---@return string text
---@return table numbers
function Motion:explain(script, profile) end
---@return string
function Motion:describe() end
---@return string[]
function Motion:lint() end

---@class framegate.MotionSet
local MotionSet = {}
---@param script string
---@param profile? string
---@return table[] commands
function MotionSet:match(script, profile) end
---@param name string
---@param script string
---@param profile? string
---@return string text
---@return table numbers
function MotionSet:explain(name, script, profile) end
---@param name string
---@return string
function MotionSet:describe(name) end
---@return string[]
function MotionSet:lint() end
---@return string[]
function MotionSet:names() end
---@return "consume"|"flags"
function MotionSet:mode() end
---Every finding with its kind ("contained", "ambiguous", "never", "note") and motion names.
---@return table[]
function MotionSet:findings() end

---@class framegate.Locomotion
local Locomotion = {}
---@param input table
---@param out? table
---@return table out
function Locomotion:step(input, out) end
---@return table
function Locomotion:state() end
---@return integer
function Locomotion:hash() end
---@param cardinal? string
---@return nil
function Locomotion:reset(cardinal) end
---@return framegate.Locomotion
function Locomotion:clone() end
---@return table
function Locomotion:config() end
---@param angle number
---@param current string
---@return string
function Locomotion:cardinal_of(angle, current) end

---@class framegate.Replication
local Replication = {}
---@param n? integer
---@return integer tick
function Replication:advance(n) end
---@param opts? { latency?: integer, loss?: number, on_replicated?: function, on_action?: function, on_rollback?: function }
---@return integer node
function Replication:join(opts) end
---@param node integer|"authority"|"owner"
---@return nil
function Replication:leave(node) end
---@return integer[]
function Replication:observers() end
---@param node integer|"authority"|"owner"
---@param hooks { on_replicated?: function, on_action?: function, on_rollback?: function }
---@return nil
function Replication:hooks(node, hooks) end
---@param node integer|"authority"|"owner"
---@param name string
---@param value any
---@return nil
function Replication:set(node, name, value) end
---@param node integer|"authority"|"owner"
---@param name string
---@return any
function Replication:get(node, name) end
---@param action string
---@return boolean ok, integer seq_or_ready_tick
function Replication:try(action) end
---@param node integer|"authority"|"owner"
---@param action string
---@param ready_tick integer
---@return nil
function Replication:set_cooldown(node, action, ready_tick) end
---@param node integer|"authority"|"owner"
---@param action string
---@return integer
function Replication:cooldown(node, action) end
---@param node integer|"authority"|"owner"
---@return table
function Replication:stats(node) end
---@param node integer|"authority"|"owner"
---@return "authority"|"owner"|"observer"
function Replication:role(node) end
---@param node integer|"authority"|"owner"
---@return boolean connected, string? reason
function Replication:connected(node) end
---@return integer
function Replication:hash() end
---@return integer
function Replication:tick() end
---@return nil
function Replication:close() end


---The in-memory link (latency, jitter, loss, duplication, reordering from a seed), or with `over`
---a shim in front of a real transport. Nodes count from 1.
---@param opts? { nodes?: integer, latency_ms?: integer, jitter_ms?: integer, loss?: integer, duplicate?: integer, reorder?: integer, seed?: integer, capacity?: integer, over?: framegate.Transport }
---@return framegate.Link
function framegate.link(opts) end
---A rollback session on a world whose entities are spawned and which has run no tick. rejoin_ms:
---how long past disconnect_ms the match pauses for a lost peer; rejoin: this node lost the match
---and takes its state from a peer (its world built as at the start).
---@param opts { world: framegate.World, transport: framegate.Transport, node?: integer, players?: integer, spectators?: integer, delay?: integer, max_prediction?: integer, hash_every?: integer, interrupt_ms?: integer, disconnect_ms?: integer, rejoin_ms?: integer, rejoin?: boolean, ticks?: integer }
---@return framegate.Session
function framegate.session(opts) end
---Pushes into world, for its next tick, the record of what source_entity consumed in
---source_world's last tick (a session's input path, without a session).
---@param world framegate.World
---@param entity framegate.Entity
---@param source_world framegate.World
---@param source_entity framegate.Entity
---@return nil
function framegate.feed(world, entity, source_world, source_entity) end
---The ENet transport (nil when the build has no ENet). Node 1 listens; the others connect.
---@param opts { node?: integer, nodes?: integer, host?: string, port?: integer }
---@return framegate.ENet
function framegate.enet(opts) end

---@class framegate.Transport

---@class framegate.Link
local Link = {}
---@param i integer 1..nodes
---@return framegate.Transport
function Link:node(i) end
---@param us integer the link's clock
---@return nil
function Link:time(us) end
---@param node integer
---@param cut? boolean default true
---@return nil
function Link:cut(node, cut) end
---@return { sent: integer, delivered: integer, lost: integer, duplicated: integer, reordered: integer, bytes: integer }
function Link:stats() end

---@class framegate.ENet
local ENet = {}
---@return framegate.Transport
function ENet:transport() end
---@return integer
function ENet:port() end
---@return integer
function ENet:connected() end
---@return integer milliseconds
function ENet:rtt() end
---Drops every connection now, as if the network went away; a joining node reconnects by itself.
---@return nil
function ENet:drop() end
---@return integer connections made again after one was lost
function ENet:rejoins() end

---@class framegate.Session
local Session = {}
---@param button string
---@return nil
function Session:press(button) end
---@param button string
---@return nil
function Session:release(button) end
---@param numpad integer 1..9
---@return nil
function Session:direction(numpad) end
---This node's input for the next tick: what the entity consumed in that world's last tick.
---@param world framegate.World
---@param entity framegate.Entity
---@return nil
function Session:input_from(world, entity) end
---@return integer tick the input given now lands on
function Session:input_tick() end
---@param n? integer
---@return integer delay
function Session:delay(n) end
---@param now_us integer
---@return boolean ok
---@return string? message a desync, a disconnect or a refused rejoin
function Session:advance(now_us) end
---@return "syncing"|"running"|"desynced"|"disconnected"|"finished"|"waiting"|"rejoining"
function Session:state() end
---@return table
function Session:stats() end
---@return { detected_at: integer, tick: integer, node: integer, here: string, there: string, fields_known: boolean, diffs: table[], ndiffs: integer, text: string }?
function Session:report() end
---@param tick integer
---@return string? hash after a confirmed tick still in the window
function Session:hash(tick) end
---@param player integer 1..players
---@param tick integer
---@return string? record "2 3 6 +LP | held LP, dir 6"
function Session:record(player, tick) end
---@return nil
function Session:close() end

return framegate
