//! A search's memory: `--memory` and the `memory` key bound what a search
//! keeps, the verdict says which bound was reached and what was kept, a
//! machine that refuses memory (a `ulimit -v`) gives a limit and not an
//! abort, and none of it depends on the thread count.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{command_in, json_lines, repository, stderr, stdout, without_time};

/// A PuzzleScript game file in a folder of its own: the engine fixtures'
/// Sokoban (`push.txt`), with a `side` × `side` room holding `crates`
/// crates and as many targets, placed by a fixed pseudo-random sequence,
/// then a level of one push. The big level has far more states than any
/// budget here holds; the small one is solved at once.
fn sokoban(side: usize, crates: usize) -> (tempfile::TempDir, PathBuf) {
    let push = repository().join("crates/puzzlescript/tests/fixtures/puzzlescript/push.txt");
    let text = std::fs::read_to_string(push).unwrap();
    let (rules, _) = text.split_once("=======\nLEVELS\n=======").unwrap();
    let mut grid = vec![vec!['.'; side]; side];
    for (row, line) in grid.iter_mut().enumerate() {
        for (column, cell) in line.iter_mut().enumerate() {
            if row == 0 || column == 0 || row == side - 1 || column == side - 1 {
                *cell = '#';
            }
        }
    }
    // Inside, one cell from the walls, so that few crates start stuck.
    let mut inner: Vec<(usize, usize)> = (2..side - 2)
        .flat_map(|row| (2..side - 2).map(move |column| (row, column)))
        .collect();
    let mut seed: u64 = 31;
    for at in (1..inner.len()).rev() {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        inner.swap(at, (seed >> 33) as usize % (at + 1));
    }
    for (index, &(row, column)) in inner.iter().take(2 * crates + 1).enumerate() {
        grid[row][column] = match index {
            0 => 'P',
            index if index <= crates => 'C',
            _ => 'T',
        };
    }
    let big: Vec<String> = grid.iter().map(|row| row.iter().collect()).collect();
    let file = format!(
        "{rules}=======\nLEVELS\n=======\n\n{}\n\n######\n#PC.T#\n######\n",
        big.join("\n")
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crates.txt");
    std::fs::write(&path, file).unwrap();
    (dir, path)
}

/// `puzzle-qa ARGS` in `dir` on `threads` rayon threads.
fn run(dir: &Path, threads: usize, args: &[&str]) -> Output {
    command_in(dir, args)
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .expect("the binary runs")
}

#[test]
fn a_search_stops_at_its_memory_budget_and_says_what_it_kept_and_how_to_raise_it() {
    let (dir, file) = sokoban(100, 300);
    let file = file.to_str().unwrap();
    let out = run(
        dir.path(),
        2,
        &["solve", file, "--memory", "48MiB", "--json"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = json_lines(&out);
    let big = &lines[0];
    assert_eq!(big["status"], "limit", "{big}");
    assert_eq!(big["limit"], "memory", "{big}");
    assert!(big.get("limit_reason").is_none(), "{big}");
    let kept = big["kept_bytes"].as_u64().unwrap();
    let stored = big["stored"].as_u64().unwrap();
    assert!(kept <= 48 << 20, "{big}");
    // Most of the budget was used: it stopped for want of room. (Not all:
    // the visited table may be unable to double while the arena has room.)
    assert!(kept > 24 << 20, "{big}");
    let per_state = big["bytes_per_state"].as_f64().unwrap();
    assert!(
        (per_state - kept as f64 / stored as f64).abs() < 0.1,
        "{big}"
    );
    let depth = &big["last_depth"];
    assert!(depth["depth"].as_u64().unwrap() > 2, "{big}");
    assert!(depth["growth"].as_f64().unwrap() > 1.0, "{big}");
    // The other level of the file goes on.
    assert_eq!(lines[1]["status"], "solved");
    assert!(lines[1].get("limit").is_none());

    // The text says which bound, what was kept, the flag that raises it,
    // and how the last depth grew.
    let out = run(dir.path(), 2, &["solve", file, "--memory", "48MiB"]);
    let text = stdout(&out);
    assert!(
        text.contains("the search stopped at its memory budget of 48 MiB (")
            && text.contains("raise --memory (now 48 MiB)")
            && text.contains("= note: the last complete depth, "),
        "{text}"
    );
    // An explicit state limit below the budget still holds.
    let out = run(
        dir.path(),
        2,
        &[
            "solve", file, "--memory", "48MiB", "--limit", "1000", "--json",
        ],
    );
    let big = &json_lines(&out)[0];
    assert_eq!(big["limit"], "states", "{big}");
    assert_eq!(big["stored"], 1000, "{big}");
    // Best-first search keeps its costs, index and heap under the budget.
    let out = run(
        dir.path(),
        2,
        &[
            "solve",
            file,
            "--algorithm",
            "dijkstra",
            "--memory",
            "24MiB",
            "--json",
        ],
    );
    let big = &json_lines(&out)[0];
    assert_eq!(big["limit"], "memory", "{big}");
    assert!(big["kept_bytes"].as_u64().unwrap() <= 24 << 20, "{big}");
    assert!(big.get("last_depth").is_none(), "{big}");
}

#[test]
fn a_level_that_reaches_its_memory_budget_gets_the_same_verdict_on_any_thread_count() {
    let (dir, file) = sokoban(100, 300);
    let file = file.to_str().unwrap();
    let solve = ["solve", file, "--memory", "24MiB", "--json"];
    let one = run(dir.path(), 1, &solve);
    let many = run(dir.path(), 4, &solve);
    let lines = without_time(&one);
    assert_eq!(lines[0]["limit"], "memory", "{}", lines[0]);
    assert_eq!(lines[1]["status"], "solved");
    assert_eq!(lines, without_time(&many));
    assert_eq!(one.status.code(), many.status.code());
    // `check` runs levels and ablated copies in parallel: the same too.
    let check = ["check", file, "--memory", "24MiB", "--json"];
    let one = run(dir.path(), 1, &check);
    let many = run(dir.path(), 4, &check);
    let lines = without_time(&one);
    assert_eq!(lines[0]["status"], "limit", "{}", lines[0]);
    assert_eq!(lines[0]["limit"], "memory", "{}", lines[0]);
    assert_eq!(lines, without_time(&many));
    assert_eq!(one.status.code(), many.status.code());
}

/// `solve FILE --json` under `ulimit`'s `limit` (in kilobytes), on few
/// threads, so that their stacks and allocator arenas leave the search
/// most of the room on any machine.
#[cfg(target_os = "linux")]
fn solve_under(limit: &str, dir: &Path, file: &Path) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit {limit} && exec \"$0\" solve \"$1\" --json"))
        .arg(env!("CARGO_BIN_EXE_puzzle-qa"))
        .arg(file)
        .current_dir(dir)
        .env("RAYON_NUM_THREADS", "2")
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap()
}

