// npm run compare -- [LEVEL.txt...] [--ablation] [--objects]
//
// Holds this TypeScript Hug Maze to the built-in Rust engine, run as a black
// box (the puzzle-qa binary: $PUZZLE_QA, or the repository's
// target/release/puzzle-qa). For every level (default: the repository's
// levels/hugmaze/*.txt):
//   - the TypeScript BFS finds the same status and par as `puzzle-qa solve`;
//   - the built-in engine's solution, replayed through this `move()`, wins at
//     that par;
//   - the mechanics (names, order) match `puzzle-qa ablate --json`;
// and, with --ablation, each ablated copy's par matches the built-in one's,
// and with --objects, the single pieces (name, cell, replacement) and their
// pars match `ablate --objects` too. Exits 1 on any mismatch; skips (exit 0)
// when there is no binary.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { DEFAULT_LIMIT, solve } from './bfs';
import { Level, ablate, decodeLevelBytes, mechanics, parseLevel, pieces } from './level';
import { formatMoves, parseMoves } from './notation';
import { MazeState, isWon, move } from './rules';

const repo = resolve(__dirname, '..', '..', '..', '..');

interface RustSolve {
  status: string;
  par: number | null;
  expanded: number;
  stored: number;
  solution: string | null;
}

interface RustAblate {
  par: number | null;
  mechanics: Record<string, { class: string; par: number | null }>;
  objects?: { mechanic: string; at: [number, number]; replacement: string; class: string; par: number | null }[];
}

/** The binary's JSON answer; it exits 1 when, say, an ablated copy hits the limit, and still answers. */
function run(bin: string, args: string[]): unknown {
  const r = spawnSync(bin, args, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28 });
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`puzzle-qa ${args.join(' ')} exited ${r.status} with no JSON: ${r.stderr}`);
  }
}

/** Plays `text` through move(): the moves played and whether they won, or why one was refused. */
function replay(start: MazeState, text: string): { played: number; won: boolean; refusedAt: number | null } {
  let s = start;
  const moves = parseMoves(text);
  for (let i = 0; i < moves.length; i++) {
    const next = move(s, moves[i]!.who, moves[i]!.dir);
    if (next === null) return { played: i, won: isWon(s), refusedAt: i };
    s = next;
  }
  return { played: moves.length, won: isWon(s), refusedAt: null };
}

function parOf(level: Level): number | null | 'limit' {
  const r = solve(level.start, DEFAULT_LIMIT);
  return r.status === 'limit' ? 'limit' : r.par;
}

function main(argv: string[]): number {
  const ablation = argv.includes('--ablation') || argv.includes('--objects');
  const objects = argv.includes('--objects');
  let files = argv.filter((a) => !a.startsWith('--'));
  const bin = process.env['PUZZLE_QA'] ?? join(repo, 'target', 'release', 'puzzle-qa');
  if (!existsSync(bin)) {
    console.log(`skipped: no puzzle-qa binary at ${bin} (cargo build --release, or set PUZZLE_QA)`);
    return 0;
  }
  if (files.length === 0) {
    const dir = join(repo, 'levels', 'hugmaze');
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.txt') && !f.startsWith('.'))
      .sort()
      .map((f) => join(dir, f));
  }
  let failures = 0;
  const fail = (file: string, what: string): void => {
    failures++;
    console.log(`FAIL ${basename(file)}: ${what}`);
  };
  for (const file of files) {
    const path = resolve(file);
    const level = parseLevel(decodeLevelBytes(readFileSync(path)));
    const rust = run(bin, ['solve', path, '--json']) as RustSolve;
    const t0 = Date.now();
    const mine = solve(level.start);
    const ms = Date.now() - t0;
    if (mine.status !== rust.status || mine.par !== rust.par) {
      fail(file, `TypeScript BFS ${mine.status} par ${mine.par}, built-in ${rust.status} par ${rust.par}`);
    }
    let replayed = '-';
    if (rust.solution !== null) {
      const r = replay(level.start, rust.solution);
      replayed = r.won && r.refusedAt === null && r.played === rust.par ? 'wins' : 'FAILS';
      if (replayed !== 'wins') {
        fail(file, `the built-in solution replayed through move(): ${JSON.stringify(r)}`);
      }
    }
    const same = mine.path !== null && rust.solution !== null && formatMoves(mine.path) === rust.solution;
    const ab = run(bin, objects ? ['ablate', path, '--json', '--objects'] : ['ablate', path, '--json']) as RustAblate;
    const names = mechanics(level).map((m) => m.name);
    const rustNames = Object.keys(ab.mechanics);
    if (names.join(',') !== rustNames.join(',')) {
      fail(file, `mechanics [${names.join(', ')}], built-in [${rustNames.join(', ')}]`);
    }
    if (ablation) {
      for (const name of names) {
        const p = parOf(ablate(level, name));
        const theirs = ab.mechanics[name];
        const expected = theirs === undefined ? undefined : theirs.class === 'unknown' ? 'limit' : theirs.par;
        if (p !== expected) fail(file, `without ${name}: par ${p}, built-in ${expected}`);
      }
    }
    if (objects) {
      const mineP = pieces(level).map((p) => `${p.name}@${p.at.join(':')}=${p.replacement}`);
      const rustP = (ab.objects ?? []).map((o) => `${o.mechanic}@${o.at.join(':')}=${o.replacement}`);
      if (mineP.join(',') !== rustP.join(',')) fail(file, `pieces [${mineP.join(', ')}], built-in [${rustP.join(', ')}]`);
      for (const o of ab.objects ?? []) {
        const p = parOf(ablate(level, o.mechanic, o.at));
        const expected = o.class === 'unknown' ? 'limit' : o.par;
        if (p !== expected) fail(file, `without the ${o.mechanic} at [${o.at.join(', ')}]: par ${p}, built-in ${expected}`);
      }
    }
    console.log(
      [
        basename(file),
        `par ${mine.par} (built-in ${rust.par})`,
        `expanded ${mine.expanded} (built-in ${rust.expanded})`,
        `stored ${mine.stored} (built-in ${rust.stored})`,
        `built-in solution ${replayed}`,
        same ? 'same solution' : 'another solution',
        `mechanics [${names.join(', ')}]`,
        `${ms} ms`,
      ].join('; '),
    );
  }
  console.log(failures === 0 ? `all ${files.length} levels agree` : `${failures} mismatches`);
  return failures === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
