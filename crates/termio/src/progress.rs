//! Progress bars on standard error, only for long runs on a terminal.
//!
//! A bar starts hidden and becomes visible once the run has taken [`SHOW_AFTER`] and standard
//! error is a terminal, so short runs and redirected output never show one.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run must take before its progress bar appears.
pub const SHOW_AFTER: Duration = Duration::from_millis(500);

/// A progress bar that appears only when the run is long and standard error is a terminal.
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    tty: bool,
    shown: bool,
}

impl Progress {
    /// A bar counting up to `total` items (`None`: a spinner with a running count).
    pub fn new(total: Option<u64>, what: &str) -> Self {
        let bar = match total {
            Some(n) => {
                let b = ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::hidden());
                let style = ProgressStyle::with_template(
                    "{msg} [{bar:40}] {pos}/{len} ({percent}%, {eta} left)",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
                b.set_style(style);
                b
            }
            None => {
                let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
                let style = ProgressStyle::with_template("{spinner} {msg} {pos} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
                b.set_style(style);
                b
            }
        };
        bar.set_message(what.to_string());
        Progress {
            bar,
            start: Instant::now(),
            tty: std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// The underlying bar (cheap to clone, safe to advance from many threads).
    pub fn bar(&self) -> &ProgressBar {
        &self.bar
    }

    /// Shows the bar if the run has become long; call from the driving thread now and then.
    pub fn poll(&mut self) {
        if self.tty && !self.shown && self.start.elapsed() >= SHOW_AFTER {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
    }

    /// Sets the position and shows the bar if the run has become long.
    pub fn set(&mut self, pos: u64) {
        self.bar.set_position(pos);
        self.poll();
    }

    /// Removes the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// A bar over a count that starts once the total is known (a campaign's plan), advanced by
/// what each event finished, with lines printed above it.
#[derive(Default)]
pub struct Counter {
    bar: Option<Progress>,
    done: u64,
}

impl Counter {
    /// Starts the bar over `total` items named `what` (none for nothing to do).
    pub fn start(&mut self, total: u64, what: &str) {
        if total > 0 {
            self.bar = Some(Progress::new(Some(total), what));
        }
    }

    /// Counts `n` more items done.
    pub fn add(&mut self, n: u64) {
        self.done += n;
        if let Some(b) = &mut self.bar {
            b.set(self.done);
        }
    }

    /// Writes `line` and a newline to `out`, the bar out of the way.
    ///
    /// # Errors
    /// Writing to `out`.
    pub fn println(&self, out: &mut dyn std::io::Write, line: &str) -> std::io::Result<()> {
        match &self.bar {
            Some(b) => b.bar().suspend(|| writeln!(out, "{line}")),
            None => writeln!(out, "{line}"),
        }
    }

    /// Removes the bar.
    pub fn finish(self) {
        if let Some(b) = self.bar {
            b.finish();
        }
    }
}

/// Runs `run`, showing each event it reports as its [`sweep::Tick`] says: a bar named `what` over
/// the total ([`Counter`]), lines written to `out` above it, notes on standard error.
/// Returns `run`'s result and the first error writing to `out` (the run goes on after it).
pub fn follow<T>(
    what: &str,
    out: &mut dyn std::io::Write,
    run: impl FnOnce(&mut dyn FnMut(sweep::Tick)) -> T,
) -> (T, std::io::Result<()>) {
    let mut bar = Counter::default();
    let mut shown = Ok(());
    let result = run(&mut |tick| {
        if let Some(total) = tick.total {
            bar.start(total, what);
        }
        if let Some(line) = tick.line {
            let r = bar.println(out, &line);
            if shown.is_ok() {
                shown = r;
            }
        }
        if let Some(text) = tick.note {
            crate::error::note(&format!("note: {text}"));
        }
        bar.add(tick.done);
    });
    bar.finish();
    (result, shown)
}

/// What a progress display calls a run's phases and what its meter counts: the engine's
/// own words ([`sweep::Units`]).
pub use sweep::Units;

/// What the progress display of a run shows: the runs under way (analyses, simulations),
/// each with its phase and its count (read from its own [`sweep::Meter`]), and how many are
/// done.
pub struct Ticker {
    total: usize,
    units: Units,
    done: AtomicUsize,
    /// The analyses under way: a number, a label and the meter.
    active: Mutex<Vec<(usize, String, Arc<sweep::Meter>)>>,
    next: AtomicUsize,
}

impl Ticker {
    /// A display of `total` runs.
    pub fn new(total: usize, units: Units) -> Self {
        Ticker {
            total,
            units,
            done: AtomicUsize::new(0),
            active: Mutex::new(Vec::new()),
            next: AtomicUsize::new(0),
        }
    }

    /// Shows a run as under way; returns its slot for [`Ticker::end`].
    pub fn begin(&self, label: String, meter: Arc<sweep::Meter>) -> usize {
        let slot = self.next.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut a) = self.active.lock() {
            a.push((slot, label, meter));
        }
        slot
    }

    /// Shows a run as done.
    pub fn end(&self, slot: usize) {
        if let Ok(mut a) = self.active.lock() {
            a.retain(|(k, _, _)| *k != slot);
        }
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// The sum of the counts of the runs under way.
    fn count(&self) -> u64 {
        self.active
            .lock()
            .map_or(0, |a| a.iter().map(|(_, _, m)| m.count()).sum())
    }

    /// The runs under way: `exploring GatherBus (p=7): 1203456 states`, `; `-separated;
    /// without `counts`, `exploring GatherBus (p=7): states` (a spinner shows the count).
    fn message(&self, counts: bool) -> String {
        let Ok(active) = self.active.lock() else {
            return String::new();
        };
        active
            .iter()
            .map(|(_, label, meter)| {
                let phase = match meter.phase() {
                    sweep::Phase::Running => self.units.running,
                    sweep::Phase::Analysing => self.units.analysing,
                };
                let noun = self.units.noun;
                let sep = if label.is_empty() { "" } else { " " };
                if counts {
                    format!("{phase}{sep}{label}: {} {noun}", meter.count())
                } else {
                    format!("{phase}{sep}{label}: {noun}")
                }
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// How often the progress display reads the counters.
const TICK: Duration = Duration::from_millis(100);

/// Runs `f` while a thread of its own keeps `progress` (see [`Progress`]: only on a
/// terminal, only for long runs) up to date by calling `update` every [`TICK`].
fn drawn_while<T>(
    progress: Progress,
    update: impl Fn(&mut Progress) + Sync,
    f: impl FnOnce() -> T,
) -> T {
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let drawer = s.spawn(|| {
            let mut progress = progress;
            while !done.load(Ordering::Relaxed) {
                update(&mut progress);
                std::thread::park_timeout(TICK);
            }
            progress.finish();
        });
        let r = f();
        done.store(true, Ordering::Relaxed);
        drawer.thread().unpark();
        r
    })
}

/// Runs `f` with its progress display kept up to date from `ticker`: a spinner for one
/// run, a bar over the runs for several.
pub fn with_spinner<T>(ticker: &Ticker, f: impl FnOnce() -> T) -> T {
    let total = (ticker.total > 1).then_some(ticker.total as u64);
    let update = |progress: &mut Progress| {
        progress.bar().set_message(ticker.message(total.is_some()));
        progress.set(match total {
            Some(_) => ticker.done.load(Ordering::Relaxed) as u64,
            None => ticker.count(),
        });
    };
    drawn_while(Progress::new(total, ""), update, f)
}

/// Runs `f` with a fresh meter of items done (the points of a sweep), drawn as a bar over
/// `total` items on long runs.
pub fn with_bar<T>(total: u64, what: &str, f: impl FnOnce(&sweep::Meter) -> T) -> T {
    let meter = sweep::Meter::default();
    let update = |progress: &mut Progress| progress.set(meter.count());
    drawn_while(Progress::new(Some(total), what), update, || f(&meter))
}

/// Runs `f` with a fresh meter shown by a spinner on long runs (one run, `label`).
pub fn with_meter<T>(units: Units, label: &str, f: impl FnOnce(&sweep::Meter) -> T) -> T {
    let ticker = Ticker::new(1, units);
    let meter = Arc::new(sweep::Meter::default());
    let slot = ticker.begin(label.to_string(), Arc::clone(&meter));
    let r = with_spinner(&ticker, || f(&meter));
    ticker.end(slot);
    r
}

/// Runs `f` with a step callback `(done, total, what)` that draws a bar over `total` steps on
/// long runs, named `{what_prefix} {what}`; the bar is drawn by the caller's own thread
/// between steps, so no thread competes with the work (a probe timing the host).
pub fn with_steps<T>(
    what_prefix: &str,
    f: impl FnOnce(&mut dyn FnMut(usize, usize, &str)) -> T,
) -> T {
    let mut bar: Option<Progress> = None;
    let r = f(&mut |done, total, what| {
        let bar = bar.get_or_insert_with(|| Progress::new(Some(total as u64), what_prefix));
        bar.bar().set_message(format!("{what_prefix} {what}"));
        bar.set(done as u64);
    });
    if let Some(bar) = bar {
        bar.finish();
    }
    r
}
