// puzzle-qa's game protocol, version 1 (docs/protocol.md): one JSON request
// in, one JSON reply out. A Session holds the levels one process has loaded;
// `handle` answers one request line. The stdio loop is in adapter.ts.

import { AblationError, Level, LevelError, ablate, drawState, mechanics, parseLevel, pieces } from './level';
import { NotationError, formatMove, parseMoves, parseToken } from './notation';
import { BEARS, DIRECTIONS, MazeState, attempt, isWon, move, refusalMessage, stateFromKey, stateKey } from './rules';

export const PROTOCOL_VERSION = 1;
export const GAME = 'hugmaze';

/** A request that cannot be answered; its reply is an `error`. */
class RequestError extends Error {}

type Params = Record<string, unknown>;

function str(params: Params, key: string): string {
  const v = params[key];
  if (typeof v !== 'string') throw new RequestError(`\`params.${key}\` must be a string`);
  return v;
}

function strings(params: Params, key: string): string[] {
  const v = params[key];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
    throw new RequestError(`\`params.${key}\` must be a list of strings`);
  }
  return v as string[];
}

/** The token of every move, in the order tried: Bubu's U D L R, then Dudu's. */
const ORDER = BEARS.flatMap((who) => DIRECTIONS.map((dir) => ({ who, dir, token: formatMove({ who, dir }) })));

export class Session {
  private readonly levels = new Map<string, Level>();
  private made = 0;

  /** Answers one request line with one reply line (no newline at its end). */
  handle(line: string): string {
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch (e) {
      return JSON.stringify({ id: null, error: { message: `a request that is not JSON: ${(e as Error).message}` } });
    }
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return JSON.stringify({ id: null, error: { message: 'a request must be a JSON object' } });
    }
    const { id, method, params } = request as { id?: unknown; method?: unknown; params?: unknown };
    const idJson = JSON.stringify(id === undefined ? null : id);
    try {
      if (typeof method !== 'string') throw new RequestError('a request needs a `method`');
      if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
        throw new RequestError('`params` must be an object');
      }
      const p = (params ?? {}) as Params;
      if (method === 'successors') return `{"id":${idJson},"result":${this.successors(p)}}`;
      return `{"id":${idJson},"result":${JSON.stringify(this.answer(method, p))}}`;
    } catch (e) {
      return `{"id":${idJson},"error":${JSON.stringify(errorOf(e))}}`;
    }
  }

  private answer(method: string, p: Params): unknown {
    switch (method) {
      case 'hello':
        return { protocol: PROTOCOL_VERSION, game: GAME, draw: true };
      case 'load': {
        const level = parseLevel(str(p, 'text'));
        return {
          level: this.keep(level),
          start: stateKey(level.start),
          won: isWon(level.start),
          mechanics: mechanics(level),
          pieces: pieces(level),
          warnings: level.warnings,
        };
      }
      case 'step': {
        const level = this.level(p);
        const state = this.state(level, str(p, 'state'));
        const text = str(p, 'move');
        const m = parseToken(text);
        if (m === null) throw new RequestError(`\`${text}\` is not a move: write the bear, a colon and a direction, as in \`B:R\``);
        const r = attempt(state, m.who, m.dir);
        if (typeof r === 'number') return { refused: refusalMessage(state, m.who, m.dir, r) };
        return { state: stateKey(r), cost: 1, won: isWon(r) };
      }
      case 'parse':
        if (p['level'] !== undefined) this.level(p);
        return { moves: parseMoves(str(p, 'text')).map(formatMove) };
      case 'format': {
        if (p['level'] !== undefined) this.level(p);
        const moves = strings(p, 'moves').map((t) => {
          const m = parseToken(t);
          if (m === null) throw new RequestError(`\`${t}\` is not a move: write the bear, a colon and a direction, as in \`B:R\``);
          return formatMove(m);
        });
        return { text: moves.join(' ') };
      }
      case 'ablate': {
        const level = this.level(p);
        const at = p['at'];
        let cell: [number, number] | undefined;
        if (at !== undefined) {
          if (!Array.isArray(at) || at.length !== 2 || !at.every((x) => Number.isInteger(x))) {
            throw new RequestError('`params.at` must be [row, column]');
          }
          cell = [at[0] as number, at[1] as number];
        }
        const out = ablate(level, str(p, 'mechanic'), cell);
        return { level: this.keep(out), start: stateKey(out.start), won: isWon(out.start) };
      }
      case 'draw': {
        const level = this.level(p);
        return { rows: drawState(this.state(level, str(p, 'state'))) };
      }
      default:
        throw new RequestError(`unknown method \`${method}\``);
    }
  }

  /**
   * The reply to `successors`, written out by hand: states and moves never
   * hold a character JSON escapes, and a reply can carry 30,000 entries.
   */
  private successors(p: Params): string {
    const level = this.level(p);
    const keys = strings(p, 'states');
    const lists: string[] = [];
    for (const key of keys) {
      const state = this.state(level, key);
      let list = '';
      for (const { who, dir, token } of ORDER) {
        const next = move(state, who, dir);
        if (next === null) continue;
        if (list !== '') list += ',';
        list += `{"move":"${token}","state":"${stateKey(next)}"${isWon(next) ? ',"won":true' : ''}}`;
      }
      lists.push(`[${list}]`);
    }
    return `{"successors":[${lists.join(',')}]}`;
  }

  private keep(level: Level): string {
    const handle = `L${++this.made}`;
    this.levels.set(handle, level);
    return handle;
  }

  private level(p: Params): Level {
    const handle = str(p, 'level');
    const level = this.levels.get(handle);
    if (level === undefined) throw new RequestError(`no level ${handle}`);
    return level;
  }

  private state(level: Level, key: string): MazeState {
    try {
      return stateFromKey(level.start, key);
    } catch (e) {
      throw new RequestError((e as Error).message);
    }
  }
}

function errorOf(e: unknown): { message: string; line?: number; column?: number } {
  if (e instanceof LevelError) return { message: e.message, line: e.line, column: e.column };
  if (e instanceof NotationError) return { message: e.message, column: e.column };
  if (e instanceof RequestError || e instanceof AblationError) return { message: e.message };
  return { message: `internal error in the Hug Maze adapter: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` };
}
