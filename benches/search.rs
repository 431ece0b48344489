//! The search benchmark: `cargo bench --features pathfinding --bench search
//! -- [FILTER] [--runs N] [--json]`.
//!
//! For every level under `levels/<game>/` whose path contains FILTER, it
//! solves the level `--runs` times (default 5) with the hand-written
//! breadth-first search, then as often with the `pathfinding` crate's `bfs`
//! over the same game, then once with A*, then solves every ablated copy
//! once. Each of these runs in a child process of its own; peak memory comes
//! from one more child per engine that searches once, so the high-water
//! mark the OS reports (VmHWM) belongs to that one search. The memory
//! printed is that peak minus the child's resident memory just before the
//! search (the binary, the parsed level), so it is the search's own. Times
//! are medians of the runs, each BFS on as many threads as
//! `RAYON_NUM_THREADS` says (one per core without it; the `pathfinding`
//! crate's and A* on one): run it with `RAYON_NUM_THREADS=1`, then `=2`,
//! to see what a second core gives. `arena B` is what one stored
//! state itself takes in the search's arena (`Stats::bytes_per_state`),
//! beside `B/st`, the whole search's peak per stored state.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use puzzle_qa::games::BUILT_IN as GAMES;
use puzzle_qa_core::_cli_support::level::read_level;
use puzzle_qa_core::harness::GameChecks;
use puzzle_qa_core::level::{AnyLevel, Solution};
use puzzle_qa_core::search::{Algorithm, SearchOptions, Status};

/// What one child measured.
#[derive(Serialize, Deserialize)]
struct Measured {
    par: Option<u32>,
    expanded: u64,
    stored: u64,
    /// Median wall time of one search, milliseconds.
    median_ms: f64,
    /// Peak resident memory above the baseline, KiB.
    peak_kib: u64,
    /// What the stored states took in the arena, bytes.
    state_bytes: u64,
}

/// One level's row.
#[derive(Serialize)]
struct Row {
    level: String,
    par: Option<u32>,
    expanded: u64,
    stored: u64,
    median_ms: f64,
    states_per_second: f64,
    peak_mib: f64,
    bytes_per_state: f64,
    /// What one stored state itself takes in the arena.
    arena_bytes_per_state: f64,
    pathfinding_ms: f64,
    pathfinding_peak_mib: f64,
    /// pathfinding's time over ours: above 1, ours is faster.
    time_ratio: f64,
    /// Our peak over pathfinding's: below 0.5, ours takes under half.
    memory_ratio: f64,
    astar_expanded: u64,
    ablations: usize,
    ablations_stored: u64,
    ablations_ms: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child") {
        let [_, engine, file, runs] = &args[..] else {
            panic!("usage: --child ENGINE FILE RUNS")
        };
        let measured = child(engine, Path::new(file), runs.parse().expect("RUNS"));
        println!("{}", serde_json::to_string(&measured).unwrap());
        return;
    }
    let mut runs = 5;
    let mut json = false;
    let mut filter = String::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--runs" => runs = words.next().and_then(|n| n.parse().ok()).expect("--runs N"),
            "--json" => json = true,
            // cargo bench passes this to every bench target.
            "--bench" => {}
            other => filter = other.to_string(),
        }
    }
    let rows: Vec<Row> = level_files()
        .into_iter()
        .filter(|file| file.to_string_lossy().contains(&filter))
        .map(|file| row(&file, runs))
        .collect();
    if json {
        let games: serde_json::Map<String, serde_json::Value> = games(&rows)
            .into_iter()
            .map(|(game, rows)| (game, totals(&rows)))
            .collect();
        let report = serde_json::json!({ "runs": runs, "levels": rows, "games": games, "totals": totals(&rows.iter().collect::<Vec<_>>()) });
        println!("{}", serde_json::to_string_pretty(&report).unwrap());
    } else {
        print_table(&rows, runs);
    }
}

/// Every level file of every registered game, sorted.
fn level_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut files = Vec::new();
    for game in GAMES {
        let Ok(entries) = std::fs::read_dir(root.join(game.name)) else {
            continue;
        };
        files.extend(
            entries
                .map(|entry| entry.unwrap().path())
                .filter(|path| path.extension().is_some_and(|ext| ext == game.extension)),
        );
    }
    files.sort();
    files
}

