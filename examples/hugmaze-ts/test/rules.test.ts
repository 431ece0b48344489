// The rules of play, one numbered rule of docs/games/hugmaze.md at a time.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BEARS,
  DIRECTIONS,
  MazeState,
  REFUSED_BEAR,
  REFUSED_CAT,
  REFUSED_GATE_SHUT,
  REFUSED_MOUSE_HOLE,
  REFUSED_OFF_GRID,
  REFUSED_PUSH_BLOCKED,
  REFUSED_TOO_HEAVY,
  REFUSED_WALL,
  REFUSED_WON,
  attempt,
  isWon,
  move,
  refusalMessage,
  successors,
} from '../src/rules';
import { cell, last, level, placed, play } from './helpers';

/** The state's pieces as [row, column] pairs, for readable assertions. */
function where(s: MazeState): Record<string, unknown> {
  const w = s.board.width;
  const p = (c: number): [number, number] => [Math.floor(c / w), c % w];
  return { bubu: p(s.bubu), dudu: p(s.dudu), blocks: s.blocks.map(p), jars: s.jars.map(p), cushions: s.cushions.map(p) };
}

describe('1. the target must be on the grid, and not a wall or a cat', () => {
  const l = level(
    'B#H.', //
    'c..D',
  );
  it('refuses leaving the grid', () => {
    assert.equal(attempt(l.start, 'bubu', 'U'), REFUSED_OFF_GRID);
    assert.equal(attempt(l.start, 'bubu', 'L'), REFUSED_OFF_GRID);
    assert.equal(attempt(l.start, 'dudu', 'R'), REFUSED_OFF_GRID);
    assert.equal(attempt(l.start, 'dudu', 'D'), REFUSED_OFF_GRID);
  });
  it('refuses a wall', () => {
    assert.equal(attempt(l.start, 'bubu', 'R'), REFUSED_WALL);
    assert.equal(move(l.start, 'bubu', 'R'), null);
  });
  it('refuses a cat, for either bear', () => {
    assert.equal(attempt(l.start, 'bubu', 'D'), REFUSED_CAT);
    assert.equal(last(l.start, 'D:L D:L D:L'), null);
  });
  it('cells beyond the grid count as wall: the grid has no wrap-around', () => {
    const s = play(l.start, 'D:U');
    assert.deepEqual(where(s).dudu, [0, 3]);
    assert.equal(attempt(s, 'dudu', 'R'), REFUSED_OFF_GRID);
  });
});

describe('2. Dudu may not enter a mouse hole', () => {
  const l = level(
    'Bm.', //
    'Dm.',
    '..H',
  );
  it('lets Bubu in', () => {
    assert.deepEqual(where(play(l.start, 'B:R B:R')).bubu, [0, 2]);
  });
  it('keeps Dudu out', () => {
    assert.equal(attempt(l.start, 'dudu', 'R'), REFUSED_MOUSE_HOLE);
  });
  it('keeps every object out', () => {
    const m = level('DJm.', 'BCmH');
    assert.equal(attempt(m.start, 'dudu', 'R'), REFUSED_PUSH_BLOCKED);
    assert.equal(attempt(m.start, 'bubu', 'R'), REFUSED_PUSH_BLOCKED);
  });
});

