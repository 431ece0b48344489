//! One game process: started, greeted, asked one request at a time, and
//! stopped. Whatever it does wrong is a [`Fault`] naming the game, the
//! request and the last lines it wrote to stderr; the process is then
//! unusable: the fault stops it (killed if need be), and it is dropped.

use std::io::{BufRead, BufReader, Write};
use std::marker::PhantomData;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::manifest::Manifest;
use crate::method::{Hello, Method};
use crate::stderr::Stderr;
use crate::wire::{ErrorObject, HelloParams, Reply, Request, VERSION};

/// How long a process that was asked to stop may take before it is killed.
const GRACE: Duration = Duration::from_secs(1);

/// What the requests of this run have cost, over every game and process:
/// the numbers a benchmark reports as the protocol's overhead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Requests answered.
    pub requests: u64,
    /// Wall time from a request's sending to its reply's arrival, summed.
    pub waited: Duration,
    /// Bytes of requests and replies.
    pub bytes: u64,
}

static REQUESTS: AtomicU64 = AtomicU64::new(0);
static WAITED_NANOS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

/// The traffic so far.
pub fn traffic() -> Traffic {
    Traffic {
        requests: REQUESTS.load(Ordering::Relaxed),
        waited: Duration::from_nanos(WAITED_NANOS.load(Ordering::Relaxed)),
        bytes: BYTES.load(Ordering::Relaxed),
    }
}

/// Something the game process did wrong: the whole message, ready to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault(pub String);

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Fault {}

/// A reply to a request of method `M`, as received: a line of JSON, kept
/// by the caller while it reads a result that borrows from it.
pub(crate) struct Answer<M> {
    line: String,
    id: u64,
    method: PhantomData<M>,
}

/// A running game process.
pub(crate) struct Child {
    /// `name (manifest)`, for messages.
    game: Arc<str>,
    process: std::process::Child,
    /// Lines for the writer thread; dropping it closes the child's stdin.
    requests: Option<Sender<Vec<u8>>>,
    /// Lines from the reader thread; `Err` once stdout is closed.
    replies: Receiver<Result<String, String>>,
    stderr: Stderr,
    next_id: u64,
    timeout: Duration,
    /// Whether its last request went unanswered for `timeout` (then it was
    /// stopped): the one fault that may be the game's rules never
    /// settling, rather than a broken process.
    timed_out: bool,
    /// Whether it answers `draw`.
    pub(crate) draws: bool,
}

