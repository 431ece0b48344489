"use strict";
// puzzle-qa's game protocol, version 1 (docs/protocol.md): one JSON request
// in, one JSON reply out. A Session holds the levels one process has loaded;
// `handle` answers one request line. The stdio loop is in adapter.ts.
Object.defineProperty(exports, "__esModule", { value: true });
exports.Session = exports.GAME = exports.PROTOCOL_VERSION = void 0;
const level_1 = require("./level");
const notation_1 = require("./notation");
const rules_1 = require("./rules");
exports.PROTOCOL_VERSION = 1;
exports.GAME = 'hugmaze';
/** A request that cannot be answered; its reply is an `error`. */
class RequestError extends Error {
}
function str(params, key) {
    const v = params[key];
    if (typeof v !== 'string')
        throw new RequestError(`\`params.${key}\` must be a string`);
    return v;
}
function strings(params, key) {
    const v = params[key];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
        throw new RequestError(`\`params.${key}\` must be a list of strings`);
    }
    return v;
}
/** The token of every move, in the order tried: Bubu's U D L R, then Dudu's. */
const ORDER = rules_1.BEARS.flatMap((who) => rules_1.DIRECTIONS.map((dir) => ({ who, dir, token: (0, notation_1.formatMove)({ who, dir }) })));
class Session {
    levels = new Map();
    made = 0;
    /** Answers one request line with one reply line (no newline at its end). */
    handle(line) {
        let request;
        try {
            request = JSON.parse(line);
        }
        catch (e) {
            return JSON.stringify({ id: null, error: { message: `a request that is not JSON: ${e.message}` } });
        }
        if (typeof request !== 'object' || request === null || Array.isArray(request)) {
            return JSON.stringify({ id: null, error: { message: 'a request must be a JSON object' } });
        }
        const { id, method, params } = request;
        const idJson = JSON.stringify(id === undefined ? null : id);
        try {
            if (typeof method !== 'string')
                throw new RequestError('a request needs a `method`');
            if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
                throw new RequestError('`params` must be an object');
            }
            const p = (params ?? {});
            if (method === 'successors')
                return `{"id":${idJson},"result":${this.successors(p)}}`;
            return `{"id":${idJson},"result":${JSON.stringify(this.answer(method, p))}}`;
        }
        catch (e) {
            return `{"id":${idJson},"error":${JSON.stringify(errorOf(e))}}`;
        }
    }
    answer(method, p) {
        switch (method) {
            case 'hello':
                return { protocol: exports.PROTOCOL_VERSION, game: exports.GAME, draw: true };
            case 'load': {
                const level = (0, level_1.parseLevel)(str(p, 'text'));
                return {
                    level: this.keep(level),
                    start: (0, rules_1.stateKey)(level.start),
                    won: (0, rules_1.isWon)(level.start),
                    mechanics: (0, level_1.mechanics)(level),
                    pieces: (0, level_1.pieces)(level),
                    warnings: level.warnings,
                };
            }
            case 'step': {
                const level = this.level(p);
                const state = this.state(level, str(p, 'state'));
                const text = str(p, 'move');
                const m = (0, notation_1.parseToken)(text);
                if (m === null)
                    throw new RequestError(`\`${text}\` is not a move: write the bear, a colon and a direction, as in \`B:R\``);
                const r = (0, rules_1.attempt)(state, m.who, m.dir);
                if (typeof r === 'number')
                    return { refused: (0, rules_1.refusalMessage)(state, m.who, m.dir, r) };
                return { state: (0, rules_1.stateKey)(r), cost: 1, won: (0, rules_1.isWon)(r) };
            }
            case 'parse':
                if (p['level'] !== undefined)
                    this.level(p);
                return { moves: (0, notation_1.parseMoves)(str(p, 'text')).map(notation_1.formatMove) };
            case 'format': {
                if (p['level'] !== undefined)
                    this.level(p);
                const moves = strings(p, 'moves').map((t) => {
                    const m = (0, notation_1.parseToken)(t);
                    if (m === null)
                        throw new RequestError(`\`${t}\` is not a move: write the bear, a colon and a direction, as in \`B:R\``);
                    return (0, notation_1.formatMove)(m);
                });
                return { text: moves.join(' ') };
            }
            case 'ablate': {
                const level = this.level(p);
                const at = p['at'];
                let cell;
                if (at !== undefined) {
                    if (!Array.isArray(at) || at.length !== 2 || !at.every((x) => Number.isInteger(x))) {
                        throw new RequestError('`params.at` must be [row, column]');
                    }
                    cell = [at[0], at[1]];
                }
                const out = (0, level_1.ablate)(level, str(p, 'mechanic'), cell);
                return { level: this.keep(out), start: (0, rules_1.stateKey)(out.start), won: (0, rules_1.isWon)(out.start) };
            }
            case 'draw': {
                const level = this.level(p);
                return { rows: (0, level_1.drawState)(this.state(level, str(p, 'state'))) };
            }
            default:
                throw new RequestError(`unknown method \`${method}\``);
        }
    }
    /**
     * The reply to `successors`, written out by hand: states and moves never
     * hold a character JSON escapes, and a reply can carry 30,000 entries.
     */
    successors(p) {
        const level = this.level(p);
        const keys = strings(p, 'states');
        const lists = [];
        for (const key of keys) {
            const state = this.state(level, key);
            let list = '';
            for (const { who, dir, token } of ORDER) {
                const next = (0, rules_1.move)(state, who, dir);
                if (next === null)
                    continue;
                if (list !== '')
                    list += ',';
                list += `{"move":"${token}","state":"${(0, rules_1.stateKey)(next)}"${(0, rules_1.isWon)(next) ? ',"won":true' : ''}}`;
            }
            lists.push(`[${list}]`);
        }
        return `{"successors":[${lists.join(',')}]}`;
    }
    keep(level) {
        const handle = `L${++this.made}`;
        this.levels.set(handle, level);
        return handle;
    }
    level(p) {
        const handle = str(p, 'level');
        const level = this.levels.get(handle);
        if (level === undefined)
            throw new RequestError(`no level ${handle}`);
        return level;
    }
    state(level, key) {
        try {
            return (0, rules_1.stateFromKey)(level.start, key);
        }
        catch (e) {
            throw new RequestError(e.message);
        }
    }
}
exports.Session = Session;
function errorOf(e) {
    if (e instanceof level_1.LevelError)
        return { message: e.message, line: e.line, column: e.column };
    if (e instanceof notation_1.NotationError)
        return { message: e.message, column: e.column };
    if (e instanceof RequestError || e instanceof level_1.AblationError)
        return { message: e.message };
    return { message: `internal error in the Hug Maze adapter: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` };
}
