// The adapter as puzzle-qa sees it: a child process answering one JSON line
// per request (docs/protocol.md). A scripted session covers every method and
// its errors; a small harness-like BFS over `successors` finds the same par
// and solution as the TypeScript BFS.

import * as assert from 'node:assert/strict';
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { solve } from '../src/bfs';
import { parseLevel } from '../src/level';
import { formatMoves } from '../src/notation';
import { Session } from '../src/protocol';

const ADAPTER = join(__dirname, '..', 'src', 'adapter.js');

const FIRST_HUG = `name: First Hug
auhtor: me
########
#B.....#
#.###..#
#.#H#..#
#.#.#.##
#...#..#
###...D#
########
`;

const JAR_AND_GATES = `name: Jar and Gates
########
#B.#.D.#
#..#.J.#
#..P...#
#.q#.p.#
##Q#####
#...H..#
########
`;

/** An edge of a `successors` reply, in the compact form the adapter writes: [move, state], or [move, state, 1, true] for a win. */
type Edge = [string, string] | [string, string, number, boolean];

/** A game process, asked one request at a time, as the harness does. */
class Child {
  readonly proc: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiting: ((line: string) => void)[] = [];
  private lines: string[] = [];
  private nextId = 1;
  readonly exited: Promise<number | null>;

  constructor() {
    this.proc = spawn(process.execPath, [ADAPTER], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const w = this.waiting.shift();
        if (w) w(line);
        else this.lines.push(line);
      }
    });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)));
  }

  /** Calls `resolve` with the next reply line (one already read, or the next to come). */
  waitLine(resolve: (line: string) => void): void {
    const queued = this.lines.shift();
    if (queued !== undefined) resolve(queued);
    else this.waiting.push(resolve);
  }

  /** Sends a raw line and returns the reply line. */
  raw(line: string): Promise<string> {
    this.proc.stdin.write(line + '\n');
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Sends a request; returns its reply, checked to answer the request's id and to be one line. */
  async call(method: string, params: unknown): Promise<{ result?: any; error?: any }> {
    const id = this.nextId++;
    const line = await this.raw(JSON.stringify({ id, method, params }));
    const reply = JSON.parse(line);
    assert.equal(reply.id, id);
    assert.ok(('result' in reply) !== ('error' in reply), 'a result or an error');
    return reply;
  }

  async result(method: string, params: unknown): Promise<any> {
    const r = await this.call(method, params);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    return r.result;
  }

  close(): Promise<number | null> {
    this.proc.stdin.end();
    return this.exited;
  }
}