/// The first level of `out` stopped at the machine, with no abort, and
/// the second was solved; the first's reason.
#[cfg(target_os = "linux")]
fn stopped_by_the_machine(out: &Output) -> String {
    let errors = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{errors}");
    for abort in ["panicked", "backtrace", "memory allocation"] {
        assert!(!errors.contains(abort), "{errors}");
    }
    let lines = json_lines(out);
    let big = &lines[0];
    assert_eq!(big["status"], "limit", "{big}");
    assert_eq!(big["limit"], "machine", "{big}");
    assert_eq!(lines[1]["status"], "solved", "{}", lines[1]);
    assert_eq!(lines[1]["par"], 2);
    big["limit_reason"].as_str().unwrap().to_string()
}

/// Under a limit smaller than the default budget, a search ends as a limit
/// that says why, with no abort and no backtrace, and the next level of the
/// run is solved: an address-space limit (`ulimit -v`), which the searches
/// read and stay under, and a data limit (`ulimit -d`), which they do not
/// read, so the allocator refuses them.
#[cfg(target_os = "linux")]
#[test]
fn a_machine_that_refuses_memory_ends_the_search_as_a_limit_and_the_run_goes_on() {
    let (dir, file) = sokoban(100, 300);
    let out = solve_under("-v 500000", dir.path(), &file);
    let reason = stopped_by_the_machine(&out);
    assert!(
        reason.contains("the address-space limit, `ulimit -v`"),
        "{reason}"
    );
    let kept = json_lines(&out)[0]["kept_bytes"].as_u64().unwrap();
    assert!(kept < 500_000 * 1024, "{kept}");
    let reason = stopped_by_the_machine(&solve_under("-d 200000", dir.path(), &file));
    assert!(reason.starts_with("the machine refused "), "{reason}");
}

#[test]
fn a_memory_size_that_does_not_read_is_bad_usage_with_the_forms_it_takes() {
    let (dir, file) = sokoban(8, 1);
    for bad in ["4", "4 gigs", "0MiB"] {
        let out = run(
            dir.path(),
            1,
            &["solve", file.to_str().unwrap(), "--memory", bad],
        );
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("`{bad}`")),
            "{}",
            stderr(&out)
        );
    }
    let out = run(
        dir.path(),
        1,
        &["solve", file.to_str().unwrap(), "--memory", "2 gigs"],
    );
    assert!(
        stderr(&out).contains("such as 4GiB, 512MiB"),
        "{}",
        stderr(&out)
    );
    for good in ["512MiB", "4GiB", "2G", "2GB", "1.5 GiB"] {
        let out = run(
            dir.path(),
            1,
            &["solve", file.to_str().unwrap(), "--memory", good, "--json"],
        );
        assert_eq!(out.status.code(), Some(0), "{good}: {}", stderr(&out));
    }
}
