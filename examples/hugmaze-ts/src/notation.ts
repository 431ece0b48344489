// Move notation (docs/games/hugmaze.md, "Moves, notation and par"): one
// token per move, the bear (`B` or `D`), a colon, the direction (`U`, `D`,
// `L` or `R`), all uppercase. Tokens are separated by whitespace or commas.
// There are no repeat counts and no brackets. Solutions are written as
// tokens separated by single spaces.

import type { Dir, Who } from './rules';

export interface Move {
  readonly who: Who;
  readonly dir: Dir;
}

/** A move text that does not read, at a 1-based column (in characters) of the text. */
export class NotationError extends Error {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(message);
    this.name = 'NotationError';
  }
}

const BEAR: Readonly<Record<string, Who>> = { B: 'bubu', D: 'dudu' };
const LETTER: Readonly<Record<Who, string>> = { bubu: 'B', dudu: 'D' };
const DIRS: readonly string[] = ['U', 'D', 'L', 'R'];
const SEPARATOR = /^[\p{White_Space},]$/u;

/** One token, as `B:U`; null when it is not one. */
export function parseToken(token: string): Move | null {
  if (token.length !== 3 || token[1] !== ':') return null;
  const who = BEAR[token[0]!];
  const dir = token[2]!;
  if (who === undefined || !DIRS.includes(dir)) return null;
  return { who, dir: dir as Dir };
}

/** Reads a move text, or throws a NotationError at the column where reading stopped. */
export function parseMoves(text: string): Move[] {
  const chars = Array.from(text);
  const moves: Move[] = [];
  let i = 0;
  while (i < chars.length) {
    if (SEPARATOR.test(chars[i]!)) {
      i++;
      continue;
    }
    const start = i;
    while (i < chars.length && !SEPARATOR.test(chars[i]!)) i++;
    const token = chars.slice(start, i);
    const colon = token.indexOf(':');
    const tokenText = token.join('');
    if (colon < 0) {
      throw new NotationError(
        `\`${tokenText}\` is not a move: write the bear, a colon and a direction, as in \`B:R\` or \`D:U\``,
        start + 1,
      );
    }
    const bear = token.slice(0, colon).join('');
    const dir = token.slice(colon + 1).join('');
    const who = BEAR[bear];
    if (who === undefined) {
      throw new NotationError(`unknown bear \`${bear}\` in \`${tokenText}\`: B is Bubu, D is Dudu`, start + 1);
    }
    if (!DIRS.includes(dir)) {
      throw new NotationError(
        `unknown direction \`${dir}\` in \`${tokenText}\`: directions are U D L R`,
        start + colon + 2,
      );
    }
    moves.push({ who, dir: dir as Dir });
  }
  return moves;
}

/** One move as its token, `B:U`. */
export function formatMove(m: Move): string {
  return `${LETTER[m.who]}:${m.dir}`;
}

/** Moves as tokens separated by single spaces. */
export function formatMoves(moves: readonly Move[]): string {
  return moves.map(formatMove).join(' ');
}
