// Move notation: `B:U` tokens separated by whitespace or commas, uppercase
// only; errors at the 1-based column where reading stopped.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotationError, formatMoves, parseMoves, parseToken } from '../src/notation';

function error(text: string): [string, number] {
  try {
    parseMoves(text);
  } catch (e) {
    if (e instanceof NotationError) return [e.message, e.column];
    throw e;
  }
  assert.fail('the moves read');
}

describe('parsing moves', () => {
  it('reads tokens separated by whitespace or commas', () => {
    const want = [
      { who: 'bubu', dir: 'R' },
      { who: 'dudu', dir: 'U' },
      { who: 'dudu', dir: 'U' },
    ];
    assert.deepEqual(parseMoves('B:R D:U D:U'), want);
    assert.deepEqual(parseMoves('B:R,D:U,D:U'), want);
    assert.deepEqual(parseMoves(' B:R ,, D:U\n\tD:U, '), want);
    assert.deepEqual(parseMoves('B:R\u00a0D:U\u2003D:U'), want);
    assert.deepEqual(parseMoves(''), []);
    assert.deepEqual(parseMoves(' , '), []);
  });
  it('reads every bear and direction', () => {
    assert.deepEqual(
      parseMoves('B:U B:D B:L B:R D:U D:D D:L D:R').map((m) => m.who + m.dir),
      ['bubuU', 'bubuD', 'bubuL', 'bubuR', 'duduU', 'duduD', 'duduL', 'duduR'],
    );
  });
  it('refuses lowercase, brackets, and anything that is not bear, colon, direction', () => {
    assert.deepEqual(error('b:r'), ['unknown bear `b` in `b:r`: B is Bubu, D is Dudu', 1]);
    assert.deepEqual(error('B:r'), ['unknown direction `r` in `B:r`: directions are U D L R', 3]);
    assert.deepEqual(error('[B:R]'), ['unknown bear `[B` in `[B:R]`: B is Bubu, D is Dudu', 1]);
    assert.deepEqual(error('B:R Q:R'), ['unknown bear `Q` in `Q:R`: B is Bubu, D is Dudu', 5]);
    assert.deepEqual(error('B:X'), ['unknown direction `X` in `B:X`: directions are U D L R', 3]);
    assert.deepEqual(error('B:RD:L'), ['unknown direction `RD:L` in `B:RD:L`: directions are U D L R', 3]);
    assert.deepEqual(error('B:R;D:L'), ['unknown direction `R;D:L` in `B:R;D:L`: directions are U D L R', 3]);
    assert.deepEqual(error('B: R'), ['unknown direction `` in `B:`: directions are U D L R', 3]);
    assert.deepEqual(error('B:R D'), [
      '`D` is not a move: write the bear, a colon and a direction, as in `B:R` or `D:U`',
      5,
    ]);
    assert.deepEqual(error('B-R')[1], 1);
    assert.deepEqual(error('2B:R')[1], 1);
  });
  it('counts columns in characters over the whole text', () => {
    assert.deepEqual(error('é,B:R Q:R'), [
      '`é` is not a move: write the bear, a colon and a direction, as in `B:R` or `D:U`',
      1,
    ]);
    assert.equal(error('B:R\nD:Q')[1], 7);
  });
});

describe('one token', () => {
  it('is exactly bear, colon, direction', () => {
    assert.deepEqual(parseToken('D:L'), { who: 'dudu', dir: 'L' });
    for (const t of ['', 'D:', 'D:LL', ' D:L', 'd:l', 'D-L', 'X:L']) assert.equal(parseToken(t), null, t);
  });
});

describe('formatting moves', () => {
  it('writes tokens separated by single spaces', () => {
    assert.equal(formatMoves(parseMoves('B:R,D:U\n D:U')), 'B:R D:U D:U');
    assert.equal(formatMoves([]), '');
  });
  it('round-trips', () => {
    const text = 'B:U B:D B:L B:R D:U D:D D:L D:R';
    assert.equal(formatMoves(parseMoves(text)), text);
  });
});