fn measure(engine: &str, file: &Path, runs: usize) -> Measured {
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "--child",
            engine,
            &file.to_string_lossy(),
            &runs.to_string(),
        ])
        .output()
        .expect("the benchmark runs itself as a child");
    assert!(
        output.status.success(),
        "{engine} on {}: {}",
        file.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the child prints its measurement")
}

fn row(file: &Path, runs: usize) -> Row {
    // Times are medians over `runs` searches in one child; peaks come from
    // a fresh child that searches once, since an allocator keeps some of
    // what earlier runs freed.
    let ours = Measured {
        peak_kib: measure("bfs", file, 1).peak_kib,
        ..measure("bfs", file, runs)
    };
    let theirs = Measured {
        peak_kib: measure("pathfinding", file, 1).peak_kib,
        ..measure("pathfinding", file, runs)
    };
    let astar = measure("astar", file, 1);
    let ablations = measure("ablations", file, 1);
    assert_eq!(
        ours.par,
        theirs.par,
        "{}: the two searches disagree",
        file.display()
    );
    assert_eq!(
        ours.par,
        astar.par,
        "{}: A* disagrees with BFS",
        file.display()
    );
    let mib = |kib: u64| kib as f64 / 1024.0;
    Row {
        level: file
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(file)
            .display()
            .to_string(),
        par: ours.par,
        expanded: ours.expanded,
        stored: ours.stored,
        median_ms: ours.median_ms,
        states_per_second: ours.expanded as f64 / (ours.median_ms / 1000.0),
        peak_mib: mib(ours.peak_kib),
        bytes_per_state: (ours.peak_kib * 1024) as f64 / ours.stored as f64,
        arena_bytes_per_state: ours.state_bytes as f64 / ours.stored as f64,
        pathfinding_ms: theirs.median_ms,
        pathfinding_peak_mib: mib(theirs.peak_kib),
        time_ratio: theirs.median_ms / ours.median_ms,
        memory_ratio: ours.peak_kib as f64 / theirs.peak_kib.max(1) as f64,
        astar_expanded: astar.expanded,
        ablations: ablations.expanded as usize,
        ablations_stored: ablations.stored,
        ablations_ms: ablations.median_ms,
    }
}

/// A `/proc/self/status` field, KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.trim().strip_suffix("kB"))
        .and_then(|kib| kib.trim().parse().ok())
        .unwrap_or(0)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn child(engine: &str, file: &Path, runs: usize) -> Measured {
    let game = GameChecks::of_folder(file, GAMES).expect("a level under levels/<game>/");
    let (_, loaded) =
        read_level(file, &file.display().to_string(), game.load).expect("the level loads");
    let level: &dyn AnyLevel = loaded.level.as_ref();
    let baseline = status_kib("VmRSS:");
    let search = |level: &dyn AnyLevel| -> Solution {
        match engine {
            "bfs" | "ablations" => level.solve(SearchOptions::default()),
            "astar" => level.solve(SearchOptions {
                algorithm: Algorithm::Astar,
                ..SearchOptions::default()
            }),
            "pathfinding" => level.solve_with_pathfinding(),
            other => panic!("unknown engine {other}"),
        }
    };
    if engine == "ablations" {
        // `expanded` carries the number of copies, `stored` their states.
        let clock = std::time::Instant::now();
        let mut stored = 0;
        let mechanics = level.mechanics();
        for ablation in &mechanics {
            stored += search(level.ablated(ablation).as_ref()).stats.stored;
        }
        let median_ms = clock.elapsed().as_secs_f64() * 1e3;
        return Measured {
            par: search(level).par,
            expanded: mechanics.len() as u64,
            stored,
            median_ms,
            peak_kib: status_kib("VmHWM:").saturating_sub(baseline),
            state_bytes: 0,
        };
    }
    let solutions: Vec<Solution> = (0..runs).map(|_| search(level)).collect();
    let last = solutions.last().expect("at least one run");
    assert_ne!(
        last.status,
        Status::Limit,
        "{}: state limit",
        file.display()
    );
    Measured {
        par: last.par,
        expanded: last.stats.expanded,
        stored: last.stats.stored,
        median_ms: median(solutions.iter().map(|s| s.stats.milliseconds()).collect()),
        peak_kib: status_kib("VmHWM:").saturating_sub(baseline),
        state_bytes: last.stats.state_bytes,
    }
}

struct Totals {
    levels: usize,
    expanded: u64,
    stored: u64,
    state_bytes: f64,
    ms: f64,
    pathfinding_ms: f64,
    ablations: usize,
    ablations_stored: u64,
    ablations_ms: f64,
    astar_expanded: u64,
}

