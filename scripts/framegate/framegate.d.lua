-- SPDX-License-Identifier: MIT
---@meta framegate
-- LuaLS definitions of the framegate module, for completion and type checks in rules, scenarios
-- and tools. Point your editor at scripts/ (see docs/rules.md, "Editor setup"). Checked against
-- the bindings by tests/lua/test_definitions.lua: no function missing, none extra.

---@alias framegate.Facing "right"|"left"
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
---@field changes { added: string[], removed: string[], changed: string[] }
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
---@field physics? table
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

---A presentation cue for the host; only inside on_event.
---@param name string
---@param params? table
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

---@param opts { rules?: string|framegate.Declaration|framegate.Rules, rate?: integer, seed?: integer, entities?: integer, buffer?: integer, trace?: integer, buttons?: string[], jump?: table }
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
---@return framegate.Motion
function framegate.motion(notation, opts) end

---Several named motions matched together, with arbitration.
---@return framegate.MotionSet
function framegate.motion_set(motions, opts) end

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
---@return framegate.ReplayReader
function replay.open(path) end
---@return framegate.ReplayReader
function replay.load(bytes, name) end
---@return table
function replay.read(path) end
---@return table
function replay.decode(bytes) end
---@return framegate.ReplayWriter
function replay.writer(opts) end
---@return string
function replay.write(opts) end
---A world created and set up as the replay's recording started.
---@param reader framegate.replay_reader
---@param rules string|framegate.Rules
---@param opts? { trace?: integer }
---@return framegate.World
function replay.world(reader, rules, opts) end
---@param reader framegate.replay_reader
---@param slot? integer
---@return string? path
---@return { path: string, text: string }[] files
function replay.rules(reader, slot) end
framegate.replay = replay

---@class framegate.World
local World = {}
---@param opts? string|{ rules?: string, x?: number, y?: number, facing?: framegate.Facing, grounded?: boolean, opponent?: framegate.Entity }
---@return framegate.Entity
function World:spawn(opts) end
---@return framegate.Entity?
function World:entity(id) end
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
function World:restore(snapshot, opts) end
---@return { tick: integer, entity: integer, kind: string, code: integer, text: string }[]
function World:trace(from_tick) end
function World:trace_clear() end
function World:close() end
---@param source? string|framegate.Declaration|framegate.Rules
---@param slot? integer|string
---@return framegate.ReloadInfo? info
---@return string? message
function World:reload(source, slot) end
---@param opts { from: string, rules?: string|framegate.Rules, slot?: integer|string }
---@return framegate.WhatIf
function World:what_if(opts) end
---@param source? framegate.Source
function World:request(entity, action, source) end
---@return framegate.DecisionKind kind, string text
function World:evaluate(entity, action) end
---@return framegate.Decision[]
function World:decisions(entity) end
---@return integer
function World:committed(marker) end
---@return framegate.Event[]
function World:events() end
---@return string
function World:meter(from, to) end
---@return { name: string, tick: integer, entity: integer, a: integer, b: integer }[]
function World:cues() end
---The handle of a declared action or direction (its C action id), for Entity:pressed and the
---other per-tick queries.
---@param name string
---@return integer
function World:action_id(name) end
---@param layer string|integer a layer's name or index (0 = the first)
function World:report_event(entity, layer, sequence, marker, occurrence) end
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
---@param reader framegate.replay_reader
---@param opts? { fps?: integer, jitter?: integer, seed?: integer }
---@return framegate.Player
function World:replay_player(reader, opts) end
---@return { tick: integer, entity: integer, kind: string, code: integer, a: integer, b: integer, c: integer, d: integer, text: string, decision?: string, reason?: string }[]
function World:trace_records(from_tick) end
---Swaps a slot's ruleset at the next tick boundary (what world:reload does underneath, without
---its checks and reports).
---@param rules framegate.Rules
---@param slot? integer 0-based
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
function SyncTest:close() end

---@class framegate.Recording
local Recording = {}
---@return string[]|string files_or_bytes
---@return integer ticks
function Recording:finish() end
---@return integer
function Recording:ticks() end
---@param us integer
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
function Player:close() end

---@class framegate.InputFuzz
local InputFuzz = {}
---@param world framegate.World
function InputFuzz:tick(world) end