describe('3. a gate must be open, counting the moving bear where it is now', () => {
  const l = level(
    '.pP.H', //
    'B..PD',
  );
  it('is shut while nothing is on its plate', () => {
    assert.equal(attempt(l.start, 'dudu', 'L'), REFUSED_GATE_SHUT);
  });
  it('opens while a bear is on its plate, for the other bear too', () => {
    const s = play(l.start, 'B:U B:R');
    assert.deepEqual(where(play(s, 'D:L D:L')).dudu, [1, 2]);
  });
  it('lets a bear on the plate step straight into the gate beside it', () => {
    const s = play(l.start, 'B:U B:R B:R');
    assert.deepEqual(where(s).bubu, [0, 2]);
  });
  it('keeps a gate open while a bear stands in it, but only that gate cell', () => {
    const inGate = play(l.start, 'B:U B:R B:R');
    // Bubu holds (0, 2) open herself, not the other gate of her letter.
    assert.equal(attempt(inGate, 'dudu', 'L'), REFUSED_GATE_SHUT);
    // Once she is out, nothing holds it: she cannot come back.
    const out = play(inGate, 'B:R');
    assert.equal(attempt(out, 'bubu', 'L'), REFUSED_GATE_SHUT);
  });
  it('shuts again when the plate is left', () => {
    const s = play(l.start, 'B:U B:R B:L');
    assert.equal(attempt(s, 'dudu', 'L'), REFUSED_GATE_SHUT);
  });
  it('is held open by an object on its plate', () => {
    // Dudu parks the jar on the plate and steps off: the gate opens for Bubu.
    const l2 = level('DJp.', 'B.P.', '...H');
    const held = play(l2.start, 'D:R');
    assert.deepEqual(where(play(held, 'B:R B:R B:D')).bubu, [2, 2]);
    assert.equal(attempt(play(l2.start, 'B:R'), 'bubu', 'R'), REFUSED_GATE_SHUT);
  });
  it('is held open by an object standing in the gate itself', () => {
    const m = level(
      'DJ.P.', //
      'B.p.H',
    );
    // Bubu holds the plate while Dudu pushes the jar into the gate; then she leaves.
    const parked = play(m.start, 'D:R B:R B:R D:R B:L');
    assert.deepEqual(where(parked), { bubu: [1, 1], dudu: [0, 2], blocks: [], jars: [[0, 3]], cushions: [] });
    // Nothing is on the plate, but the jar in the gate keeps its cell open:
    // Dudu walks in, pushing the jar on through.
    const through = play(parked, 'D:R');
    assert.deepEqual(where(through), { bubu: [1, 1], dudu: [0, 3], blocks: [], jars: [[0, 4]], cushions: [] });
    // Out again, the gate is empty and shut behind him.
    assert.equal(attempt(play(through, 'D:L'), 'dudu', 'R'), REFUSED_GATE_SHUT);
  });
});

describe('4. the target may hold the other bear only if it is a heart', () => {
  it('refuses bumping into the other bear on floor', () => {
    const l = level('BD.H');
    assert.equal(attempt(l.start, 'bubu', 'R'), REFUSED_BEAR);
    assert.equal(attempt(l.start, 'dudu', 'L'), REFUSED_BEAR);
  });
  it('lets both bears stand on a heart, which wins', () => {
    const l = level('B.HD');
    const s = play(l.start, 'B:R B:R');
    assert.equal(isWon(s), false);
    const won = play(s, 'D:L');
    assert.equal(won.bubu, won.dudu);
    assert.equal(isWon(won), true);
  });
  it('does not count bears on two different hearts', () => {
    const l = level('BHHD');
    const apart = play(l.start, 'B:R D:L');
    assert.equal(isWon(apart), false);
    assert.equal(isWon(play(apart, 'D:L')), true);
  });
});

