"use strict";
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
Object.defineProperty(exports, "__esModule", { value: true });
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const bfs_1 = require("./bfs");
const level_1 = require("./level");
const notation_1 = require("./notation");
const rules_1 = require("./rules");
const repo = (0, node_path_1.resolve)(__dirname, '..', '..', '..', '..');
/** The binary's JSON answer; it exits 1 when, say, an ablated copy hits the limit, and still answers. */
function run(bin, args) {
    const r = (0, node_child_process_1.spawnSync)(bin, args, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28 });
    try {
        return JSON.parse(r.stdout);
    }
    catch {
        throw new Error(`puzzle-qa ${args.join(' ')} exited ${r.status} with no JSON: ${r.stderr}`);
    }
}
/** Plays `text` through move(): the moves played and whether they won, or why one was refused. */
function replay(start, text) {
    let s = start;
    const moves = (0, notation_1.parseMoves)(text);
    for (let i = 0; i < moves.length; i++) {
        const next = (0, rules_1.move)(s, moves[i].who, moves[i].dir);
        if (next === null)
            return { played: i, won: (0, rules_1.isWon)(s), refusedAt: i };
        s = next;
    }
    return { played: moves.length, won: (0, rules_1.isWon)(s), refusedAt: null };
}
function parOf(level) {
    const r = (0, bfs_1.solve)(level.start, bfs_1.DEFAULT_LIMIT);
    return r.status === 'limit' ? 'limit' : r.par;
}
function main(argv) {
    const ablation = argv.includes('--ablation') || argv.includes('--objects');
    const objects = argv.includes('--objects');
    let files = argv.filter((a) => !a.startsWith('--'));
    const bin = process.env['PUZZLE_QA'] ?? (0, node_path_1.join)(repo, 'target', 'release', 'puzzle-qa');
    if (!(0, node_fs_1.existsSync)(bin)) {
        console.log(`skipped: no puzzle-qa binary at ${bin} (cargo build --release, or set PUZZLE_QA)`);
        return 0;
    }
    if (files.length === 0) {
        const dir = (0, node_path_1.join)(repo, 'levels', 'hugmaze');
        files = (0, node_fs_1.readdirSync)(dir)
            .filter((f) => f.endsWith('.txt') && !f.startsWith('.'))
            .sort()
            .map((f) => (0, node_path_1.join)(dir, f));
    }
    let failures = 0;
    const fail = (file, what) => {
        failures++;
        console.log(`FAIL ${(0, node_path_1.basename)(file)}: ${what}`);
    };
    for (const file of files) {
        const path = (0, node_path_1.resolve)(file);
        const level = (0, level_1.parseLevel)((0, level_1.decodeLevelBytes)((0, node_fs_1.readFileSync)(path)));
        const rust = run(bin, ['solve', path, '--json']);
        const t0 = Date.now();
        const mine = (0, bfs_1.solve)(level.start);
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
        const same = mine.path !== null && rust.solution !== null && (0, notation_1.formatMoves)(mine.path) === rust.solution;
        const ab = run(bin, objects ? ['ablate', path, '--json', '--objects'] : ['ablate', path, '--json']);
        const names = (0, level_1.mechanics)(level).map((m) => m.name);
        const rustNames = Object.keys(ab.mechanics);
        if (names.join(',') !== rustNames.join(',')) {
            fail(file, `mechanics [${names.join(', ')}], built-in [${rustNames.join(', ')}]`);
        }
        if (ablation) {
            for (const name of names) {
                const p = parOf((0, level_1.ablate)(level, name));
                const theirs = ab.mechanics[name];
                const expected = theirs === undefined ? undefined : theirs.class === 'unknown' ? 'limit' : theirs.par;
                if (p !== expected)
                    fail(file, `without ${name}: par ${p}, built-in ${expected}`);
            }
        }
        if (objects) {
            const mineP = (0, level_1.pieces)(level).map((p) => `${p.name}@${p.at.join(':')}=${p.replacement}`);
            const rustP = (ab.objects ?? []).map((o) => `${o.mechanic}@${o.at.join(':')}=${o.replacement}`);
            if (mineP.join(',') !== rustP.join(','))
                fail(file, `pieces [${mineP.join(', ')}], built-in [${rustP.join(', ')}]`);
            for (const o of ab.objects ?? []) {
                const p = parOf((0, level_1.ablate)(level, o.mechanic, o.at));
                const expected = o.class === 'unknown' ? 'limit' : o.par;
                if (p !== expected)
                    fail(file, `without the ${o.mechanic} at [${o.at.join(', ')}]: par ${p}, built-in ${expected}`);
            }
        }
        console.log([
            (0, node_path_1.basename)(file),
            `par ${mine.par} (built-in ${rust.par})`,
            `expanded ${mine.expanded} (built-in ${rust.expanded})`,
            `stored ${mine.stored} (built-in ${rust.stored})`,
            `built-in solution ${replayed}`,
            same ? 'same solution' : 'another solution',
            `mechanics [${names.join(', ')}]`,
            `${ms} ms`,
        ].join('; '));
    }
    console.log(failures === 0 ? `all ${files.length} levels agree` : `${failures} mismatches`);
    return failures === 0 ? 0 : 1;
}
process.exitCode = main(process.argv.slice(2));