impl Child {
    /// Starts the game's process and greets it.
    pub(crate) fn start(manifest: &Manifest) -> Result<Child, Fault> {
        let game: Arc<str> = format!("the game `{}` ({})", manifest.name, manifest.shown).into();
        let program = &manifest.command[0];
        // A program written as a path is found from the manifest's folder;
        // a bare name, on the PATH.
        let program = if program.contains('/') || program.contains(std::path::MAIN_SEPARATOR) {
            manifest.folder.join(program).into_os_string()
        } else {
            program.into()
        };
        let mut process = Command::new(&program)
            .args(&manifest.command[1..])
            .current_dir(&manifest.folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| {
                Fault(format!(
                    "{game}: cannot start `{}` in {}: {error}",
                    manifest.command.join(" "),
                    manifest.folder.display()
                ))
            })?;
        let stdin = process.stdin.take().expect("stdin is piped");
        let stdout = process.stdout.take().expect("stdout is piped");
        let stderr = process.stderr.take().expect("stderr is piped");

        let (requests, to_write) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || write_lines(stdin, to_write));
        let (sender, replies) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            loop {
                let line = match lines.next() {
                    Some(Ok(line)) => Ok(line),
                    Some(Err(error)) => Err(format!("its stdout failed: {error}")),
                    None => Err("it closed its stdout".to_string()),
                };
                let last = line.is_err();
                if sender.send(line).is_err() || last {
                    return;
                }
            }
        });
        let mut child = Child {
            game,
            process,
            requests: Some(requests),
            replies,
            stderr: Stderr::read(stderr),
            next_id: 1,
            timeout: manifest.timeout,
            timed_out: false,
            draws: false,
        };
        let client = concat!("puzzle-qa ", env!("CARGO_PKG_VERSION"));
        let answer = child.call::<Hello>(HelloParams {
            protocol: VERSION,
            client,
        })?;
        let hello = child.read(&answer)?.map_err(|error| {
            child.fault(Hello::METHOD, &format!("it refused: {}", error.message))
        })?;
        if hello.protocol != VERSION {
            return Err(child.fault(
                Hello::METHOD,
                &format!(
                    "it speaks protocol version {}; this puzzle-qa speaks version {VERSION}",
                    hello.protocol
                ),
            ));
        }
        if hello.game != manifest.name {
            return Err(child.fault(
                Hello::METHOD,
                &format!(
                    "it says it is the game `{}`, but its manifest names `{}`",
                    hello.game, manifest.name
                ),
            ));
        }
        child.draws = hello.draw;
        Ok(child)
    }

    /// Sends one request of method `M` and waits for its reply.
    pub(crate) fn call<M: Method>(&mut self, params: M::Params<'_>) -> Result<Answer<M>, Fault> {
        let method = M::METHOD;
        let id = self.next_id;
        self.next_id += 1;
        let mut line =
            serde_json::to_vec(&Request { id, method, params }).expect("a request serializes");
        line.push(b'\n');
        let sent_bytes = line.len() as u64;
        let clock = Instant::now();
        let sent = self
            .requests
            .as_ref()
            .is_some_and(|requests| requests.send(line).is_ok());
        if !sent {
            return Err(self.gone(method, "it stopped reading its stdin".into()));
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.replies.recv_timeout(wait) {
                Ok(Ok(line)) => line,
                Ok(Err(why)) => return Err(self.gone(method, why)),
                Err(RecvTimeoutError::Timeout) => {
                    self.timed_out = true;
                    let _ = self.process.kill();
                    let _ = self.process.wait();
                    return Err(self.fault(
                        method,
                        &format!(
                            "no answer within {} s (`timeout_seconds` in its game.toml); it was stopped",
                            self.timeout.as_secs_f64()
                        ),
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.gone(method, "it closed its stdout".into()));
                }
            };
            // Blank lines are not replies: tolerate them.
            if line.trim().is_empty() {
                continue;
            }
            REQUESTS.fetch_add(1, Ordering::Relaxed);
            WAITED_NANOS.fetch_add(clock.elapsed().as_nanos() as u64, Ordering::Relaxed);
            BYTES.fetch_add(sent_bytes + line.len() as u64, Ordering::Relaxed);
            return Ok(Answer {
                line,
                id,
                method: PhantomData,
            });
        }
    }

    /// Whether the last request got no answer in time.
    pub(crate) fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// A reply's result (read in one pass, borrowing from the reply's
    /// line), or the error the game replied with.
    pub(crate) fn read<'a, M: Method>(
        &mut self,
        answer: &'a Answer<M>,
    ) -> Result<Result<M::Result<'a>, ErrorObject>, Fault> {
        self.reply(answer)
    }

    /// A reply's result, where an error reply is a fault: the game had to
    /// give a result.
    pub(crate) fn result<'a, M: Method>(
        &mut self,
        answer: &'a Answer<M>,
    ) -> Result<M::Result<'a>, Fault> {
        self.reply(answer)?
            .map_err(|error| self.refused(M::METHOD, error))
    }

    /// Sends one request of method `M` and reads its result, where an
    /// error reply is a fault; for a result that borrows nothing, so that
    /// the reply need not be kept.
    pub(crate) fn request<M: Method>(
        &mut self,
        params: M::Params<'_>,
    ) -> Result<M::Result<'static>, Fault>
    where
        M::Result<'static>: DeserializeOwned,
    {
        let answer = self.call::<M>(params)?;
        self.reply(&answer)?
            .map_err(|error| self.refused(M::METHOD, error))
    }

    /// A reply to a request of method `M` read as a `T`: that method's
    /// result, borrowing from the reply or not.
    fn reply<'a, M: Method, T: Deserialize<'a>>(
        &mut self,
        answer: &'a Answer<M>,
    ) -> Result<Result<T, ErrorObject>, Fault> {
        let method = M::METHOD;
        let reply: Reply<T> = serde_json::from_str(&answer.line).map_err(|error| {
            let why = match error.classify() {
                serde_json::error::Category::Data => {
                    format!("its reply does not follow the protocol ({error})")
                }
                _ => format!("its reply is not a JSON reply ({error})"),
            };
            self.fault(method, &format!("{why}: {}", clip(&answer.line)))
        })?;
        if reply.id != Some(answer.id) {
            let theirs = reply
                .id
                .map_or("no id".to_string(), |id| format!("id {id}"));
            return Err(self.fault(
                method,
                &format!(
                    "it answered with {theirs}, but the request's id was {}",
                    answer.id
                ),
            ));
        }
        match (reply.result, reply.error) {
            (_, Some(error)) => Ok(Err(error)),
            (Some(result), None) => Ok(Ok(result)),
            (None, None) => Err(self.fault(method, "its reply has neither `result` nor `error`")),
        }
    }

    /// The fault of an error reply where a result was due.
    fn refused(&mut self, method: &str, error: ErrorObject) -> Fault {
        self.fault(
            method,
            &format!("it replied with an error: {}", error.message),
        )
    }

    /// A fault of this process in answering `method`: the game, the
    /// request, why, and the last lines of its stderr. The process is
    /// stopped first (it is of no more use), so that its stderr ends with
    /// its last words.
    pub(crate) fn fault(&mut self, method: &str, why: &str) -> Fault {
        self.stop();
        let lines = self.stderr.last_lines(GRACE);
        let mut message = format!("{}: request `{method}`: {why}", self.game);
        if !lines.is_empty() {
            message.push_str("\n  its last lines on stderr:");
            for line in &lines {
                message.push_str("\n    ");
                message.push_str(line);
            }
        }
        Fault(message)
    }

    /// The fault of a process that is gone: how it ended, if it has.
    fn gone(&mut self, method: &str, why: String) -> Fault {
        let why = match self.exit_within(GRACE) {
            Some(status) => ended(status),
            None => why,
        };
        self.fault(method, &why)
    }

    /// Closes the child's stdin, which asks it to exit, and kills it if it
    /// is still running a moment later.
    fn stop(&mut self) {
        self.requests = None;
        if self.exit_within(GRACE).is_none() {
            let _ = self.process.kill();
            let _ = self.process.wait();
        }
    }

    /// How the process ended, if it has by `within` from now (`None` too if
    /// the OS cannot say).
    fn exit_within(&mut self, within: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + within;
        loop {
            match self.process.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return None,
            }
        }
    }
}

impl Drop for Child {
    /// Stops the process, unless a fault already has.
    fn drop(&mut self) {
        self.stop();
    }
}

/// Writes each line to the child's stdin until the sender is dropped or
/// the pipe breaks. A child that stops reading must not take the harness
/// down with it: `puzzle-qa` lets SIGPIPE end it quietly when its own
/// stdout closes, so this thread blocks the signal and sees the error.
fn write_lines(stdin: std::process::ChildStdin, lines: Receiver<Vec<u8>>) {
    #[cfg(unix)]
    // SAFETY: the set is initialised by `sigemptyset` before use, and
    // `pthread_sigmask` changes only this thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
    let mut stdin = std::io::BufWriter::new(stdin);
    for line in lines {
        if stdin.write_all(&line).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

/// How a process ended, in words.
fn ended(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("the game process was killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("the game process exited with status {code}"),
        None => "the game process ended".to_string(),
    }
}

/// The start of a long line, for a message.
fn clip(line: &str) -> String {
    const MOST: usize = 200;
    match line.char_indices().nth(MOST) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}
