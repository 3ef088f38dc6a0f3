//! The scanning thread a process keeps between reads.
//!
//! Starting a thread for one read costs tens of microseconds on a virtual
//! machine, and hundreds after the machine was idle (the idle core is woken
//! through the host): as long as reading a whole 200-op model. So the
//! process keeps one thread for scanning. After a job it keeps polling for
//! the next for a while ([`SPIN`]), yielding its core to any other thread
//! that would run, so that a read soon after (the next file of a batch, the
//! next load of a benchmark) finds it awake at once; then it sleeps until
//! the next job. One read at a time has it; a read that finds it busy reads
//! alone.
//!
//! A job borrows the text being read. [`lend`] returns (or unwinds) only
//! once the job was taken back before the thread began it, or the thread
//! has let go of the text; this is what makes the borrow sound, as
//! `std::thread::scope` joining its threads makes a scoped thread's borrows
//! sound. Everything the thread sends back borrows the text too, and is
//! handed out with the text's own lifetime. The tests below also pass under
//! AddressSanitizer (`RUSTFLAGS=-Zsanitizer=address cargo +nightly test
//! --target x86_64-unknown-linux-gnu -p pir-serde --lib -- kept threaded`),
//! which would see a text used after it was freed.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::template_lent::Matching;
use super::threads::{scan_from, Message, AHEAD};

/// How long the kept thread spins for the next job after one (or after it
/// starts) before it sleeps. Longer than the gap between two reads of a
/// program that does something with each model (`pir time` prints and
/// saves one in about the time it reads it); short enough that a process
/// done reading wastes little of a core.
pub(super) const SPIN: Duration = Duration::from_millis(2);

/// How long the kept thread spins after it starts: a process starts it when
/// it is about to read (see [`prepare_threads`](super::prepare_threads)),
/// which may first take a few milliseconds to build its context.
const FIRST_SPIN: Duration = Duration::from_millis(20);

/// A scanning thread, its job slot, and how to wake it.
pub(super) struct Kept {
    /// The job posted and not yet begun.
    slot: Mutex<Option<Job>>,
    /// Whether [`Kept::slot`] holds a job: what the spinning thread polls.
    posted: AtomicBool,
    /// Whether a read has the thread ([`lend`] to its end).
    busy: AtomicBool,
    /// The core the last read ran on when it posted its job.
    reader_core: AtomicUsize,
    /// Whether the thread sleeps on [`Kept::wake`].
    sleeping: Mutex<bool>,
    wake: Condvar,
    /// How long the thread spins after a job, and after it starts.
    spin: Duration,
    first_spin: Duration,
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept")
            .field("busy", &self.busy.load(Ordering::Relaxed))
            .field("spin", &self.spin)
            .finish_non_exhaustive()
    }
}

/// A text to scan from an offset to the end of its op list.
struct Job {
    /// The text, borrowed for as long as [`lend`] runs (see there).
    text: &'static str,
    /// Where the scan starts: the `{` of an op.
    at: usize,
    /// Scanned ops per message.
    batch_ops: usize,
    /// The templates to match ops against, if any.
    matching: Option<Matching>,
    sender: SyncSender<Message<'static>>,
    /// What the job's reader and the thread tell each other.
    flags: Arc<JobFlags>,
}

/// What a job's reader and the kept thread tell each other.
#[derive(Default)]
struct JobFlags {
    /// Set by the reader: nothing more is received.
    stop: AtomicBool,
    /// Set by the thread once it holds nothing of the text any more.
    released: AtomicBool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing here leaves a mutex's value half changed.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Kept {
    /// The process's kept thread, started on first use (and again in a
    /// child process forked after that, which has no thread but the one
    /// that forked); `None` when no thread could be started.
    pub(super) fn global() -> Option<&'static Kept> {
        static KEPT: Mutex<Option<(u32, Option<&'static Kept>)>> = Mutex::new(None);
        let pid = std::process::id();
        let mut kept = lock(&KEPT);
        match *kept {
            Some((started_in, thread)) if started_in == pid => thread,
            _ => {
                let thread = Kept::start(SPIN, FIRST_SPIN);
                *kept = Some((pid, thread));
                thread
            }
        }
    }

