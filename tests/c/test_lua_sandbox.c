/* SPDX-License-Identifier: MIT */
/* test_lua_sandbox.c: the sandbox and its budgets seen from C: the sample rules load in a bare
** host state, the allocator wrapper counts exactly what Lua counts and hands every block back,
** and a rule over its budget fails alone, leaving the state usable. */
#include "fg_test.h"

#include <stdlib.h>
#include <string.h>

#include "fg_lua.h"

/* A host allocator that counts live bytes, as a game engine's would. */
typedef struct host_alloc {
    long long live;
    long long calls;
} host_alloc;

static void *host_realloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    host_alloc *h = ud;
    h->calls++;
    if (ptr) h->live -= (long long)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p) h->live += (long long)nsize;
    else if (ptr) h->live += (long long)osize;
    return p;
}

/* A state with no standard library opened, and the module required into a global. */
static lua_State *bare_state(host_alloc *h) {
    lua_State *L = lua_newstate(host_realloc, h);
    assert_non_null(L);
    luaL_requiref(L, "framegate", luaopen_framegate, 1);
    lua_pop(L, 1);
    return L;
}

static int load_file(lua_State *L) {
    fg_lua_load_rules_file(L, lua_tostring(L, 1));
    return 1;
}

/* Rule: the sample duel rules load in the real sandbox of a host that opened no library. */
static void duel_rules_load_in_a_bare_host(void **state) {
    (void)state;
    host_alloc h = {0, 0};
    lua_State *L = bare_state(&h);
    lua_pushcfunction(L, load_file);
    lua_pushstring(L, FG_SAMPLES_DIR "/duel/rules.lua");
    int st = lua_pcall(L, 1, 1, 0);
    if (st != LUA_OK) fail_msg("%s", lua_tostring(L, -1));
    fg_lua_rules *r = fg_lua_check_rules(L, -1);
    assert_string_equal(fg_ruleset_name(r->rules), "duelist");
    assert_int_equal(fg_ruleset_action_count(r->rules), 24);
    assert_true(fg_ruleset_find_action(r->rules, "hadouken") >= 0);
    lua_close(L);
}

/* Rule: the wrapped allocator counts what Lua counts, and at close every byte, the budget's
** own block included, is back with the host's allocator. */
static void allocator_counts_exactly_and_returns_everything(void **state) {
    (void)state;
    host_alloc h = {0, 0};
    lua_State *L = bare_state(&h);
    for (int round = 0; round < 3; round++) {
        luaL_dostring(L, "local t = {} for i = 1, 5000 do t[i] = ('x'):rep(i % 50) end");
        int64_t lua_count = (int64_t)lua_gc(L, LUA_GCCOUNT) * 1024 + lua_gc(L, LUA_GCCOUNTB);
        assert_int_equal(fg_lua_memory_in_use(L), lua_count);
        lua_gc(L, LUA_GCCOLLECT);
        lua_count = (int64_t)lua_gc(L, LUA_GCCOUNT) * 1024 + lua_gc(L, LUA_GCCOUNTB);
        assert_int_equal(fg_lua_memory_in_use(L), lua_count);
    }
    lua_close(L);
    assert_int_equal(h.live, 0);
}

/* Pushes the function a sandboxed chunk returns. */
static void push_sandboxed(lua_State *L, const char *src) {
    lua_getglobal(L, "framegate");
    lua_getfield(L, -1, "sandboxed");
    lua_remove(L, -2);
    lua_pushstring(L, src);
    lua_pushstring(L, "@rules/c.lua");
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) fail_msg("%s", lua_tostring(L, -1));
}

/* Rule: a rule over its memory cap fails with file and line, nothing is left on the stack, the
** bytes come back, and the next call runs normally. */
static void rule_over_memory_cap_fails_alone(void **state) {
    (void)state;
    host_alloc h = {0, 0};
    lua_State *L = bare_state(&h);
    push_sandboxed(L, "return function(n)\n  local t = {}\n  for i = 1, n do t[i] = { i } end\n"
                      "  return #t\nend");
    int fn = lua_gettop(L);
    int64_t before = fg_lua_memory_in_use(L);
    fg_error err;
    lua_pushvalue(L, fn);
    lua_pushinteger(L, 100000000);
    assert_int_equal(fg_lua_call_rule(L, NULL, "request rule", 1, 1, &err), FG_ERULE);
    assert_non_null(strstr(fg_error_message(&err), "rules/c.lua:3: framegate: request rule went over its memory cap"));
    assert_int_equal(lua_gettop(L), fn);
    lua_gc(L, LUA_GCCOLLECT);
    assert_true(fg_lua_memory_in_use(L) <= before + 1024);
    lua_pushvalue(L, fn);
    lua_pushinteger(L, 10);
    assert_int_equal(fg_lua_call_rule(L, NULL, "request rule", 1, 1, &err), FG_OK);
    assert_int_equal(lua_tointeger(L, -1), 10);
    lua_close(L);
    assert_int_equal(h.live, 0);
}

/* Rule: an endless loop inside pcall inside a rule still ends the call, and the host's own hook
** comes back afterwards. */
static int host_hook_calls;
static void host_hook(lua_State *L, lua_Debug *ar) {
    (void)L;
    (void)ar;
    host_hook_calls++;
}

static void budget_ends_pcall_loops_and_restores_the_hosts_hook(void **state) {
    (void)state;
    host_alloc h = {0, 0};
    lua_State *L = bare_state(&h);
    push_sandboxed(L, "return function()\n  for i = 1, 3 do\n    pcall(function() while true do "
                      "end end)\n  end\n  return 'escaped'\nend");
    lua_sethook(L, host_hook, LUA_MASKCOUNT, 100000);
    fg_error err;
    assert_int_equal(fg_lua_call_rule(L, NULL, "request rule", 0, 1, &err), FG_ERULE);
    assert_non_null(strstr(fg_error_message(&err), "rules/c.lua:3: framegate: request rule ran past its budget"));
    assert_ptr_equal(lua_gethook(L), host_hook);
    assert_int_equal(lua_gethookcount(L), 100000);
    lua_close(L);
}

/* Rule: in a bare host, rules still see only the sandbox: os is blocked with its name. */
static void blocked_names_in_a_bare_host(void **state) {
    (void)state;
    host_alloc h = {0, 0};
    lua_State *L = bare_state(&h);
    lua_getglobal(L, "framegate");
    lua_getfield(L, -1, "sandboxed");
    lua_pushstring(L, "return os.getenv('HOME')");
    lua_pushstring(L, "@rules/c.lua");
    assert_int_equal(lua_pcall(L, 2, 1, 0), LUA_ERRRUN);
    assert_non_null(strstr(lua_tostring(L, -1), "rules/c.lua:1: framegate: 'os.getenv' is not available in rules"));
    lua_close(L);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(duel_rules_load_in_a_bare_host),
        cmocka_unit_test(allocator_counts_exactly_and_returns_everything),
        cmocka_unit_test(rule_over_memory_cap_fails_alone),
        cmocka_unit_test(budget_ends_pcall_loops_and_restores_the_hosts_hook),
        cmocka_unit_test(blocked_names_in_a_bare_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