describe('5. pushing', () => {
  it('lets only Dudu push blocks and jars', () => {
    const l = level(
      'BX..', //
      '....',
      'DX..',
      '...H',
    );
    assert.equal(attempt(l.start, 'bubu', 'R'), REFUSED_TOO_HEAVY);
    const s = play(l.start, 'D:R');
    assert.deepEqual(where(s).blocks, [
      [0, 1],
      [2, 2],
    ]);
    const jar = level('BJ..', 'DJ.H');
    assert.equal(attempt(jar.start, 'bubu', 'R'), REFUSED_TOO_HEAVY);
    assert.deepEqual(where(play(jar.start, 'D:R')).jars, [
      [0, 1],
      [1, 2],
    ]);
  });
  it('moves a block or a jar one cell', () => {
    const l = level('DX...#', 'B...H#');
    const s = play(l.start, 'D:R');
    assert.deepEqual(where(s), { bubu: [1, 0], dudu: [0, 1], blocks: [[0, 2]], jars: [], cushions: [] });
  });
  it('lets either bear push a cushion, which slides until the next cell would not accept it', () => {
    const l = level('BC...#', 'D...H#');
    const s = play(l.start, 'B:R');
    assert.deepEqual(where(s), { bubu: [0, 1], dudu: [1, 0], blocks: [], jars: [], cushions: [[0, 4]] });
    const d = level('DC...#', 'B...H#');
    assert.deepEqual(where(play(d.start, 'D:R')).cushions, [[0, 4]]);
  });
  it('stops a cushion before an object, a bear, a heart, a hole or the edge', () => {
    assert.deepEqual(where(play(level('BC.J.', 'D...H').start, 'B:R')).cushions, [[0, 2]]);
    assert.deepEqual(where(play(level('BC..D', '....H').start, 'B:R')).cushions, [[0, 3]]);
    assert.deepEqual(where(play(level('BC..H', 'D....').start, 'B:R')).cushions, [[0, 3]]);
    assert.deepEqual(where(play(level('BC..m', 'D...H').start, 'B:R')).cushions, [[0, 3]]);
    assert.deepEqual(where(play(level('BC...', 'D...H').start, 'B:R')).cushions, [[0, 4]]);
  });
  it('needs the cell beyond to accept the object: floor, a plate or an open gate, empty', () => {
    const beyond = (x: string, row1 = 'B...H'): ReturnType<typeof attempt> => attempt(level('DJ' + x + '..', row1).start, 'dudu', 'R');
    assert.equal(beyond('#'), REFUSED_PUSH_BLOCKED);
    assert.equal(beyond('c'), REFUSED_PUSH_BLOCKED);
    assert.equal(beyond('m'), REFUSED_PUSH_BLOCKED);
    assert.equal(beyond('H', 'B....'), REFUSED_PUSH_BLOCKED);
    assert.equal(beyond('P', 'Bp..H'), REFUSED_PUSH_BLOCKED);
    assert.equal(beyond('X'), REFUSED_PUSH_BLOCKED);
    assert.equal(beyond('C'), REFUSED_PUSH_BLOCKED);
    assert.equal(attempt(level('DJB.', '...H').start, 'dudu', 'R'), REFUSED_PUSH_BLOCKED);
    assert.equal(attempt(level('.DJ', 'B.H').start, 'dudu', 'R'), REFUSED_PUSH_BLOCKED);
    assert.equal(typeof beyond('.'), 'object');
    assert.equal(typeof beyond('p', 'BP..H'), 'object');
    // An open gate: Bubu stands on its plate.
    const open = level('DJP.', 'Bp.H');
    assert.deepEqual(where(play(open.start, 'B:R D:R')).jars, [[0, 2]]);
  });
  it('judges the push with the pushing bear lifted off: a plate it stands on stops counting', () => {
    const l = level(
      'DpJP.', //
      'B...H',
    );
    const onPlate = play(l.start, 'D:R');
    // Dudu alone holds gate P open, and he is lifted for the push.
    assert.equal(attempt(onPlate, 'dudu', 'R'), REFUSED_PUSH_BLOCKED);
    // With Bubu on another plate of the letter, the same push goes through.
    const helped = level('DpJP.', 'Bp..H');
    assert.deepEqual(where(play(helped.start, 'B:R D:R D:R')).jars, [[0, 3]]);
  });
  it('tests the cell beyond while the object is still in place: a jar on plate p goes into gate P', () => {
    const l = level('DJpP.', 'B...H');
    assert.deepEqual(where(play(l.start, 'D:R D:R')).jars, [[0, 3]]);
  });
  it('ignores a sliding cushion from its second cell on: it presses no plate while it slides', () => {
    const l = level('DC.pP.', 'B....H');
    const s = play(l.start, 'D:R');
    // It crosses (0, 2), reaches the plate, and cannot go on into the gate it
    // would itself hold open: it rests on the plate.
    assert.deepEqual(where(s).cushions, [[0, 3]]);
  });
  it('does not count the plate the pusher is about to step onto', () => {
    const l = level('DpCP.', 'B...H');
    // A cushion resting on plate p (0, 1), Dudu beside it.
    const s = placed(l, { cushions: [[0, 1]] });
    const pushed = move(s, 'dudu', 'R')!;
    // Neither the cushion (sliding) nor Dudu (lifted) holds gate P open.
    assert.deepEqual(where(pushed), { bubu: [1, 0], dudu: [0, 1], blocks: [], jars: [], cushions: [[0, 2]] });
    // With Bubu on a plate p of her own, the cushion slides on through the gate.
    const m = level('DpCP.', 'Bp..H');
    const helped = move(play(placed(m, { cushions: [[0, 1]] }), 'B:R'), 'dudu', 'R')!;
    assert.deepEqual(where(helped).cushions, [[0, 4]]);
  });
  it('slides a cushion straight through a gate held open by something else', () => {
    const l = level('BC.P..#', 'Dp...H#');
    const s = play(l.start, 'D:R B:R');
    assert.deepEqual(where(s).cushions, [[0, 5]]);
  });
});

