//! `watch --serve`: the page and its JSON API, on a small threaded HTTP
//! server (a thread per request; the event stream of each open page holds
//! one). Every answer is made here, from the binary: the page's HTML, CSS
//! and script are compiled in (`serve/assets/`), and nothing is fetched
//! from anywhere else. Every request passes the guard first (`guard.rs`):
//! this run's token, and Host and Origin that name the bound address.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, ToSocketAddrs as _};
use std::sync::Arc;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server};

use super::board::Board;

mod api;
mod guard;

use guard::{Guard, path_of, query_value};

/// The page, its style and its script, as one document.
const PAGE: &str = include_str!("serve/assets/page.html");
const STYLE: &str = include_str!("serve/assets/page.css");
const SCRIPT: &str = include_str!("serve/assets/page.js");

/// How long an idle event stream waits before a comment line that tells
/// a closed page from an open one.
const KEEP_ALIVE: Duration = Duration::from_secs(20);

/// The largest request body read (an accept's is a few dozen bytes).
const BODY_LIMIT: u64 = 64 * 1024;

/// Binds `address` and serves the page of `board` from threads of its own;
/// returns the page's address with its token, and a warning when the
/// address is reachable from other machines.
pub fn start(address: &str, board: Arc<Board>) -> Result<(String, Option<String>), String> {
    let wanted: SocketAddr = address
        .to_socket_addrs()
        .map_err(|error| format!("--serve {address}: {error}"))?
        .next()
        .ok_or_else(|| format!("--serve {address}: no such address"))?;
    let server =
        Server::http(wanted).map_err(|error| format!("cannot serve at {wanted}: {error}"))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| format!("cannot serve at {wanted}: not an IP address"))?;
    let guard = Arc::new(Guard::new(bound)?);
    let shown = match bound.ip() {
        ip if ip.is_unspecified() && ip.is_ipv4() => format!("127.0.0.1:{}", bound.port()),
        ip if ip.is_unspecified() => format!("[::1]:{}", bound.port()),
        _ => bound.to_string(),
    };
    let url = format!("http://{shown}/?token={}", guard.token());
    let warning = (!bound.ip().is_loopback()).then(|| {
        format!(
            "warning: serving on {bound}, which other machines may reach: anyone who can \
             reach it and has the token can accept and reject changes (the default, \
             127.0.0.1, is this machine only)"
        )
    });
    let server = Arc::new(server);
    std::thread::Builder::new()
        .name("watch-serve".into())
        .spawn(move || {
            for request in server.incoming_requests() {
                let (board, guard) = (Arc::clone(&board), Arc::clone(&guard));
                std::thread::spawn(move || answer(request, &board, &guard));
            }
        })
        .map_err(|error| format!("cannot start the server: {error}"))?;
    Ok((url, warning))
}

/// Answers one request.
fn answer(mut request: Request, board: &Arc<Board>, guard: &Guard) {
    if let Err(refusal) = guard.check(&request) {
        let (status, why) = refusal.status_and_reason();
        return send(request, api::error(status, why));
    }
    let url = request.url().to_string();
    let level = || query_value(&url, "level").unwrap_or_default();
    let answer = match (request.method(), path_of(&url)) {
        (Method::Get, "/") => (200, "text/html; charset=utf-8", page()),
        (Method::Get, "/api/levels") => api::levels(board),
        (Method::Get, "/api/level") => api::level(board, &level()),
        (Method::Get, "/api/replay") => api::replay(board, &level()),
        (Method::Get, "/api/picture") => api::picture(board, &level()),
        (Method::Get, "/api/events") => return stream(request, board),
        (Method::Post, path @ ("/api/accept" | "/api/reject")) => {
            let accept = path == "/api/accept";
            let mut body = String::new();
            let read = request
                .as_reader()
                .take(BODY_LIMIT)
                .read_to_string(&mut body);
            match read {
                Ok(_) => api::settle(board, &body, accept),
                Err(_) => api::error(400, "the body must be UTF-8 JSON"),
            }
        }
        (
            _,
            "/" | "/api/levels" | "/api/level" | "/api/replay" | "/api/picture" | "/api/events"
            | "/api/accept" | "/api/reject",
        ) => api::error(405, "not with this method"),
        _ => api::error(404, "no such page"),
    };
    send(request, answer);
}

/// The page: its HTML with the style and the script in it.
fn page() -> String {
    PAGE.replace("/*STYLE*/", STYLE)
        .replace("/*SCRIPT*/", SCRIPT)
}

fn header(field: &str, value: &str) -> Header {
    Header::from_bytes(field.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// Headers every answer has: how long it may be cached (`cache`),
/// nothing sniffed, no address (and so no token) sent on as a referrer,
/// and no framing by a page of another origin.
fn common_headers(cache: &str) -> Vec<Header> {
    vec![
        header("Cache-Control", cache),
        header("X-Content-Type-Options", "nosniff"),
        header("Referrer-Policy", "no-referrer"),
        header("X-Frame-Options", "SAMEORIGIN"),
        header(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' \
             'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'",
        ),
    ]
}

fn send(request: Request, (status, content_type, body): api::Answer) {
    let mut response = Response::from_string(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type));
    // A level's picture is its start, and the page asks for it with the
    // count of its checks in the address: it may be kept, so that a card
    // drawn again does not flicker. Nothing else is.
    let cache = if status == 200 && content_type == "image/svg+xml" {
        "private, max-age=86400"
    } else {
        "no-store"
    };
    for header in common_headers(cache) {
        response.add_header(header);
    }
    let _ = request.respond(response);
}

/// `GET /api/events`: server-sent events, one per card change (`level`,
/// `removed`), notice (`notice`) and run (`run`), until the page goes.
fn stream(request: Request, board: &Board) {
    let events = board.listen();
    let mut writer = request.into_writer();
    let mut head =
        String::from("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n");
    for header in common_headers("no-store") {
        head.push_str(&format!("{}: {}\r\n", header.field, header.value));
    }
    head.push_str("\r\nretry: 1000\n\n");
    if writer
        .write_all(head.as_bytes())
        .and_then(|()| writer.flush())
        .is_err()
    {
        return;
    }
    loop {
        let frame = match events.recv_timeout(KEEP_ALIVE) {
            Ok(frame) => frame,
            Err(RecvTimeoutError::Timeout) => ": still here\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if writer
            .write_all(frame.as_bytes())
            .and_then(|()| writer.flush())
            .is_err()
        {
            return;
        }
    }
}