---@class framegate.Entity
local Entity = {}
function Entity:press(action, time_us) end
function Entity:release(action, time_us) end
function Entity:dir(numpad, time_us) end
function Entity:contact(grounded) end
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
---Fills t like Entity:input() returns, reusing t and its lists, and returns it.
---@param t table
---@return { tick: integer, dir: integer, pressed: string[], released: string[], held: string[] }
function Entity:input_into(t) end
---@return integer
function Entity:id() end
---@return integer absolute, integer relative
function Entity:direction() end
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
function Entity:bind(control, action) end
function Entity:key(control, down, time_us) end
---@return number x, number y
function Entity:stick(x, y, time_us) end
function Entity:camera(fx, fy, fz) end
function Entity:input_map(opts) end
---@param source? framegate.Source
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
---@return integer?
function Entity:resource(name, set) end
---@return number? x, number? y
function Entity:position(x, y) end
---@return framegate.Decision?
function Entity:decision() end
---@return integer
function Entity:frozen() end
---@return framegate.View
function Entity:view() end
---The combat state: combo, combo_damage, juggle, juggle_limit, launched, knockdown ("none",
---"soft", "hard"), grabbed_by, tech_until, throw_invuln_until, pushback (pixels left), team, owner.
---@return table
function Entity:combat() end
---The live boxes as the collision phase tests them, in world pixels: { kind =, x0 =, y0 =,
---x1 =, y1 =, index = } (index in the action's boxes, or "default").
---@param kind? "hurt"|"hit"|"push"|"throw"
---@return table[]
function Entity:boxes(kind) end
---0 (the default) fights its opponent only; entities with teams fight every other team.
---@param team integer
function Entity:team(team) end
---The entity never hits its owner (a projectile and who threw it); nil clears it.
---@param owner? framegate.Entity
function Entity:owner(owner) end

---@class framegate.Rules
local Rules = {}
---@return string
function Rules:name() end
---@return string
function Rules:hash() end
---@return string[]
function Rules:actions() end
---The compiled definition; `hit` (range in pixels, damage, hitstop, hitstun, blockstun, meter,
---low, overhead) when the action hits.
---@return table?
function Rules:action(name) end
---Pixels: gravity, ground_y, min_gap, stage_min, stage_max.
---@return { gravity: number, ground_y: number, min_gap: number, stage_min: number, stage_max: number }
function Rules:physics() end
---@return { path: string, message: string, warning: boolean }[]
function Rules:findings() end
---@return { path: string, text: string }[]
function Rules:sources() end
---The ruleset's replication declaration, if any.
---@return table?
function Rules:replication() end

---@class framegate.Loop
local Loop = {}
---@return integer ticks_due
function Loop:frame(host_now_us) end
function Loop:tick_done() end
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
function Watcher:set(paths) end
---@param ms integer
---@return string[] changed, string keys
function Watcher:wait(ms) end
---@return integer us
function Watcher:clock() end
---@return "inotify"|"polling"
function Watcher:mode() end
function Watcher:close() end

---@class framegate.ReplayReader
local Reader = {}
function Reader:next() end
function Reader:peek() end
function Reader:records() end
function Reader:rewind() end
function Reader:header() end
function Reader:stats() end
function Reader:name() end
function Reader:check_ruleset(rules) end
function Reader:close() end

---@class framegate.ReplayWriter
local Writer = {}
function Writer:input(...) end
function Writer:command(...) end
function Writer:checkpoint(tick, hash) end
function Writer:final(tick, hash) end
function Writer:clamp(tick, us) end
function Writer:reload(info) end
function Writer:record(rec) end
function Writer:flush() end
function Writer:finish() end
function Writer:bytes() end
function Writer:stats() end
function Writer:close() end

---@class framegate.Dispatcher
local Dispatcher = {}
function Dispatcher:begin(...) end
function Dispatcher:dispatch(...) end
function Dispatcher:classify(...) end
function Dispatcher:live(...) end
function Dispatcher:ledger() end
function Dispatcher:hash() end
function Dispatcher:snapshot() end
function Dispatcher:restore(snapshot) end
function Dispatcher:describe(...) end

---@class framegate.CycleTrack
local CycleTrack = {}
function CycleTrack:sample(token, from, to) end
function CycleTrack:markers() end

---@class framegate.PlaybackOwner
local Owner = {}
function Owner:begin(...) end
function Owner:stop(...) end
function Owner:commit(...) end
function Owner:delivered(...) end
function Owner:drain() end
function Owner:hash() end
function Owner:snapshot() end
function Owner:restore(snapshot) end
function Owner:describe(...) end

---@class framegate.Motion
local Motion = {}
function Motion:match(...) end
function Motion:explain(...) end
function Motion:describe() end
function Motion:lint() end

---@class framegate.MotionSet
local MotionSet = {}
function MotionSet:match(...) end
function MotionSet:explain(...) end
function MotionSet:describe() end
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
---@return table out
function Locomotion:step(input, out) end
---@return table
function Locomotion:state() end
---@return integer
function Locomotion:hash() end
function Locomotion:reset(cardinal) end
---@return framegate.Locomotion
function Locomotion:clone() end
---@return table
function Locomotion:config() end
---@return string
function Locomotion:cardinal_of(angle, current) end

---@class framegate.Replication
local Replication = {}
---@return integer tick
function Replication:advance(n) end
function Replication:join(...) end
function Replication:leave(...) end
---@return integer[]
function Replication:observers() end
function Replication:hooks(node, hooks) end
function Replication:set(node, name, value) end
function Replication:get(node, name) end
---@return boolean ok, integer seq_or_ready_tick
function Replication:try(action) end
function Replication:set_cooldown(node, action, ready_tick) end
---@return integer
function Replication:cooldown(node, action) end
---@return table
function Replication:stats(node) end
---@return "authority"|"owner"|"observer"
function Replication:role(node) end
---@return boolean connected, string? reason
function Replication:connected(node) end
function Replication:hash() end
function Replication:tick() end
function Replication:close() end


---The in-memory link (latency, jitter, loss, duplication, reordering from a seed), or with `over`
---a shim in front of a real transport. Nodes count from 1.
---@param opts? { nodes?: integer, latency_ms?: integer, jitter_ms?: integer, loss?: integer, duplicate?: integer, reorder?: integer, seed?: integer, capacity?: integer, over?: framegate.Transport }
---@return framegate.Link
function framegate.link(opts) end
---A rollback session on a world whose entities are spawned and which has run no tick.
---@param opts { world: framegate.World, transport: framegate.Transport, node?: integer, players?: integer, spectators?: integer, delay?: integer, max_prediction?: integer, hash_every?: integer, interrupt_ms?: integer, disconnect_ms?: integer, ticks?: integer }
---@return framegate.Session
function framegate.session(opts) end
---Pushes into world, for its next tick, the record of what source_entity consumed in
---source_world's last tick (a session's input path, without a session).
function framegate.feed(world, entity, source_world, source_entity) end
---The ENet transport (nil when the build has no ENet). Node 1 listens; the others connect.
---@param opts { node?: integer, nodes?: integer, host?: string, port?: integer }
---@return framegate.ENet
function framegate.enet(opts) end

---@class framegate.Transport

---@class framegate.Link
local Link = {}
---@return framegate.Transport
function Link:node(i) end
---@param us integer the link's clock
function Link:time(us) end
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

---@class framegate.Session
local Session = {}
function Session:press(button) end
function Session:release(button) end
function Session:direction(numpad) end
---This node's input for the next tick: what the entity consumed in that world's last tick.
function Session:input_from(world, entity) end
---@return integer tick the input given now lands on
function Session:input_tick() end
---@param n? integer
---@return integer delay
function Session:delay(n) end
---@param now_us integer
---@return boolean ok
---@return string? message a desync or a disconnect
function Session:advance(now_us) end
---@return "syncing"|"running"|"desynced"|"disconnected"|"finished"
function Session:state() end
---@return table
function Session:stats() end
---@return { detected_at: integer, tick: integer, node: integer, here: string, there: string, fields_known: boolean, diffs: table[], ndiffs: integer, text: string }?
function Session:report() end
---@return string? hash after a confirmed tick still in the window
function Session:hash(tick) end
---@return string? record "2 3 6 +LP | held LP, dir 6"
function Session:record(player, tick) end
function Session:close() end

return framegate
