//! Reading the top block's ops on two threads.
//!
//! Reading an op is two halves (see [`scan`](super::scan)): scanning its
//! text, which needs nothing but the text, and building it, which interns
//! into the context and resolves value ids, so must go in file order. A
//! list is cut where an op seems to begin, a fraction of the way in: the
//! scanning thread the process keeps (see [`kept`](super::kept)) scans from
//! there to the list's end, handing batches of scanned ops over a channel,
//! while this thread reads the ops before the cut, then builds the scanned
//! ones in order. The context interns everything in the order one thread
//! would, so the program — its ops, values, and every interned handle — is
//! the one a single thread reads.
//!
//! The cut is a guess, found by bytes alone; this thread checks it: only
//! if reading the ops before it stops exactly there, before an op of this
//! list, is the other thread's work used, else it is dropped and this
//! thread reads on alone. When a batch is late (the other thread waits for
//! a core other programs hold, or still wakes from sleep), or this thread
//! has caught up with one that scans more slowly than this one read its
//! own part (its core is shared), this thread stops waiting and reads
//! on alone from the last op it built: which thread scanned what then
//! depends on timing, the program read does not. The
//! scanner's errors are errors of the ops after the cut, which one thread
//! would meet too; like every error of the streamed reader they send the
//! file to the whole-document reader.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, OnceLock};
use std::time::{Duration, Instant};

use pir_core::serial::JsonPath;
use pir_core::{BlockId, IrContext};
use pir_json::{Open, Stream};

use super::build::Resolved;
use super::kept::{Kept, Lent};
use super::scan::{Batch, Scanned, Scanner};
use super::streamed::{Dest, Reached};
use super::template_lent::Matching;
use super::{ReadOptions, Reader};
use crate::error::ReadError;

/// Texts shorter than this are read on one thread: handing the other
/// thread its part, and decoding again the distinct texts of the ops after
/// the cut, costs more than it gains. Measured on the corpus's models
/// (medians of 5 processes, repeated loads): files of 3.8 KB loaded from
/// 15 % faster to 18 % slower on two threads, from 5 KB 10-50 % faster.
pub(super) const MIN_BYTES: usize = 4 << 10;

/// Lists shorter than this are read on alone when the other thread has not
/// begun its part by the time this one reaches the cut (it still wakes
/// from sleep, 15 to several hundred microseconds on a virtual machine):
/// this thread reads the rest of such a list in about that time.
const WAIT_MIN_BYTES: usize = 1 << 20;

/// A list's part after the cut goes in about this many messages, of
/// [`MIN_BATCH_OPS`] to [`MAX_BATCH_OPS`] ops, every one a hand-over;
/// toward the list's end they get shorter (see [`scan_from`]).
const BATCHES: usize = 16;
const MIN_BATCH_OPS: usize = 8;
const MAX_BATCH_OPS: usize = 512;

/// Messages the scanner may be ahead by (so at most this many batches of
/// scanned ops wait in memory).
pub(super) const AHEAD: usize = 64;

/// The share of the list's bytes this thread reads before the cut, in
/// 1/64ths, by the text's size: each `(bytes, share)` holds for texts of
/// that many bytes and more, up to the next.
///
/// A model loaded again has its parameters and the first ops of each kind
/// built from their templates here, which the other thread scans in full:
/// scanning an op costs it about three quarters of what reading it costs
/// this thread, building a scanned op this thread a fifth to a quarter, so
/// with three eighths read here both finish together. Measured on
/// repeated loads with both threads given a core each (minimums of 3 to 7
/// processes): 24 against 14, `huge_5000ops` (1.3 MB) 0.54 ms against
/// 0.66, a 20k-op program (5.4 MB) 3.1 against 3.7; below 1 MiB, 30
/// against 24, `deep_mlp_ln200` 0.166 against 0.194, `mobilenet_v2_x025`
/// 0.053 against 0.055, `resnet18_w16` the same (at 36 it and
/// `deep_mlp_ln200` lose; at 30 `huge_5000ops` takes 0.61).
///
/// From [`LARGE_TEXT_BYTES`] on, the ops of a program cost this thread
/// more to build, as the context's tables outgrow the cache, and such a
/// file is mostly read once, into a context that interns nearly all it
/// builds: repeated loads of a 100k-op program were fastest cut at 14
/// (13.7 ms; 15.3 at 18, 16.4 at 24), and first loads of it and of a
/// 1M-op one at 14 or below (at 24, 4 % slower).
const SHARES_64THS: [(usize, usize); 3] = [(0, 30), (1 << 20, 24), (LARGE_TEXT_BYTES, 14)];

