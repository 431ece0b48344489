//! The HTML report and a replay page in a real browser: headless Chromium
//! loads them with no script error, a key press steps the replay (the
//! page's `#selftest`), and a screenshot is taken. The levels are the
//! fixture project's (`tests/fixtures/project/`). Skipped, saying so, when
//! no Chromium is installed (`.ci/run` installs Debian's `chromium`).

use std::path::Path;
use std::process::Command;

use crate::devtools::chromium;
use crate::support::{self, fixture_project, level_path};

/// Runs headless Chromium on `url` with `extra` arguments; its stdout.
fn browse(browser: &Path, profile: &Path, extra: &[&str], url: &str) -> String {
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1000,800",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `puzzle-qa` in the fixture project, which must not fail to run.
fn puzzle_qa(args: &[&str]) {
    let output = support::in_fixture_project(args);
    assert!(
        output.status.code().is_some_and(|code| code <= 1),
        "{}",
        support::stderr(&output)
    );
}

/// The `<body …>` tag of the page after its scripts ran.
fn body_tag(dom: &str) -> &str {
    let start = dom.find("<body").expect("a body");
    let end = start + dom[start..].find('>').unwrap();
    &dom[start..=end]
}

#[test]
fn the_report_and_a_replay_work_in_headless_chromium() {
    let Some(browser) = chromium() else {
        // Written to stderr itself, not through `eprintln!`, which the test
        // harness captures and shows only for a failing test: a skip must
        // be seen.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "browser test SKIPPED: no Chromium found (install Debian's `chromium`, or set \
             CHROMIUM); nothing in the browser was checked"
        );
        return;
    };
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let _ = std::fs::remove_dir_all(&out);
    let profile = out.join("profile");
    let report = out.join("report");
    let replay = out.join("level09.html");
    let bloxorz = ["levels", "bloxorz"].join("/");
    puzzle_qa(&["check", &bloxorz, "--html", report.to_str().unwrap()]);
    puzzle_qa(&[
        "show",
        &level_path("bloxorz", "level09"),
        "--html",
        replay.to_str().unwrap(),
    ]);

    // The replay: no error, and one key press moves the counter 0 → 1.
    let url = format!("file://{}#selftest", replay.display());
    let dom = browse(&browser, &profile, &["--dump-dom"], &url);
    let body = body_tag(&dom);
    assert!(body.contains("data-errors=\"0\""), "{body}");
    assert!(
        body.contains("data-selftest=\"0 / 25 -&gt; 1 / 25\""),
        "{body}"
    );

    // The index and a level page: no error, every level linked.
    let index = format!("file://{}", report.join("index.html").display());
    let dom = browse(&browser, &profile, &["--dump-dom"], &index);
    assert!(body_tag(&dom).contains("data-errors=\"0\""));
    let levels = std::fs::read_dir(fixture_project().join(&bloxorz))
        .unwrap()
        .count();
    assert_eq!(dom.matches("<tr><td><a href=").count(), levels);
    let page = format!(
        "file://{}#selftest",
        report.join("bloxorz/level09.html").display()
    );
    let dom = browse(&browser, &profile, &["--dump-dom"], &page);
    assert!(body_tag(&dom).contains("data-errors=\"0\""));
    assert!(body_tag(&dom).contains(" -&gt; 1 / "));

    // A screenshot of the replay, to look at.
    let shot = out.join("level09.png");
    let url = format!("file://{}", replay.display());
    browse(
        &browser,
        &profile,
        &[&format!("--screenshot={}", shot.display())],
        &url,
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 5_000,
        "{} bytes",
        png.len()
    );
}
