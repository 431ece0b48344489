//! The engine benchmark: `cargo bench -p puzzlescript --bench engine -- [FILTER] [--turns N] [--bfs [GAME:LEVEL,…] [--threads N,…] [--rounds R]]`.
//!
//! `--bfs` solves levels by breadth-first search through puzzle-qa's own
//! search instead (default: level 4 of `heroes_of_sokoban.txt`, level 7 of
//! `manic_ammo.txt`, a few smaller ones, and a generated 60 × 60 Sokoban
//! level of 150 crates; LEVEL counts grid levels from 1). Each level is
//! solved in a child process of its own, so its peak memory is its own; it
//! prints par, states generated (every successor a move produced,
//! duplicates included, as the official engine's own BFS counts them),
//! states stored, generated states per second, the bytes a stored state
//! takes in the arena, the peak resident memory, and that peak divided by
//! the states stored (everything the process holds, a state's share).
//!
//! `--threads 1,2` runs each search on 1 thread, then on 2 (the child's
//! `RAYON_NUM_THREADS`), and `--rounds R` runs the whole list R times, so
//! the counts alternate on a machine whose load drifts; each line then
//! says its thread count, its wall time and the CPU time the process
//! spent in the search, whose ratio is how many cores it kept busy.
//!
//! A job `GAME:LEVEL@N` stops at N stored states (default 20,000,000). A
//! GAME of the form `gen-WxH-CRATES-SEED` is not read but generated: a
//! Sokoban room of W × H cells walled round, with scattered walls,
//! CRATES crates and as many targets, placed by a fixed generator from
//! SEED, so the same name is the same level on every machine. Its space is
//! far too big to search to the end, hence the `@N` of the default job.
//! `--print gen-…` prints such a game's source, for other tools to run.
//!
//! For every game in the folder `PUZZLESCRIPT_GAMES` (default: the
//! workplace's example games beside the repository) whose file name
//! contains FILTER, and every grid level of it, it plays N turns (default
//! 2,000) of a fixed pseudo-random walk of inputs, undoing now and then
//! (so the walk does not wander off into won or stuck states), and prints
//! turns per second per game and in all. A turn here is one input and its
//! again turns, as a solver plays a move.

use std::path::PathBuf;
use std::time::Instant;

use std::sync::Arc;

use puzzle_qa_core::game::{Cost, Game as CoreGame, NotationError};
use puzzlescript::compile::{LevelData, compile};
use puzzlescript::engine::{Engine, Input, Mode};
use puzzlescript::level::Level;
use puzzlescript::play::Move;

fn games_dir() -> PathBuf {
    std::env::var_os("PUZZLESCRIPT_GAMES")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/puzzlescript/games")
        })
}

/// A level as the search sees it, through the `Game` trait alone.
struct Counted {
    level: Level,
}

impl CoreGame for Counted {
    type State = [u8];
    type Key = ();
    type Move = Move;
    type Refusal = <Level as CoreGame>::Refusal;

    fn start(&self) -> Vec<u8> {
        self.level.start()
    }
    fn key(&self, _: &[u8]) {}
    fn is_won(&self, state: &[u8]) -> bool {
        self.level.is_won(state)
    }
    fn is_hung(&self, state: &[u8]) -> bool {
        self.level.is_hung(state)
    }
    fn moves(&self, state: &[u8]) -> impl Iterator<Item = Move> {
        self.level.moves(state)
    }
    fn step(&self, state: &[u8], mv: Move) -> Result<(Vec<u8>, Cost), Self::Refusal> {
        self.level.step(state, mv)
    }
    fn successors(&self, state: &[u8], visit: impl FnMut(Move, &[u8], Cost)) {
        self.level.successors(state, visit);
    }
    // Forwarded too: the search hands a level many states a call, and
    // the level plays them on one engine borrowed once; without this the
    // bench would measure a borrow a state, which no search pays.
    fn successors_of_many(&self, states: &[&[u8]], visit: impl FnMut(usize, Move, &[u8], Cost)) {
        self.level.successors_of_many(states, visit);
    }
    fn format_moves(&self, moves: &[Move]) -> String {
        self.level.format_moves(moves)
    }
    fn parse_moves(&self, text: &str) -> Result<Vec<Move>, NotationError> {
        self.level.parse_moves(text)
    }
}

/// The process's peak resident memory, a stored state's share.
fn peak_per_state(stored: u64) -> f64 {
    peak_kib() as f64 * 1024.0 / stored.max(1) as f64
}

fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The source of a generated Sokoban game (`gen-WxH-CRATES-SEED`), or
/// `None` if `name` is not of that form.
fn generated(name: &str) -> Option<String> {
    let rest = name.strip_prefix("gen-")?;
    let mut parts = rest.split('-');
    let (width, height) = parts.next()?.split_once('x')?;
    let (width, height): (usize, usize) = (width.parse().ok()?, height.parse().ok()?);
    let crates: usize = parts.next()?.parse().ok()?;
    let seed: u64 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || width < 3 || height < 3 {
        return None;
    }
    // xorshift64, seeded away from zero.
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut map = vec![b'.'; width * height];
    for y in 0..height {
        for x in 0..width {
            // Walls round the edge, and one inner cell in twelve.
            if x == 0 || y == 0 || x == width - 1 || y == height - 1 || next(12) == 0 {
                map[y * width + x] = b'#';
            }
        }
    }
    let free: Vec<usize> = (0..map.len()).filter(|&c| map[c] == b'.').collect();
    assert!(
        free.len() > 2 * crates,
        "{name}: no room for {crates} crates"
    );
    // Distinct free cells: a shuffle's first 2 × CRATES + 1.
    let mut order = free;
    for i in 0..2 * crates + 1 {
        let j = i + next(order.len() - i);
        order.swap(i, j);
    }
    for &c in &order[..crates] {
        map[c] = b'*';
    }
    for &c in &order[crates..2 * crates] {
        map[c] = b'o';
    }
    map[order[2 * crates]] = b'p';
    let rows: Vec<&str> = map
        .chunks(width)
        .map(|row| std::str::from_utf8(row).expect("ascii"))
        .collect();
    Some(format!(
        "title {name}\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nTarget\ndarkblue\n\n\
         Wall\ngrey\n\nPlayer\nwhite\n\nCrate\norange\n\n=======\nLEGEND\n=======\n\n\
         . = Background\n# = Wall\np = Player\n* = Crate\no = Target\n\n=======\nSOUNDS\n=======\n\n\
         ================\nCOLLISIONLAYERS\n================\n\nBackground\nTarget\nPlayer, Wall, Crate\n\n\
         ======\nRULES\n======\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n\n\
         ==============\nWINCONDITIONS\n==============\n\nAll Target on Crate\n\n\
         =======\nLEVELS\n=======\n\n{}\n",
        rows.join("\n")
    ))
}

/// One BFS, in this (child) process: prints one line of figures.
fn bfs_child(job: &str) {
    let (job, limit) = match job.split_once('@') {
        Some((job, limit)) => (job, limit.parse().expect("a state count after @")),
        None => (job, 20_000_000),
    };
    let (file, number) = job.rsplit_once(':').expect("GAME:LEVEL");
    let text = generated(file).unwrap_or_else(|| {
        std::fs::read_to_string(games_dir().join(file)).expect("the game reads")
    });
    let (game, _) = puzzlescript::load(&text).expect("the game compiles");
    let game = Arc::new(game);
    let n: usize = number.parse().expect("a level number");
    let index = puzzlescript::play::grid_index(&game, n).expect("the level exists");
    let counted = Counted {
        level: Level::new(game, index, "bench").expect("a grid level"),
    };
    // Counted as the peers count: every input tried from an expanded
    // state, whether or not it changes the level (a level's inputs are the
    // same in every state). Counted from the search's own figure, not as
    // the search goes, so that threads share no counter.
    let tried = counted.level.moves(&counted.level.start()).count() as u64;
    if std::env::var_os("PUZZLESCRIPT_BFS_EXHAUST").is_some() {
        // To the end: every state play can reach, won ones included.
        let (stats, ended) = counted.level.explore(limit);
        println!(
            "{:<28} {:>5} {:>5} {:>11} {:>10} {:>8.2} {:>12} {:>8.1} {:>9} {:>10.1}",
            file,
            n,
            if ended { "end" } else { "limit" },
            stats.expanded * tried,
            stats.stored,
            stats.elapsed.as_secs_f64(),
            "-",
            stats.bytes_per_state(),
            peak_kib(),
            peak_per_state(stats.stored)
        );
        return;
    }
    let cpu = cpu_seconds();
    let outcome = puzzle_qa_core::search::bfs(&counted, limit);
    let cpu = cpu_seconds() - cpu;
    let stats = outcome.stats();
    let secs = stats.elapsed.as_secs_f64();
    let generated = stats.expanded * tried;
    println!(
        "{:<28} {:>5} {:>5} {:>11} {:>10} {:>8.2} {:>12.0} {:>8.1} {:>9} {:>10.1} {:>7} {:>7.2}",
        file,
        n,
        outcome.par().map_or("-".to_string(), |p| p.to_string()),
        generated,
        stats.stored,
        secs,
        generated as f64 / secs.max(1e-9),
        stats.bytes_per_state(),
        peak_kib(),
        peak_per_state(stats.stored),
        rayon_threads(),
        cpu
    );
}

/// The CPU time this process has spent, all threads, user and system
/// (`/proc/self/stat`, in the kernel's ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's name, which is in parentheses.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |at: usize| fields.get(at).and_then(|f| f.parse::<u64>().ok());
    // utime and stime: the 14th and 15th fields, the 12th and 13th here.
    (ticks(11).unwrap_or(0) + ticks(12).unwrap_or(0)) as f64 / 100.0
}