/// Texts of this many bytes and more are cut at the smallest share.
pub(super) const LARGE_TEXT_BYTES: usize = 8 << 20;

/// How long this thread waits for a batch before it reads on alone: about
/// four times what scanning its ops takes (a quarter of a microsecond an
/// op, on the models of the corpus), at least [`MIN_PATIENCE`] and at most
/// [`PATIENCE`]. Waiting long for a thread slowed down (its core is shared
/// with other programs, here or on a virtual machine's host) costs more
/// than reading the rest alone.
const PATIENCE_PER_OP: Duration = Duration::from_micros(1);
const MIN_PATIENCE: Duration = Duration::from_micros(20);
const PATIENCE: Duration = Duration::from_millis(2);

/// This thread reads on alone past the cut, when the other scans without
/// templates, if at least this many eighths of the ops before it,
/// parameters left out, were built from the context's templates (a model
/// read again), and keeps where each kind's count stood at the cut (see
/// [`template_lent`](super::template_lent)). Parameters are left out as the
/// ops past the cut are mostly not parameters, and their templates, one a
/// place, end at a place the others rarely reach (a 20k-op model has
/// 10,000 parameters). Building an op scanned without templates costs this
/// thread more than building one from a template: on models read again two
/// threads took up to twice as long as one (`huge_5000ops` 0.88-1.20 ms
/// against 0.46, `transformer_encoder` 0.029 against 0.012). Read alone,
/// the ops past the cut are learnt, and the next read of the text lends the
/// other thread the templates and the counts: `huge_5000ops` then reads in
/// 0.29 ms, against 0.44 on one thread. A first read builds from no
/// template and keeps the other thread, as does a read into a context
/// whose templates are full (a 100k-op model read again: 19.3 ms on two
/// threads, 20.8 on one).
const TEMPLATED_8THS: usize = 7;

