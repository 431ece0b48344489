// stateKey: canonical (identical objects are interchangeable), short, free of
// characters JSON escapes, and read back by stateFromKey.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLevel } from '../src/level';
import { parseMoves } from '../src/notation';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeLevelBytes } from '../src/level';
import { KEY_ALPHABET, MazeState, keyLength, move, stateFromKey, stateKey, successors, writeStateKey } from '../src/rules';
import { level, placed } from './helpers';

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

const LEVELS = join(__dirname, '..', '..', '..', '..', 'levels', 'hugmaze');

/** Every state reachable from `start`, or the first `limit` found. */
function reachable(start: MazeState, limit = Infinity): MazeState[] {
  const seen = new Map([[stateKey(start), start]]);
  const queue = [start];
  while (queue.length > 0 && seen.size < limit) {
    for (const { state } of successors(queue.pop()!)) {
      const k = stateKey(state);
      if (!seen.has(k)) {
        seen.set(k, state);
        queue.push(state);
      }
    }
  }
  return [...seen.values()];
}

function plain(s: MazeState): unknown {
  return { bubu: s.bubu, dudu: s.dudu, blocks: s.blocks, jars: s.jars, cushions: s.cushions };
}

describe('stateKey', () => {
  it('is the same for two jars swapped: objects of a kind are kept in cell order', () => {
    const l = level(
      '.....', //
      '.J.J.',
      '.....',
      '.D...',
      'B...H',
    );
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
    for (const m of parseMoves(moves)) {
      s = move(s, m.who, m.dir)!;
      assert.ok(s.jars.every((c, i) => i === 0 || s.jars[i - 1]! < c), 'jars in cell order');
    }
    assert.deepEqual(s.jars, l.start.jars);
    assert.equal(stateKey(s), stateKey(placed(l, { dudu: [2, 1] })));
  });
  it('tells apart the bears, and the kinds', () => {
    const l = level('BXJC.', 'D...H');
    const k = stateKey(l.start);
    const bearsSwapped = { ...l.start, bubu: l.start.dudu, dudu: l.start.bubu };
    assert.notEqual(stateKey(bearsSwapped), k);
    const kindsSwapped = { ...l.start, blocks: l.start.jars, jars: l.start.blocks };
    assert.notEqual(stateKey(kindsSwapped), k);
  });
  it('is short: one character a cell up to 92 cells, two up to 8,464, three beyond', () => {
    assert.equal(KEY_ALPHABET.length, 92);
    assert.ok(!KEY_ALPHABET.includes('"') && !KEY_ALPHABET.includes('\\'));
    assert.ok([...KEY_ALPHABET].every((c) => c > ' ' && c <= '~'));
    const small = level('BXJC.', 'D...H');
    assert.equal(stateKey(small.start).length, 5);
    const article = parseLevel(ARTICLE.join('\n'));
    assert.equal(article.start.board.keyWidth, 2);
    assert.equal(stateKey(article.start).length, 8);
    const rows = Array.from({ length: 100 }, () => '.'.repeat(100));
    rows[99] = '.'.repeat(96) + 'BJHD';
    const huge = parseLevel(rows.join('\n'));
    assert.equal(huge.start.board.keyWidth, 3);
    assert.equal(stateKey(huge.start).length, 9);
    assert.deepEqual(plain(stateFromKey(huge.start, stateKey(huge.start))), plain(huge.start));
  });
  it('is read back by stateFromKey, for every reachable state of a level', () => {
    const l = level('BC.pP.', 'DJ.X.H', '......');
    const all = reachable(l.start);
    assert.ok(all.length > 100);
    for (const s of all) assert.deepEqual(plain(stateFromKey(l.start, stateKey(s))), plain(s));
  });
  it('turns away what is not a key of the level', () => {
    const l = level('BXJC.', 'D...H');
    const k = stateKey(l.start);
    assert.throws(() => stateFromKey(l.start, k + '!'), /not a state of this level/);
    assert.throws(() => stateFromKey(l.start, k.slice(1)), /not a state of this level/);
    assert.throws(() => stateFromKey(l.start, '"' + k.slice(1)), /not a state of this level/);
    assert.throws(() => stateFromKey(l.start, '~' + k.slice(1)), /beyond the grid/);
    const two = level('BJJ..', 'D...H');
    const kk = stateKey(two.start);
    assert.throws(() => stateFromKey(two.start, kk.slice(0, 2) + kk[3] + kk[2]), /out of order/);
  });
});

describe('writeStateKey', () => {
  /** The key's bytes as writeStateKey writes them between two guard bytes, checked to stop where it says. */
  function written(s: MazeState): string {
    const n = keyLength(s);
    const out = new Uint8Array(n + 2).fill(0xff);
    assert.equal(writeStateKey(s, out, 1), 1 + n, 'returns the offset after the key');
    assert.equal(out[0], 0xff, 'nothing before the offset');
    assert.equal(out[n + 1], 0xff, 'nothing after the key');
    return String.fromCharCode(...out.subarray(1, n + 1));
  }
  it("writes exactly stateKey's characters, with one, two and three characters a cell", () => {
    const small = level('BC.pP.', 'DJ.X.H', '......');
    assert.equal(small.start.board.keyWidth, 1);
    const all = reachable(small.start);
    assert.ok(all.length > 100);
    for (const s of all) assert.equal(written(s), stateKey(s));
    const article = parseLevel(ARTICLE.join('\n'));
    assert.equal(article.start.board.keyWidth, 2);
    for (const s of reachable(article.start, 20_000)) assert.equal(written(s), stateKey(s));
    const rows = Array.from({ length: 100 }, () => '.'.repeat(100));
    rows[0] = 'C.X' + '.'.repeat(97);
    rows[99] = '.'.repeat(96) + 'BJHD';
    const huge = parseLevel(rows.join('\n'));
    assert.equal(huge.start.board.keyWidth, 3);
    for (const s of reachable(huge.start, 5_000)) assert.equal(written(s), stateKey(s));
  });
  it("writes exactly stateKey's characters on every level of levels/hugmaze", { skip: existsSync(LEVELS) ? false : `no ${LEVELS}` }, () => {
    const files = readdirSync(LEVELS).filter((f) => f.endsWith('.txt'));
    assert.ok(files.length >= 17);
    for (const f of files) {
      const l = parseLevel(decodeLevelBytes(readFileSync(join(LEVELS, f))));
      for (const s of reachable(l.start, 3_000)) assert.equal(written(s), stateKey(s), f);
    }
  });
});
