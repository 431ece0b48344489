"use strict";
// Move notation: `B:U` tokens separated by whitespace or commas, uppercase
// only; errors at the 1-based column where reading stopped.
Object.defineProperty(exports, "__esModule", { value: true });
const assert = require("node:assert/strict");
const node_test_1 = require("node:test");
const notation_1 = require("../src/notation");
function error(text) {
    try {
        (0, notation_1.parseMoves)(text);
    }
    catch (e) {
        if (e instanceof notation_1.NotationError)
            return [e.message, e.column];
        throw e;
    }
    assert.fail('the moves read');
}
(0, node_test_1.describe)('parsing moves', () => {
    (0, node_test_1.it)('reads tokens separated by whitespace or commas', () => {
        const want = [
            { who: 'bubu', dir: 'R' },
            { who: 'dudu', dir: 'U' },
            { who: 'dudu', dir: 'U' },
        ];
        assert.deepEqual((0, notation_1.parseMoves)('B:R D:U D:U'), want);
        assert.deepEqual((0, notation_1.parseMoves)('B:R,D:U,D:U'), want);
        assert.deepEqual((0, notation_1.parseMoves)(' B:R ,, D:U\n\tD:U, '), want);
        assert.deepEqual((0, notation_1.parseMoves)('B:R\u00a0D:U\u2003D:U'), want);
        assert.deepEqual((0, notation_1.parseMoves)(''), []);
        assert.deepEqual((0, notation_1.parseMoves)(' , '), []);
    });
    (0, node_test_1.it)('reads every bear and direction', () => {
        assert.deepEqual((0, notation_1.parseMoves)('B:U B:D B:L B:R D:U D:D D:L D:R').map((m) => m.who + m.dir), ['bubuU', 'bubuD', 'bubuL', 'bubuR', 'duduU', 'duduD', 'duduL', 'duduR']);
    });
    (0, node_test_1.it)('refuses lowercase, brackets, and anything that is not bear, colon, direction', () => {
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
    (0, node_test_1.it)('counts columns in characters over the whole text', () => {
        assert.deepEqual(error('é,B:R Q:R'), [
            '`é` is not a move: write the bear, a colon and a direction, as in `B:R` or `D:U`',
            1,
        ]);
        assert.equal(error('B:R\nD:Q')[1], 7);
    });
});
(0, node_test_1.describe)('one token', () => {
    (0, node_test_1.it)('is exactly bear, colon, direction', () => {
        assert.deepEqual((0, notation_1.parseToken)('D:L'), { who: 'dudu', dir: 'L' });
        for (const t of ['', 'D:', 'D:LL', ' D:L', 'd:l', 'D-L', 'X:L'])
            assert.equal((0, notation_1.parseToken)(t), null, t);
    });
});
(0, node_test_1.describe)('formatting moves', () => {
    (0, node_test_1.it)('writes tokens separated by single spaces', () => {
        assert.equal((0, notation_1.formatMoves)((0, notation_1.parseMoves)('B:R,D:U\n D:U')), 'B:R D:U D:U');
        assert.equal((0, notation_1.formatMoves)([]), '');
    });
    (0, node_test_1.it)('round-trips', () => {
        const text = 'B:U B:D B:L B:R D:U D:D D:L D:R';
        assert.equal((0, notation_1.formatMoves)((0, notation_1.parseMoves)(text)), text);
    });
});