describe('6. the bear steps onto the target', () => {
  it('moves only the bear that moved (and what it pushed)', () => {
    const l = level('B..', '.D.', '..H');
    assert.deepEqual(where(play(l.start, 'B:R')), { bubu: [0, 1], dudu: [1, 1], blocks: [], jars: [], cushions: [] });
    assert.deepEqual(where(play(l.start, 'D:D')), { bubu: [0, 0], dudu: [2, 1], blocks: [], jars: [], cushions: [] });
  });
  it('never changes the state it was given', () => {
    const l = level('BC..', 'DJ..', 'X..H');
    const before = JSON.stringify(where(l.start));
    play(l.start, 'B:R D:R D:D');
    for (const who of BEARS) for (const dir of DIRECTIONS) move(l.start, who, dir);
    assert.equal(JSON.stringify(where(l.start)), before);
  });
});

describe('the win', () => {
  const l = level('B.HD');
  const won = play(l.start, 'B:R B:R D:L');
  it('refuses every further move', () => {
    for (const who of BEARS) for (const dir of DIRECTIONS) assert.equal(attempt(won, who, dir), REFUSED_WON);
    assert.deepEqual(successors(won), []);
  });
  it('is a state whose bears share a heart', () => {
    assert.equal(isWon(won), true);
    assert.equal(won.board.tiles[won.bubu], 2);
  });
});

describe('successors', () => {
  it('tries Bubu before Dudu, each U, D, L, R, leaving refused moves out', () => {
    const l = level('.#.', '.B.', '...', '#D.', '..H');
    assert.deepEqual(
      successors(l.start).map((m) => `${m.who[0]!.toUpperCase()}:${m.dir}`),
      ['B:D', 'B:L', 'B:R', 'D:U', 'D:D', 'D:R'],
    );
    assert.equal(cell(l, 1, 1), l.start.bubu);
  });
});

describe('refusals in words', () => {
  const l = level('BcmDH', '.X.J.', 'C.p.P');
  const say = (s: MazeState, text: string): string => {
    const [w, d] = text.split(':') as ['B' | 'D', 'U' | 'D' | 'L' | 'R'];
    const who = w === 'B' ? 'bubu' : 'dudu';
    const r = attempt(s, who, d);
    assert.equal(typeof r, 'number', `${text} should be refused`);
    return refusalMessage(s, who, d, r as Exclude<typeof r, MazeState>);
  };
  it('names the bear and the cell, as the built-in replay does', () => {
    assert.equal(say(l.start, 'B:L'), 'Bubu would leave the grid');
    assert.equal(say(l.start, 'B:R'), 'Bubu cannot pass the sleeping cat at (row 0, column 1)');
    assert.equal(say(l.start, 'D:L'), 'Dudu does not fit through the mouse hole at (row 0, column 2)');
    assert.equal(say(play(l.start, 'D:R D:D'), 'D:D'), 'the gate at (row 2, column 4) is closed in front of Dudu');
    assert.equal(say(play(l.start, 'B:D'), 'B:R'), 'Bubu is too small to push the block at (row 1, column 1)');
    assert.equal(
      say(play(l.start, 'D:D'), 'D:D'),
      'Dudu cannot push the honey jar at (row 2, column 3): the cell beyond is not free',
    );
    assert.equal(say(level('BD.H').start, 'B:R'), 'Bubu bumps into Dudu at (row 0, column 1) (bears share only the heart)');
    assert.equal(say(level('B#', 'DH').start, 'B:R'), 'Bubu walks into the wall at (row 0, column 1)');
    assert.equal(say(play(level('B.HD').start, 'B:R B:R D:L'), 'B:U'), 'the level is already won; no move after the win');
  });
});
