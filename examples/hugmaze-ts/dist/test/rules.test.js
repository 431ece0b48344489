"use strict";
// The rules of play, one numbered rule of docs/games/hugmaze.md at a time.
Object.defineProperty(exports, "__esModule", { value: true });
const assert = require("node:assert/strict");
const node_test_1 = require("node:test");
const rules_1 = require("../src/rules");
const helpers_1 = require("./helpers");
/** The state's pieces as [row, column] pairs, for readable assertions. */
function where(s) {
    const w = s.board.width;
    const p = (c) => [Math.floor(c / w), c % w];
    return { bubu: p(s.bubu), dudu: p(s.dudu), blocks: s.blocks.map(p), jars: s.jars.map(p), cushions: s.cushions.map(p) };
}
(0, node_test_1.describe)('1. the target must be on the grid, and not a wall or a cat', () => {
    const l = (0, helpers_1.level)('B#H.', //
    'c..D');
    (0, node_test_1.it)('refuses leaving the grid', () => {
        assert.equal((0, rules_1.attempt)(l.start, 'bubu', 'U'), rules_1.REFUSED_OFF_GRID);
        assert.equal((0, rules_1.attempt)(l.start, 'bubu', 'L'), rules_1.REFUSED_OFF_GRID);
        assert.equal((0, rules_1.attempt)(l.start, 'dudu', 'R'), rules_1.REFUSED_OFF_GRID);
        assert.equal((0, rules_1.attempt)(l.start, 'dudu', 'D'), rules_1.REFUSED_OFF_GRID);
    });
    (0, node_test_1.it)('refuses a wall', () => {
        assert.equal((0, rules_1.attempt)(l.start, 'bubu', 'R'), rules_1.REFUSED_WALL);
        assert.equal((0, rules_1.move)(l.start, 'bubu', 'R'), null);
    });
    (0, node_test_1.it)('refuses a cat, for either bear', () => {
        assert.equal((0, rules_1.attempt)(l.start, 'bubu', 'D'), rules_1.REFUSED_CAT);
        assert.equal((0, helpers_1.last)(l.start, 'D:L D:L D:L'), null);
    });
    (0, node_test_1.it)('cells beyond the grid count as wall: the grid has no wrap-around', () => {
        const s = (0, helpers_1.play)(l.start, 'D:U');
        assert.deepEqual(where(s).dudu, [0, 3]);
        assert.equal((0, rules_1.attempt)(s, 'dudu', 'R'), rules_1.REFUSED_OFF_GRID);
    });
});
(0, node_test_1.describe)('2. Dudu may not enter a mouse hole', () => {
    const l = (0, helpers_1.level)('Bm.', //
    'Dm.', '..H');
    (0, node_test_1.it)('lets Bubu in', () => {
        assert.deepEqual(where((0, helpers_1.play)(l.start, 'B:R B:R')).bubu, [0, 2]);
    });
    (0, node_test_1.it)('keeps Dudu out', () => {
        assert.equal((0, rules_1.attempt)(l.start, 'dudu', 'R'), rules_1.REFUSED_MOUSE_HOLE);
    });
    (0, node_test_1.it)('keeps every object out', () => {
        const m = (0, helpers_1.level)('DJm.', 'BCmH');
        assert.equal((0, rules_1.attempt)(m.start, 'dudu', 'R'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal((0, rules_1.attempt)(m.start, 'bubu', 'R'), rules_1.REFUSED_PUSH_BLOCKED);
    });
});
(0, node_test_1.describe)('3. a gate must be open, counting the moving bear where it is now', () => {
    const l = (0, helpers_1.level)('.pP.H', //
    'B..PD');
    (0, node_test_1.it)('is shut while nothing is on its plate', () => {
        assert.equal((0, rules_1.attempt)(l.start, 'dudu', 'L'), rules_1.REFUSED_GATE_SHUT);
    });
    (0, node_test_1.it)('opens while a bear is on its plate, for the other bear too', () => {
        const s = (0, helpers_1.play)(l.start, 'B:U B:R');
        assert.deepEqual(where((0, helpers_1.play)(s, 'D:L D:L')).dudu, [1, 2]);
    });
    (0, node_test_1.it)('lets a bear on the plate step straight into the gate beside it', () => {
        const s = (0, helpers_1.play)(l.start, 'B:U B:R B:R');
        assert.deepEqual(where(s).bubu, [0, 2]);
    });
    (0, node_test_1.it)('keeps a gate open while a bear stands in it, but only that gate cell', () => {
        const inGate = (0, helpers_1.play)(l.start, 'B:U B:R B:R');
        // Bubu holds (0, 2) open herself, not the other gate of her letter.
        assert.equal((0, rules_1.attempt)(inGate, 'dudu', 'L'), rules_1.REFUSED_GATE_SHUT);
        // Once she is out, nothing holds it: she cannot come back.
        const out = (0, helpers_1.play)(inGate, 'B:R');
        assert.equal((0, rules_1.attempt)(out, 'bubu', 'L'), rules_1.REFUSED_GATE_SHUT);
    });
    (0, node_test_1.it)('shuts again when the plate is left', () => {
        const s = (0, helpers_1.play)(l.start, 'B:U B:R B:L');
        assert.equal((0, rules_1.attempt)(s, 'dudu', 'L'), rules_1.REFUSED_GATE_SHUT);
    });
    (0, node_test_1.it)('is held open by an object on its plate', () => {
        // Dudu parks the jar on the plate and steps off: the gate opens for Bubu.
        const l2 = (0, helpers_1.level)('DJp.', 'B.P.', '...H');
        const held = (0, helpers_1.play)(l2.start, 'D:R');
        assert.deepEqual(where((0, helpers_1.play)(held, 'B:R B:R B:D')).bubu, [2, 2]);
        assert.equal((0, rules_1.attempt)((0, helpers_1.play)(l2.start, 'B:R'), 'bubu', 'R'), rules_1.REFUSED_GATE_SHUT);
    });
    (0, node_test_1.it)('is held open by an object standing in the gate itself', () => {
        const m = (0, helpers_1.level)('DJ.P.', //
        'B.p.H');
        // Bubu holds the plate while Dudu pushes the jar into the gate; then she leaves.
        const parked = (0, helpers_1.play)(m.start, 'D:R B:R B:R D:R B:L');
        assert.deepEqual(where(parked), { bubu: [1, 1], dudu: [0, 2], blocks: [], jars: [[0, 3]], cushions: [] });
        // Nothing is on the plate, but the jar in the gate keeps its cell open:
        // Dudu walks in, pushing the jar on through.
        const through = (0, helpers_1.play)(parked, 'D:R');
        assert.deepEqual(where(through), { bubu: [1, 1], dudu: [0, 3], blocks: [], jars: [[0, 4]], cushions: [] });
        // Out again, the gate is empty and shut behind him.
        assert.equal((0, rules_1.attempt)((0, helpers_1.play)(through, 'D:L'), 'dudu', 'R'), rules_1.REFUSED_GATE_SHUT);
    });
});
(0, node_test_1.describe)('4. the target may hold the other bear only if it is a heart', () => {
    (0, node_test_1.it)('refuses bumping into the other bear on floor', () => {
        const l = (0, helpers_1.level)('BD.H');
        assert.equal((0, rules_1.attempt)(l.start, 'bubu', 'R'), rules_1.REFUSED_BEAR);
        assert.equal((0, rules_1.attempt)(l.start, 'dudu', 'L'), rules_1.REFUSED_BEAR);
    });
    (0, node_test_1.it)('lets both bears stand on a heart, which wins', () => {
        const l = (0, helpers_1.level)('B.HD');
        const s = (0, helpers_1.play)(l.start, 'B:R B:R');
        assert.equal((0, rules_1.isWon)(s), false);
        const won = (0, helpers_1.play)(s, 'D:L');
        assert.equal(won.bubu, won.dudu);
        assert.equal((0, rules_1.isWon)(won), true);
    });
    (0, node_test_1.it)('does not count bears on two different hearts', () => {
        const l = (0, helpers_1.level)('BHHD');
        const apart = (0, helpers_1.play)(l.start, 'B:R D:L');
        assert.equal((0, rules_1.isWon)(apart), false);
        assert.equal((0, rules_1.isWon)((0, helpers_1.play)(apart, 'D:L')), true);
    });
});
(0, node_test_1.describe)('5. pushing', () => {
    (0, node_test_1.it)('lets only Dudu push blocks and jars', () => {
        const l = (0, helpers_1.level)('BX..', //
        '....', 'DX..', '...H');
        assert.equal((0, rules_1.attempt)(l.start, 'bubu', 'R'), rules_1.REFUSED_TOO_HEAVY);
        const s = (0, helpers_1.play)(l.start, 'D:R');
        assert.deepEqual(where(s).blocks, [
            [0, 1],
            [2, 2],
        ]);
        const jar = (0, helpers_1.level)('BJ..', 'DJ.H');
        assert.equal((0, rules_1.attempt)(jar.start, 'bubu', 'R'), rules_1.REFUSED_TOO_HEAVY);
        assert.deepEqual(where((0, helpers_1.play)(jar.start, 'D:R')).jars, [
            [0, 1],
            [1, 2],
        ]);
    });
    (0, node_test_1.it)('moves a block or a jar one cell', () => {
        const l = (0, helpers_1.level)('DX...#', 'B...H#');
        const s = (0, helpers_1.play)(l.start, 'D:R');
        assert.deepEqual(where(s), { bubu: [1, 0], dudu: [0, 1], blocks: [[0, 2]], jars: [], cushions: [] });
    });
    (0, node_test_1.it)('lets either bear push a cushion, which slides until the next cell would not accept it', () => {
        const l = (0, helpers_1.level)('BC...#', 'D...H#');
        const s = (0, helpers_1.play)(l.start, 'B:R');
        assert.deepEqual(where(s), { bubu: [0, 1], dudu: [1, 0], blocks: [], jars: [], cushions: [[0, 4]] });
        const d = (0, helpers_1.level)('DC...#', 'B...H#');
        assert.deepEqual(where((0, helpers_1.play)(d.start, 'D:R')).cushions, [[0, 4]]);
    });
    (0, node_test_1.it)('stops a cushion before an object, a bear, a heart, a hole or the edge', () => {
        assert.deepEqual(where((0, helpers_1.play)((0, helpers_1.level)('BC.J.', 'D...H').start, 'B:R')).cushions, [[0, 2]]);
        assert.deepEqual(where((0, helpers_1.play)((0, helpers_1.level)('BC..D', '....H').start, 'B:R')).cushions, [[0, 3]]);
        assert.deepEqual(where((0, helpers_1.play)((0, helpers_1.level)('BC..H', 'D....').start, 'B:R')).cushions, [[0, 3]]);
        assert.deepEqual(where((0, helpers_1.play)((0, helpers_1.level)('BC..m', 'D...H').start, 'B:R')).cushions, [[0, 3]]);
        assert.deepEqual(where((0, helpers_1.play)((0, helpers_1.level)('BC...', 'D...H').start, 'B:R')).cushions, [[0, 4]]);
    });
    (0, node_test_1.it)('needs the cell beyond to accept the object: floor, a plate or an open gate, empty', () => {
        const beyond = (x, row1 = 'B...H') => (0, rules_1.attempt)((0, helpers_1.level)('DJ' + x + '..', row1).start, 'dudu', 'R');
        assert.equal(beyond('#'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal(beyond('c'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal(beyond('m'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal(beyond('H', 'B....'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal(beyond('P', 'Bp..H'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal(beyond('X'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal(beyond('C'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal((0, rules_1.attempt)((0, helpers_1.level)('DJB.', '...H').start, 'dudu', 'R'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal((0, rules_1.attempt)((0, helpers_1.level)('.DJ', 'B.H').start, 'dudu', 'R'), rules_1.REFUSED_PUSH_BLOCKED);
        assert.equal(typeof beyond('.'), 'object');
        assert.equal(typeof beyond('p', 'BP..H'), 'object');
        // An open gate: Bubu stands on its plate.
        const open = (0, helpers_1.level)('DJP.', 'Bp.H');
        assert.deepEqual(where((0, helpers_1.play)(open.start, 'B:R D:R')).jars, [[0, 2]]);
    });
    (0, node_test_1.it)('judges the push with the pushing bear lifted off: a plate it stands on stops counting', () => {
        const l = (0, helpers_1.level)('DpJP.', //
        'B...H');
        const onPlate = (0, helpers_1.play)(l.start, 'D:R');
        // Dudu alone holds gate P open, and he is lifted for the push.
        assert.equal((0, rules_1.attempt)(onPlate, 'dudu', 'R'), rules_1.REFUSED_PUSH_BLOCKED);
        // With Bubu on another plate of the letter, the same push goes through.
        const helped = (0, helpers_1.level)('DpJP.', 'Bp..H');
        assert.deepEqual(where((0, helpers_1.play)(helped.start, 'B:R D:R D:R')).jars, [[0, 3]]);
    });
    (0, node_test_1.it)('tests the cell beyond while the object is still in place: a jar on plate p goes into gate P', () => {
        const l = (0, helpers_1.level)('DJpP.', 'B...H');
        assert.deepEqual(where((0, helpers_1.play)(l.start, 'D:R D:R')).jars, [[0, 3]]);
    });
    (0, node_test_1.it)('ignores a sliding cushion from its second cell on: it presses no plate while it slides', () => {
        const l = (0, helpers_1.level)('DC.pP.', 'B....H');
        const s = (0, helpers_1.play)(l.start, 'D:R');
        // It crosses (0, 2), reaches the plate, and cannot go on into the gate it
        // would itself hold open: it rests on the plate.
        assert.deepEqual(where(s).cushions, [[0, 3]]);
    });
    (0, node_test_1.it)('does not count the plate the pusher is about to step onto', () => {
        const l = (0, helpers_1.level)('DpCP.', 'B...H');
        // A cushion resting on plate p (0, 1), Dudu beside it.
        const s = (0, helpers_1.placed)(l, { cushions: [[0, 1]] });
        const pushed = (0, rules_1.move)(s, 'dudu', 'R');
        // Neither the cushion (sliding) nor Dudu (lifted) holds gate P open.
        assert.deepEqual(where(pushed), { bubu: [1, 0], dudu: [0, 1], blocks: [], jars: [], cushions: [[0, 2]] });
        // With Bubu on a plate p of her own, the cushion slides on through the gate.
        const m = (0, helpers_1.level)('DpCP.', 'Bp..H');
        const helped = (0, rules_1.move)((0, helpers_1.play)((0, helpers_1.placed)(m, { cushions: [[0, 1]] }), 'B:R'), 'dudu', 'R');
        assert.deepEqual(where(helped).cushions, [[0, 4]]);
    });
    (0, node_test_1.it)('slides a cushion straight through a gate held open by something else', () => {
        const l = (0, helpers_1.level)('BC.P..#', 'Dp...H#');
        const s = (0, helpers_1.play)(l.start, 'D:R B:R');
        assert.deepEqual(where(s).cushions, [[0, 5]]);
    });
});
(0, node_test_1.describe)('6. the bear steps onto the target', () => {
    (0, node_test_1.it)('moves only the bear that moved (and what it pushed)', () => {
        const l = (0, helpers_1.level)('B..', '.D.', '..H');
        assert.deepEqual(where((0, helpers_1.play)(l.start, 'B:R')), { bubu: [0, 1], dudu: [1, 1], blocks: [], jars: [], cushions: [] });
        assert.deepEqual(where((0, helpers_1.play)(l.start, 'D:D')), { bubu: [0, 0], dudu: [2, 1], blocks: [], jars: [], cushions: [] });
    });
    (0, node_test_1.it)('never changes the state it was given', () => {
        const l = (0, helpers_1.level)('BC..', 'DJ..', 'X..H');
        const before = JSON.stringify(where(l.start));
        (0, helpers_1.play)(l.start, 'B:R D:R D:D');
        for (const who of rules_1.BEARS)
            for (const dir of rules_1.DIRECTIONS)
                (0, rules_1.move)(l.start, who, dir);
        assert.equal(JSON.stringify(where(l.start)), before);
    });
});
(0, node_test_1.describe)('the win', () => {
    const l = (0, helpers_1.level)('B.HD');
    const won = (0, helpers_1.play)(l.start, 'B:R B:R D:L');
    (0, node_test_1.it)('refuses every further move', () => {
        for (const who of rules_1.BEARS)
            for (const dir of rules_1.DIRECTIONS)
                assert.equal((0, rules_1.attempt)(won, who, dir), rules_1.REFUSED_WON);
        assert.deepEqual((0, rules_1.successors)(won), []);
    });
    (0, node_test_1.it)('is a state whose bears share a heart', () => {
        assert.equal((0, rules_1.isWon)(won), true);
        assert.equal(won.board.tiles[won.bubu], 2);
    });
});
(0, node_test_1.describe)('successors', () => {
    (0, node_test_1.it)('tries Bubu before Dudu, each U, D, L, R, leaving refused moves out', () => {
        const l = (0, helpers_1.level)('.#.', '.B.', '...', '#D.', '..H');
        assert.deepEqual((0, rules_1.successors)(l.start).map((m) => `${m.who[0].toUpperCase()}:${m.dir}`), ['B:D', 'B:L', 'B:R', 'D:U', 'D:D', 'D:R']);
        assert.equal((0, helpers_1.cell)(l, 1, 1), l.start.bubu);
    });
});
(0, node_test_1.describe)('refusals in words', () => {
    const l = (0, helpers_1.level)('BcmDH', '.X.J.', 'C.p.P');
    const say = (s, text) => {
        const [w, d] = text.split(':');
        const who = w === 'B' ? 'bubu' : 'dudu';
        const r = (0, rules_1.attempt)(s, who, d);
        assert.equal(typeof r, 'number', `${text} should be refused`);
        return (0, rules_1.refusalMessage)(s, who, d, r);
    };
    (0, node_test_1.it)('names the bear and the cell, as the built-in replay does', () => {
        assert.equal(say(l.start, 'B:L'), 'Bubu would leave the grid');
        assert.equal(say(l.start, 'B:R'), 'Bubu cannot pass the sleeping cat at (row 0, column 1)');
        assert.equal(say(l.start, 'D:L'), 'Dudu does not fit through the mouse hole at (row 0, column 2)');
        assert.equal(say((0, helpers_1.play)(l.start, 'D:R D:D'), 'D:D'), 'the gate at (row 2, column 4) is closed in front of Dudu');
        assert.equal(say((0, helpers_1.play)(l.start, 'B:D'), 'B:R'), 'Bubu is too small to push the block at (row 1, column 1)');
        assert.equal(say((0, helpers_1.play)(l.start, 'D:D'), 'D:D'), 'Dudu cannot push the honey jar at (row 2, column 3): the cell beyond is not free');
        assert.equal(say((0, helpers_1.level)('BD.H').start, 'B:R'), 'Bubu bumps into Dudu at (row 0, column 1) (bears share only the heart)');
        assert.equal(say((0, helpers_1.level)('B#', 'DH').start, 'B:R'), 'Bubu walks into the wall at (row 0, column 1)');
        assert.equal(say((0, helpers_1.play)((0, helpers_1.level)('B.HD').start, 'B:R B:R D:L'), 'B:U'), 'the level is already won; no move after the win');
    });
});
