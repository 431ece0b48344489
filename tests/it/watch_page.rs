//! `puzzle-qa watch --serve`: its JSON API refuses what it must (no token,
//! a foreign Origin or Host, a path instead of a level's name), and its
//! page, in real headless Chromium, shows every level, turns a card stale
//! when its level file is saved, steps a replay, and accepts and rejects
//! a change as `review` does. The browser test also takes the screenshots
//! of docs/watch.md.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::devtools::{Browser, chromium_or_skip};
use crate::support::{Project, expectation_path, level_path, stderr};
use crate::watch::{Watching, watched_project};

/// A running `watch --serve 127.0.0.1:0` and the address it printed.
struct Served {
    watch: Watching,
    /// `http://127.0.0.1:PORT`.
    origin: String,
    token: String,
}

fn serve(project: &Project) -> Served {
    let watch = Watching::start(project, &["--serve", "127.0.0.1:0"]);
    let said = watch.until(|line| line.starts_with("http://"), Duration::from_secs(10));
    let url = said.last().unwrap().clone();
    let (origin, token) = url
        .split_once("/?token=")
        .unwrap_or_else(|| panic!("not an address with its token: {url}"));
    assert!(origin.starts_with("http://127.0.0.1:"), "{url}");
    assert_eq!(token.len(), 64, "{url}");
    Served {
        origin: origin.to_string(),
        token: token.to_string(),
        watch,
    }
}

/// An HTTP answer: its status and body.
struct Answer {
    status: u16,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("not JSON: {}", self.body))
    }
}

