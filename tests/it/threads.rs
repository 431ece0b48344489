//! One level's search on every core: `--threads N` (and `RAYON_NUM_THREADS`)
//! changes how fast a command runs, never what it says. Every field of
//! `solve --json` and `check --json` but `ms` is the same on 1, 2, 3 and
//! 8 threads, more threads than this machine may have cores: a search that
//! wins, one that explores everything and finds no win, one that meets a
//! hang, one cut by `--limit` and one by `--memory`, in PuzzleScript, Hug
//! Maze and Bloxorz.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::{command_in, repository, stderr, without_time};

/// PuzzleScript Sokoban (the engine fixtures' rules), four rooms: one
/// solved after 16,029 states (many rounds of the search's chunks), one
/// that can never be won (three targets, two crates: every state is
/// explored), one far too big to finish, for the bounds, and one small.
const ROOMS: &str = "
#########
#.......#
#.......#
#..C.T..#
#....PT.#
#.......#
#...C...#
#.......#
#########

#########
#.......#
#.T.....#
#..C.T..#
#....PT.#
#.......#
#...C...#
#.......#
#########

############
#..........#
#..T..C....#
#.C.T..C...#
#..P.......#
#..........#
#..........#
#..........#
#......T...#
#..........#
#..........#
############

######
#PC.T#
######
";

/// A folder holding the PuzzleScript rooms (`crates.txt`), a Hug Maze level
/// and a Bloxorz level, each in its game's folder, and the PuzzleScript
/// file of levels that never settle (`bounce.txt`).
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let read = |path: &str| std::fs::read_to_string(repository().join(path)).unwrap();
    let push = read("crates/puzzlescript/tests/fixtures/puzzlescript/push.txt");
    let (rules, _) = push.split_once("=======\nLEVELS\n=======").unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "crates.txt",
        &format!("{rules}=======\nLEVELS\n=======\n{ROOMS}"),
    );
    write(
        "bounce.txt",
        &read("crates/puzzlescript/tests/fixtures/hang/bounce.txt"),
    );
    write(
        "hugmaze/lend-me-a-block.txt",
        &read("crates/hugmaze/tests/fixtures/levels/12-lend-me-a-block.txt"),
    );
    write(
        "bloxorz/level20.txt",
        &read("crates/bloxorz/tests/fixtures/official/level20.txt"),
    );
    dir
}

/// `puzzle-qa --threads N ARGS` in `dir`.
fn run(dir: &Path, threads: usize, args: &[&str]) -> Output {
    let threads = threads.to_string();
    let mut words = vec!["--threads", &threads];
    words.extend_from_slice(args);
    command_in(dir, &words)
        // The flag wins over the variable.
        .env("RAYON_NUM_THREADS", "5")
        .output()
        .expect("the binary runs")
}

/// `args` on 1, 2, 3 and 8 threads: the same exit code and lines (but for
/// `ms`); the lines.
fn same_on_every_count(dir: &Path, args: &[&str]) -> Vec<Value> {
    let one = run(dir, 1, args);
    let lines = without_time(&one);
    assert!(!lines.is_empty(), "{}", stderr(&one));
    for threads in [2, 3, 8] {
        let many = run(dir, threads, args);
        assert_eq!(one.status.code(), many.status.code(), "{threads} threads");
        assert_eq!(lines, without_time(&many), "{threads} threads, {args:?}");
    }
    lines
}

/// The line of `file`'s level `level` (`None`: a file of one level).
fn line<'a>(lines: &'a [Value], file: &str, level: Option<u64>) -> &'a Value {
    lines
        .iter()
        .find(|line| {
            line["file"].as_str().is_some_and(|f| f.ends_with(file))
                && line.get("level").and_then(Value::as_u64) == level
        })
        .unwrap_or_else(|| panic!("no line for {file} {level:?} in {lines:?}"))
}

#[test]
fn solve_says_the_same_on_any_thread_count() {
    let dir = project();
    let files = [
        "crates.txt",
        "bounce.txt",
        "hugmaze/lend-me-a-block.txt",
        "bloxorz/level20.txt",
    ];
    let mut args = vec!["solve", "--limit", "60000", "--json"];
    args.extend(files);
    let lines = same_on_every_count(dir.path(), &args);
    // What each search came to, so that each kind is known to be covered.
    let solved = line(&lines, "crates.txt", Some(1));
    assert_eq!(solved["status"], "solved", "{solved}");
    assert!(solved["stored"].as_u64().unwrap() > 10_000, "{solved}");
    assert_eq!(line(&lines, "crates.txt", Some(2))["status"], "unsolvable");
    let cut = line(&lines, "crates.txt", Some(3));
    assert_eq!(
        (&cut["status"], &cut["limit"]),
        (&"limit".into(), &"states".into())
    );
    assert_eq!(cut["stored"], 60_000, "{cut}");
    assert!(cut["last_depth"].is_object(), "{cut}");
    assert_eq!(line(&lines, "bounce.txt", Some(2))["status"], "hang");
    for file in ["lend-me-a-block.txt", "level20.txt"] {
        let level = line(&lines, file, None);
        assert_eq!(level["status"], "solved", "{level}");
        assert!(level["stored"].as_u64().unwrap() > 4_000, "{level}");
    }
}

#[test]
fn a_search_cut_by_its_memory_budget_is_cut_at_the_same_place_on_any_thread_count() {
    let dir = project();
    let lines = same_on_every_count(
        dir.path(),
        &[
            "solve",
            "crates.txt",
            "--level",
            "3",
            "--memory",
            "6MiB",
            "--json",
        ],
    );
    let cut = &lines[0];
    assert_eq!(
        (&cut["status"], &cut["limit"]),
        (&"limit".into(), &"memory".into())
    );
    assert!(cut["kept_bytes"].as_u64().unwrap() <= 6 << 20, "{cut}");
}

#[test]
fn check_says_the_same_on_any_thread_count() {
    let dir = project();
    let lines = same_on_every_count(
        dir.path(),
        &[
            "check",
            "crates.txt",
            "bounce.txt",
            "hugmaze/lend-me-a-block.txt",
            "bloxorz/level20.txt",
            "--memory",
            "8MiB",
            "--check",
            "--json",
        ],
    );
    assert!(lines.len() >= 10, "{lines:?}");
    let cut = line(&lines, "crates.txt", Some(3));
    assert_eq!(cut["status"], "limit", "{cut}");
}

#[test]
fn a_thread_count_that_is_not_one_is_refused_as_bad_usage() {
    let dir = project();
    for bad in ["0", "many", "2.5"] {
        let out = command_in(dir.path(), &["--threads", bad, "solve", "crates.txt"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("is not a thread count"),
            "{}",
            stderr(&out)
        );
    }
    let out = command_in(dir.path(), &["solve", "crates.txt", "--level", "4"])
        .env("RAYON_NUM_THREADS", "lots")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("RAYON_NUM_THREADS=lots is not understood"),
        "{}",
        stderr(&out)
    );
}
