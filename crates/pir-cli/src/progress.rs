//! Progress on a terminal for work that takes more than a second (reading or
//! writing a large model, a long pipeline): an `indicatif` spinner on stderr
//! that appears after one second and disappears when the work ends. Nothing
//! is drawn when stderr is not a terminal (piped, redirected, CI).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// How long work runs before its spinner appears.
const DELAY: Duration = Duration::from_secs(1);

/// Set when no spinner may be drawn (several models worked on at once).
static SILENT: AtomicBool = AtomicBool::new(false);

/// Draws no spinner from now on.
pub(crate) fn silence() {
    SILENT.store(true, Ordering::Relaxed);
}

/// A spinner shown while it lives (see the module doc).
pub(crate) struct Spinner {
    done: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// A spinner saying `message` after [`DELAY`], if stderr is a terminal
/// (only then is the message written out).
pub(crate) fn spinner(message: impl std::fmt::Display) -> Option<Spinner> {
    if SILENT.load(Ordering::Relaxed) || !std::io::stderr().is_terminal() {
        return None;
    }
    let (done, wait) = mpsc::channel::<()>();
    let message = message.to_string();
    let thread = std::thread::Builder::new()
        .name("progress".into())
        .spawn(move || {
            if wait.recv_timeout(DELAY) != Err(mpsc::RecvTimeoutError::Timeout) {
                return;
            }
            let bar = ProgressBar::new_spinner().with_elapsed(DELAY);
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
                bar.set_style(style);
            }
            bar.set_message(message);
            bar.enable_steady_tick(Duration::from_millis(100));
            // Until the work ends (a message, or the sender dropped).
            let _ = wait.recv();
            bar.finish_and_clear();
        })
        .ok()?;
    Some(Spinner {
        done: Some(done),
        thread: Some(thread),
    })
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