/// Texts shorter than this, read again into a context whose templates
/// cover them, are read on one thread: building their ops from templates
/// takes this thread about as long as handing the ops after the cut over.
const MATCH_MIN_BYTES: usize = 128 << 10;

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
    /// Texts shorter than this many bytes are read on one thread.
    pub(super) min_bytes: usize,
    /// Lists shorter than this many bytes are read on alone when the other
    /// thread has not begun its part by the cut.
    pub(super) wait_min_bytes: usize,
    /// The scanning thread; `None` for the process's own.
    pub(super) kept: Option<&'static Kept>,
    /// The share of the list this thread reads before the cut, in 1/64ths,
    /// by the text's size (see [`SHARES_64THS`]).
    pub(super) shares_64ths: [(usize, usize); 3],
    /// How long this thread waits for the next batch of `n` ops before it
    /// reads on alone: `n` times `patience_per_op`, at least
    /// [`MIN_PATIENCE`], at most `patience`.
    pub(super) patience_per_op: Duration,
    pub(super) patience: Duration,
    /// Whether this thread reads on alone, rather than wait, once the
    /// other scans more slowly than it reads.
    pub(super) pace: bool,
    /// Whether this thread reads on alone when it built nearly all its own
    /// part from the context's templates and the other thread scans without
    /// them (see [`TEMPLATED_8THS`]).
    pub(super) alone_when_templated: bool,
    /// Whether the other thread matches ops against the context's
    /// templates when the last read of the text left it where to count
    /// from (see [`template_lent`](super::template_lent)).
    pub(super) match_apart: bool,
    /// Texts shorter than this many bytes that the other thread would
    /// match against templates are read on one thread.
    pub(super) match_min_bytes: usize,
    /// How many bytes the reader goes past before it says so.
    pub(super) release_step: usize,
    /// Texts of at least this many bytes are released whole once checked.
    pub(super) release_checked_min: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            min_bytes: MIN_BYTES,
            wait_min_bytes: WAIT_MIN_BYTES,
            kept: None,
            shares_64ths: SHARES_64THS,
            patience_per_op: PATIENCE_PER_OP,
            patience: PATIENCE,
            pace: true,
            alone_when_templated: true,
            match_apart: true,
            match_min_bytes: MATCH_MIN_BYTES,
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
    // Read once: looking the variable up (under the environment's lock)
    // was 1 % of reading a small model again.
    static FROM_ENV: OnceLock<Option<usize>> = OnceLock::new();
    let from_env = FROM_ENV.get_or_init(|| {
        std::env::var("PIR_LOAD_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
    });
    if let Some(n) = *from_env {
        return n;
    }
    // Asked once: on Linux the answer reads the process's cgroup files.
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// What a read lends the kept thread: its part of the text, from `at`.
pub(super) struct Lending {
    pub(super) kept: &'static Kept,
    /// Where the part starts: the `{` of what looks like an op.
    pub(super) at: usize,
    /// Scanned ops per message.
    pub(super) batch_ops: usize,
    /// The templates the thread matches ops against, if any.
    pub(super) matching: Option<Matching>,
}

/// What a read of `text` lends the kept thread, if it reads on two threads:
/// lists of ops run to about the text's end, so the cut is planned on the
/// whole text, before the reader has found the list.
pub(super) fn lending(
    ctx: &IrContext,
    text: &str,
    options: &ReadOptions,
    plan: Plan,
) -> Option<Lending> {
    // A short text needs no second thread, nor the count of cores (on
    // Linux, read from the cgroup's files); one thread needs no cut (whose
    // search runs through tens of KiB of an indented file, which has none).
    if text.len() < plan.min_bytes || threads(options) < 2 {
        return None;
    }
    // A text as long as one read before is most likely the same again (a
    // different one loses no more than the second thread): no second
    // thread when its cut lay inside an op, or when it is short and built
    // from templates; otherwise, built from templates, the thread matches
    // its ops against them, counting from where the last read stood.
    let len = text.len();
    let again = |kept: Option<&Box<super::Kept>>| {
        let Some(kept) = kept else {
            return Some(None);
        };
        if kept.past_cut == Some(len) {
            return None;
        }
        let seeds = kept.seeds.as_ref().filter(|s| s.text_len() == len);
        match seeds {
            Some(_) if len < plan.match_min_bytes => None,
            Some(seeds) if plan.match_apart && kept.templates.in_use().is_some() => {
                Some(Some(Matching {
                    templates: kept.templates.lend(),
                    seeds: seeds.clone(),
                }))
            }
            _ => Some(None),
        }
    };
    let matching = ctx.peek_kept(again)?;
    let at = cut(text, plan)?;
    let matching = matching.filter(|m| m.seeds.fit(len, at));
    let kept = plan.kept.or_else(Kept::global)?;
    let rest = text.len().saturating_sub(at);
    let batch_ops = (super::approx_ops(rest) / BATCHES).clamp(MIN_BATCH_OPS, MAX_BATCH_OPS);
    Some(Lending {
        kept,
        at,
        batch_ops,
        matching,
    })
}

/// Reads the ops of the top block's open list `list` into `block`, with
/// those from a cut on scanned by the kept thread when `lent` (and the cut
/// lies in the list).
pub(super) fn read_ops<'a>(
    reader: &mut Reader<'_, 'a>,
    s: &mut Stream<'a>,
    list: &mut Open,
    block: BlockId,
    ops_path: &JsonPath<'_>,
    lent: Option<&mut Lent<'a>>,
) -> Result<(), ReadError> {
    let mut dest = Dest {
        block,
        path: ops_path,
        index: 0,
    };
    match lent {
        // Patched ops are read as documents, one at a time.
        Some(lent) if reader.patches.is_none() && lent.at() > s.offset() => {
            let read = read_lent(reader, s, list, &mut dest, lent);
            // The thread lets go of the text and the templates before the
            // read ends (it keeps what it learnt for then).
            lent.finish();
            read
        }
        lent => {
            if let Some(lent) = lent {
                lent.finish();
            }
            reader
                .read_ops_until(s, list, &mut dest, usize::MAX, false)
                .map(drop)
        }
    }
}

