//! Reading the top block's ops on two threads.
//!
//! Reading an op is two halves (see [`scan`](super::scan)): scanning its
//! text, which needs nothing but the text, and building it, which interns
//! into the context and resolves value ids, so must go in file order. A
//! large list is cut where an op seems to begin, a sixth of the way in: a
//! second thread scans from there to the list's end, handing batches of
//! scanned ops over a channel, while this thread reads the ops before the
//! cut, then builds the scanned ones in order. The context interns
//! everything in the order one thread would, so the program — its ops,
//! values, and every interned handle — is the one a single thread reads.
//!
//! The cut is a guess, found by bytes alone; this thread checks it: only
//! if reading the ops before it stops exactly there, before an op of this
//! list, is the second thread's work used, else it is dropped and this
//! thread reads on alone. When a batch is late (the second thread waits for
//! a core other programs hold), this thread stops waiting and reads on
//! alone from the last op it built: which thread scanned what then depends
//! on timing, the program read does not. The scanner's errors are errors of the ops after
//! the cut, which one thread would meet too; like every error of the
//! streamed reader they send the file to the whole-document reader.

use std::sync::{mpsc, OnceLock};
use std::time::Duration;

use pir_core::serial::JsonPath;
use pir_core::BlockId;
use pir_json::{Open, Stream};

use super::scan::{Batch, Scanner};
use super::streamed::{Dest, Reached, Resolved};
use super::{ReadOptions, Reader};
use crate::error::ReadError;

/// Lists shorter than this are read on one thread. A second thread costs
/// tens of microseconds to start, hand over and join, and the ops after the
/// cut have their distinct texts decoded and looked up again. Measured on
/// synthetic programs (`pir synth`, fastest of 7 processes, 2 idle cores):
/// at 0.54 MB two threads were 3 % slower and at 0.8 MB even; at 1.07 and
/// 1.34 MB from even to 12–22 % faster, process to process; from 1.6 MB
/// 33–40 % faster in every process. On a machine whose cores are busy
/// a second thread gains nothing and costs up to its patience.
const MIN_BYTES: usize = 1 << 20;

/// Scanned ops per message.
const BATCH_OPS: usize = 512;

/// Messages the scanner may be ahead by (so at most this many batches of
/// scanned ops wait in memory).
const AHEAD: usize = 64;

/// The share of the list's bytes this thread reads before the cut, in
/// 1/64ths. Building a scanned op costs about two fifths of reading it
/// (instructions on the 20k-op synthetic model), so with a sixth read here
/// both threads finish together; on much larger programs building costs
/// more (interning into tables larger than the cache), and a smaller share
/// would do a little better.
const SHARE_64THS: usize = 10;

/// How long this thread waits for a batch before it reads on alone: about
/// ten times what scanning one takes, so only a scanning thread that waits
/// for a core (other programs keep both busy) or is gone is given up on.
const PATIENCE: Duration = Duration::from_millis(2);

/// How many bytes the reader goes past before it says so (see
/// [`read_slice_releasing`](super::read_slice_releasing)): a system call per
/// step when the file is mapped, and a few pages read again after it.
const RELEASE_STEP: usize = 4 << 20;

/// Texts of at least this many bytes are released as a whole once checked
/// (see [`read_slice_releasing`](super::read_slice_releasing)). Ops near a
/// file's start (its parameters) cost the program more bytes than their
/// text, so releasing only what the reader went past left a 1M-op
/// synthetic model (276 MB) peaking at 375 MB rather than 300, a 200k-op
/// one at 119 MB rather than 96; below about 32 MB the gain is a few MB,
/// and reading every page in again costs a few per cent of the load there
/// (two threads fault pages at once).
const RELEASE_CHECKED_MIN: usize = 32 << 20;

/// How far past the planned cut the guess may look for an op's beginning.
const SEARCH: usize = 64 << 10;

/// Where the top block's ops are cut for a second thread.
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    /// Lists shorter than this many bytes are read on one thread.
    pub(super) min_bytes: usize,
    /// The share of the list this thread reads before the cut, in 1/64ths.
    pub(super) share_64ths: usize,
    /// How long this thread waits for the next batch before it reads on
    /// alone.
    pub(super) patience: Duration,
    /// How many bytes the reader goes past before it says so.
    pub(super) release_step: usize,
    /// Texts of at least this many bytes are released whole once checked.
    pub(super) release_checked_min: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            min_bytes: MIN_BYTES,
            share_64ths: SHARE_64THS,
            patience: PATIENCE,
            release_step: RELEASE_STEP,
            release_checked_min: RELEASE_CHECKED_MIN,
        }
    }
}

