"use strict";
// puzzle-qa's game protocol, version 1 (docs/protocol.md): one JSON request
// in, one JSON reply out. A Session holds the levels one process has loaded;
// `reply` answers one request line with the reply's bytes (`handle`, with
// the same reply as a string). The stdio loop is in adapter.ts.
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
/** ASCII bytes of a string that holds nothing else (the fixed pieces of a `successors` reply). */
function ascii(text) {
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
/** The bytes of an edge's head, `["B:U","`. */
const HEAD_BYTES = 8;
/**
 * Every move, in the order tried (Bubu's U D L R, then Dudu's), with the
 * bytes that open its edge in a `successors` reply, up to its state: the
 * compact edge `["B:U","<state>"]` starts `["B:U","`.
 */
const ORDER = rules_1.BEARS.flatMap((who) => rules_1.DIRECTIONS.map((dir) => ({ who, dir, head: ascii(`["${(0, notation_1.formatMove)({ who, dir })}","`) })));
if (!ORDER.every(({ head }) => head.length === HEAD_BYTES))
    throw new Error('a move token of other than three characters');
const QUOTE = 0x22; // ", which with CLOSE after it closes an ordinary edge, `[move, state]`
/** What closes a winning edge, `[move, state, 1, true]` (a cost must come before `won`). */
const WON_TAIL = ascii('",1,true]');
const COMMA = 0x2c;
const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
/** What ends a `successors` reply: the list of lists, `successors`, `result`, the reply, the line. */
const SUCCESSORS_END = ascii(']}}\n');
/** Where the reply buffer starts: a reply of 4,096 states of the article's level takes about 0.5 MB. */
const FIRST_BUFFER = 1 << 20;
/** The pieces of a `successors` request as the harness spells it (Session.quickSuccessors). */
const QUICK_ID = '{"id":';
const QUICK_LEVEL = ',"method":"successors","params":{"level":"';
const QUICK_STATES = '","states":[';
const QUICK_END = '}}';
function isDigit(c) {
    return c >= 0x30 && c <= 0x39;
}
/** A character a JSON string may hold as itself: not `"`, not `\`, not a control character. */
function plainInString(c) {
    return c >= 0x20 && c !== QUOTE && c !== 0x5c;
}
/**
 * The most bytes one state's list can take in a `successors` reply, with
 * the comma before it: its brackets, and every move legal, each with its
 * head, its state, the longer tail and a comma.
 */
function mostPerState(level) {
    return 3 + ORDER.length * (HEAD_BYTES + (0, rules_1.keyLength)(level.start) + WON_TAIL.length + 1);
}
/** The list of `state`'s edges, `[…]`, into `out` at `o` (which has room for mostPerState); the offset after it. */
function writeEdges(state, out, o) {
    out[o++] = OPEN;
    const first = o;
    for (let m = 0; m < ORDER.length; m++) {
        const step = ORDER[m];
        const next = (0, rules_1.move)(state, step.who, step.dir);
        if (next === null)
            continue;
        if (o !== first)
            out[o++] = COMMA;
        o = putHead(step.head, out, o);
        o = (0, rules_1.writeStateKey)(next, out, o);
        if ((0, rules_1.isWon)(next)) {
            o = put(WON_TAIL, out, o);
        }
        else {
            out[o++] = QUOTE;
            out[o++] = CLOSE;
        }
    }
    out[o++] = CLOSE;
    return o;
}
/** `bytes` copied into `out` at `o`; the offset after them. A loop: the pieces are a few bytes each. */
function put(bytes, out, o) {
    for (let i = 0; i < bytes.length; i++)
        out[o++] = bytes[i];
    return o;
}
/**
 * An edge's head, its HEAD_BYTES bytes, into `out` at `o`; the offset after
 * it. Written out one by one: for eight bytes, twice as fast as `put`'s loop,
 * and there is one per edge.
 */
function putHead(head, out, o) {
    out[o] = head[0];
    out[o + 1] = head[1];
    out[o + 2] = head[2];
    out[o + 3] = head[3];
    out[o + 4] = head[4];
    out[o + 5] = head[5];
    out[o + 6] = head[6];
    out[o + 7] = head[7];
    return o + HEAD_BYTES;
}
class Session {
    levels = new Map();
    made = 0;
    /**
     * Every reply is written here, and `reply` hands out a view of it: one
     * buffer for the whole session, grown when a reply needs more, so that a
     * reply of 30,000 edges makes no string and almost no garbage.
     */
    out = Buffer.allocUnsafe(FIRST_BUFFER);
    /**
     * Answers one request line with one reply line, its newline included, as
     * UTF-8 bytes. The bytes are a view of the session's own buffer: they are
     * good until the next call, which overwrites them (so a caller writing
     * them out must let the write finish first).
     */
    reply(line) {
        const quick = this.quickSuccessors(line);
        if (quick !== null)
            return quick;
        let request;
        try {
            request = JSON.parse(line);
        }
        catch (e) {
            return this.text(JSON.stringify({ id: null, error: { message: `a request that is not JSON: ${e.message}` } }));
        }
        if (typeof request !== 'object' || request === null || Array.isArray(request)) {
            return this.text(JSON.stringify({ id: null, error: { message: 'a request must be a JSON object' } }));
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
                return this.successors(idJson, p);
            return this.text(`{"id":${idJson},"result":${JSON.stringify(this.answer(method, p))}}`);
        }
        catch (e) {
            return this.text(`{"id":${idJson},"error":${JSON.stringify(errorOf(e))}}`);
        }
    }
    /** The same reply as `reply`, as a string without its newline: for tests and tools, not the stdio loop. */
    handle(line) {
        const bytes = this.reply(line);
        return bytes.toString('utf8', 0, bytes.length - 1);
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
     * The reply to `successors`, written byte by byte into the reply buffer:
     * for each state a list of compact edges, `["B:R","<state>"]`, or
     * `["D:U","<state>",1,true]` for a move that wins. States and moves are
     * printable ASCII without `"` or `\`, so nothing needs escaping, and a
     * reply of 4,096 states (some 25,000 edges) builds no string at all.
     */
    successors(idJson, p) {
        const level = this.level(p);
        const keys = strings(p, 'states');
        const most = mostPerState(level);
        let o = this.text(`{"id":${idJson},"result":{"successors":[`).length - 1; // over the text's newline
        for (let k = 0; k < keys.length; k++) {
            const out = this.room(o, most);
            if (k > 0)
                out[o++] = COMMA;
            o = writeEdges(this.state(level, keys[k]), out, o);
        }
        o = put(SUCCESSORS_END, this.room(o, SUCCESSORS_END.length), o);
        return this.out.subarray(0, o);
    }
    /**
     * The reply to a `successors` request spelled exactly as the harness
     * spells it, `{"id":7,"method":"successors","params":{"level":"L1",
     * "states":["…","…"]}}` (no space, the id a whole number, no escape in any
     * string), read without JSON.parse: each state is decoded straight from
     * the line by stateFromKeyIn, with no string made for it. null for a line
     * spelled any other way and for any fault (an unknown level, a state that
     * is not one); `reply` then reads it with JSON.parse, to the same reply
     * or the error.
     */
    quickSuccessors(line) {
        if (!line.startsWith(QUICK_ID))
            return null;
        const idStart = QUICK_ID.length;
        let i = idStart;
        while (i < line.length && isDigit(line.charCodeAt(i)))
            i++;
        // Digits that JSON.stringify(JSON.parse(…)) gives back as they are: no leading zero, at most 15 (exact in a double).
        const digits = i - idStart;
        if (digits === 0 || digits > 15 || (digits > 1 && line.charCodeAt(idStart) === 0x30))
            return null;
        const idJson = line.slice(idStart, i);
        if (!line.startsWith(QUICK_LEVEL, i))
            return null;
        i += QUICK_LEVEL.length;
        const handleStart = i;
        while (i < line.length && plainInString(line.charCodeAt(i)))
            i++;
        const level = this.levels.get(line.slice(handleStart, i));
        if (level === undefined || !line.startsWith(QUICK_STATES, i))
            return null;
        i += QUICK_STATES.length;
        const n = (0, rules_1.keyLength)(level.start);
        const most = mostPerState(level);
        let o = this.text(`{"id":${idJson},"result":{"successors":[`).length - 1; // over the text's newline
        if (line.charCodeAt(i) === CLOSE) {
            i++;
        }
        else {
            for (let k = 0;; k++) {
                // A state: its quote, exactly n key characters (stateFromKeyIn refuses
                // any other, `"` and `\` among them) and its closing quote.
                if (line.charCodeAt(i) !== QUOTE || line.charCodeAt(i + 1 + n) !== QUOTE)
                    return null;
                let state;
                try {
                    state = (0, rules_1.stateFromKeyIn)(level.start, line, i + 1);
                }
                catch {
                    return null;
                }
                const out = this.room(o, most);
                if (k > 0)
                    out[o++] = COMMA;
                o = writeEdges(state, out, o);
                i += n + 2;
                const c = line.charCodeAt(i++);
                if (c === CLOSE)
                    break;
                if (c !== COMMA)
                    return null;
            }
        }
        if (i !== line.length - QUICK_END.length || !line.endsWith(QUICK_END))
            return null;
        o = put(SUCCESSORS_END, this.room(o, SUCCESSORS_END.length), o);
        return this.out.subarray(0, o);
    }
    /** `json` and a newline, written at the start of the reply buffer; the bytes written. */
    text(json) {
        const n = Buffer.byteLength(json, 'utf8');
        const out = this.room(0, n + 1);
        out.write(json, 0, 'utf8');
        out[n] = 0x0a;
        return out.subarray(0, n + 1);
    }
    /**
     * The reply buffer, with room for `more` bytes after the `used` already
     * written: grown (at least doubled, the written bytes kept) when it has not.
     */
    room(used, more) {
        if (used + more > this.out.length) {
            const bigger = Buffer.allocUnsafe(Math.max(used + more, this.out.length * 2));
            this.out.copy(bigger, 0, 0, used);
            this.out = bigger;
        }
        return this.out;
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
