"use strict";
// The `successors` reply, written byte by byte in the compact edge form,
// means exactly what the object form the adapter used to write meant: the
// same lists, in the same order, with the same moves, states and wins.
// The old reply is rebuilt here as it was, with template strings, from the
// same move() and stateKey(), and both are read as the harness reads them.
Object.defineProperty(exports, "__esModule", { value: true });
const assert = require("node:assert/strict");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const node_test_1 = require("node:test");
const level_1 = require("../src/level");
const notation_1 = require("../src/notation");
const protocol_1 = require("../src/protocol");
const rules_1 = require("../src/rules");
const LEVELS = (0, node_path_1.join)(__dirname, '..', '..', '..', '..', 'levels', 'hugmaze');
const ORDER = rules_1.BEARS.flatMap((who) => rules_1.DIRECTIONS.map((dir) => ({ who, dir, token: (0, notation_1.formatMove)({ who, dir }) })));
/** The reply's `result` as the object form wrote it, before the compact form (the old Session.successors). */
function objectForm(start, keys) {
    const lists = [];
    for (const key of keys) {
        const state = (0, rules_1.stateFromKey)(start, key);
        let list = '';
        for (const { who, dir, token } of ORDER) {
            const next = (0, rules_1.move)(state, who, dir);
            if (next === null)
                continue;
            if (list !== '')
                list += ',';
            list += `{"move":"${token}","state":"${(0, rules_1.stateKey)(next)}"${(0, rules_1.isWon)(next) ? ',"won":true' : ''}}`;
        }
        lists.push(`[${list}]`);
    }
    return `{"successors":[${lists.join(',')}]}`;
}
/** An edge as docs/protocol.md defines it, in either form: cost 1 and won false unless given. */
function meaning(e) {
    if (Array.isArray(e)) {
        assert.ok(e.length >= 2 && e.length <= 4, JSON.stringify(e));
        const [move, state, cost = 1, won = false] = e;
        return { move, state, cost, won };
    }
    const o = e;
    return { move: o.move, state: o.state, cost: o.cost ?? 1, won: o.won ?? false };
}
/** Up to `limit` states of a level, breadth first from its start (won states left out: the harness never asks for them). */
function states(start, limit) {
    const seen = new Set([(0, rules_1.stateKey)(start)]);
    const out = [];
    for (let queue = [start], i = 0; i < queue.length && out.length < limit; i++) {
        const s = queue[i];
        if ((0, rules_1.isWon)(s))
            continue;
        out.push((0, rules_1.stateKey)(s));
        for (const { state } of (0, rules_1.successors)(s)) {
            const k = (0, rules_1.stateKey)(state);
            if (!seen.has(k)) {
                seen.add(k);
                queue.push(state);
            }
        }
    }
    return out;
}
/** The lists of a successors reply, each edge checked to be in the exact compact form the adapter promises. */
function compactLists(reply, id) {
    const r = JSON.parse(reply);
    assert.deepEqual(Object.keys(r), ['id', 'result']);
    assert.equal(r.id, id);
    assert.deepEqual(Object.keys(r.result), ['successors']);
    for (const list of r.result.successors) {
        for (const e of list) {
            assert.ok(Array.isArray(e), 'a compact edge');
            assert.equal(typeof e[0], 'string');
            assert.equal(typeof e[1], 'string');
            // [move, state] for an ordinary edge, [move, state, 1, true] for a win.
            if (e.length !== 2)
                assert.deepEqual(e.slice(2), [1, true]);
        }
    }
    return r.result.successors;
}
/** Asks one session for the successors of `keys` and checks the reply against the object form. */
function check(s, levelHandle, start, keys, id) {
    const request = JSON.stringify({ id, method: 'successors', params: { level: levelHandle, states: keys } });
    const bytes = s.reply(request);
    assert.equal(bytes[bytes.length - 1], 0x0a, 'one line, ended by its newline');
    assert.equal(bytes.indexOf(0x0a), bytes.length - 1, 'no newline inside');
    const text = bytes.toString('utf8');
    assert.equal(s.handle(request), text.slice(0, -1), 'handle is reply as a string');
    const mine = compactLists(text, id).map((list) => list.map(meaning));
    const old = JSON.parse(objectForm(start, keys)).successors.map((list) => list.map(meaning));
    assert.equal(mine.length, keys.length);
    assert.deepEqual(mine, old);
    let edges = 0;
    let wins = 0;
    for (const list of mine) {
        edges += list.length;
        for (const e of list)
            if (e.won)
                wins++;
    }
    return { edges, wins };
}
function load(s, text) {
    return JSON.parse(s.handle(JSON.stringify({ id: 0, method: 'load', params: { text } }))).result;
}
(0, node_test_1.describe)('successors in the compact form', { skip: (0, node_fs_1.existsSync)(LEVELS) ? false : `no ${LEVELS}` }, () => {
    (0, node_test_1.it)('means what the object form meant, on every level of levels/hugmaze, thousands of states each', () => {
        const s = new protocol_1.Session();
        let edges = 0;
        let wins = 0;
        let id = 1;
        for (const f of ['01-first-hug', '04-slippery-cushion', '06-honey-pot', '10-hold-the-door', '13-honey-courier', '15-catnip-billiards', '16-big-hug', '17-article-example', 'gen-1', 'gen-3']) {
            const text = (0, level_1.decodeLevelBytes)((0, node_fs_1.readFileSync)((0, node_path_1.join)(LEVELS, `${f}.txt`)));
            const { level, start } = load(s, text);
            const l = (0, level_1.parseLevel)(text);
            assert.equal(start, (0, rules_1.stateKey)(l.start));
            const keys = states(l.start, 6_000);
            // In the harness's chunks of 4,096, then one state at a time for the first few.
            for (let i = 0; i < keys.length; i += 4096) {
                const r = check(s, level, l.start, keys.slice(i, i + 4096), id++);
                edges += r.edges;
                wins += r.wins;
            }
            for (const k of keys.slice(0, 20))
                check(s, level, l.start, [k], id++);
        }
        assert.ok(edges > 100_000, `${edges} edges`);
        assert.ok(wins > 0, 'some winning edges among them');
    });
    (0, node_test_1.it)('grows its buffer for a reply larger than it, and a short reply after a long one is whole', () => {
        const s = new protocol_1.Session();
        const text = (0, level_1.decodeLevelBytes)((0, node_fs_1.readFileSync)((0, node_path_1.join)(LEVELS, '17-article-example.txt')));
        const { level } = load(s, text);
        const l = (0, level_1.parseLevel)(text);
        const keys = states(l.start, 30_000);
        const big = check(s, level, l.start, keys, 1);
        assert.ok(big.edges > 100_000);
        assert.ok(s.reply(JSON.stringify({ id: 2, method: 'successors', params: { level, states: keys } })).length > 2 << 20, 'over 2 MB');
        check(s, level, l.start, keys.slice(5, 7), 3);
        check(s, level, l.start, [], 4);
        assert.equal(s.handle(JSON.stringify({ id: 5, method: 'successors', params: { level, states: [] } })), '{"id":5,"result":{"successors":[]}}');
    });
    (0, node_test_1.it)('answers a bad state anywhere in the list with an error, and the next reply is whole', () => {
        const s = new protocol_1.Session();
        const text = (0, level_1.decodeLevelBytes)((0, node_fs_1.readFileSync)((0, node_path_1.join)(LEVELS, '06-honey-pot.txt')));
        const { level } = load(s, text);
        const l = (0, level_1.parseLevel)(text);
        const keys = states(l.start, 3_000);
        const bad = JSON.parse(s.handle(JSON.stringify({ id: 'x', method: 'successors', params: { level, states: [...keys, '?'] } })));
        assert.equal(bad.id, 'x');
        assert.match(bad.error.message, /not a state of this level/);
        check(s, level, l.start, keys.slice(0, 10), 2);
    });
    (0, node_test_1.it)('writes a request id that is not ASCII as JSON, in UTF-8', () => {
        const s = new protocol_1.Session();
        const text = (0, level_1.decodeLevelBytes)((0, node_fs_1.readFileSync)((0, node_path_1.join)(LEVELS, '01-first-hug.txt')));
        const { level, start } = load(s, text);
        const r = JSON.parse(s.reply(JSON.stringify({ id: 'ours → «1»', method: 'successors', params: { level, states: [start] } })).toString('utf8'));
        assert.equal(r.id, 'ours → «1»');
        assert.equal(r.result.successors.length, 1);
    });
});
