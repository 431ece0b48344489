//! Each fault of a game process fails the level with a message that names
//! the game, the request and the process's last words, and never hangs; a
//! request for a state's moves that gets no answer in time is no fault but
//! a hang the search reports.

use std::time::{Duration, Instant};

use puzzle_qa_core::_cli_support::caught;
use puzzle_qa_core::search::{Algorithm, SearchOptions, Status};

use crate::{game, load, manifest, python};

/// The message of solving a level of the game misbehaving as `fault`.
fn solving(fault: &str, extra: &str) -> String {
    let (_folder, path) = manifest(extra, &["--fault", fault]);
    let game = game(&path);
    let level = load(&game, "P..G").level;
    let options = SearchOptions {
        algorithm: Algorithm::Bfs,
        limit: 1000,
        memory: puzzle_qa_core::search::DEFAULT_MEMORY,
    };
    caught(|| level.solve(options)).expect_err("the fault stops the search")
}

#[test]
fn a_crash_names_the_game_the_request_its_status_and_its_stderr() {
    if !python() {
        return;
    }
    let message = solving("crash", "");
    assert!(message.contains("the game `line`"), "{message}");
    assert!(message.contains("request `successors`"), "{message}");
    assert!(message.contains("exited with status 3"), "{message}");
    assert!(
        message.contains("line.py: something went wrong"),
        "{message}"
    );
}

#[test]
fn a_process_killed_by_a_signal_says_which() {
    if !python() {
        return;
    }
    let message = solving("signal", "");
    assert!(message.contains("killed by signal 9"), "{message}");
}

#[test]
fn a_reply_that_is_not_json_is_shown() {
    if !python() {
        return;
    }
    let message = solving("garbage", "");
    assert!(message.contains("not a JSON reply"), "{message}");
    assert!(message.contains("this is not json"), "{message}");
}

#[test]
fn a_reply_to_another_id_is_a_fault() {
    if !python() {
        return;
    }
    let message = solving("wrong-id", "");
    assert!(message.contains("the request's id was"), "{message}");
}

#[test]
fn a_state_left_without_its_successors_is_a_fault() {
    if !python() {
        return;
    }
    let message = solving("short", "");
    assert!(
        message.contains("0 lists of successors for 1 states"),
        "{message}"
    );
}

#[test]
fn a_request_with_no_answer_times_out_the_process_is_stopped_and_the_state_is_a_hang() {
    if !python() {
        return;
    }
    // Not a fault: a game whose rules never settle on a state is a finding
    // about the level (tests/it/hang.rs), and the search goes on.
    let clock = Instant::now();
    let (_folder, path) = manifest("timeout_seconds = 1\n", &["--fault", "hang"]);
    let game = game(&path);
    let level = load(&game, "P..G").level;
    let options = SearchOptions {
        algorithm: Algorithm::Bfs,
        limit: 1000,
        memory: puzzle_qa_core::search::DEFAULT_MEMORY,
    };
    let solution = caught(|| level.solve(options)).expect("a hang is no fault");
    assert_eq!(solution.status, Status::Hang);
    let reason = solution.hang.expect("the start is a hang").reason;
    assert!(reason.contains("request `successors`"), "{reason}");
    assert!(reason.contains("no answer within 1 s"), "{reason}");
    assert!(
        clock.elapsed() < Duration::from_secs(20),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn a_game_that_will_not_greet_or_speaks_another_version_does_not_load() {
    if !python() {
        return;
    }
    for (fault, says) in [
        ("no-hello", "exited with status 0"),
        ("bad-version", "protocol version 2"),
    ] {
        let (_folder, path) = manifest("", &["--fault", fault]);
        let error = (game(&path).load)("P.G")
            .err()
            .expect("no level without a greeting");
        assert!(error.message.contains(says), "{fault}: {}", error.message);
        assert!(
            error.message.contains("request `hello`"),
            "{}",
            error.message
        );
    }
}

#[test]
fn a_program_that_cannot_start_is_named() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("game.toml");
    std::fs::write(
        &path,
        "name = \"line\"\ncommand = [\"./no-such-program\"]\n",
    )
    .unwrap();
    let error = (game(&path).load)("P.G").err().expect("nothing to start");
    assert!(
        error.message.contains("cannot start `./no-such-program`"),
        "{}",
        error.message
    );
}