describe('the adapter process', () => {
  it('answers a scripted session, method by method', async () => {
    const c = new Child();
    try {
      assert.deepEqual(await c.result('hello', { protocol: 1, client: 'puzzle-qa 0.1.0' }), {
        protocol: 1,
        game: 'hugmaze',
        draw: true,
      });

      // load: the level, its start, its mechanics and pieces, its warnings.
      const loaded = await c.result('load', { text: FIRST_HUG, name: '01-first-hug' });
      assert.equal(loaded.level, 'L1');
      assert.equal(typeof loaded.start, 'string');
      assert.equal(loaded.won, false);
      assert.deepEqual(loaded.mechanics, []);
      assert.deepEqual(loaded.pieces, []);
      assert.deepEqual(loaded.warnings, [
        { message: 'unknown header `auhtor`; kept, but no check reads it', line: 2, column: 1 },
      ]);
      const L = loaded.level;

      // A level that does not load: message, line and column.
      const broken = await c.call('load', { text: 'name: x\n#####\n#B?HD\n#####\n', name: 'broken' });
      assert.deepEqual(broken.error, { message: 'unknown character `?`', line: 3, column: 3 });

      // successors: one list per state, Bubu's moves before Dudu's, each U D L R.
      const succ = await c.result('successors', { level: L, states: [loaded.start, loaded.start] });
      assert.equal(succ.successors.length, 2);
      // Each edge in the compact form, [move, state].
      assert.deepEqual(
        succ.successors[0].map((e: Edge) => e[0]),
        ['B:D', 'B:R', 'D:U', 'D:L'],
      );
      assert.deepEqual(succ.successors[0], succ.successors[1]);
      for (const e of succ.successors[0]) {
        assert.equal(e.length, 2);
        assert.equal(typeof e[1], 'string');
      }
      assert.deepEqual((await c.result('successors', { level: L, states: [] })).successors, []);

      // step: a legal move, then a refused one.
      const stepped = await c.result('step', { level: L, state: loaded.start, move: 'B:R' });
      assert.deepEqual(stepped, { state: succ.successors[0][1][1], cost: 1, won: false });
      assert.deepEqual(await c.result('step', { level: L, state: loaded.start, move: 'B:U' }), {
        refused: 'Bubu walks into the wall at (row 0, column 1)',
      });

      // A whole winning route through step: the last move wins, and any after it is refused.
      const route = 'B:D B:D B:D B:D B:R B:R B:U B:U D:L D:L D:L D:U D:U D:U';
      const moves = (await c.result('parse', { level: L, text: route })).moves;
      assert.equal(moves.length, 14);
      let state = loaded.start;
      let won = false;
      for (const mv of moves) {
        const r = await c.result('step', { level: L, state, move: mv });
        state = r.state;
        won = r.won;
      }
      assert.equal(won, true);
      assert.deepEqual(await c.result('step', { level: L, state, move: 'B:U' }), {
        refused: 'the level is already won; no move after the win',
      });
      // A move that wins is marked in successors too: [move, state, 1, true].
      let before = loaded.start;
      for (const mv of moves.slice(0, -1)) before = (await c.result('step', { level: L, state: before, move: mv })).state;
      const last = (await c.result('successors', { level: L, states: [before] })).successors[0];
      assert.deepEqual(
        last.filter((e: Edge) => e.length === 4),
        [['D:U', state, 1, true]],
      );

      // parse and format.
      assert.deepEqual(await c.result('parse', { level: L, text: 'B:R,D:U' }), { moves: ['B:R', 'D:U'] });
      assert.deepEqual((await c.call('parse', { level: L, text: 'B:R Q' })).error, {
        message: '`Q` is not a move: write the bear, a colon and a direction, as in `B:R` or `D:U`',
        column: 5,
      });
      assert.deepEqual((await c.call('parse', { level: L, text: 'b:r' })).error, {
        message: 'unknown bear `b` in `b:r`: B is Bubu, D is Dudu',
        column: 1,
      });
      assert.deepEqual(await c.result('format', { level: L, moves: ['B:R', 'D:U'] }), { text: 'B:R D:U' });
      assert.ok((await c.call('format', { level: L, moves: ['B:R', 'b:r'] })).error.message.includes('`b:r`'));

      // draw.
      assert.deepEqual(await c.result('draw', { level: L, state: stepped.state }), {
        rows: ['########', '#.B....#', '#.###..#', '#.#H#..#', '#.#.#.##', '#...#..#', '###...D#', '########'],
      });

      // ablate: a new level, the original left as it was.
      const pot = await c.result('load', { text: JAR_AND_GATES, name: 'jar-and-gates' });
      assert.deepEqual(pot.mechanics, [
        { name: 'jar', replacement: 'wall' },
        { name: 'plate', replacement: 'floor' },
        { name: 'gate', replacement: 'floor' },
      ]);
      assert.deepEqual(pot.pieces, [
        { name: 'jar', at: [2, 5], replacement: 'wall' },
        { name: 'plate', at: [4, 2], replacement: 'floor' },
        { name: 'plate', at: [4, 5], replacement: 'floor' },
        { name: 'gate', at: [3, 3], replacement: 'floor' },
        { name: 'gate', at: [5, 2], replacement: 'floor' },
      ]);
      const noJar = await c.result('ablate', { level: pot.level, mechanic: 'jar' });
      assert.deepEqual(Object.keys(noJar), ['level', 'start', 'won']);
      assert.notEqual(noJar.level, pot.level);
      assert.equal(noJar.start.length, pot.start.length - 1, 'one object fewer in the key');
      const drawn = await c.result('draw', { level: noJar.level, state: noJar.start });
      assert.equal(drawn.rows[2], '#..#.#.#');
      assert.equal((await c.result('draw', { level: pot.level, state: pot.start })).rows[2], '#..#.J.#');
      const oneGate = await c.result('ablate', { level: pot.level, mechanic: 'gate', at: [5, 2] });
      assert.equal((await c.result('draw', { level: oneGate.level, state: oneGate.start })).rows[5], '##.#####');
      assert.ok((await c.call('ablate', { level: pot.level, mechanic: 'gate', at: [1, 1] })).error.message.includes('no gate'));
      assert.ok((await c.call('ablate', { level: pot.level, mechanic: 'cat' })).error.message.includes('no cat'));

      // Errors that are not faults: an unknown level, a state that is not one, an unknown method.
      assert.deepEqual((await c.call('successors', { level: 'L99', states: [] })).error, { message: 'no level L99' });
      assert.match((await c.call('successors', { level: L, states: ['?'] })).error.message, /not a state of this level/);
      assert.match((await c.call('step', { level: L, state: loaded.start, move: 'up' })).error.message, /not a move/);
      assert.deepEqual((await c.call('teleport', {})).error, { message: 'unknown method `teleport`' });
      assert.deepEqual(JSON.parse(await c.raw('not json')).id, null);
      assert.deepEqual(JSON.parse(await c.raw('{"id": "x7", "method": "hello"}')).id, 'x7');
    } finally {
      assert.equal(await c.close(), 0, 'exits when stdin closes');
    }
  });

  it('exits at once when stdin closes with nothing asked', async () => {
    const c = new Child();
    assert.equal(await c.close(), 0);
  });

  it('answers a last request with no newline after it, then exits', async () => {
    const c = new Child();
    const out: string[] = [];
    c.proc.stdout.removeAllListeners('data');
    c.proc.stdout.on('data', (d: string) => out.push(d));
    c.proc.stdin.end('{"id":1,"method":"hello","params":{"protocol":1}}');
    assert.equal(await c.exited, 0);
    assert.deepEqual(JSON.parse(out.join('')), { id: 1, result: { protocol: 1, game: 'hugmaze', draw: true } });
  });

  it('answers requests sent without waiting, in order and whole, when replies fill the pipe and its reader is slow', async () => {
    const c = new Child();
    try {
      const { level, start } = await c.result('load', { text: FIRST_HUG, name: '01-first-hug' });
      const one = (await c.result('successors', { level, states: [start] })).successors[0];
      // 20,000 times the start: a reply of about 1.5 MB, far more than a pipe holds.
      const states = new Array(20_000).fill(start);
      const requests = [
        { id: 'a', method: 'successors', params: { level, states } },
        { id: 'b', method: 'hello', params: { protocol: 1 } },
        { id: 'c', method: 'successors', params: { level, states: states.slice(0, 3) } },
        { id: 'd', method: 'successors', params: { level, states } },
      ];
      // All four in one write, while nobody reads the replies for a moment.
      c.proc.stdout.pause();
      const replies = Promise.all(requests.map(() => new Promise<string>((resolve) => c.waitLine(resolve))));
      c.proc.stdin.write(requests.map((r) => JSON.stringify(r) + '\n').join(''));
      await new Promise((resolve) => setTimeout(resolve, 300));
      c.proc.stdout.resume();
      // A reply written over before it went out would lose its newline, and the wait would never end: give up after 30 s.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no four whole replies after 30 s')), 30_000);
      });
      const lines = await Promise.race([replies, late]).finally(() => clearTimeout(timer));
      const [a, b, cc, d] = lines.map((line) => JSON.parse(line));
      assert.deepEqual([a.id, b.id, cc.id, d.id], ['a', 'b', 'c', 'd']);
      assert.equal(b.result.game, 'hugmaze');
      for (const r of [a, d]) {
        assert.equal(r.result.successors.length, 20_000);
        assert.ok(r.result.successors.every((list: Edge[]) => JSON.stringify(list) === JSON.stringify(one)));
      }
      assert.deepEqual(cc.result.successors, [one, one, one]);
    } finally {
      c.proc.kill();
      await c.exited;
    }
  });

  it("plays a harness's BFS over successors in chunks, to the same par and solution as bfs.ts", async () => {
    const c = new Child();
    try {
      await c.result('hello', { protocol: 1, client: 'test' });
      const { level, start } = await c.result('load', { text: JAR_AND_GATES, name: 'jar-and-gates' });
      const seen = new Map<string, { prev: string | null; move: string | null }>([[start, { prev: null, move: null }]]);
      let layer = [start];
      let par: number | null = null;
      let winner: string | null = null;
      for (let depth = 1; layer.length > 0 && winner === null; depth++) {
        const next: string[] = [];
        for (let i = 0; i < layer.length && winner === null; i += 4096) {
          const chunk = layer.slice(i, i + 4096);
          const { successors } = await c.result('successors', { level, states: chunk });
          assert.equal(successors.length, chunk.length);
          for (let j = 0; j < chunk.length && winner === null; j++) {
            for (const [move, state, , won] of successors[j] as Edge[]) {
              if (seen.has(state)) continue;
              seen.set(state, { prev: chunk[j], move });
              if (won === true) {
                winner = state;
                par = depth;
                break;
              }
              next.push(state);
            }
          }
        }
        layer = next;
      }
      const path: string[] = [];
      for (let k = winner!; seen.get(k)!.prev !== null; k = seen.get(k)!.prev!) path.unshift(seen.get(k)!.move!);
      const mine = solve(parseLevel(JAR_AND_GATES).start);
      assert.equal(par, mine.par);
      assert.equal(par, 18);
      assert.equal(path.join(' '), formatMoves(mine.path!));
    } finally {
      await c.close();
    }
  });
});

