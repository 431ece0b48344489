//! The repository belongs to its designers: whatever they leave in it is
//! reported, not skipped; commands take paths from anywhere in it; a
//! closed pipe or a killed bless leaves nothing behind.

use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::{Project, puzzle_qa_in as puzzle_qa, repository, stderr, stdout};

/// A project holding the harness fixture's `hook` level (par 11).
fn project() -> Project {
    Project::copy_of("harness")
}

fn level_folder(dir: &Path) -> PathBuf {
    dir.join("levels").join("bloxorz")
}

fn expectation_folder(dir: &Path) -> PathBuf {
    dir.join("expectations").join("bloxorz")
}

#[cfg(unix)]
#[test]
fn odd_entries_of_a_level_folder_are_reported_with_the_reason() {
    let dir = project();
    let levels = level_folder(dir.path());
    std::os::unix::fs::symlink("nowhere.txt", levels.join("gone.txt")).unwrap();
    std::os::unix::fs::symlink("loop.txt", levels.join("loop.txt")).unwrap();
    fs::create_dir(levels.join("20-dir.txt")).unwrap();
    fs::copy(levels.join("hook.txt"), levels.join("LOUD.TXT")).unwrap();
    fs::write(levels.join("README.md"), "notes for people\n").unwrap();
    let output = puzzle_qa(dir.path(), &["check"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let text = stdout(&output);
    let orphans = &text[text.find("---- orphans ----").expect(&text)..];
    insta::assert_snapshot!(orphans, @r"
    ---- orphans ----
    levels/bloxorz/20-dir.txt: ignored, because it is a folder, not a level file
    levels/bloxorz/LOUD.TXT: ignored, because its name ends in `.TXT`, and level files end in `.txt` (the case matters)
    levels/bloxorz/gone.txt: ignored, because it is a symbolic link to `nowhere.txt`, which does not exist
    levels/bloxorz/loop.txt: ignored, because it is a symbolic link that loops back on itself
    levels/bloxorz/README.md: ignored, because it has `.md`, and level files end in `.txt`

    1 level, 7 checks: 6 passed, 1 failed
    ");
    // The level itself is still checked, and passes.
    assert!(text.contains("bloxorz::hook "), "{text}");
    // A file that is plainly not a level is only noted.
    fs::remove_dir(levels.join("20-dir.txt")).unwrap();
    for odd in ["gone.txt", "loop.txt", "LOUD.TXT"] {
        fs::remove_file(levels.join(odd)).unwrap();
    }
    let output = puzzle_qa(dir.path(), &["check"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("/bloxorz/README.md: ignored, because it has `.md`"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn check_takes_paths_from_inside_a_level_folder() {
    let dir = project();
    let levels = level_folder(dir.path());
    let output = puzzle_qa(&levels, &["check", "hook.txt"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("bloxorz::hook "),
        "{}",
        stdout(&output)
    );
    let output = puzzle_qa(&levels, &["check", "--json", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("/bloxorz/hook.txt\",\"game\":\"bloxorz\""),
        "{}",
        stdout(&output)
    );
    // Without a path, it says where the repository is.
    let output = puzzle_qa(&levels, &["check"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no levels/ folder here"),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("the repository is "),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_folder_named_like_a_level_is_refused_with_the_reason() {
    let dir = project();
    fs::create_dir(level_folder(dir.path()).join("20-dir.txt")).unwrap();
    let target = Path::new("levels").join("bloxorz").join("20-dir.txt");
    let output = puzzle_qa(dir.path(), &["check", target.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("20-dir.txt is a folder, not a level file"),
        "{message}"
    );
    assert!(
        message.contains("`puzzle-qa check levels/bloxorz`"),
        "{message}"
    );
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    use std::os::unix::process::ExitStatusExt as _;
    let dir = project();
    let level = Path::new("levels").join("bloxorz").join("hook.txt");
    let level = level.to_str().unwrap();
    for args in [
        &["check", "--json"][..],
        &["solve", "--json", level][..],
        &["--help"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_puzzle-qa"))
            .current_dir(dir.path())
            .args(args)
            .env_remove("CI")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, then hang up, as `| head -c 1` does.
        let mut first = [0u8; 1];
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut first)
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        assert_ne!(
            output.status.code(),
            Some(101),
            "{args:?} panicked: {}",
            stderr(&output)
        );
        assert!(
            !stderr(&output).contains("panicked") && !stderr(&output).contains("Broken pipe"),
            "{args:?}: {}",
            stderr(&output)
        );
        // Either it had written everything already, or SIGPIPE ended it.
        assert!(
            output.status.success() || output.status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {:?}",
            output.status
        );
    }
}

/// The temporary files a writer of the expectation folder left.
fn temporaries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(expectation_folder(dir))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".puzzle-qa-tmp"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_stale_temporary_file_is_removed_by_the_next_bless_and_ignored_by_git() {
    let dir = project();
    let stale = expectation_folder(dir.path()).join(".hook.toml.a1B2c3.puzzle-qa-tmp");
    fs::write(&stale, "par = 1\n").unwrap();
    // Git never shows it, whatever state the folder is in.
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(dir.path())
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir.path())
            .output()
    };
    if git(&["init", "-q"]).is_ok_and(|output| output.status.success()) {
        let ignore = repository().join(".gitignore");
        fs::copy(ignore, dir.path().join(".gitignore")).unwrap();
        let status = git(&["status", "--porcelain", "--untracked-files=all"]).unwrap();
        let listed = String::from_utf8_lossy(&status.stdout).into_owned();
        assert!(!listed.contains("puzzle-qa-tmp"), "{listed}");
    }
    // Bless has nothing to change in the file, and still sweeps it.
    let output = puzzle_qa(dir.path(), &["bless"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(temporaries(dir.path()), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn a_bless_killed_at_any_moment_leaves_whole_files_and_the_next_bless_cleans_up() {
    let dir = project();
    let levels = level_folder(dir.path());
    let level = fs::read_to_string(levels.join("hook.txt")).unwrap();
    // Many new levels, so that bless writes many files and a kill lands mid-way.
    for index in 0..40 {
        fs::write(levels.join(format!("copy{index:02}.txt")), &level).unwrap();
    }
    for delay_ms in [10, 50, 100, 150] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_puzzle-qa"))
            .current_dir(dir.path())
            .arg("bless")
            .env_remove("CI")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        // Whatever was written is whole: every expectation file parses.
        for entry in fs::read_dir(expectation_folder(dir.path())).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|ext| ext == "toml") {
                let text = fs::read_to_string(&path).unwrap();
                text.parse::<toml::Table>()
                    .unwrap_or_else(|error| panic!("{}: {error}\n{text}", path.display()));
            }
        }
    }
    let output = puzzle_qa(dir.path(), &["bless"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(temporaries(dir.path()), Vec::<String>::new());
    let output = puzzle_qa(dir.path(), &["check"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn routes_fails_when_the_level_does_not_load_and_when_a_route_runs_past_the_win() {
    let dir = project();
    let expectations = expectation_folder(dir.path()).join("hook.toml");
    let text = fs::read_to_string(&expectations).unwrap();
    fs::write(
        &expectations,
        text.replace(
            "moves = \"R D2 R2 D2 L U R D\"",
            "moves = \"R D2 R2 D2 L U R D R\"",
        ),
    )
    .unwrap();
    let output = puzzle_qa(dir.path(), &["check", "::routes"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains(
            "route `around` wins before its end: the win takes 11 moves, and move 12 and those \
             after it come after the win; cut them"
        ),
        "{}",
        stdout(&output)
    );
    // A level that does not load: routes cannot pass, even with no route.
    fs::write(&expectations, "status = \"solved\"\n").unwrap();
    fs::write(level_folder(dir.path()).join("hook.txt"), "s p q\n").unwrap();
    let output = puzzle_qa(dir.path(), &["check", "::routes"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("does not load; see `bloxorz::hook::parse`"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_misspelt_mechanic_gets_a_did_you_mean() {
    let dir = project();
    let levels = level_folder(dir.path());
    // A weak tile on the way: `weak-tile` is the level's one mechanic.
    fs::write(levels.join("hook.txt"), "s w p e\n").unwrap();
    let expectations = expectation_folder(dir.path()).join("hook.toml");
    fs::write(&expectations, "[mechanics]\nweak-tiles = \"essential\"\n").unwrap();
    let output = puzzle_qa(dir.path(), &["check", "::ablation"]);
    let text = stdout(&output);
    assert!(
        text.contains(
            "`weak-tiles` is declared, but the level has no mechanic of that name: did you mean \
             `weak-tile`?"
        ),
        "{text}"
    );
}
