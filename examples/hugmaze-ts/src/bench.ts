// npm run bench -- LEVEL.txt... [--runs N] [--limit N] [--json]
//
// Solves each level with the plain TypeScript BFS (src/bfs.ts) and prints
// its par, the states expanded and stored, and states expanded per second.
// With --runs N each level is solved N times and the median run is printed.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { DEFAULT_LIMIT, SolveResult, solve } from './bfs';
import { LevelError, decodeLevelBytes, parseLevel } from './level';
import { formatMoves } from './notation';

interface Run {
  readonly result: SolveResult;
  readonly ms: number;
}

function usage(): never {
  process.stderr.write('usage: npm run bench -- LEVEL.txt... [--runs N] [--limit N] [--json]\n');
  process.exit(2);
}

function main(argv: string[]): number {
  const files: string[] = [];
  let runs = 1;
  let limit = DEFAULT_LIMIT;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--runs' || a === '--limit') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) usage();
      if (a === '--runs') runs = n;
      else limit = n;
    } else if (a === '--json') json = true;
    else if (a.startsWith('-')) usage();
    else files.push(a);
  }
  if (files.length === 0) usage();
  let failed = false;
  if (!json) console.log('level  status  par  expanded  stored  ms  states/s');
  for (const file of files) {
    let level;
    try {
      level = parseLevel(decodeLevelBytes(readFileSync(file)));
    } catch (e) {
      if (!(e instanceof LevelError)) throw e;
      process.stderr.write(`${file}:${e.line}:${e.column}: error: ${e.message}\n`);
      failed = true;
      continue;
    }
    const all: Run[] = [];
    for (let r = 0; r < runs; r++) {
      const t0 = process.hrtime.bigint();
      const result = solve(level.start, limit);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      all.push({ result, ms });
      if (runs > 1 && !json) {
        process.stderr.write(`  ${basename(file)} run ${r + 1}: ${ms.toFixed(1)} ms\n`);
      }
    }
    all.sort((a, b) => a.ms - b.ms);
    const { result, ms } = all[Math.floor((all.length - 1) / 2)]!;
    const perSecond = Math.round(result.expanded / (ms / 1000));
    if (json) {
      console.log(
        JSON.stringify({
          file,
          status: result.status,
          par: result.par,
          expanded: result.expanded,
          stored: result.stored,
          ms: Math.round(ms * 10) / 10,
          runs,
          states_per_second: perSecond,
          solution: result.path === null ? null : formatMoves(result.path),
        }),
      );
    } else {
      console.log(
        `${basename(file)}  ${result.status}  ${result.par ?? '-'}  ${result.expanded}  ${result.stored}  ${ms.toFixed(1)}  ${perSecond}`,
      );
    }
  }
  return failed ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