impl Served {
    /// `method path` with `headers` (a Host naming the server unless one
    /// is given) and `body`, as a browser or a script would send it.
    fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
        let host = self.origin.trim_start_matches("http://");
        let mut stream = TcpStream::connect(host).unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("Host"))
        {
            head.push_str(&format!("Host: {host}\r\n"));
        }
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        stream.write_all(head.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let status = answer
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("not an HTTP answer: {answer}"));
        let body = answer
            .split_once("\r\n\r\n")
            .map_or("", |(_, body)| body)
            .to_string();
        Answer { status, body }
    }

    /// `GET path` with this run's token as a query parameter.
    fn get(&self, path: &str) -> Answer {
        let glue = if path.contains('?') { '&' } else { '?' };
        self.request("GET", &format!("{path}{glue}token={}", self.token), &[], "")
    }

    /// `POST path` of `body` with the token as a bearer header.
    fn post(&self, path: &str, body: &str) -> Answer {
        let bearer = format!("Bearer {}", self.token);
        self.request("POST", path, &[("Authorization", &bearer)], body)
    }

    /// The levels, once none is running.
    fn settled_levels(&self) -> Vec<Value> {
        for _ in 0..200 {
            let levels = self.get("/api/levels").json();
            let levels = levels.as_array().unwrap().clone();
            if !levels.is_empty() && levels.iter().all(|level| level["status"] != "running") {
                return levels;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the levels were still running after 10 s");
    }
}

#[test]
fn the_api_wants_the_token_and_refuses_other_origins_and_hosts() {
    let project = watched_project();
    let served = serve(&project);
    // Every level is listed from the first request, checked or not.
    let listed = served.get("/api/levels").json();
    assert_eq!(listed.as_array().unwrap().len(), 15, "{listed}");
    let levels = served.settled_levels();
    assert_eq!(levels.len(), 15);
    let first = &levels[0];
    assert_eq!(first["name"], "bloxorz::level01");
    assert_eq!(first["status"], "passed");

    // The token as a query parameter or a bearer header; neither: refused.
    let bearer = format!("Bearer {}", served.token);
    let by_header = served.request("GET", "/api/levels", &[("Authorization", &bearer)], "");
    assert_eq!(by_header.status, 200);
    let without = served.request("GET", "/api/levels", &[], "");
    assert_eq!(without.status, 401, "{}", without.body);
    assert!(!without.body.contains("bloxorz::level01"));
    let wrong = served.request("GET", "/api/levels?token=0123", &[], "");
    assert_eq!(wrong.status, 401);
    let page = served.request("GET", "/", &[], "");
    assert_eq!(page.status, 401);

    // A page of another origin, even with the token, can neither read nor
    // accept; and a request for another host name (DNS rebinding: a name
    // of the attacker's, pointed at 127.0.0.1) is refused.
    let path = format!("/api/levels?token={}", served.token);
    let foreign = served.request("GET", &path, &[("Origin", "http://evil.example")], "");
    assert_eq!(foreign.status, 403, "{}", foreign.body);
    let level01 = project.read(&expectation_path("bloxorz", "level01"));
    project.edit(
        &level_path("bloxorz", "level01"),
        "x x x x x p p e p p",
        "x x x x p p p e p p",
    );
    served.watch.until(
        |line| line.starts_with("checked 1 level in"),
        Duration::from_secs(10),
    );
    let accept = served.request(
        "POST",
        "/api/accept",
        &[
            ("Authorization", &bearer),
            ("Origin", "http://evil.example"),
        ],
        r#"{"level": "bloxorz::level01"}"#,
    );
    assert_eq!(accept.status, 403, "{}", accept.body);
    assert_eq!(
        project.read(&expectation_path("bloxorz", "level01")),
        level01
    );
    let rebound = served.request("GET", &path, &[("Host", "evil.example")], "");
    assert_eq!(rebound.status, 403, "{}", rebound.body);
    let port = served.origin.rsplit(':').next().unwrap();
    let rebound = served.request(
        "GET",
        &path,
        &[("Host", &format!("evil.example:{port}"))],
        "",
    );
    assert_eq!(rebound.status, 403, "{}", rebound.body);

    // The page's own origin passes, by address or as localhost.
    let own = served.request("GET", &path, &[("Origin", &served.origin)], "");
    assert_eq!(own.status, 200);
    let local = served.request("GET", &path, &[("Host", &format!("localhost:{port}"))], "");
    assert_eq!(local.status, 200);
}

#[test]
fn no_request_reaches_a_path_outside_the_project() {
    let project = watched_project();
    let served = serve(&project);
    served.settled_levels();
    // A file beside the project that a path could name.
    let outside = tempfile::NamedTempFile::new_in(project.path().parent().unwrap()).unwrap();
    std::fs::write(outside.path(), "par = 1\n").unwrap();
    let outside_name = outside.path().file_name().unwrap().to_str().unwrap();
    let relative = format!("../{outside_name}");
    let absolute = outside.path().display().to_string();
    for path in [
        format!("/{relative}"),
        format!("/%2e%2e/{outside_name}"),
        "/../../../../etc/passwd".to_string(),
        "/etc/passwd".to_string(),
    ] {
        let answer = served.get(&path);
        assert_eq!(answer.status, 404, "{path}: {}", answer.body);
        assert!(!answer.body.contains("par = 1") && !answer.body.contains("root:"));
    }
    for name in [
        relative.as_str(),
        absolute.as_str(),
        "/etc/passwd",
        "levels/bloxorz/level01.txt",
    ] {
        for api in ["/api/level", "/api/replay", "/api/picture"] {
            let answer = served.get(&format!("{api}?level={}", encode(name)));
            assert_eq!(answer.status, 404, "{api} {name}: {}", answer.body);
            assert!(!answer.body.contains("par = 1") && !answer.body.contains("root:"));
        }
        for api in ["/api/accept", "/api/reject"] {
            let body = serde_json::json!({ "level": name }).to_string();
            let answer = served.post(api, &body);
            assert_eq!(answer.status, 404, "{api} {name}: {}", answer.body);
        }
    }
    assert_eq!(
        std::fs::read_to_string(outside.path()).unwrap(),
        "par = 1\n"
    );
    assert!(!Path::new(&format!("{absolute}.pending")).exists());
}

/// Percent-encodes a query value.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// `watch --serve` on another address than loopback says so.
#[test]
fn serving_beyond_loopback_is_warned_about() {
    let project = watched_project();
    let mut child = project
        .command(&["watch", "--serve", "0.0.0.0:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut err, &mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("warning: serving on 0.0.0.0:"), "{line}");
    assert!(line.contains("other machines may reach"), "{line}");
}

/// Where the screenshots go: `$PUZZLE_QA_SCREENSHOTS` (`docs/watch` makes
/// those of docs/watch.md), else the test's own folder under target/.
fn screenshot(browser: &mut Browser, name: &str) {
    browser.eval("window.scrollTo(0, 0)");
    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let folder = std::env::var_os("PUZZLE_QA_SCREENSHOTS")
        .map(std::path::PathBuf::from)
        .map(|folder| crate::support::repository().join(folder))
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("watch-page"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(format!("{name}.png")), png).unwrap();
}

/// The card of `level` on the page, as a script expression.
fn card(level: &str) -> String {
    format!("document.querySelector('.card[data-level=\"{level}\"]')")
}

#[test]
fn the_page_in_headless_chromium_shows_a_save_and_accepts_and_rejects_it() {
    let Some(binary) = chromium_or_skip("the watch page's browser test") else {
        return;
    };
    let project = watched_project();
    let served = serve(&project);
    let mut browser = Browser::launch(&binary);
    browser.open(&format!("{}/?token={}", served.origin, served.token));

    // Every level, each passed once its first check ends.
    let names: Vec<String> = served
        .settled_levels()
        .iter()
        .map(|level| level["name"].as_str().unwrap().to_string())
        .collect();
    browser.wait_for(
        "document.querySelectorAll('.card[data-status=\"passed\"]').length === 15",
        Duration::from_secs(10),
    );
    let shown = browser.eval(
        "Array.from(document.querySelectorAll('.card')).map(function(c){return c.dataset.level;})",
    );
    assert_eq!(shown, serde_json::json!(names));
    browser.wait_for(
        &format!(
            "{}.querySelector('img').complete",
            card("puzzlescript::crates::2")
        ),
        Duration::from_secs(5),
    );
    screenshot(&mut browser, "cards");

    // A save of the level file turns two of its levels' cards stale, with
    // no reload: a mark left on the window is still there.
    browser.eval("window.sameDocument = true");
    let expectations = expectation_path("puzzlescript", "crates");
    let before = project.read(&expectations);
    let crates = level_path("puzzlescript", "crates");
    let text = project
        .read(&crates)
        .replace("#P*...o#", "#P*..o.#")
        .replace("#P.*...o#", "#P.*..o.#");
    project.write(&crates, text);
    for level in ["puzzlescript::crates::2", "puzzlescript::crates::3"] {
        browser.wait_for(
            &format!("{}.dataset.status === 'stale'", card(level)),
            Duration::from_secs(10),
        );
    }
    assert_eq!(browser.eval("window.sameDocument"), Value::Bool(true));
    assert_eq!(
        browser.eval(&format!(
            "{}.dataset.status",
            card("puzzlescript::crates::1")
        )),
        "passed"
    );
    let numbers = browser.eval(&format!(
        "{}.querySelector('.numbers').textContent",
        card("puzzlescript::crates::2")
    ));
    assert!(
        numbers.as_str().unwrap().starts_with("par 3 (declared 4)"),
        "{numbers}"
    );

    // What bless would write for level 2, in a copy of the project.
    let copy = Project::empty();
    copy_tree(project.path(), copy.path());
    let blessed = copy.puzzle_qa(&["bless", "puzzlescript::crates::2"]);
    assert_eq!(blessed.status.code(), Some(0), "{}", stderr(&blessed));
    let as_bless_writes = copy.read(&expectations);
    assert_ne!(as_bless_writes, before);

    // Its view: the change, and the replays with their scrubbers.
    browser.click(&card("puzzlescript::crates::2"));
    browser.wait_for(
        "document.getElementById('view').dataset.level === 'puzzlescript::crates::2' && \
         !document.getElementById('accept').disabled",
        Duration::from_secs(5),
    );
    let change = browser.eval("document.getElementById('view-change').innerText");
    assert!(change.as_str().unwrap().contains("par 4 → 3"), "{change}");
    let frame = "document.getElementById('replay').contentDocument";
    browser.wait_for(
        &format!("{frame}.querySelectorAll('.replay').length === 2"),
        Duration::from_secs(5),
    );
    // The second replay is the solution found now: step it, then drag its
    // slider to the end and back to the start.
    let after = format!("{frame}.querySelectorAll('.replay')[1]");
    let counter = format!("{after}.querySelector('.counter').textContent");
    let start = browser.eval(&counter);
    let (at, total) = start.as_str().unwrap().split_once(" / ").unwrap();
    let (at, total): (u32, u32) = (at.parse().unwrap(), total.parse().unwrap());
    assert_eq!(total, 3, "{start}");
    browser.click(&format!("{after}.querySelector('.forward')"));
    browser.wait_for(
        &format!("{counter} === '{} / 3'", at + 1),
        Duration::from_secs(2),
    );
    browser.click_at(&format!("{after}.querySelector('.scrub')"), 0.98);
    browser.wait_for(&format!("{counter} === '3 / 3'"), Duration::from_secs(2));
    browser.click_at(&format!("{after}.querySelector('.scrub')"), 0.02);
    browser.wait_for(&format!("{counter} === '0 / 3'"), Duration::from_secs(2));
    browser.click(&format!("{after}.querySelector('.forward')"));
    browser.wait_for(&format!("{counter} === '1 / 3'"), Duration::from_secs(2));
    screenshot(&mut browser, "stale");

    // Accept: the expectation file as bless writes it, the result on the
    // page, and the card passed again after the check its save starts.
    browser.click("document.getElementById('accept')");
    browser.wait_for(
        "document.getElementById('result').textContent.indexOf('accepted') === 0",
        Duration::from_secs(5),
    );
    assert_eq!(project.read(&expectations), as_bless_writes);
    browser.wait_for(
        "document.getElementById('view').dataset.status === 'passed'",
        Duration::from_secs(10),
    );
    screenshot(&mut browser, "accepted");
    browser.click("document.getElementById('back')");
    browser.wait_for(
        &format!(
            "{}.dataset.status === 'passed'",
            card("puzzlescript::crates::2")
        ),
        Duration::from_secs(5),
    );

    // Reject level 3: the file stays as it was.
    let accepted = project.read(&expectations);
    browser.click(&card("puzzlescript::crates::3"));
    browser.wait_for(
        "document.getElementById('view').dataset.level === 'puzzlescript::crates::3' && \
         !document.getElementById('reject').disabled",
        Duration::from_secs(5),
    );
    browser.click("document.getElementById('reject')");
    browser.wait_for(
        "document.getElementById('result').textContent.indexOf('rejected') === 0",
        Duration::from_secs(5),
    );
    assert_eq!(project.read(&expectations), accepted);
    assert!(
        browser
            .eval("document.getElementById('accept').disabled")
            .as_bool()
            .unwrap(),
        "nothing is left to accept"
    );
    assert_eq!(browser.eval("window.sameDocument"), Value::Bool(true));
}

/// Copies the folder `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
