"use strict";
// The article's own test, on its level (levels/hugmaze/17-article-example.txt):
// the level is solvable in exactly its par, and replaying the solver's path
// through move() really wins. The numbers are this BFS's own (par 27 after
// 441,500 states expanded, which the built-in engine reports as well).
Object.defineProperty(exports, "__esModule", { value: true });
const assert = require("node:assert/strict");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const node_test_1 = require("node:test");
const bfs_1 = require("../src/bfs");
const level_1 = require("../src/level");
const rules_1 = require("../src/rules");
const FILE = (0, node_path_1.join)(__dirname, '..', '..', '..', '..', 'levels', 'hugmaze', '17-article-example.txt');
(0, node_test_1.describe)("the article's level", { skip: (0, node_fs_1.existsSync)(FILE) ? false : `no ${FILE}` }, () => {
    (0, node_test_1.it)('is solvable in exactly par 27, and the path replays to a win', () => {
        const level = (0, level_1.parseLevel)((0, level_1.decodeLevelBytes)((0, node_fs_1.readFileSync)(FILE)));
        assert.equal(level.headers.get('name'), 'Two Jars, Two Plates');
        assert.deepEqual((0, level_1.mechanics)(level).map((m) => m.name), ['jar', 'plate', 'gate']);
        const r = (0, bfs_1.solve)(level.start, 2_000_000);
        assert.equal(r.status, 'solved');
        assert.equal(r.par, 27);
        assert.equal(r.expanded, 441_500);
        let s = level.start;
        for (const step of r.path)
            s = (0, rules_1.move)(s, step.who, step.dir);
        assert.equal((0, rules_1.isWon)(s), true);
        assert.equal(r.path.length, 27);
    });
});
