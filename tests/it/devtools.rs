//! Headless Chromium driven over its DevTools protocol (JSON messages on a
//! WebSocket), for tests that act on a page as a person does: click where
//! a button is drawn, wait for what the page shows, take a screenshot.
//! Found as the report's browser test finds it (`$CHROMIUM`, else
//! `chromium` on the path).

use std::io::{BufRead as _, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

/// The browser to drive: `$CHROMIUM`, else `chromium` (or
/// `chromium-browser`) on the path.
pub fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let found = Command::new("sh")
        .args(["-c", "command -v chromium || command -v chromium-browser"])
        .output()
        .ok()?;
    let path = String::from_utf8(found.stdout).ok()?;
    (!path.trim().is_empty()).then(|| PathBuf::from(path.trim()))
}

/// The browser, or `None` after saying on stderr that `test` is skipped.
/// Where CI is set there must be one: CI installs it (`.ci/run`), and a
/// skip there would hide a broken install.
pub fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: no Chromium found, and CI is set: .ci/run installs Debian's `chromium`"
        );
        // Written to stderr itself, not through `eprintln!`, which the test
        // harness captures and shows only for a failing test: a skip must
        // be seen.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "{test} SKIPPED: no Chromium found (install Debian's `chromium`, or set \
             CHROMIUM); nothing in the browser was checked"
        );
    }
    found
}

/// One headless Chromium with one page, closed when dropped.
pub struct Browser {
    child: Child,
    socket: WebSocket<TcpStream>,
    /// The page's session on the browser's connection.
    session: String,
    next: u64,
    _profile: tempfile::TempDir,
}

/// The page's size, in CSS pixels, one device pixel each.
const WIDTH: u32 = 1040;
const HEIGHT: u32 = 720;

impl Browser {
    pub fn launch(binary: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // It says where its protocol listens on stderr; what follows is
        // read and dropped so that a full pipe never stops it.
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut said = Vec::new();
        let address = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(at) = line.find("ws://") {
                        break line[at..].trim().to_string();
                    }
                    said.push(line);
                }
                _ => panic!(
                    "chromium did not open its DevTools port:\n{}",
                    said.join("\n")
                ),
            }
        };
        std::thread::spawn(move || for _ in lines.by_ref() {});
        let host = address
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let stream = TcpStream::connect(&host).expect("chromium's DevTools port");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let (socket, _) = tungstenite::client(address.as_str(), stream).expect("a WebSocket");
        let mut browser = Browser {
            child,
            socket,
            session: String::new(),
            next: 0,
            _profile: profile,
        };
        let target = browser.call_browser("Target.createTarget", json!({"url": "about:blank"}));
        let attached = browser.call_browser(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": false}),
        );
        browser
    }

    /// A command to the browser itself; its result.
    fn call_browser(&mut self, method: &str, params: Value) -> Value {
        self.send(None, method, params)
    }

    /// A command to the page; its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .expect("chromium takes the command");
        loop {
            let answer = match self.socket.read().expect("chromium answers") {
                Message::Text(text) => serde_json::from_str::<Value>(&text).unwrap(),
                _ => continue,
            };
            // Events (no id) are not listened to.
            if answer["id"] != json!(id) {
                continue;
            }
            if let Some(error) = answer.get("error") {
                panic!("{method}: {error}");
            }
            return answer["result"].clone();
        }
    }

    /// Opens `url` and waits until its document has loaded.
    pub fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for(
            "document.readyState === 'complete' && location.href !== 'about:blank'",
            Duration::from_secs(10),
        );
    }

    /// The value of the script `expression` in the page (a promise is
    /// awaited); a script error fails the test.
    pub fn eval(&mut self, expression: &str) -> Value {
        let answer = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(exception) = answer.get("exceptionDetails") {
            panic!("{expression}\nthrew: {exception}");
        }
        answer["result"]["value"].clone()
    }

    /// Waits until `expression` is truthy in the page, and returns its
    /// value; fails after `within`, with the page's text.
    pub fn wait_for(&mut self, expression: &str, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let value = self.eval(&format!(
                "(function(){{try{{return {expression};}}catch(e){{return null;}}}})()"
            ));
            let truthy = !matches!(value, Value::Null | Value::Bool(false))
                && value != json!(0)
                && value != json!("");
            if truthy {
                return value;
            }
            if Instant::now() > deadline {
                let text = self.eval("document.body ? document.body.innerText : ''");
                panic!(
                    "not within {within:?}: {expression}\nthe page says:\n{}",
                    text.as_str().unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Clicks with the mouse on the element `element` (a script
    /// expression; it may be in a frame of the page) at `fraction` of its
    /// width from its left edge, halfway down.
    pub fn click_at(&mut self, element: &str, fraction: f64) {
        let point = self.eval(&format!(
            "(function(){{var e={element};if(!e){{return null;}}e.scrollIntoView({{block:'center'}});\
             var r=e.getBoundingClientRect(),x=r.left+r.width*{fraction},y=r.top+r.height/2,\
             w=e.ownerDocument.defaultView;while(w.frameElement){{var f=w.frameElement.\
             getBoundingClientRect();x+=f.left+w.frameElement.clientLeft;y+=f.top+w.frameElement.clientTop;\
             w=w.parent;}}return [x,y];}})()"
        ));
        let [x, y] = [&point[0], &point[1]].map(|value| {
            value
                .as_f64()
                .unwrap_or_else(|| panic!("nothing to click: {element}"))
        });
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Clicks on the middle of `element`.
    pub fn click(&mut self, element: &str) {
        self.click_at(element, 0.5);
    }

    /// The page as it is drawn now, a PNG.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        base64(shot["data"].as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard base64, as the protocol sends binary data.
fn base64(text: &str) -> Vec<u8> {
    let value = |byte: u8| match byte {
        b'A'..=b'Z' => byte - b'A',
        b'a'..=b'z' => byte - b'a' + 26,
        b'0'..=b'9' => byte - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {byte}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&b| b != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut bits = 0u32;
        for (index, digit) in chunk.iter().enumerate() {
            bits |= u32::from(*digit) << (18 - 6 * index);
        }
        let bytes = bits.to_be_bytes();
        out.extend(&bytes[1..chunk.len()]);
    }
    out
}

#[test]
fn base64_decodes_what_it_is_given() {
    assert_eq!(base64("aGVsbG8="), b"hello");
    assert_eq!(base64("aGk="), b"hi");
    assert_eq!(base64("YWJj"), b"abc");
}