/// The thread count this child was given (`-` for rayon's default).
fn rayon_threads() -> String {
    std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "-".to_string())
}

fn bfs_parent(list: Option<&str>, exhaust: bool, threads: Option<&str>, rounds: usize) {
    let default = "heroes_of_sokoban.txt:4,manic_ammo.txt:7,microban.txt:5,sokoban_basic.txt:2,heroes_of_sokoban.txt:3,push.txt:5,gen-60x60-150-1:1@200000";
    println!(
        "{:<28} {:>5} {:>5} {:>11} {:>10} {:>8} {:>12} {:>8} {:>9} {:>10} {:>7} {:>7}",
        "game",
        "level",
        "par",
        "generated",
        "stored",
        "s",
        "generated/s",
        "B/state",
        "peak KiB",
        "peak B/st",
        "threads",
        "cpu s"
    );
    let me = std::env::current_exe().expect("the bench's own path");
    let counts: Vec<Option<&str>> = match threads {
        Some(list) => list.split(',').map(Some).collect(),
        None => vec![None],
    };
    for _ in 0..rounds {
        for job in list.unwrap_or(default).split(',') {
            for &count in &counts {
                let mut child = std::process::Command::new(&me);
                child.env("PUZZLESCRIPT_BFS_CHILD", job);
                if exhaust {
                    child.env("PUZZLESCRIPT_BFS_EXHAUST", "1");
                }
                if let Some(count) = count {
                    child.env("RAYON_NUM_THREADS", count);
                }
                let status = child.status();
                if !status.is_ok_and(|s| s.success()) {
                    eprintln!("{job}: the search failed");
                }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if let Ok(job) = std::env::var("PUZZLESCRIPT_BFS_CHILD") {
        return bfs_child(&job);
    }
    if let Some(at) = args.iter().position(|a| a == "--print") {
        let name = args.get(at + 1).map_or("", String::as_str);
        match generated(name) {
            Some(text) => print!("{text}"),
            None => eprintln!("--print takes a generated game's name, as gen-60x60-150-1"),
        }
        return;
    }
    if let Some(at) = args.iter().position(|a| a == "--bfs") {
        let list = args.get(at + 1).filter(|a| !a.starts_with('-')).cloned();
        let value = |flag: &str| {
            let at = args.iter().position(|a| a == flag)?;
            args.get(at + 1).cloned()
        };
        let rounds = value("--rounds").map_or(1, |r| r.parse().expect("a number of rounds"));
        return bfs_parent(
            list.as_deref(),
            args.iter().any(|a| a == "--exhaust"),
            value("--threads").as_deref(),
            rounds,
        );
    }
    let mut turns = 2_000usize;
    let mut filter = String::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--turns" {
            turns = args
                .get(i + 1)
                .and_then(|t| t.parse().ok())
                .unwrap_or(turns);
            i += 1;
        } else {
            filter = args[i].clone();
        }
        i += 1;
    }
    let dir = games_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "no example games at {} (set PUZZLESCRIPT_GAMES); nothing measured",
            dir.display()
        );
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let (mut all_turns, mut all_secs) = (0u64, 0f64);
    println!(
        "{:<28} {:>6} {:>10} {:>12}",
        "game", "levels", "turns", "turns/s"
    );
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.contains(&filter) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let (Some(game), log) = compile(&text) else {
            continue;
        };
        if log.has_errors() {
            continue;
        }
        let (mut played, mut secs, mut levels) = (0u64, 0f64, 0);
        for (index, level) in game.levels().iter().enumerate() {
            if !matches!(level, LevelData::Grid(_)) {
                continue;
            }
            let Some(mut engine) = Engine::load(&game, index, "bench", Mode::Solver) else {
                continue;
            };
            levels += 1;
            let mut rng = 0x9e37_79b9_7f4a_7c15u64;
            let start = Instant::now();
            for t in 0..turns {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                if engine.won() || t % 64 == 63 {
                    // Keep the board, clear the win, and go back to the start.
                    engine.set_board(|_, _| {});
                    engine.restart();
                }
                let input = [
                    Input::Up,
                    Input::Down,
                    Input::Left,
                    Input::Right,
                    Input::Action,
                ][(rng % 5) as usize];
                engine.input(Some(input));
                let mut again = 0;
                while engine.againing() && again < 1000 {
                    engine.again();
                    again += 1;
                }
                played += 1;
            }
            secs += start.elapsed().as_secs_f64();
        }
        all_turns += played;
        all_secs += secs;
        println!(
            "{:<28} {:>6} {:>10} {:>12.0}",
            name,
            levels,
            played,
            played as f64 / secs.max(1e-9)
        );
    }
    println!(
        "{:<28} {:>6} {:>10} {:>12.0}",
        "all",
        "",
        all_turns,
        all_turns as f64 / all_secs.max(1e-9)
    );
}
