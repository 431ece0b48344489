"use strict";
// stateKey: canonical (identical objects are interchangeable), short, free of
// characters JSON escapes, and read back by stateFromKey.
Object.defineProperty(exports, "__esModule", { value: true });
const assert = require("node:assert/strict");
const node_test_1 = require("node:test");
const level_1 = require("../src/level");
const notation_1 = require("../src/notation");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const level_2 = require("../src/level");
const rules_1 = require("../src/rules");
const helpers_1 = require("./helpers");
const ARTICLE = [
    '############',
    '#B..#...D..#',
    '#...#......#',
    '#...#.J..J.#',
    '#...#......#',
    '#...P......#',
    '#...#..p.q.#',
    '#####Q######',
    '#..........#',
    '#.....H....#',
    '#..........#',
    '############',
];
const LEVELS = (0, node_path_1.join)(__dirname, '..', '..', '..', '..', 'levels', 'hugmaze');
/** Every state reachable from `start`, or the first `limit` found. */
function reachable(start, limit = Infinity) {
    const seen = new Map([[(0, rules_1.stateKey)(start), start]]);
    const queue = [start];
    while (queue.length > 0 && seen.size < limit) {
        for (const { state } of (0, rules_1.successors)(queue.pop())) {
            const k = (0, rules_1.stateKey)(state);
            if (!seen.has(k)) {
                seen.set(k, state);
                queue.push(state);
            }
        }
    }
    return [...seen.values()];
}
function plain(s) {
    return { bubu: s.bubu, dudu: s.dudu, blocks: s.blocks, jars: s.jars, cushions: s.cushions };
}
(0, node_test_1.describe)('stateKey', () => {
    (0, node_test_1.it)('is the same for two jars swapped: objects of a kind are kept in cell order', () => {
        const l = (0, helpers_1.level)('.....', //
        '.J.J.', '.....', '.D...', 'B...H');
        // Dudu moves the right jar down, the left jar into the right one's
        // place, and the right jar round into the left one's: the jars have
        // traded places.
        const moves = [
            'D:R D:U D:U D:U D:R D:D',
            'D:U D:L D:L D:L D:D D:R D:R',
            'D:D D:D D:R D:R D:U D:L D:L',
            'D:D D:L D:U',
        ].join(' ');
        let s = l.start;
        for (const m of (0, notation_1.parseMoves)(moves)) {
            s = (0, rules_1.move)(s, m.who, m.dir);
            assert.ok(s.jars.every((c, i) => i === 0 || s.jars[i - 1] < c), 'jars in cell order');
        }
        assert.deepEqual(s.jars, l.start.jars);
        assert.equal((0, rules_1.stateKey)(s), (0, rules_1.stateKey)((0, helpers_1.placed)(l, { dudu: [2, 1] })));
    });
    (0, node_test_1.it)('tells apart the bears, and the kinds', () => {
        const l = (0, helpers_1.level)('BXJC.', 'D...H');
        const k = (0, rules_1.stateKey)(l.start);
        const bearsSwapped = { ...l.start, bubu: l.start.dudu, dudu: l.start.bubu };
        assert.notEqual((0, rules_1.stateKey)(bearsSwapped), k);
        const kindsSwapped = { ...l.start, blocks: l.start.jars, jars: l.start.blocks };
        assert.notEqual((0, rules_1.stateKey)(kindsSwapped), k);
    });
    (0, node_test_1.it)('is short: one character a cell up to 92 cells, two up to 8,464, three beyond', () => {
        assert.equal(rules_1.KEY_ALPHABET.length, 92);
        assert.ok(!rules_1.KEY_ALPHABET.includes('"') && !rules_1.KEY_ALPHABET.includes('\\'));
        assert.ok([...rules_1.KEY_ALPHABET].every((c) => c > ' ' && c <= '~'));
        const small = (0, helpers_1.level)('BXJC.', 'D...H');
        assert.equal((0, rules_1.stateKey)(small.start).length, 5);
        const article = (0, level_1.parseLevel)(ARTICLE.join('\n'));
        assert.equal(article.start.board.keyWidth, 2);
        assert.equal((0, rules_1.stateKey)(article.start).length, 8);
        const rows = Array.from({ length: 100 }, () => '.'.repeat(100));
        rows[99] = '.'.repeat(96) + 'BJHD';
        const huge = (0, level_1.parseLevel)(rows.join('\n'));
        assert.equal(huge.start.board.keyWidth, 3);
        assert.equal((0, rules_1.stateKey)(huge.start).length, 9);
        assert.deepEqual(plain((0, rules_1.stateFromKey)(huge.start, (0, rules_1.stateKey)(huge.start))), plain(huge.start));
    });
    (0, node_test_1.it)('is read back by stateFromKey, for every reachable state of a level', () => {
        const l = (0, helpers_1.level)('BC.pP.', 'DJ.X.H', '......');
        const all = reachable(l.start);
        assert.ok(all.length > 100);
        for (const s of all)
            assert.deepEqual(plain((0, rules_1.stateFromKey)(l.start, (0, rules_1.stateKey)(s))), plain(s));
    });
    (0, node_test_1.it)('turns away what is not a key of the level', () => {
        const l = (0, helpers_1.level)('BXJC.', 'D...H');
        const k = (0, rules_1.stateKey)(l.start);
        assert.throws(() => (0, rules_1.stateFromKey)(l.start, k + '!'), /not a state of this level/);
        assert.throws(() => (0, rules_1.stateFromKey)(l.start, k.slice(1)), /not a state of this level/);
        assert.throws(() => (0, rules_1.stateFromKey)(l.start, '"' + k.slice(1)), /not a state of this level/);
        assert.throws(() => (0, rules_1.stateFromKey)(l.start, '~' + k.slice(1)), /beyond the grid/);
        const two = (0, helpers_1.level)('BJJ..', 'D...H');
        const kk = (0, rules_1.stateKey)(two.start);
        assert.throws(() => (0, rules_1.stateFromKey)(two.start, kk.slice(0, 2) + kk[3] + kk[2]), /out of order/);
    });
});
(0, node_test_1.describe)('writeStateKey', () => {
    /** The key's bytes as writeStateKey writes them between two guard bytes, checked to stop where it says. */
    function written(s) {
        const n = (0, rules_1.keyLength)(s);
        const out = new Uint8Array(n + 2).fill(0xff);
        assert.equal((0, rules_1.writeStateKey)(s, out, 1), 1 + n, 'returns the offset after the key');
        assert.equal(out[0], 0xff, 'nothing before the offset');
        assert.equal(out[n + 1], 0xff, 'nothing after the key');
        return String.fromCharCode(...out.subarray(1, n + 1));
    }
    (0, node_test_1.it)("writes exactly stateKey's characters, with one, two and three characters a cell", () => {
        const small = (0, helpers_1.level)('BC.pP.', 'DJ.X.H', '......');
        assert.equal(small.start.board.keyWidth, 1);
        const all = reachable(small.start);
        assert.ok(all.length > 100);
        for (const s of all)
            assert.equal(written(s), (0, rules_1.stateKey)(s));
        const article = (0, level_1.parseLevel)(ARTICLE.join('\n'));
        assert.equal(article.start.board.keyWidth, 2);
        for (const s of reachable(article.start, 20_000))
            assert.equal(written(s), (0, rules_1.stateKey)(s));
        const rows = Array.from({ length: 100 }, () => '.'.repeat(100));
        rows[0] = 'C.X' + '.'.repeat(97);
        rows[99] = '.'.repeat(96) + 'BJHD';
        const huge = (0, level_1.parseLevel)(rows.join('\n'));
        assert.equal(huge.start.board.keyWidth, 3);
        for (const s of reachable(huge.start, 5_000))
            assert.equal(written(s), (0, rules_1.stateKey)(s));
    });
    (0, node_test_1.it)("writes exactly stateKey's characters on every level of levels/hugmaze", { skip: (0, node_fs_1.existsSync)(LEVELS) ? false : `no ${LEVELS}` }, () => {
        const files = (0, node_fs_1.readdirSync)(LEVELS).filter((f) => f.endsWith('.txt'));
        assert.ok(files.length >= 17);
        for (const f of files) {
            const l = (0, level_1.parseLevel)((0, level_2.decodeLevelBytes)((0, node_fs_1.readFileSync)((0, node_path_1.join)(LEVELS, f))));
            for (const s of reachable(l.start, 3_000))
                assert.equal(written(s), (0, rules_1.stateKey)(s), f);
        }
    });
});
/** stateFromKey as it was written before stateFromKeyIn: the reference its answers and errors are held to. */
function stateFromKeyBefore(start, key) {
    const board = start.board;
    const w = board.keyWidth;
    const base = rules_1.KEY_ALPHABET.length;
    const counts = [start.blocks.length, start.jars.length, start.cushions.length];
    const expected = (2 + counts[0] + counts[1] + counts[2]) * w;
    if (typeof key !== 'string' || key.length !== expected) {
        throw new Error(`not a state of this level: ${JSON.stringify(key)} (a state has ${expected} characters)`);
    }
    const cells = board.width * board.height;
    let pos = 0;
    const cell = () => {
        let v = 0;
        for (let i = 0; i < w; i++) {
            const digit = rules_1.KEY_ALPHABET.indexOf(key[pos++]);
            if (digit < 0)
                throw new Error(`not a state of this level: ${JSON.stringify(key)}`);
            v = v * base + digit;
        }
        if (v >= cells)
            throw new Error(`not a state of this level: ${JSON.stringify(key)} (a cell beyond the grid)`);
        return v;
    };
    const bubu = cell();
    const dudu = cell();
    const lists = counts.map((n) => {
        const list = [];
        for (let i = 0; i < n; i++)
            list.push(cell());
        for (let i = 1; i < n; i++) {
            if (list[i - 1] >= list[i])
                throw new Error(`not a state of this level: ${JSON.stringify(key)} (objects out of order)`);
        }
        return list;
    });
    return { board, bubu, dudu, blocks: lists[0], jars: lists[1], cushions: lists[2] };
}
/** What a reader of keys makes of `key`: the state, plainly, or its error's message. */
function outcome(read, key) {
    try {
        return plain(read(key));
    }
    catch (e) {
        return e.message;
    }
}
(0, node_test_1.describe)('stateFromKeyIn', () => {
    (0, node_test_1.it)('reads a key from the middle of a text, as stateFromKey reads it alone', () => {
        const l = (0, helpers_1.level)('BC.pP.', 'DJ.X.H', '......');
        for (const s of reachable(l.start)) {
            const k = (0, rules_1.stateKey)(s);
            assert.deepEqual(plain((0, rules_1.stateFromKeyIn)(l.start, `["x","${k}","y"]`, 6)), plain(s));
        }
    });
    (0, node_test_1.it)('gives every answer and every error stateFromKey gave before it, on keys good and bad', () => {
        const levels = [
            (0, helpers_1.level)('BC.pP.', 'DJ.X.H', '......'), // one character a cell, one object of each kind
            (0, helpers_1.level)('BJJ..', 'D...H'), // two jars, to be put out of order
            (0, level_1.parseLevel)(ARTICLE.join('\n')), // two characters a cell
        ];
        const odd = ['"', '\\', ' ', '~', '!', '\u00e9', '\u20ac', rules_1.KEY_ALPHABET[rules_1.KEY_ALPHABET.length - 1]];
        let bad = 0;
        for (const l of levels) {
            for (const s of reachable(l.start, 300)) {
                const k = (0, rules_1.stateKey)(s);
                const keys = [k, k.slice(1), k + '!', k.split('').reverse().join('')];
                for (let i = 0; i < k.length; i++) {
                    for (const c of odd)
                        keys.push(k.slice(0, i) + c + k.slice(i + 1));
                    if (i + 1 < k.length)
                        keys.push(k.slice(0, i) + k[i + 1] + k[i] + k.slice(i + 2));
                }
                for (const key of keys) {
                    const before = outcome((x) => stateFromKeyBefore(l.start, x), key);
                    assert.deepEqual(outcome((x) => (0, rules_1.stateFromKey)(l.start, x), key), before, key);
                    if (typeof before === 'string')
                        bad++;
                    else if (key.length === (0, rules_1.keyLength)(l.start))
                        assert.deepEqual(outcome((x) => (0, rules_1.stateFromKeyIn)(l.start, `[${x}]`, 1), key), before);
                }
            }
        }
        assert.ok(bad > 1000, `${bad} bad keys`);
    });
});