    /// Starts a kept thread that spins for `first_spin` after it starts and
    /// for `spin` after each job. The thread and its state live as long as
    /// the process.
    pub(super) fn start(spin: Duration, first_spin: Duration) -> Option<&'static Kept> {
        let kept: &'static Kept = Box::leak(Box::new(Kept {
            slot: Mutex::new(None),
            posted: AtomicBool::new(false),
            busy: AtomicBool::new(false),
            // The thread that starts it reads next, most likely.
            reader_core: AtomicUsize::new(cores::current().unwrap_or(usize::MAX)),
            sleeping: Mutex::new(false),
            wake: Condvar::new(),
            spin,
            first_spin,
        }));
        std::thread::Builder::new()
            .name("pir-scan".into())
            .spawn(move || kept.serve())
            .ok()
            .map(|_| kept)
    }

    /// The thread's loop: take a job, run it, spin, sleep.
    fn serve(&self) {
        self.step_aside();
        // The first spin lasts `first_spin`: as if a job ended then.
        let mut idle_since = Instant::now() + self.first_spin.saturating_sub(self.spin);
        let mut polls = 0u32;
        loop {
            if self.posted.load(Ordering::Acquire) {
                let job = {
                    let mut slot = lock(&self.slot);
                    self.posted.store(false, Ordering::Relaxed);
                    slot.take()
                };
                if let Some(job) = job {
                    self.step_aside();
                    // A scan that panics (a bug) has released its text and
                    // dropped its sender, so the reader reads on alone; the
                    // thread lives on for the next job.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run()));
                }
                idle_since = Instant::now();
                continue;
            }
            polls = polls.wrapping_add(1);
            if polls.is_multiple_of(16) {
                self.step_aside();
            }
            // Reading the clock costs more than a poll.
            if !polls.is_multiple_of(16) || idle_since.elapsed() < self.spin {
                // Yielding rather than only pausing: should the reading
                // thread share this core (the system put both on one),
                // it runs at once instead of after this one's time slice.
                std::thread::yield_now();
                continue;
            }
            let mut sleeping = lock(&self.sleeping);
            *sleeping = true;
            if !self.posted.load(Ordering::Acquire) {
                sleeping = self
                    .wake
                    .wait(sleeping)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            *sleeping = false;
            drop(sleeping);
            // Woken, it spins again even if the job that woke it was taken
            // back meanwhile (its read went on alone rather than wait):
            // reads come in runs, and the next finds it awake.
            idle_since = Instant::now();
        }
    }

    /// Moves this thread to another core when it runs on the one the last
    /// reader ran on. The system starts a thread, and wakes a sleeping one,
    /// on the core of the thread that made it runnable as often as not, and
    /// moves one of two busy threads sharing a core only after a few
    /// milliseconds; meanwhile the reader gets this thread's part done by
    /// nobody (measured: `resnet18_w16` loaded in 78 µs rather than 45 in
    /// short processes). The thread is allowed its other cores just long
    /// enough to leave, then all of them again.
    fn step_aside(&self) {
        let reader = self.reader_core.load(Ordering::Relaxed);
        if reader != usize::MAX && cores::current() == Some(reader) {
            cores::leave(reader);
        }
    }

    /// Posts `job`, waking the thread if it sleeps.
    fn post(&self, job: Job) {
        if let Some(core) = cores::current() {
            self.reader_core.store(core, Ordering::Relaxed);
        }
        *lock(&self.slot) = Some(job);
        self.posted.store(true, Ordering::Release);
        // The thread sets `sleeping` before it checks `posted` under the
        // same lock, so either it sees the job or this sees it asleep.
        if *lock(&self.sleeping) {
            self.wake.notify_one();
        }
    }
}

