//! The stdio transport (MCP `basic/transports/stdio`): the server runs as a child process started
//! directly (never through a shell); newline-delimited JSON-RPC goes to its stdin and comes back
//! on its stdout; its stderr is drained continuously into a bounded [`StderrLog`].
//!
//! Three threads move bytes: a writer (so a server that stops reading its stdin cannot block the
//! driver), a stdout reader and a stderr drain. All three report into the one channel the
//! host owns ([`crate::host::Input`]). Shutdown follows the spec's "Shutdown" section:
//! close stdin, wait a grace period, then kill.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::error::HarnessError;
use crate::host::Input;
use crate::stderr_log::StderrLog;

/// Size of one read from the server's stdout or stderr.
const READ_CHUNK: usize = 16 * 1024;
/// Most lines waiting for the writer thread (a server that stops reading its stdin).
pub const MAX_QUEUED_LINES: usize = 1024;
/// Most bytes waiting for the writer thread.
pub const MAX_QUEUED_BYTES: usize = 16 << 20;

/// How to start a stdio server.
#[derive(Debug, Clone)]
pub struct StdioCommand {
    /// The program (looked up on `PATH` when it has no slash, as `execvp` does).
    pub program: OsString,
    /// Its arguments, passed as they are (no shell, no word splitting).
    pub args: Vec<OsString>,
    /// Extra environment variables.
    pub env: Vec<(OsString, OsString)>,
    /// Working directory, if not ours.
    pub cwd: Option<PathBuf>,
    /// Bytes of stderr kept (the newest).
    pub stderr_keep_bytes: usize,
    /// Copy the server's stderr to ours as it arrives.
    pub echo_stderr: bool,
    /// How long to wait for the server to exit after its stdin is closed before killing it.
    pub grace: Duration,
}

impl StdioCommand {
    /// `program args..` with the defaults: 64 KiB of stderr kept, 2 s grace period.
    pub fn new<I, S>(program: impl Into<OsString>, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        StdioCommand {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            cwd: None,
            stderr_keep_bytes: 64 * 1024,
            echo_stderr: false,
            grace: Duration::from_secs(2),
        }
    }
}

/// How a shutdown ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShutdownOutcome {
    /// The process had already exited, or exited within the grace period after its stdin closed.
    Exited(Option<i32>),
    /// The process was killed after the grace period.
    Killed,
}

/// A running stdio server.
#[derive(Debug)]
pub struct StdioProcess {
    child: Child,
    program: String,
    writer: Option<SyncSender<Vec<u8>>>,
    /// Bytes queued for the writer thread and not yet written.
    backlog: Arc<AtomicUsize>,
    stderr: Arc<Mutex<StderrLog>>,
    grace: Duration,
    status: Option<ExitStatus>,
    shut_down: bool,
}