describe('Session', () => {
  it('gives out a new handle for every load and ablation', () => {
    const s = new Session();
    const a = JSON.parse(s.handle(JSON.stringify({ id: 1, method: 'load', params: { text: JAR_AND_GATES } })));
    const b = JSON.parse(s.handle(JSON.stringify({ id: 2, method: 'load', params: { text: JAR_AND_GATES } })));
    const c = JSON.parse(s.handle(JSON.stringify({ id: 3, method: 'ablate', params: { level: 'L1', mechanic: 'plate' } })));
    assert.deepEqual([a.result.level, b.result.level, c.result.level], ['L1', 'L2', 'L3']);
    assert.equal(a.result.start, b.result.start);
  });
  it('writes replies as single lines', () => {
    const s = new Session();
    const reply = s.handle(JSON.stringify({ id: 1, method: 'load', params: { text: FIRST_HUG } }));
    assert.ok(!reply.includes('\n'));
    const err = s.handle(JSON.stringify({ id: 2, method: 'load', params: { text: 'name: a\nb\n' } }));
    assert.ok(!err.includes('\n'));
    assert.deepEqual(JSON.parse(err).error, { message: 'unknown character `b`', line: 2, column: 1 });
  });
  it('turns away malformed params', () => {
    const s = new Session();
    const r = JSON.parse(s.handle(JSON.stringify({ id: 1, method: 'load', params: { text: 7 } })));
    assert.deepEqual(r.error, { message: '`params.text` must be a string' });
    const q = JSON.parse(s.handle(JSON.stringify({ id: 2, method: 'load', params: [] })));
    assert.deepEqual(q.error, { message: '`params` must be an object' });
  });
});