/// The rows of each game (the level's folder), in order.
fn games(rows: &[Row]) -> Vec<(String, Vec<&Row>)> {
    let mut games: Vec<(String, Vec<&Row>)> = Vec::new();
    for row in rows {
        let game = row.level.split('/').nth(1).unwrap_or("?").to_string();
        match games.iter_mut().find(|(name, _)| *name == game) {
            Some((_, rows)) => rows.push(row),
            None => games.push((game, vec![row])),
        }
    }
    games
}

fn totals(rows: &[&Row]) -> serde_json::Value {
    let t = sum(rows);
    serde_json::json!({
        "levels": t.levels,
        "expanded": t.expanded,
        "stored": t.stored,
        "arena_bytes_per_state": t.state_bytes / t.stored as f64,
        "median_ms": t.ms,
        "states_per_second": t.expanded as f64 / (t.ms / 1000.0),
        "pathfinding_ms": t.pathfinding_ms,
        "astar_expanded": t.astar_expanded,
        "ablations": t.ablations,
        "ablations_stored": t.ablations_stored,
        "ablations_ms": t.ablations_ms,
        "suite_ms": t.ms + t.ablations_ms,
    })
}

fn sum(rows: &[&Row]) -> Totals {
    Totals {
        levels: rows.len(),
        expanded: rows.iter().map(|r| r.expanded).sum(),
        stored: rows.iter().map(|r| r.stored).sum(),
        state_bytes: rows
            .iter()
            .map(|r| r.arena_bytes_per_state * r.stored as f64)
            .sum(),
        ms: rows.iter().map(|r| r.median_ms).sum(),
        pathfinding_ms: rows.iter().map(|r| r.pathfinding_ms).sum(),
        ablations: rows.iter().map(|r| r.ablations).sum(),
        ablations_stored: rows.iter().map(|r| r.ablations_stored).sum(),
        ablations_ms: rows.iter().map(|r| r.ablations_ms).sum(),
        astar_expanded: rows.iter().map(|r| r.astar_expanded).sum(),
    }
}

fn print_table(rows: &[Row], runs: usize) {
    println!(
        "{:<40} {:>4} {:>9} {:>9} {:>8} {:>8} {:>7} {:>6} {:>7} {:>8} {:>7} {:>6} {:>6} {:>8}",
        "level",
        "par",
        "expanded",
        "stored",
        "ms",
        "Mst/s",
        "MiB",
        "B/st",
        "arena B",
        "pf ms",
        "pf MiB",
        "pf/us",
        "us/pf",
        "A* exp"
    );
    for r in rows {
        println!(
            "{:<40} {:>4} {:>9} {:>9} {:>8.2} {:>8.2} {:>7.2} {:>6.1} {:>7.1} {:>8.2} {:>7.2} {:>6.2} {:>6.2} {:>8}",
            r.level,
            r.par.map_or("-".to_string(), |p| p.to_string()),
            r.expanded,
            r.stored,
            r.median_ms,
            r.states_per_second / 1e6,
            r.peak_mib,
            r.bytes_per_state,
            r.arena_bytes_per_state,
            r.pathfinding_ms,
            r.pathfinding_peak_mib,
            r.time_ratio,
            r.memory_ratio,
            r.astar_expanded,
        );
    }
    println!("\nmedians of {runs} runs; memory: peak resident above the child's baseline");
    for (game, rows) in games(rows) {
        let t = sum(&rows);
        println!(
            "{game}: {} levels; BFS {:.1} ms for {} states expanded ({:.2} M/s), {} stored \
             ({:.1} B each in the arena); \
             pathfinding::bfs {:.1} ms ({:.2}x our time); A* expanded {} ({:.1}x fewer than BFS); \
             {} ablated copies: {} states, {:.1} ms",
            t.levels,
            t.ms,
            t.expanded,
            t.expanded as f64 / t.ms / 1e3,
            t.stored,
            t.state_bytes / t.stored as f64,
            t.pathfinding_ms,
            t.pathfinding_ms / t.ms,
            t.astar_expanded,
            t.expanded as f64 / t.astar_expanded.max(1) as f64,
            t.ablations,
            t.ablations_stored,
            t.ablations_ms,
        );
    }
    let t = sum(&rows.iter().collect::<Vec<_>>());
    println!(
        "all: every level and every ablated copy searched once on one core: {:.1} ms",
        t.ms + t.ablations_ms
    );
}
