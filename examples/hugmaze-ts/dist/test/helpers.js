"use strict";
// Small helpers shared by the tests: levels from rows, cells from
// [row, column], and playing a move text through move().
Object.defineProperty(exports, "__esModule", { value: true });
exports.level = level;
exports.cell = cell;
exports.rc = rc;
exports.play = play;
exports.last = last;
exports.placed = placed;
const level_1 = require("../src/level");
const notation_1 = require("../src/notation");
const rules_1 = require("../src/rules");
/** A level from its grid rows (no headers). */
function level(...rows) {
    return (0, level_1.parseLevel)(rows.join('\n') + '\n');
}
/** The cell at 0-based [row, column] of a level. */
function cell(l, row, col) {
    return row * l.width + col;
}
/** [row, column] of a cell. */
function rc(s, c) {
    return [Math.floor(c / s.board.width), c % s.board.width];
}
/** Plays every move; throws at the first refused one. */
function play(start, text) {
    let s = start;
    (0, notation_1.parseMoves)(text).forEach((m, i) => {
        const next = (0, rules_1.move)(s, m.who, m.dir);
        if (next === null)
            throw new Error(`move ${i} (${m.who}:${m.dir}) refused`);
        s = next;
    });
    return s;
}
/** Plays all but the last move, and returns what the last gives (null when refused). */
function last(start, text) {
    const tokens = text.trim().split(/\s+/);
    const before = play(start, tokens.slice(0, -1).join(' '));
    const m = (0, notation_1.parseMoves)(tokens[tokens.length - 1])[0];
    return (0, rules_1.move)(before, m.who, m.dir);
}
/** The start state with some pieces moved: cells given as [row, column]. */
function placed(l, where) {
    const c = (p) => cell(l, p[0], p[1]);
    const sorted = (ps, dflt) => ps === undefined ? dflt.slice() : ps.map(c).sort((a, b) => a - b);
    return {
        board: l.start.board,
        bubu: where.bubu === undefined ? l.start.bubu : c(where.bubu),
        dudu: where.dudu === undefined ? l.start.dudu : c(where.dudu),
        blocks: sorted(where.blocks, l.start.blocks),
        jars: sorted(where.jars, l.start.jars),
        cushions: sorted(where.cushions, l.start.cushions),
    };
}
