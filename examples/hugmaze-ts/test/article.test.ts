// The article's own test, on its level (levels/hugmaze/17-article-example.txt):
// the level is solvable in exactly its par, and replaying the solver's path
// through move() really wins. The numbers are this BFS's own (par 27 after
// 441,500 states expanded, which the built-in engine reports as well).

import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { solve } from '../src/bfs';
import { decodeLevelBytes, mechanics, parseLevel } from '../src/level';
import { isWon, move } from '../src/rules';

const FILE = join(__dirname, '..', '..', '..', '..', 'levels', 'hugmaze', '17-article-example.txt');

describe("the article's level", { skip: existsSync(FILE) ? false : `no ${FILE}` }, () => {
  it('is solvable in exactly par 27, and the path replays to a win', () => {
    const level = parseLevel(decodeLevelBytes(readFileSync(FILE)));
    assert.equal(level.headers.get('name'), 'Two Jars, Two Plates');
    assert.deepEqual(
      mechanics(level).map((m) => m.name),
      ['jar', 'plate', 'gate'],
    );
    const r = solve(level.start, 2_000_000);
    assert.equal(r.status, 'solved');
    assert.equal(r.par, 27);
    assert.equal(r.expanded, 441_500);
    let s = level.start;
    for (const step of r.path!) s = move(s, step.who, step.dir)!;
    assert.equal(isWon(s), true);
    assert.equal(r.path!.length, 27);
  });
});
