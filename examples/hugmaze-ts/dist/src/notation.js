"use strict";
// Move notation (docs/games/hugmaze.md, "Moves, notation and par"): one
// token per move, the bear (`B` or `D`), a colon, the direction (`U`, `D`,
// `L` or `R`), all uppercase. Tokens are separated by whitespace or commas.
// There are no repeat counts and no brackets. Solutions are written as
// tokens separated by single spaces.
Object.defineProperty(exports, "__esModule", { value: true });
exports.NotationError = void 0;
exports.parseToken = parseToken;
exports.parseMoves = parseMoves;
exports.formatMove = formatMove;
exports.formatMoves = formatMoves;
/** A move text that does not read, at a 1-based column (in characters) of the text. */
class NotationError extends Error {
    column;
    constructor(message, column) {
        super(message);
        this.column = column;
        this.name = 'NotationError';
    }
}
exports.NotationError = NotationError;
const BEAR = { B: 'bubu', D: 'dudu' };
const LETTER = { bubu: 'B', dudu: 'D' };
const DIRS = ['U', 'D', 'L', 'R'];
const SEPARATOR = /^[\p{White_Space},]$/u;
/** One token, as `B:U`; null when it is not one. */
function parseToken(token) {
    if (token.length !== 3 || token[1] !== ':')
        return null;
    const who = BEAR[token[0]];
    const dir = token[2];
    if (who === undefined || !DIRS.includes(dir))
        return null;
    return { who, dir: dir };
}
/** Reads a move text, or throws a NotationError at the column where reading stopped. */
function parseMoves(text) {
    const chars = Array.from(text);
    const moves = [];
    let i = 0;
    while (i < chars.length) {
        if (SEPARATOR.test(chars[i])) {
            i++;
            continue;
        }
        const start = i;
        while (i < chars.length && !SEPARATOR.test(chars[i]))
            i++;
        const token = chars.slice(start, i);
        const colon = token.indexOf(':');
        const tokenText = token.join('');
        if (colon < 0) {
            throw new NotationError(`\`${tokenText}\` is not a move: write the bear, a colon and a direction, as in \`B:R\` or \`D:U\``, start + 1);
        }
        const bear = token.slice(0, colon).join('');
        const dir = token.slice(colon + 1).join('');
        const who = BEAR[bear];
        if (who === undefined) {
            throw new NotationError(`unknown bear \`${bear}\` in \`${tokenText}\`: B is Bubu, D is Dudu`, start + 1);
        }
        if (!DIRS.includes(dir)) {
            throw new NotationError(`unknown direction \`${dir}\` in \`${tokenText}\`: directions are U D L R`, start + colon + 2);
        }
        moves.push({ who, dir: dir });
    }
    return moves;
}
/** One move as its token, `B:U`. */
function formatMove(m) {
    return `${LETTER[m.who]}:${m.dir}`;
}
/** Moves as tokens separated by single spaces. */
function formatMoves(moves) {
    return moves.map(formatMove).join(' ');
}
