//! `cargo bench -p protocol [-- LEVEL.txt] [--rounds N] [--processes N]`:
//! the TypeScript Hug Maze (`examples/hugmaze-ts/`) searched by puzzle-qa
//! through the process protocol, side by side with a plain BFS written in
//! the same TypeScript over the same `move()` (its `bench.js`), on the
//! article's level by default.
//!
//! The two run in turn, A B A B …, so that a ratio is taken between runs a
//! moment apart on this shared machine. Each protocol run starts fresh
//! processes, and its time counts their start-up and the level's load. It
//! prints, per run and as medians: states expanded per second, states
//! stored, bytes per stored state, requests, the round trip per
//! `successors` batch and per state, peak memory (this process, and its
//! game processes together), and the ratio to the plain BFS.

use std::path::{Path, PathBuf};
use std::time::Instant;

use puzzle_qa_core::search::{Algorithm, SearchOptions};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut level = root.join("levels/hugmaze/17-article-example.txt");
    let mut rounds = 5;
    let mut processes = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(rounds),
            "--processes" => processes = args.next().and_then(|n| n.parse().ok()),
            "--bench" => {}
            other if other.ends_with(".txt") => level = PathBuf::from(other),
            _ => {}
        }
    }
    let example = root.join("examples/hugmaze-ts");
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("node is not installed: nothing to measure");
        return;
    }
    let text = std::fs::read_to_string(&level).expect("the level reads");
    println!("level: {}", level.display());
    println!(
        "run  protocol ms  expanded/s  stored  B/state  requests  µs/batch  µs/state  peak MiB (harness+games)  plain BFS ms  expanded/s  ratio"
    );
    let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 1..=rounds {
        let mut manifest =
            protocol::Manifest::read(&example.join("game.toml")).expect("the manifest reads");
        if let Some(processes) = processes {
            manifest.processes = processes;
        }
        let before = protocol::traffic();
        let clock = Instant::now();
        let game = protocol::game_checks(manifest);
        let loaded = (game.load)(&text).unwrap_or_else(|error| panic!("{}", error.message));
        let solution = loaded.level.solve(SearchOptions {
            algorithm: Algorithm::Bfs,
            limit: puzzle_qa_core::search::DEFAULT_STATE_LIMIT,
            memory: puzzle_qa_core::search::DEFAULT_MEMORY,
        });
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        let traffic = protocol::traffic();
        let requests = traffic.requests - before.requests;
        let waited = (traffic.waited - before.waited).as_secs_f64() * 1e6;
        let stats = solution.stats;
        // Requests besides `successors` (hello, load) are a handful.
        let per_batch = waited / requests.max(1) as f64;
        let per_state = waited / stats.expanded.max(1) as f64;
        let peak = (peak_kib("self") + children_peak_kib()) as f64 / 1024.0;
        let rate = stats.expanded as f64 / (ms / 1000.0);

        let plain = std::process::Command::new("node")
            .arg("dist/src/bench.js")
            .arg(&level)
            .arg("--json")
            .current_dir(&example)
            .output()
            .expect("node runs");
        let line: serde_json::Value =
            serde_json::from_slice(&plain.stdout).expect("bench.js prints one JSON line");
        let plain_ms = line["ms"].as_f64().unwrap_or(f64::NAN);
        let plain_rate = line["expanded"].as_f64().unwrap_or(f64::NAN) / (plain_ms / 1000.0);
        assert_eq!(
            line["par"].as_u64(),
            solution.par.map(u64::from),
            "the same par"
        );
        println!(
            "{round:>3}  {ms:>11.0}  {rate:>10.0}  {:>6}  {:>7.1}  {requests:>8}  {per_batch:>8.0}  {per_state:>8.2}  {peak:>24.1}  {plain_ms:>12.0}  {plain_rate:>10.0}  {:>5.2}",
            stats.stored,
            stats.bytes_per_state(),
            rate / plain_rate
        );
        ours.push(rate);
        theirs.push(plain_rate);
        ratios.push(rate / plain_rate);
    }
    println!(
        "median: protocol {:.0} expanded/s, plain BFS {:.0} expanded/s, ratio {:.2} (pairs {:.2}–{:.2})",
        median(&mut ours),
        median(&mut theirs),
        median(&mut ratios.clone()),
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(0.0, f64::max),
    );
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The peak resident memory of process `pid` (`self` for this one), in KiB.
fn peak_kib(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The peak resident memory of this process's live children (the game
/// processes of the latest run; earlier runs' are idle but alive, so only
/// the newest `processes` count), summed, in KiB.
fn children_peak_kib() -> u64 {
    let mut children: Vec<u64> = std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|pids| {
            pids.split_whitespace()
                .filter_map(|pid| pid.parse().ok())
                .collect::<Vec<u64>>()
        })
        .collect();
    children.sort_unstable();
    let newest = protocol::Manifest::read(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hugmaze-ts/game.toml"),
    )
    .map_or(1, |manifest| manifest.processes);
    children
        .iter()
        .rev()
        .take(newest)
        .map(|pid| peak_kib(&pid.to_string()))
        .sum()
}
