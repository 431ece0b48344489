"use strict";
// npm run bench -- LEVEL.txt... [--runs N] [--limit N] [--json]
//
// Solves each level with the plain TypeScript BFS (src/bfs.ts) and prints
// its par, the states expanded and stored, and states expanded per second.
// With --runs N each level is solved N times and the median run is printed.
Object.defineProperty(exports, "__esModule", { value: true });
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const bfs_1 = require("./bfs");
const level_1 = require("./level");
const notation_1 = require("./notation");
function usage() {
    process.stderr.write('usage: npm run bench -- LEVEL.txt... [--runs N] [--limit N] [--json]\n');
    process.exit(2);
}
function main(argv) {
    const files = [];
    let runs = 1;
    let limit = bfs_1.DEFAULT_LIMIT;
    let json = false;
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--runs' || a === '--limit') {
            const n = Number(argv[++i]);
            if (!Number.isInteger(n) || n < 1)
                usage();
            if (a === '--runs')
                runs = n;
            else
                limit = n;
        }
        else if (a === '--json')
            json = true;
        else if (a.startsWith('-'))
            usage();
        else
            files.push(a);
    }
    if (files.length === 0)
        usage();
    let failed = false;
    if (!json)
        console.log('level  status  par  expanded  stored  ms  states/s');
    for (const file of files) {
        let level;
        try {
            level = (0, level_1.parseLevel)((0, level_1.decodeLevelBytes)((0, node_fs_1.readFileSync)(file)));
        }
        catch (e) {
            if (!(e instanceof level_1.LevelError))
                throw e;
            process.stderr.write(`${file}:${e.line}:${e.column}: error: ${e.message}\n`);
            failed = true;
            continue;
        }
        const all = [];
        for (let r = 0; r < runs; r++) {
            const t0 = process.hrtime.bigint();
            const result = (0, bfs_1.solve)(level.start, limit);
            const ms = Number(process.hrtime.bigint() - t0) / 1e6;
            all.push({ result, ms });
            if (runs > 1 && !json) {
                process.stderr.write(`  ${(0, node_path_1.basename)(file)} run ${r + 1}: ${ms.toFixed(1)} ms\n`);
            }
        }
        all.sort((a, b) => a.ms - b.ms);
        const { result, ms } = all[Math.floor((all.length - 1) / 2)];
        const perSecond = Math.round(result.expanded / (ms / 1000));
        if (json) {
            console.log(JSON.stringify({
                file,
                status: result.status,
                par: result.par,
                expanded: result.expanded,
                stored: result.stored,
                ms: Math.round(ms * 10) / 10,
                runs,
                states_per_second: perSecond,
                solution: result.path === null ? null : (0, notation_1.formatMoves)(result.path),
            }));
        }
        else {
            console.log(`${(0, node_path_1.basename)(file)}  ${result.status}  ${result.par ?? '-'}  ${result.expanded}  ${result.stored}  ${ms.toFixed(1)}  ${perSecond}`);
        }
    }
    return failed ? 1 : 0;
}
process.exitCode = main(process.argv.slice(2));
