"use strict";
// A plain breadth-first search over the same `move()`, with string keys, as
// the Hug Maze article writes it: each visited key is stored with the key it
// came from and the move that got there, and the path is rebuilt by walking
// back from the winning state. This is the baseline the harness's search
// (which calls the same rules through the adapter) is measured against.
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_LIMIT = void 0;
exports.solve = solve;
const rules_1 = require("./rules");
/** The most states one search keeps by default, as the rulebook's `limit`. */
exports.DEFAULT_LIMIT = 2_000_000;
const ORDER = rules_1.BEARS.flatMap((who) => rules_1.DIRECTIONS.map((dir) => ({ who, dir })));
function rebuildPath(seen, k) {
    const path = [];
    for (let e = seen.get(k); e.step !== null; e = seen.get(e.prev))
        path.push(e.step);
    return path.reverse();
}
/** Breadth-first search from `start`; it stops at the first winning state generated. */
function solve(start, limit = exports.DEFAULT_LIMIT) {
    const startKey = (0, rules_1.stateKey)(start);
    const seen = new Map([[startKey, { prev: null, step: null }]]);
    if ((0, rules_1.isWon)(start))
        return { status: 'solved', par: 0, expanded: 0, stored: 1, path: [] };
    let layer = [start];
    let keys = [startKey];
    let expanded = 0;
    for (let depth = 1; layer.length > 0; depth++) {
        const next = [];
        const nextKeys = [];
        for (let i = 0; i < layer.length; i++) {
            const s = layer[i];
            const ks = keys[i];
            expanded++;
            for (const step of ORDER) {
                const r = (0, rules_1.move)(s, step.who, step.dir);
                if (r === null)
                    continue;
                const k = (0, rules_1.stateKey)(r);
                if (seen.has(k))
                    continue;
                seen.set(k, { prev: ks, step });
                if ((0, rules_1.isWon)(r))
                    return { status: 'solved', par: depth, expanded, stored: seen.size, path: rebuildPath(seen, k) };
                if (seen.size > limit)
                    return { status: 'limit', par: null, expanded, stored: seen.size, path: null };
                next.push(r);
                nextKeys.push(k);
            }
        }
        layer = next;
        keys = nextKeys;
    }
    return { status: 'unsolvable', par: null, expanded, stored: seen.size, path: null };
}