impl Job {
    fn run(self) {
        let Job {
            text,
            at,
            batch_ops,
            matching,
            sender,
            flags,
        } = self;
        let released = Release(flags.clone());
        {
            // Dropped (with every batch still queued, should the reader be
            // gone, and the templates) before `released` is set, also when
            // unwinding.
            let (sender, matching) = (sender, matching);
            scan_from(text, at, &sender, batch_ops, matching, &flags.stop);
        }
        drop(released);
    }
}

/// Sets a job's `released` when dropped.
struct Release(Arc<JobFlags>);

impl Drop for Release {
    fn drop(&mut self) {
        self.0.released.store(true, Ordering::Release);
    }
}

/// A text lent to the kept thread, as the reader sees it: what the thread
/// scanned, and taking the job back.
pub(super) struct Lent<'t> {
    kept: &'static Kept,
    /// Where the job starts.
    at: usize,
    /// Scanned ops per message.
    batch_ops: usize,
    /// `None` once given up on.
    receiver: Option<Receiver<Message<'static>>>,
    flags: Arc<JobFlags>,
    /// Whether the job was taken back before the thread began it.
    withdrawn: bool,
    /// Whether the thread matches ops against templates.
    matches: bool,
    _text: PhantomData<&'t str>,
}

impl<'t> Lent<'t> {
    /// Where the thread's part of the text starts.
    pub(super) fn at(&self) -> usize {
        self.at
    }

    /// How many scanned ops a message holds (the last ones fewer).
    pub(super) fn batch_ops(&self) -> usize {
        self.batch_ops
    }