impl StdioProcess {
    /// Starts the server. Its output is reported on `inputs`.
    pub fn spawn(cmd: &StdioCommand, inputs: SyncSender<Input>) -> Result<Self, HarnessError> {
        let program = cmd.program.to_string_lossy().into_owned();
        let mut command = Command::new(&cmd.program);
        command
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &cmd.env {
            command.env(k, v);
        }
        if let Some(dir) = &cmd.cwd {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|e| HarnessError::Spawn {
            program: program.clone(),
            reason: e.to_string(),
        })?;
        let stderr_log = Arc::new(Mutex::new(StderrLog::new(cmd.stderr_keep_bytes)));
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(HarnessError::Spawn {
                program,
                reason: "the standard streams were not piped".into(),
            });
        };
        let (line_tx, line_rx) = mpsc::sync_channel::<Vec<u8>>(MAX_QUEUED_LINES);
        let backlog = Arc::new(AtomicUsize::new(0));
        let spawned = spawn_writer(stdin, line_rx, Arc::clone(&backlog), inputs.clone())
            .and_then(|_| spawn_stdout_reader(stdout, inputs))
            .and_then(|_| spawn_stderr_drain(stderr, Arc::clone(&stderr_log), cmd.echo_stderr));
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(HarnessError::Spawn {
                program,
                reason: format!("could not start an I/O thread: {e}"),
            });
        }
        Ok(StdioProcess {
            child,
            program,
            writer: Some(line_tx),
            backlog,
            stderr: stderr_log,
            grace: cmd.grace,
            status: None,
            shut_down: false,
        })
    }

    /// The program name, for messages.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Queues one line (already `\n`-terminated) for the server's stdin. A server that stops
    /// reading its stdin does not make the queue grow without end: past [`MAX_QUEUED_LINES`]
    /// lines or [`MAX_QUEUED_BYTES`] bytes the line is refused with the reason.
    pub fn write_line(&self, line: Vec<u8>) -> Result<(), String> {
        let Some(w) = &self.writer else {
            return Ok(());
        };
        let queued = self.backlog.load(Ordering::Acquire);
        if queued.saturating_add(line.len()) > MAX_QUEUED_BYTES {
            return Err(format!(
                "the server is not reading its stdin: {queued} bytes are still waiting"
            ));
        }
        let n = line.len();
        self.backlog.fetch_add(n, Ordering::AcqRel);
        match w.try_send(line) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => {
                self.backlog.fetch_sub(n, Ordering::AcqRel);
                Err(format!(
                    "the server is not reading its stdin: {MAX_QUEUED_LINES} lines are still waiting"
                ))
            }
            // A closed writer has already reported `StdinFailed`.
            Err(TrySendError::Disconnected(_)) => {
                self.backlog.fetch_sub(n, Ordering::AcqRel);
                Ok(())
            }
        }
    }

    /// The shared stderr log.
    pub fn stderr(&self) -> Arc<Mutex<StderrLog>> {
        Arc::clone(&self.stderr)
    }

    /// The last `max_chars` characters of stderr.
    pub fn stderr_tail(&self, max_chars: usize) -> String {
        self.stderr
            .lock()
            .map(|l| l.tail(max_chars))
            .unwrap_or_default()
    }

    /// Waits at most `wait` for the process to exit; its status if it did.
    pub fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        if self.status.is_some() {
            return self.status;
        }
        let until = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    self.status = Some(s);
                    return self.status;
                }
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Graceful, then forced shutdown (MCP `basic/transports/stdio` "Shutdown"): closes stdin,
    /// waits up to the grace period, then kills the process and reaps it.
    pub fn shutdown(&mut self) -> ShutdownOutcome {
        self.shut_down = true;
        // Dropping the sender ends the writer thread, which drops (closes) the child's stdin.
        self.writer = None;
        if let Some(s) = self.wait_exit(self.grace) {
            return ShutdownOutcome::Exited(s.code());
        }
        let _ = self.child.kill();
        self.status = self.child.wait().ok();
        ShutdownOutcome::Killed
    }
}

impl Drop for StdioProcess {
    fn drop(&mut self) {
        if !self.shut_down {
            self.shutdown();
        }
    }
}

fn spawn_writer(
    mut stdin: ChildStdin,
    lines: mpsc::Receiver<Vec<u8>>,
    backlog: Arc<AtomicUsize>,
    inputs: SyncSender<Input>,
) -> std::io::Result<()> {
    thread::Builder::new()
        .name("stdio-writer".into())
        .spawn(move || {
            for line in lines {
                let written = stdin.write_all(&line).and_then(|_| stdin.flush());
                backlog.fetch_sub(line.len(), Ordering::AcqRel);
                if let Err(e) = written {
                    let _ = inputs.send(Input::StdinFailed(e.to_string()));
                    return;
                }
            }
        })
        .map(|_| ())
}

fn spawn_stdout_reader(
    mut stdout: std::process::ChildStdout,
    inputs: SyncSender<Input>,
) -> std::io::Result<()> {
    thread::Builder::new()
        .name("stdio-stdout".into())
        .spawn(move || {
            let mut buf = vec![0u8; READ_CHUNK];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) => {
                        let _ = inputs.send(Input::StdoutClosed(None));
                        return;
                    }
                    Ok(n) => {
                        if inputs.send(Input::Stdout(buf[..n].to_vec())).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = inputs.send(Input::StdoutClosed(Some(e.to_string())));
                        return;
                    }
                }
            }
        })
        .map(|_| ())
}

fn spawn_stderr_drain(
    mut stderr: std::process::ChildStderr,
    log: Arc<Mutex<StderrLog>>,
    echo: bool,
) -> std::io::Result<()> {
    thread::Builder::new()
        .name("stdio-stderr".into())
        .spawn(move || {
            let mut buf = vec![0u8; READ_CHUNK];
            loop {
                match stderr.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => {
                        if echo {
                            let _ = std::io::stderr().write_all(&buf[..n]);
                        }
                        if let Ok(mut l) = log.lock() {
                            l.push(&buf[..n]);
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return,
                }
            }
        })
        .map(|_| ())
}
