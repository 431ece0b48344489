"use strict";
// Level files: the format, every error and warning with its line and column
// (the positions the built-in engine reports for the same files), and
// ablation.
Object.defineProperty(exports, "__esModule", { value: true });
const assert = require("node:assert/strict");
const node_test_1 = require("node:test");
const level_1 = require("../src/level");
const rules_1 = require("../src/rules");
const bfs_1 = require("../src/bfs");
const helpers_1 = require("./helpers");
/** The error a text gives, as [message, line, column]. */
function error(text) {
    try {
        (0, level_1.parseLevel)(text);
    }
    catch (e) {
        if (e instanceof level_1.LevelError)
            return [e.message, e.line, e.column];
        throw e;
    }
    assert.fail('the level loaded');
}
const POCKET_MAZE = `name: Pocket Maze
hint: Dudu parks the jar on the plate
; comments and blank lines may come before the grid

#########
#B.m.#..#
####.P.D#
#..#.#J.#
#H...#p.#
#########
`;
(0, node_test_1.describe)('a level file', () => {
    (0, node_test_1.it)("reads the rulebook's example, which has par 19", () => {
        const l = (0, level_1.parseLevel)(POCKET_MAZE);
        assert.deepEqual([...l.headers], [
            ['name', 'Pocket Maze'],
            ['hint', 'Dudu parks the jar on the plate'],
        ]);
        assert.equal(l.width, 9);
        assert.equal(l.height, 6);
        assert.equal(l.gridLine, 5);
        assert.deepEqual(l.warnings, []);
        const b = l.start.board;
        assert.equal(b.tiles[(0, helpers_1.cell)(l, 0, 0)], rules_1.WALL);
        assert.equal(b.tiles[(0, helpers_1.cell)(l, 1, 2)], rules_1.FLOOR);
        assert.equal(b.tiles[(0, helpers_1.cell)(l, 1, 3)], rules_1.HOLE);
        assert.equal(b.tiles[(0, helpers_1.cell)(l, 2, 5)], rules_1.GATE);
        assert.equal(b.tiles[(0, helpers_1.cell)(l, 4, 1)], rules_1.HEART);
        assert.equal(b.tiles[(0, helpers_1.cell)(l, 4, 6)], rules_1.PLATE);
        assert.equal(b.letters[(0, helpers_1.cell)(l, 2, 5)], b.letters[(0, helpers_1.cell)(l, 4, 6)]);
        assert.equal(l.start.bubu, (0, helpers_1.cell)(l, 1, 1));
        assert.equal(l.start.dudu, (0, helpers_1.cell)(l, 2, 7));
        assert.deepEqual(l.start.jars, [(0, helpers_1.cell)(l, 3, 6)]);
        // Starts, objects and plates stand on floor.
        assert.equal(b.tiles[l.start.bubu], rules_1.FLOOR);
        assert.equal(b.tiles[l.start.jars[0]], rules_1.FLOOR);
        assert.equal((0, bfs_1.solve)(l.start).par, 19);
    });
    (0, node_test_1.it)('takes headers, comments and blank lines in any mix before the grid', () => {
        const l = (0, level_1.parseLevel)('\t\n   ; a comment\nname: x\n\nx-1_: y\n; name: not a header\n#BHD#\n\n \n');
        assert.deepEqual([...l.headers], [
            ['name', 'x'],
            ['x-1_', 'y'],
        ]);
        assert.equal(l.gridLine, 7);
    });
    (0, node_test_1.it)('reads a line whose text before the colon is not a word as the grid', () => {
        assert.deepEqual(error('a b: x\n#BHD#\n'), ['ragged row: 5 cells, but the first row (line 1) has 6', 2, 6]);
    });
    (0, node_test_1.it)('needs no headers at all', () => {
        assert.equal((0, level_1.parseLevel)('#B.HD\n').width, 5);
        assert.equal((0, level_1.parseLevel)('#B.HD').width, 5);
    });
    (0, node_test_1.it)('drops a byte-order mark, CRLF line ends and spaces or tabs at a row end', () => {
        const l = (0, level_1.parseLevel)('\uFEFFname: x\r\n#####\r\n#BHD#  \t\r\n#####\r\n');
        assert.equal(l.headers.get('name'), 'x');
        assert.equal(l.width, 5);
        assert.equal(l.height, 3);
    });
    (0, node_test_1.it)('has cells beyond the grid count as wall, and keeps several hearts', () => {
        const l = (0, level_1.parseLevel)('BHH\nD..\n');
        assert.equal(l.start.board.next[0 * 4 + 0], -1);
        assert.equal([...l.start.board.tiles].filter((t) => t === rules_1.HEART).length, 2);
    });
    (0, node_test_1.it)('reads every plate and gate letter, and cats', () => {
        const plates = 'aefgiklnopqrstuvwyz';
        const l = (0, level_1.parseLevel)(`B${plates}c\nD${plates.toUpperCase()}H\n`);
        const b = l.start.board;
        for (let i = 0; i < plates.length; i++) {
            assert.equal(b.tiles[(0, helpers_1.cell)(l, 0, i + 1)], rules_1.PLATE);
            assert.equal(b.tiles[(0, helpers_1.cell)(l, 1, i + 1)], rules_1.GATE);
            assert.equal(b.letters[(0, helpers_1.cell)(l, 0, i + 1)], plates.charCodeAt(i) - 0x61);
        }
        assert.equal(b.tiles[(0, helpers_1.cell)(l, 0, plates.length + 1)], rules_1.CAT);
        assert.deepEqual(l.warnings, []);
    });
});
(0, node_test_1.describe)('errors', () => {
    (0, node_test_1.it)('an unknown character, a space or a tab inside a row', () => {
        assert.deepEqual(error('name: x\n#####\n#B?HD\n#####\n'), ['unknown character `?`', 3, 3]);
        assert.deepEqual(error('name: x\n#####\n#B HD\n#####\n'), ['unknown character ` ` (a space)', 3, 3]);
        assert.deepEqual(error('name: x\n#####\n#B\tHD\n#####\n'), ['unknown character `\\t` (a tab)', 3, 3]);
        assert.deepEqual(error('name: x\n#####\n#BéHD\n#####\n'), ['unknown character `é`', 3, 3]);
        assert.deepEqual(error('#BD?😀H\n'), ['unknown character `?`', 1, 4]);
        assert.deepEqual(error('#BD😀?H\n'), ['unknown character `😀`', 1, 4]);
    });
    (0, node_test_1.it)('the lowercase letters b d h j x and the capital M', () => {
        for (const ch of 'bdhjxM')
            assert.deepEqual(error(`#BD${ch}H\n`), [`unknown character \`${ch}\``, 1, 4]);
    });
    (0, node_test_1.it)('rows of different lengths, at the first cell past the shorter', () => {
        assert.deepEqual(error('name: x\n#####\n#B.HD#\n#####\n'), ['ragged row: 6 cells, but the first row (line 2) has 5', 3, 6]);
        assert.deepEqual(error('name: x\n#####\n#B.H\n#####\n'), ['ragged row: 4 cells, but the first row (line 2) has 5', 3, 5]);
        // Row lengths are checked as the grid is read, before its cells.
        assert.deepEqual(error('name: x\n#####\n#B?HD\n####\n'), ['ragged row: 4 cells, but the first row (line 2) has 5', 4, 5]);
    });
    (0, node_test_1.it)('no grid', () => {
        assert.deepEqual(error(''), ['the level has no grid', 1, 1]);
        assert.deepEqual(error('name: x\n; only a comment\n\n'), ['the level has no grid', 3, 1]);
    });
    (0, node_test_1.it)('no B, no D, no H, in that order, at the grid', () => {
        assert.deepEqual(error('name: x\n######\n#P.H..\n'), ['the level has no Bubu `B`', 2, 1]);
        assert.deepEqual(error('name: x\n######\n#PB...\n'), ['the level has no Dudu `D`', 2, 1]);
        assert.deepEqual(error('name: x\n######\n#PBD..\n'), ['the level has no heart `H`', 2, 1]);
    });
    (0, node_test_1.it)('a second B or D, at the second', () => {
        assert.deepEqual(error('name: x\n#####\n#BBHD\n#?###\n'), ['a second `B`: a level has exactly one Bubu', 3, 3]);
        assert.deepEqual(error('name: x\n######\n#PBDQ.\n#HDq..\n'), ['a second `D`: a level has exactly one Dudu', 4, 3]);
    });
    (0, node_test_1.it)('a gate letter with no plate of that letter, at the gate', () => {
        assert.deepEqual(error('name: x\n######\n#BPHD#\n######\n'), ['gate `P` has no plate `p`: it could never open', 3, 3]);
    });
    (0, node_test_1.it)('a non-blank line after the grid, comments included, at its first character', () => {
        assert.deepEqual(error('name: x\n#####\n#BHD#\n#####\n\n  ; late\n'), ['text after the grid', 6, 3]);
        // Found before the grid's cells are read.
        assert.deepEqual(error('name: x\n#B?HD\n\nfoo\n'), ['text after the grid', 4, 1]);
    });
    (0, node_test_1.it)('a grid over 65,534 cells, at the row that goes over', () => {
        const grid = (w, h) => {
            const rows = Array.from({ length: h }, () => '#'.repeat(w));
            rows[1] = '#BHD' + '.'.repeat(w - 4);
            return 'name: big\n' + rows.join('\n') + '\n';
        };
        assert.deepEqual(error(grid(256, 257)), ['the grid is too large for the engine: 65536 cells by this line, at most 65534', 257, 1]);
        assert.deepEqual(error(grid(255, 257)), ['the grid is too large for the engine: 65535 cells by this line, at most 65534', 258, 1]);
        assert.equal((0, level_1.parseLevel)(grid(254, 258)).width * 258, 65532);
        assert.ok(254 * 258 <= level_1.MAX_CELLS);
    });
    (0, node_test_1.it)('more than 16 objects, at the 17th', () => {
        assert.deepEqual(error('name: x\n#####################\n#BXXXXXXXXXJJJJJJCCH#\n#D..................#\n'), [
            'too many movable objects for the engine: at most 16 blocks, jars and cushions together',
            3,
            19,
        ]);
    });
    (0, node_test_1.it)('bytes that are not UTF-8, at the first bad one', () => {
        const bytes = Buffer.from('name: x\n\xff#####\n', 'latin1');
        assert.throws(() => (0, level_1.decodeLevelBytes)(bytes), (e) => e instanceof level_1.LevelError && e.line === 2 && e.column === 1 && /invalid UTF-8 at byte 8/.test(e.message));
        assert.equal((0, level_1.decodeLevelBytes)(Buffer.from('#BéHD\n', 'utf8')), '#BéHD\n');
        assert.throws(() => (0, level_1.decodeLevelBytes)(Buffer.from([0x23, 0xe2, 0x28, 0xa1])), (e) => e instanceof level_1.LevelError && e.column === 2);
    });
});
(0, node_test_1.describe)('warnings', () => {
    (0, node_test_1.it)('an unknown header key and a repeated one (the last value counts)', () => {
        const l = (0, level_1.parseLevel)('Name: x\n  auhtor: me\nname: y\n name : z\nfoo: 1\nfoo: 2\n#BHD#\n');
        assert.deepEqual(l.warnings, [
            { message: 'unknown header `Name`; kept, but no check reads it', line: 1, column: 1 },
            { message: 'unknown header `auhtor`; kept, but no check reads it', line: 2, column: 3 },
            { message: 'a second `name:` header; the last one counts', line: 4, column: 2 },
            { message: 'unknown header `foo`; kept, but no check reads it', line: 5, column: 1 },
            { message: 'a second `foo:` header; the last one counts', line: 6, column: 1 },
        ]);
        assert.equal(l.headers.get('name'), 'z');
        assert.equal(l.headers.get('auhtor'), 'me');
        assert.equal(l.headers.get('foo'), '2');
    });
    (0, node_test_1.it)('a plate with no gate of its letter, one per plate cell', () => {
        const l = (0, level_1.parseLevel)('name: x\n######\n#B.HD#\n#ggff#\n######\n');
        assert.deepEqual(l.warnings, [
            { message: 'plate `g` opens nothing: there is no gate `G`', line: 4, column: 2 },
            { message: 'plate `g` opens nothing: there is no gate `G`', line: 4, column: 3 },
            { message: 'plate `f` opens nothing: there is no gate `F`', line: 4, column: 4 },
            { message: 'plate `f` opens nothing: there is no gate `F`', line: 4, column: 5 },
        ]);
    });
});
(0, node_test_1.describe)('ablation', () => {
    const big = (0, level_1.parseLevel)([
        '###########',
        '#Bc...#D..#',
        '#.....#...#',
        '#...#.#.J.#',
        '#.C.#q#c..#',
        '#...#.X.p.#',
        '##m######P#',
        '#.........#',
        '#####Q#####',
        '#...H.....#',
        '###########',
    ].join('\n'));
    (0, node_test_1.it)('lists the mechanics present in the rulebook order, with their replacements', () => {
        assert.deepEqual((0, level_1.mechanics)(big), [
            { name: 'mouse-hole', replacement: 'wall' },
            { name: 'block', replacement: 'wall' },
            { name: 'jar', replacement: 'wall' },
            { name: 'cushion', replacement: 'wall' },
            { name: 'plate', replacement: 'floor' },
            { name: 'gate', replacement: 'floor' },
            { name: 'cat', replacement: 'floor' },
        ]);
        assert.deepEqual((0, level_1.mechanics)((0, level_1.parseLevel)('#BHD#')), []);
        assert.deepEqual((0, level_1.mechanics)((0, level_1.parseLevel)('BpP\nDcH')).map((m) => m.name), ['plate', 'gate', 'cat']);
    });
    (0, node_test_1.it)('lists single pieces by mechanic, then in reading order', () => {
        assert.deepEqual((0, level_1.pieces)(big).map((p) => `${p.name} ${p.at.join(',')} ${p.replacement}`), [
            'mouse-hole 6,2 wall',
            'block 5,6 wall',
            'jar 3,8 wall',
            'cushion 4,2 wall',
            'plate 4,5 floor',
            'plate 5,8 floor',
            'gate 6,9 floor',
            'gate 8,5 floor',
            'cat 1,2 floor',
            'cat 4,7 floor',
        ]);
    });
    (0, node_test_1.it)('turns every piece of a mechanic into its replacement, leaving the original as it was', () => {
        const before = (0, level_1.drawState)(big.start).join('\n');
        const noHole = (0, level_1.ablate)(big, 'mouse-hole');
        assert.equal(noHole.start.board.tiles[(0, helpers_1.cell)(big, 6, 2)], rules_1.WALL);
        const noJar = (0, level_1.ablate)(big, 'jar');
        assert.deepEqual(noJar.start.jars, []);
        assert.equal(noJar.start.board.tiles[(0, helpers_1.cell)(big, 3, 8)], rules_1.WALL);
        const noPlate = (0, level_1.ablate)(big, 'plate');
        assert.equal(noPlate.start.board.tiles[(0, helpers_1.cell)(big, 4, 5)], rules_1.FLOOR);
        assert.equal(noPlate.start.board.tiles[(0, helpers_1.cell)(big, 6, 9)], rules_1.GATE, 'its gates stay, never to open');
        const noGate = (0, level_1.ablate)(big, 'gate');
        assert.equal(noGate.start.board.tiles[(0, helpers_1.cell)(big, 8, 5)], rules_1.FLOOR);
        const noCat = (0, level_1.ablate)(big, 'cat');
        assert.equal(noCat.start.board.tiles[(0, helpers_1.cell)(big, 1, 2)], rules_1.FLOOR);
        assert.equal(noCat.start.board.tiles[(0, helpers_1.cell)(big, 4, 7)], rules_1.FLOOR);
        assert.equal((0, level_1.drawState)(big.start).join('\n'), before);
        assert.deepEqual(big.start.jars, [(0, helpers_1.cell)(big, 3, 8)]);
    });
    (0, node_test_1.it)('takes out one piece with the same replacement on its cell', () => {
        const l = (0, level_1.ablate)(big, 'cat', [4, 7]);
        assert.equal(l.start.board.tiles[(0, helpers_1.cell)(big, 1, 2)], rules_1.CAT);
        assert.equal(l.start.board.tiles[(0, helpers_1.cell)(big, 4, 7)], rules_1.FLOOR);
        const two = (0, level_1.parseLevel)('DJ.J\nB..H');
        const one = (0, level_1.ablate)(two, 'jar', [0, 3]);
        assert.deepEqual((0, level_1.drawState)(one.start), ['DJ.#', 'B..H']);
    });
    (0, node_test_1.it)('plays on: a gate whose plates are gone never opens', () => {
        const l = (0, level_1.parseLevel)('DBpPH');
        assert.equal((0, bfs_1.solve)(l.start).par, 7);
        const noPlate = (0, level_1.ablate)(l, 'plate');
        assert.equal((0, bfs_1.solve)(noPlate.start).status, 'unsolvable');
        assert.equal((0, rules_1.isWon)(noPlate.start), false);
        assert.equal((0, bfs_1.solve)((0, level_1.ablate)(l, 'gate').start).par, 7);
    });
    (0, node_test_1.it)('refuses an unknown mechanic, one the level lacks, and a cell with no such piece', () => {
        assert.throws(() => (0, level_1.ablate)(big, 'teleport'), level_1.AblationError);
        assert.throws(() => (0, level_1.ablate)((0, level_1.parseLevel)('#BHD#'), 'cat'), /the level has no cat/);
        assert.throws(() => (0, level_1.ablate)(big, 'cat', [1, 1]), /no cat at \[1, 1\]/);
        assert.throws(() => (0, level_1.ablate)(big, 'cat', [1, 99]), /no cat at/);
    });
});
(0, node_test_1.describe)('pictures', () => {
    (0, node_test_1.it)('draws a state in the level file’s own characters, Dudu over Bubu on a shared heart', () => {
        const l = (0, level_1.parseLevel)('#Bc.J#\n#m.pP#\n#DXHC#\n');
        assert.deepEqual((0, level_1.drawState)(l.start), ['#Bc.J#', '#m.pP#', '#DXHC#']);
        const won = { ...l.start, bubu: (0, helpers_1.cell)(l, 2, 3), dudu: (0, helpers_1.cell)(l, 2, 3) };
        assert.deepEqual((0, level_1.drawState)(won), ['#.c.J#', '#m.pP#', '#.XDC#']);
    });
});