/// How many threads `options` allow (see [`ReadOptions::threads`]).
pub(super) fn threads(options: &ReadOptions) -> usize {
    if options.threads > 0 {
        return options.threads;
    }
    if let Some(n) = std::env::var("PIR_LOAD_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
    {
        return n;
    }
    // Asked once: on Linux the answer reads the process's cgroup files.
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Reads the ops of the top block's open list `list` into `block`.
pub(super) fn read_ops<'a>(
    reader: &mut Reader<'_, 'a>,
    s: &mut Stream<'a>,
    list: &mut Open,
    block: BlockId,
    ops_path: &JsonPath<'_>,
) -> Result<(), ReadError> {
    let mut dest = Dest {
        block,
        path: ops_path,
        index: 0,
    };
    let cut = match reader.patches {
        None => cut(s.text(), s.offset(), reader.plan),
        Some(_) => None,
    };
    let cut = cut.filter(|_| threads(reader.options) > 1);
    let Some(cut) = cut else {
        reader.read_ops_until(s, list, &mut dest, usize::MAX, false)?;
        return Ok(());
    };
    let text = s.text();
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::sync_channel(AHEAD);
        let spawned = std::thread::Builder::new()
            .name("pir-scan".into())
            .spawn_scoped(scope, move || scan_from(text, cut, &sender));
        // Without a second thread, this one reads on alone.
        let stop = if spawned.is_ok() { cut } else { usize::MAX };
        match reader.read_ops_until(s, list, &mut dest, stop, false)? {
            Reached::End => Ok(()),
            Reached::Past => {
                drop(receiver);
                reader.read_ops_until(s, list, &mut dest, usize::MAX, true)?;
                Ok(())
            }
            Reached::Stop => {
                let mut resolved = Resolved::default();
                // Where the last op built from the scanner's batches ends.
                let mut built_to = None;
                let taken_over = loop {
                    match receiver.recv_timeout(reader.plan.patience) {
                        Ok(Message::Ops(batch, end)) => {
                            reader.scanned_apart += batch.ops.len();
                            reader.build_batch(s, &batch, &mut resolved, &mut dest)?;
                            if !batch.ops.is_empty() {
                                built_to = Some(end);
                                reader.went_past(end);
                            }
                        }
                        Ok(Message::End(end)) => {
                            s.rewind(end);
                            break false;
                        }
                        Ok(Message::Failed(e)) => return Err(e),
                        Err(_) => break true,
                    }
                };
                if !taken_over {
                    // The scanner stopped before the list's `]`.
                    reader.read_ops_until(s, list, &mut dest, usize::MAX, false)?;
                    return Ok(());
                }
                // The scanner is late (its thread waits for a core) or gone:
                // this thread reads on from the last op it built.
                drop(receiver);
                match built_to {
                    Some(end) => {
                        s.rewind(end);
                        reader.read_ops_until(s, list, &mut dest, usize::MAX, false)?;
                    }
                    None => {
                        s.rewind(cut);
                        reader.read_ops_until(s, list, &mut dest, usize::MAX, true)?;
                    }
                }
                Ok(())
            }
        }
    })
}

/// What the scanning thread sends.
enum Message<'a> {
    /// Scanned ops, and the offset where the last of them ends.
    Ops(Batch<'a>, usize),
    /// The list has no more ops; its last one ends at this offset.
    End(usize),
    /// Scanning failed.
    Failed(ReadError),
}

/// Scans the ops from offset `at` of `text` to the end of their list,
/// sending them in batches; stops early when nobody receives.
fn scan_from<'a>(text: &'a str, at: usize, sender: &mpsc::SyncSender<Message<'a>>) {
    let (mut s, mut list) = Stream::resume_in_array(text, at);
    let mut scanner = Scanner::with_capacity(super::approx_ops(text.len().saturating_sub(at)));
    let mut batch = Batch::with_capacity(BATCH_OPS);
    let scanned = loop {
        if let Err(e) = scanner.scan_op(&mut s, &mut batch) {
            break Err(e);
        }
        let end = s.offset();
        if batch.ops.len() >= BATCH_OPS {
            let full = std::mem::replace(&mut batch, Batch::with_capacity(BATCH_OPS));
            if sender.send(Message::Ops(full, end)).is_err() {
                return;
            }
        }
        match s.next_element(&mut list) {
            Ok(true) => {}
            Ok(false) => break Ok(end),
            Err(e) => break Err(e.into()),
        }
    };
    let (end, last) = match scanned {
        Ok(end) => (end, Message::End(end)),
        Err(e) => (s.offset(), Message::Failed(e)),
    };
    if sender.send(Message::Ops(batch, end)).is_ok() {
        // Nobody to tell when the receiver is gone.
        let _ = sender.send(last);
    }
}

/// Where a second thread may start scanning the list whose ops begin at
/// `from`: the `{` of what looks like an op (`,{"#":"` and a name that is no
/// type, attribute, region or block) at about the plan's share of the way
/// to the end of the text. `None` for short texts and when nothing is
/// found nearby.
fn cut(text: &str, from: usize, plan: Plan) -> Option<usize> {
    const MARK: &[u8] = b",{\"#\":\"";
    let bytes = text.as_bytes();
    let len = bytes.len().checked_sub(from)?;
    if len < plan.min_bytes {
        return None;
    }
    let target = from + len.saturating_mul(plan.share_64ths.min(64)) / 64;
    let window = bytes.get(target..)?;
    let window = window.get(..SEARCH.min(window.len()))?;
    let mut at = 0;
    while let Some(found) = window
        .get(at..)?
        .windows(MARK.len())
        .position(|w| w == MARK)
    {
        let start = at + found;
        let name = window.get(start + MARK.len()..)?;
        let not_an_op = [&b"0.t_"[..], b"0.a_", b"region", b"block"]
            .iter()
            .any(|p| name.starts_with(p));
        if !not_an_op {
            return Some(target + start + 1);
        }
        at = start + 1;
    }
    None
}