/// [`read_ops`] with the ops from the cut on lent to the kept thread.
fn read_lent<'a>(
    reader: &mut Reader<'_, 'a>,
    s: &mut Stream<'a>,
    list: &mut Open,
    dest: &mut Dest<'_>,
    lent: &mut Lent<'a>,
) -> Result<(), ReadError> {
    let cut = lent.at();
    let (own_from, own_start) = (s.offset(), Instant::now());
    let before = reader.scanner.templated_share();
    match reader.read_ops_until(s, list, dest, cut, false)? {
        Reached::End => return Ok(()),
        Reached::Past => {
            // So will the next read of the text: it lends nothing.
            reader.kept.past_cut = Some(s.text().len());
            lent.give_up();
            reader.read_ops_until(s, list, dest, usize::MAX, true)?;
            return Ok(());
        }
        Reached::Stop => {}
    }
    // A model read again, the other thread scanning without templates: the
    // ops after the cut are most likely built from templates too (or learnt,
    // while the templates have room), cheaper here than what it scanned.
    if reader.mostly_templated(before) && !lent.matches() {
        // Where the next read's thread counts from.
        let seeds = reader.scanner.seeds(s.text().len(), cut);
        reader.kept.seeds = Some(std::sync::Arc::new(seeds));
        if reader.plan.alone_when_templated {
            lent.give_up();
            reader.read_ops_until(s, list, dest, usize::MAX, true)?;
            return Ok(());
        }
    }
    // A short rest is read sooner here than by a thread still waking.
    let rest = s.text().len().saturating_sub(cut);
    let short = rest < reader.plan.wait_min_bytes;
    if short && lent.withdraw() {
        reader.read_ops_until(s, list, dest, usize::MAX, true)?;
        return Ok(());
    }
    // This thread's pace, reading its own part.
    let (own_bytes, own_took) = (cut - own_from, own_start.elapsed());
    let plan = reader.plan;
    let batch_ops = u32::try_from(lent.batch_ops()).unwrap_or(u32::MAX);
    let patience = plan
        .patience_per_op
        .saturating_mul(batch_ops)
        .max(MIN_PATIENCE)
        .min(plan.patience);
    let mut resolved = Resolved::default();
    // Where the last op built from the thread's batches ends, and how long
    // the thread took to scan up to there.
    let mut built_to = None;
    let mut scanned_for = Duration::ZERO;
    loop {
        let message = match lent.try_recv() {
            Some(message) => message,
            None => {
                // Caught up with the other thread: wait for it only while
                // it scans faster than this thread reads (it may share its
                // core with other programs); a long list may wait for it to
                // wake.
                let sent = built_to.unwrap_or(cut) - cut;
                let slow = plan.pace && !keeps_pace((sent, scanned_for), (own_bytes, own_took));
                if slow && (short || sent > 0) {
                    break;
                }
                match lent.recv(patience) {
                    Some(message) => message,
                    None => break,
                }
            }
        };
        match message {
            Message::Ops(batch, end, took) => {
                scanned_for = took;
                reader.scanned_apart += batch.ops.len();
                let templated = batch
                    .ops
                    .iter()
                    .filter(|op| matches!(op, Scanned::Template(_)));
                reader.templated_apart += templated.count();
                reader.build_batch(s, &batch, &mut resolved, dest)?;
                if !batch.ops.is_empty() {
                    built_to = Some(end);
                    reader.went_past(end);
                }
            }
            Message::End(end) => {
                // The list has no more ops: read its `]`.
                s.rewind(end);
                reader.read_ops_until(s, list, dest, usize::MAX, false)?;
                return Ok(());
            }
            Message::Failed(e) => return Err(e),
        }
    }
    // The scan is late (its thread waits for a core other programs hold,
    // or still wakes) or withdrawn: this thread reads on from the last op
    // it built.
    lent.give_up();
    match built_to {
        Some(end) => {
            s.rewind(end);
            reader.read_ops_until(s, list, dest, usize::MAX, false)?;
        }
        None => {
            s.rewind(cut);
            reader.read_ops_until(s, list, dest, usize::MAX, true)?;
        }
    }
    Ok(())
}

impl Reader<'_, '_> {
    /// Whether nearly all the ops this thread scanned since `before` (a
    /// [`Scanner::templated_share`]), parameters left out, matched
    /// templates (see [`TEMPLATED_8THS`]), with room for more.
    pub(super) fn mostly_templated(&self, before: (usize, usize)) -> bool {
        let (ops, templated) = self.scanner.templated_share();
        let (ops, templated) = (ops - before.0, templated - before.1);
        let share = ops > 0 && templated * 8 >= ops * TEMPLATED_8THS;
        share && !self.kept.templates.full()
    }
}