    /// The thread's next message if one is there.
    pub(super) fn try_recv(&self) -> Option<Message<'t>> {
        self.receiver.as_ref()?.try_recv().ok()
    }

    /// Takes the job back if the thread has not begun it, so that it never
    /// will; whether it is (now) withdrawn.
    pub(super) fn withdraw(&mut self) -> bool {
        if !self.withdrawn {
            let mut slot = lock(&self.kept.slot);
            let ours = slot
                .as_ref()
                .is_some_and(|job| Arc::ptr_eq(&job.flags, &self.flags));
            if ours {
                *slot = None;
                self.kept.posted.store(false, Ordering::Relaxed);
                self.withdrawn = true;
            }
        }
        self.withdrawn
    }

    /// The thread's next message, waited for up to `patience`; `None` when
    /// none came in time, the job was withdrawn or given up on, or the
    /// thread has sent everything.
    pub(super) fn recv(&self, patience: Duration) -> Option<Message<'t>> {
        let receiver = self.receiver.as_ref()?;
        let mut since: Option<Instant> = None;
        let mut polls = 0u32;
        loop {
            match receiver.try_recv() {
                // A message of the text's own lifetime: it borrows the text.
                Ok(message) => return Some(message),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => {}
            }
            polls = polls.wrapping_add(1);
            if polls.is_multiple_of(64) {
                let start = *since.get_or_insert_with(Instant::now);
                let waited = start.elapsed();
                if waited >= patience {
                    return None;
                }
                // Past a few microseconds the thread is likely off its core
                // (another program has it): let that program run here.
                if waited > Duration::from_micros(20) {
                    std::thread::yield_now();
                    continue;
                }
            }
            std::hint::spin_loop();
        }
    }

    /// Gives the job up: taken back if the thread has not begun it, else
    /// the thread stops after the op it scans. Nothing more is received.
    pub(super) fn give_up(&mut self) {
        self.receiver = None;
        if !self.withdraw() {
            self.flags.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the thread matches ops against the context's templates.
    pub(super) fn matches(&self) -> bool {
        self.matches
    }

    /// Gives the job up and waits until the thread holds nothing of the
    /// text, nor of the templates it matched against.
    pub(super) fn finish(&mut self) {
        self.release();
    }

    /// Waits until the thread holds nothing of the text (see [`lend`]).
    fn release(&mut self) {
        self.give_up();
        if self.withdrawn {
            return;
        }
        let mut polls = 0u32;
        while !self.flags.released.load(Ordering::Acquire) {
            polls = polls.wrapping_add(1);
            if polls < 1024 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// Ends a lending however [`lend`] is left; declared after the busy flag's
/// guard, so the text is released before the thread is free for others.
struct Lending<'t>(Lent<'t>);

impl Drop for Lending<'_> {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// Clears its flag when dropped.
struct ClearOnDrop(&'static AtomicBool);

impl Drop for ClearOnDrop {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// Runs `f` while `kept` scans `text` from `at` to the end of its op list
/// in messages of `batch_ops` ops. `f` is given `None` when another read
/// has the thread. Returns once `f` has and the thread holds nothing of
/// `text`.
pub(super) fn lend<'t, R>(
    kept: &'static Kept,
    text: &'t str,
    at: usize,
    batch_ops: usize,
    matching: Option<Matching>,
    f: impl FnOnce(Option<&mut Lent<'t>>) -> R,
) -> R {
    if kept
        .busy
        .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        return f(None);
    }
    let _free = ClearOnDrop(&kept.busy);
    let (sender, receiver) = mpsc::sync_channel(AHEAD);
    let flags = Arc::new(JobFlags::default());
    #[allow(unsafe_code)]
    // SAFETY: the job's `&'static str` is `text`, which lives for `'t`,
    // and is used only by the kept thread while it runs the job. Before
    // this function returns or unwinds, `Lending::drop` either takes the
    // job back from the slot (the thread never saw it) or waits for
    // `released`, which the thread sets only after the scan is over and the
    // job's sender, hence every message not yet received, is dropped. What
    // the reader receives is typed with `'t` (`Lent::recv`), and the
    // receiver is private to `Lent`. The thread keeps nothing of a job
    // between jobs.
    let text_for_job: &'static str = unsafe { &*(text as *const str) };
    let matches = matching.is_some();
    kept.post(Job {
        text: text_for_job,
        at,
        batch_ops,
        matching,
        sender,
        flags: flags.clone(),
    });
    let mut lending = Lending(Lent {
        kept,
        at,
        batch_ops,
        receiver: Some(receiver),
        flags,
        withdrawn: false,
        matches,
        _text: PhantomData,
    });
    f(Some(&mut lending.0))
}

/// Which core a thread runs on, and leaving one.
#[cfg(target_os = "linux")]
mod cores {
    use nix::sched::{sched_getaffinity, sched_getcpu, sched_setaffinity, CpuSet};
    use nix::unistd::Pid;

    /// The core the calling thread runs on.
    pub(super) fn current() -> Option<usize> {
        sched_getcpu().ok()
    }

    /// Moves the calling thread off `core`, if it may run on another, and
    /// lets it run on all it could again.
    pub(super) fn leave(core: usize) {
        let me = Pid::from_raw(0);
        let Ok(allowed) = sched_getaffinity(me) else {
            return;
        };
        let mut elsewhere = allowed;
        if elsewhere.unset(core).is_err() {
            return;
        }
        let others = (0..CpuSet::count()).any(|c| elsewhere.is_set(c).unwrap_or(false));
        if others && sched_setaffinity(me, &elsewhere).is_ok() {
            let _ = sched_setaffinity(me, &allowed);
        }
    }
}

/// Elsewhere the system places the thread as it will.
#[cfg(not(target_os = "linux"))]
mod cores {
    pub(super) fn current() -> Option<usize> {
        None
    }

    pub(super) fn leave(_core: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic op list: `n` ops `{"#":"1.relu",...}`.
    fn list(n: usize) -> String {
        let op = r##"{"#":"1.relu","A":[],"I":[{"%":1}],"O":[{"%":2,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]}}],"OA":[]}"##;
        let ops: Vec<&str> = std::iter::repeat_n(op, n).collect();
        format!("[{}]", ops.join(","))
    }

    fn scanned(lent: &Lent<'_>) -> usize {
        let mut ops = 0;
        while let Some(message) = lent.recv(Duration::from_secs(10)) {
            match message {
                Message::Ops(batch, _, _) => ops += batch.ops.len(),
                Message::End(_) => break,
                Message::Failed(e) => panic!("{e}"),
            }
        }
        ops
    }

    #[test]
    fn a_lent_text_is_scanned_to_the_end_in_batches() {
        let kept = Kept::start(Duration::from_millis(50), Duration::ZERO).unwrap();
        let text = list(100);
        for _ in 0..20 {
            let ops = lend(kept, &text, 1, 8, None, |lent| scanned(lent.unwrap()));
            assert_eq!(ops, 100);
        }
    }

    #[test]
    fn a_sleeping_thread_is_woken() {
        let kept = Kept::start(Duration::ZERO, Duration::ZERO).unwrap();
        let text = list(10);
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(2));
            assert_eq!(
                lend(kept, &text, 1, 4, None, |lent| scanned(lent.unwrap())),
                10
            );
        }
    }

    #[test]
    fn a_withdrawn_job_is_never_begun() {
        let kept = Kept::start(Duration::ZERO, Duration::ZERO).unwrap();
        let text = list(10);
        let mut withdrawn = 0;
        for _ in 0..50 {
            lend(kept, &text, 1, 4, None, |lent| {
                let lent = lent.unwrap();
                if lent.withdraw() {
                    withdrawn += 1;
                    assert!(lent.recv(Duration::from_millis(1)).is_none());
                }
            });
        }
        // The thread sleeps between jobs, so some are withdrawn first.
        assert!(withdrawn > 0);
    }

    /// Given up on mid-scan, or with its text dropped right after, a job
    /// ends before `lend` returns: the text outlives every use.
    #[test]
    fn a_text_is_released_before_lend_returns() {
        let kept = Kept::start(Duration::from_millis(50), Duration::ZERO).unwrap();
        for round in 0..200 {
            let text = list(50 + round % 7);
            lend(kept, &text, 1, 2, None, |lent| {
                let lent = lent.unwrap();
                if round % 2 == 0 {
                    let _ = lent.recv(Duration::from_micros(round as u64));
                }
                lent.give_up();
            });
            // Freed only once the job let go of the text.
            assert!(!kept.busy.load(Ordering::Acquire));
            drop(text);
        }
    }

    #[test]
    fn a_second_read_meanwhile_reads_alone() {
        let kept = Kept::start(Duration::from_millis(50), Duration::ZERO).unwrap();
        let text = list(10);
        lend(kept, &text, 1, 4, None, |outer| {
            assert!(outer.is_some());
            lend(kept, &text, 1, 4, None, |inner| assert!(inner.is_none()));
        });
        lend(kept, &text, 1, 4, None, |again| assert!(again.is_some()));
    }

    /// A thread that leaves its core runs on another at once (where it may),
    /// and may run on every core it could before.
    #[cfg(target_os = "linux")]
    #[test]
    fn leaving_a_core_moves_the_thread_and_keeps_its_cores() {
        use nix::sched::sched_getaffinity;
        use nix::unistd::Pid;
        let me = Pid::from_raw(0);
        let before = sched_getaffinity(me).unwrap();
        let allowed = (0..nix::sched::CpuSet::count())
            .filter(|&c| before.is_set(c).unwrap_or(false))
            .count();
        let Some(here) = cores::current() else {
            return; // a system that does not say
        };
        cores::leave(here);
        if allowed > 1 {
            assert_ne!(cores::current(), Some(here));
        }
        assert_eq!(sched_getaffinity(me).unwrap(), before);
    }

    #[test]
    fn a_panic_while_lent_releases_the_text() {
        let kept = Kept::start(Duration::from_millis(50), Duration::ZERO).unwrap();
        let text = list(40);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            lend(kept, &text, 1, 2, None, |_| panic!("reader failed"))
        }));
        assert!(caught.is_err());
        assert_eq!(
            lend(kept, &text, 1, 4, None, |lent| scanned(lent.unwrap())),
            40
        );
    }
}
