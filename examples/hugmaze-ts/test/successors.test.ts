// The `successors` reply, written byte by byte in the compact edge form,
// means exactly what the object form the adapter used to write meant: the
// same lists, in the same order, with the same moves, states and wins.
// The old reply is rebuilt here as it was, with template strings, from the
// same move() and stateKey(), and both are read as the harness reads them.

import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { decodeLevelBytes, parseLevel } from '../src/level';
import { formatMove } from '../src/notation';
import { Session } from '../src/protocol';
import { BEARS, DIRECTIONS, MazeState, isWon, move, stateFromKey, stateKey, successors } from '../src/rules';

const LEVELS = join(__dirname, '..', '..', '..', '..', 'levels', 'hugmaze');

const ORDER = BEARS.flatMap((who) => DIRECTIONS.map((dir) => ({ who, dir, token: formatMove({ who, dir }) })));

/** The reply's `result` as the object form wrote it, before the compact form (the old Session.successors). */
function objectForm(start: MazeState, keys: string[]): string {
  const lists: string[] = [];
  for (const key of keys) {
    const state = stateFromKey(start, key);
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

interface Meaning {
  move: string;
  state: string;
  cost: number;
  won: boolean;
}

/** An edge as docs/protocol.md defines it, in either form: cost 1 and won false unless given. */
function meaning(e: unknown): Meaning {
  if (Array.isArray(e)) {
    assert.ok(e.length >= 2 && e.length <= 4, JSON.stringify(e));
    const [move, state, cost = 1, won = false] = e as [string, string, number?, boolean?];
    return { move, state, cost, won };
  }
  const o = e as { move: string; state: string; cost?: number; won?: boolean };
  return { move: o.move, state: o.state, cost: o.cost ?? 1, won: o.won ?? false };
}

/** Up to `limit` states of a level, breadth first from its start (won states left out: the harness never asks for them). */
function states(start: MazeState, limit: number): string[] {
  const seen = new Set([stateKey(start)]);
  const out: string[] = [];
  for (let queue = [start], i = 0; i < queue.length && out.length < limit; i++) {
    const s = queue[i]!;
    if (isWon(s)) continue;
    out.push(stateKey(s));
    for (const { state } of successors(s)) {
      const k = stateKey(state);
      if (!seen.has(k)) {
        seen.add(k);
        queue.push(state);
      }
    }
  }
  return out;
}

/** The lists of a successors reply, each edge checked to be in the exact compact form the adapter promises. */
function compactLists(reply: string, id: number): unknown[][] {
  const r = JSON.parse(reply);
  assert.deepEqual(Object.keys(r), ['id', 'result']);
  assert.equal(r.id, id);
  assert.deepEqual(Object.keys(r.result), ['successors']);
  for (const list of r.result.successors) {
    for (const e of list) {
      assert.ok(Array.isArray(e), 'a compact edge');
      assert.equal(typeof e[0], 'string');
      assert.equal(typeof e[1], 'string');
      // [move, state] for an ordinary edge, [move, state, 1, true] for a win.
      if (e.length !== 2) assert.deepEqual(e.slice(2), [1, true]);
    }
  }
  return r.result.successors;
}

/** Asks one session for the successors of `keys` and checks the reply against the object form. */
function check(s: Session, levelHandle: string, start: MazeState, keys: string[], id: number): { edges: number; wins: number } {
  const request = JSON.stringify({ id, method: 'successors', params: { level: levelHandle, states: keys } });
  const bytes = s.reply(request);
  assert.equal(bytes[bytes.length - 1], 0x0a, 'one line, ended by its newline');
  assert.equal(bytes.indexOf(0x0a), bytes.length - 1, 'no newline inside');
  const text = bytes.toString('utf8');
  assert.equal(s.handle(request), text.slice(0, -1), 'handle is reply as a string');
  const mine = compactLists(text, id).map((list) => list.map(meaning));
  const old = (JSON.parse(objectForm(start, keys)).successors as unknown[][]).map((list) => list.map(meaning));
  assert.equal(mine.length, keys.length);
  assert.deepEqual(mine, old);
  let edges = 0;
  let wins = 0;
  for (const list of mine) {
    edges += list.length;
    for (const e of list) if (e.won) wins++;
  }
  return { edges, wins };
}

function load(s: Session, text: string): { level: string; start: string } {
  return JSON.parse(s.handle(JSON.stringify({ id: 0, method: 'load', params: { text } }))).result;
}

describe('successors in the compact form', { skip: existsSync(LEVELS) ? false : `no ${LEVELS}` }, () => {
  it('means what the object form meant, on every level of levels/hugmaze, thousands of states each', () => {
    const s = new Session();
    let edges = 0;
    let wins = 0;
    let id = 1;
    for (const f of ['01-first-hug', '04-slippery-cushion', '06-honey-pot', '10-hold-the-door', '13-honey-courier', '15-catnip-billiards', '16-big-hug', '17-article-example', 'gen-1', 'gen-3']) {
      const text = decodeLevelBytes(readFileSync(join(LEVELS, `${f}.txt`)));
      const { level, start } = load(s, text);
      const l = parseLevel(text);
      assert.equal(start, stateKey(l.start));
      const keys = states(l.start, 6_000);
      // In the harness's chunks of 4,096, then one state at a time for the first few.
      for (let i = 0; i < keys.length; i += 4096) {
        const r = check(s, level, l.start, keys.slice(i, i + 4096), id++);
        edges += r.edges;
        wins += r.wins;
      }
      for (const k of keys.slice(0, 20)) check(s, level, l.start, [k], id++);
    }
    assert.ok(edges > 100_000, `${edges} edges`);
    assert.ok(wins > 0, 'some winning edges among them');
  });
  it('grows its buffer for a reply larger than it, and a short reply after a long one is whole', () => {
    const s = new Session();
    const text = decodeLevelBytes(readFileSync(join(LEVELS, '17-article-example.txt')));
    const { level } = load(s, text);
    const l = parseLevel(text);
    const keys = states(l.start, 30_000);
    const big = check(s, level, l.start, keys, 1);
    assert.ok(big.edges > 100_000);
    assert.ok(s.reply(JSON.stringify({ id: 2, method: 'successors', params: { level, states: keys } })).length > 2 << 20, 'over 2 MB');
    check(s, level, l.start, keys.slice(5, 7), 3);
    check(s, level, l.start, [], 4);
    assert.equal(s.handle(JSON.stringify({ id: 5, method: 'successors', params: { level, states: [] } })), '{"id":5,"result":{"successors":[]}}');
  });
  it('answers a bad state anywhere in the list with an error, and the next reply is whole', () => {
    const s = new Session();
    const text = decodeLevelBytes(readFileSync(join(LEVELS, '06-honey-pot.txt')));
    const { level } = load(s, text);
    const l = parseLevel(text);
    const keys = states(l.start, 3_000);
    const bad = JSON.parse(s.handle(JSON.stringify({ id: 'x', method: 'successors', params: { level, states: [...keys, '?'] } })));
    assert.equal(bad.id, 'x');
    assert.match(bad.error.message, /not a state of this level/);
    check(s, level, l.start, keys.slice(0, 10), 2);
  });
  it('writes a request id that is not ASCII as JSON, in UTF-8', () => {
    const s = new Session();
    const text = decodeLevelBytes(readFileSync(join(LEVELS, '01-first-hug.txt')));
    const { level, start } = load(s, text);
    const r = JSON.parse(s.reply(JSON.stringify({ id: 'ours → «1»', method: 'successors', params: { level, states: [start] } })).toString('utf8'));
    assert.equal(r.id, 'ours → «1»');
    assert.equal(r.result.successors.length, 1);
  });
});

/** The session's reader of the harness's own spelling, null when it leaves a line to JSON.parse. */
function quick(s: Session, line: string): Buffer | null {
  return (s as unknown as { quickSuccessors(line: string): Buffer | null }).quickSuccessors(line);
}

describe("successors as the harness spells it, read without JSON.parse", { skip: existsSync(LEVELS) ? false : `no ${LEVELS}` }, () => {
  const s = new Session();
  const text = decodeLevelBytes(readFileSync(join(LEVELS, '13-honey-courier.txt')));
  const { level, start } = load(s, text);
  const l = parseLevel(text);
  const keys = states(l.start, 5_000);
  /** The reply to `line`, as bytes copied out of the session's buffer. */
  const replyTo = (line: string): string => s.reply(line).toString('utf8');
  /** The same request spelled with a space, which only JSON.parse reads. */
  const spaced = (line: string): string => '{ ' + line.slice(1);

  it('is taken for the harness spelling, and gives the reply JSON.parse gives', () => {
    for (const [id, list] of [
      [7, keys.slice(0, 4096)],
      [0, keys.slice(4096)],
      [123456789012345, [start]],
      [8, []],
    ] as [number, string[]][]) {
      const line = JSON.stringify({ id, method: 'successors', params: { level, states: list } });
      assert.notEqual(quick(s, line), null, line.slice(0, 80));
      assert.equal(quick(s, spaced(line)), null);
      const mine = replyTo(line);
      assert.equal(mine, replyTo(spaced(line)));
      assert.equal(JSON.parse(mine).result.successors.length, list.length);
    }
    check(s, level, l.start, keys.slice(0, 4096), 9);
  });
  it('leaves every other spelling to JSON.parse, to the same reply or the same error', () => {
    const good = JSON.stringify({ id: 1, method: 'successors', params: { level, states: keys.slice(0, 50) } });
    const k = keys[10]!;
    const lines = [
      // Ids JSON.stringify would not give back as written, or that are not numbers.
      good.replace('"id":1', '"id":1234567890123456'),
      good.replace('"id":1', '"id":01'),
      good.replace('"id":1', '"id":-1'),
      good.replace('"id":1', '"id":1.5'),
      good.replace('"id":1', '"id":"x"'),
      good.replace('"id":1', '"id":null'),
      // Another order, other spaces, an escape that means a state or a handle.
      JSON.stringify({ method: 'successors', id: 1, params: { level, states: keys.slice(0, 50) } }),
      JSON.stringify({ id: 1, method: 'successors', params: { states: keys.slice(0, 50), level } }),
      good.replace('"states":[', '"states": ['),
      good.replace(`"${k}"`, `"\\u${k.charCodeAt(0).toString(16).padStart(4, '0')}${k.slice(1)}"`),
      good.replace(`"level":"${level}"`, `"level":"\\u004c${level.slice(1)}"`),
      good + ' ',
      // Faults: an unknown level, states that are not one, not JSON at all.
      good.replace(`"level":"${level}"`, '"level":"L99"'),
      good.replace(`"${k}"`, `"${k.slice(1)}"`),
      good.replace(`"${k}"`, `"${k}!"`),
      good.replace(`"${k}"`, `"~${k.slice(1)}"`),
      good.replace(`"${k}"`, `"${k.slice(0, -1)}\\""`),
      good.replace(`"${k}"`, `${k}`),
      good.replace(`"${k}"`, '7'),
      good.replace(`"${k}"`, `"${k}","`),
      good.replace('"states":[', '"states":[,'),
      good.slice(0, -1),
      good + '}',
      good + 'x',
    ];
    for (const line of lines) {
      assert.equal(quick(s, line), null, line);
      // What JSON.parse's path answers, compared with the same request spelled the harness's way where there is one.
      const mine = replyTo(line);
      let request: { id?: unknown; params?: { level?: unknown; states?: unknown } } | undefined;
      try {
        request = JSON.parse(line);
      } catch {
        assert.equal(JSON.parse(mine).id, null);
        assert.match(JSON.parse(mine).error.message, /not JSON/);
        continue;
      }
      const respelled = JSON.stringify({ id: request!.id, method: 'successors', params: { level: request!.params!.level, states: request!.params!.states } });
      assert.equal(mine, replyTo(respelled), line);
    }
  });
  it('answers a fault mid-list with the error JSON.parse gives, and the next reply is whole', () => {
    const line = JSON.stringify({ id: 3, method: 'successors', params: { level, states: [...keys.slice(0, 3000), keys[0]!.slice(1) + '~'] } });
    assert.equal(quick(s, line), null);
    const r = JSON.parse(replyTo(line));
    assert.equal(r.id, 3);
    assert.match(r.error.message, /not a state of this level/);
    check(s, level, l.start, keys.slice(0, 100), 4);
  });
});