/// Whether the other thread, having scanned `theirs.0` bytes in
/// `theirs.1`, scans at least as fast as this one read its own part,
/// `ours.0` bytes in `ours.1` (a pace that varies along a file). Slower,
/// it holds this thread up: this one builds what the other scanned in less
/// time than the other takes to scan it, and alone it reads at its own
/// pace. (Waiting on a thread at half this one's pace, as before, made a
/// load up to 30 % slower than one thread's when the VM's other core was
/// shared with other work.)
pub(super) fn keeps_pace(theirs: (usize, Duration), ours: (usize, Duration)) -> bool {
    let their_time = theirs.1.as_nanos().saturating_mul(ours.0 as u128);
    let our_time = ours.1.as_nanos().saturating_mul(theirs.0 as u128);
    theirs.0 > 0 && their_time <= our_time
}

/// What the scanning thread sends.
pub(super) enum Message<'a> {
    /// Scanned ops, the offset where the last of them ends, and how long
    /// the thread has scanned so far (waits for room in the channel left
    /// out).
    Ops(Batch<'a>, usize, Duration),
    /// The list has no more ops; its last one ends at this offset.
    End(usize),
    /// Scanning failed.
    Failed(ReadError),
}

/// Scans the ops from offset `at` of `text` to the end of their list,
/// sending them `batch_ops` at a time, matching them against `matching`'s
/// templates if given; stops early when nobody receives, or once `stop` is
/// set.
pub(super) fn scan_from<'a>(
    text: &'a str,
    at: usize,
    sender: &mpsc::SyncSender<Message<'a>>,
    batch_ops: usize,
    matching: Option<Matching>,
    stop: &AtomicBool,
) {
    let (mut s, mut list) = Stream::resume_in_array(text, at);
    let mut scanner = Scanner::with_capacity(super::approx_ops(text.len().saturating_sub(at)));
    let templates = matching.map(|Matching { templates, seeds }| {
        scanner.seeded(seeds);
        templates
    });
    let mut batch = Batch::with_capacity(batch_ops);
    // Where the batch at hand begins, and since when this thread scans.
    let mut begun = at;
    let (mut scanning, mut scanned_for) = (Instant::now(), Duration::ZERO);
    let scanned = loop {
        if let Err(e) = scanner.scan_op(&mut s, &mut batch, templates.as_deref()) {
            break Err(e);
        }
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let end = s.offset();
        // Near the end batches get shorter, down to an op: the reader
        // builds the last one after this thread is done.
        let left = text.len().saturating_sub(end);
        if batch.ops.len() >= batch_ops || (end - begun).saturating_mul(2) >= left {
            let full = std::mem::replace(&mut batch, Batch::with_capacity(batch_ops));
            scanned_for += scanning.elapsed();
            if sender.send(Message::Ops(full, end, scanned_for)).is_err() {
                return;
            }
            scanning = Instant::now();
            begun = end;
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
    scanned_for += scanning.elapsed();
    if sender.send(Message::Ops(batch, end, scanned_for)).is_ok() {
        // Nobody to tell when the receiver is gone.
        let _ = sender.send(last);
    }
}

/// Where the other thread may start scanning the top block's ops: the `{`
/// of what looks like an op (`,{"#":"` and a name that is no type,
/// attribute, region or block) at about the plan's share for its length of
/// the way into the text (the list spans nearly all of it). `None` for
/// short texts and when nothing is found nearby.
pub(super) fn cut(text: &str, plan: Plan) -> Option<usize> {
    const MARK: &[u8] = b",{\"#\":\"";
    let bytes = text.as_bytes();
    let len = bytes.len();
    if len < plan.min_bytes {
        return None;
    }
    let share = plan
        .shares_64ths
        .iter()
        .take_while(|&&(from, _)| len >= from)
        .last()
        .map_or(0, |&(_, share)| share);
    let target = len.saturating_mul(share.min(64)) / 64;
    let window = bytes.get(target..)?;
    let window = window.get(..SEARCH.min(window.len()))?;
    let mut at = 0;
    while let Some(found) = memchr::memmem::find(window.get(at..)?, MARK) {
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
