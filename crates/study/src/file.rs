//! The campaign file: a TOML document naming a program (a command template with `{n}` and
//! `{p}`), its runtime, the training and test sizes, worker counts and repetitions, what to
//! keep, and the batch scheduler's options. [`parse`] reads it into a checked [`Campaign`]
//! or a located [`FileError`].
//!
//! ```toml
//! name = "fib"                          # the application's name in the rows
//! command = ["./fib", "{n}"]            # or "./fib {n}" (split at spaces)
//! runtime = "openmp"                    # plain | rayon | openmp | dag-recorder | threads
//! timeout = 60                          # seconds one run may take (default 600)
//!
//! [train]
//! sizes = [20, 22, 24]                  # or "20..24:2", the -D grammar
//! workers = [1, 2]
//! repetitions = 3
//!
//! [test]                                # optional: the held-out points
//! sizes = [28]
//! workers = [1, 2]
//! repetitions = 3
//!
//! [keep]
//! dags = true                           # each run's DAG file, in the study's dags/
//! untraced = true                       # time an untraced run beside each traced one
//! profile = "quick"                     # the machine's probe profile: none | quick | full
//!
//! [names]                               # the columns of the threads runtime's samples
//! size = "N"
//! workers = "P"
//!
//! [slurm]                               # options of the job array (all optional)
//! partition = "debug"
//! account = "proj"
//! exclusive = false
//! options = ["--qos=short"]
//! ```

use std::ops::Range;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The largest campaign file read.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// The most runs one campaign makes (training and test together).
pub const MAX_RUNS: u64 = taskpar::campaign::MAX_RUNS as u64;
/// The largest size: 2^53, the largest whole number a size keeps every digit of.
pub const MAX_SIZE: f64 = 9_007_199_254_740_992.0;
/// The most repetitions of one point.
pub const MAX_REPETITIONS: u32 = 1000;
/// The largest worker count.
pub const MAX_WORKERS: u32 = taskpar::dag::Limits::MAX_WORKERS;
/// The default time one run may take, seconds.
pub const DEFAULT_TIMEOUT_S: f64 = 600.0;
/// The longest time one run may be given, seconds (a week).
pub const MAX_TIMEOUT_S: f64 = 7.0 * 24.0 * 3600.0;

/// How a campaign's program runs and what each run gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuntimeKind {
    /// Any program, timed from start to end by the campaign (wall-clock, process start
    /// included); the worker count in `{p}` and in `OMP_NUM_THREADS` and
    /// `RAYON_NUM_THREADS`.
    Plain,
    /// A Rust program recorded by `taskrec` (rayon's pool, `RAYON_NUM_THREADS`).
    Rayon,
    /// An OpenMP program on LLVM's runtime, recorded by vates' OMPT tool
    /// (`OMP_NUM_THREADS`).
    OpenMp,
    /// A program built with DAG Recorder (`MYTH_NUM_WORKERS`).
    DagRecorder,
    /// A program with per-thread segment timers that prints `segment,seconds` rows and a
    /// `run,SECONDS` row (the semi-empirical method's samples; `threadprogs`).
    Threads,
}

impl RuntimeKind {
    /// Every runtime, by its name in the file.
    pub const ALL: [(&'static str, RuntimeKind); 5] = [
        ("plain", RuntimeKind::Plain),
        ("rayon", RuntimeKind::Rayon),
        ("openmp", RuntimeKind::OpenMp),
        ("dag-recorder", RuntimeKind::DagRecorder),
        ("threads", RuntimeKind::Threads),
    ];

    /// Its name in the file.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("plain", |(n, _)| n)
    }

    /// Why a `dag-recorder` campaign has no recorder here (its inputs by key).
    pub const NO_CLOCK: &'static str = "runtime = \"dag-recorder\": this machine's CPU clock is \
                                        unknown; give clock_hz in the campaign file or {clock-hz}";

    /// The task-parallel runtime whose runs are recorded as DAGs, if it is one.
    pub fn recorder(self) -> Option<taskpar::campaign::RuntimeKind> {
        use taskpar::campaign::RuntimeKind as K;
        match self {
            RuntimeKind::Rayon => Some(K::Rayon),
            RuntimeKind::OpenMp => Some(K::OpenMp),
            RuntimeKind::DagRecorder => Some(K::DagRecorder),
            RuntimeKind::Plain | RuntimeKind::Threads => None,
        }
    }

    /// Whether its runs are recorded as DAGs (the task-parallel runtimes).
    pub fn traced(self) -> bool {
        matches!(
            self,
            RuntimeKind::Rayon | RuntimeKind::OpenMp | RuntimeKind::DagRecorder
        )
    }
}

/// Which probe profile of the machine that ran the campaign the study keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProfileKind {
    /// None.
    None,
    /// `vates probe --quick` (a few seconds).
    Quick,
    /// `vates probe`.
    Full,
}

/// Sizes × worker counts × repetitions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Set {
    /// Problem sizes, in the order given, without repeats.
    pub sizes: Vec<f64>,
    /// Worker counts, ascending, without repeats.
    pub workers: Vec<u32>,
    /// Repetitions of each (size, workers).
    pub repetitions: u32,
}

impl Set {
    /// Runs in the set.
    pub fn runs(&self) -> u64 {
        self.sizes.len() as u64 * self.workers.len() as u64 * u64::from(self.repetitions)
    }
}

/// What a study keeps besides the times.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Keep {
    /// Each traced run's DAG file, in the study's `dags/`.
    pub dags: bool,
    /// An untraced run timed beside each traced one (runtimes that can time them).
    pub untraced: bool,
    /// The machine's probe profile.
    pub profile: ProfileKind,
}

/// The column names of the size and the worker count in sample and time files.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Names {
    /// The size's (default `n`).
    pub size: String,
    /// The worker count's (default `p`).
    pub workers: String,
}

/// Options of the Slurm job array.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SlurmOptions {
    /// `--partition`.
    pub partition: Option<String>,
    /// `--account`.
    pub account: Option<String>,
    /// `--exclusive`: no other job on a cell's node.
    pub exclusive: bool,
    /// Further `sbatch` options, each one word (`--qos=short`).
    pub options: Vec<String>,
}

/// Whether `word` is one sbatch option as the job scripts take it: a `-` word without
/// white space (`--qos=short`).
pub fn is_sbatch_option(word: &str) -> bool {
    word.starts_with('-') && !word.chars().any(char::is_whitespace)
}

/// A word given as an sbatch option that is not one ([`is_sbatch_option`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not one sbatch option: give each as one word, e.g. {1}=--qos=short")]
pub struct NotSbatchOption(pub String, pub String);

impl SlurmOptions {
    /// These options with `over`'s over them ([`SlurmOptions::overridden_by`]), once each of
    /// `over`'s further options is one sbatch option; `option` is how the front end spells
    /// the input that gives them, for the message.
    ///
    /// # Errors
    /// [`NotSbatchOption`]: the first word that is not one.
    pub fn checked_over(
        &self,
        over: &SlurmOptions,
        option: &str,
    ) -> Result<SlurmOptions, NotSbatchOption> {
        match over.options.iter().find(|o| !is_sbatch_option(o)) {
            Some(bad) => Err(NotSbatchOption(bad.clone(), option.to_string())),
            None => Ok(self.overridden_by(over)),
        }
    }

    /// These options with `over`'s given ones over them: its partition and account where
    /// it has them, exclusive if either is, its further options after these.
    pub fn overridden_by(&self, over: &SlurmOptions) -> SlurmOptions {
        SlurmOptions {
            partition: over.partition.clone().or_else(|| self.partition.clone()),
            account: over.account.clone().or_else(|| self.account.clone()),
            exclusive: self.exclusive || over.exclusive,
            options: self.options.iter().chain(&over.options).cloned().collect(),
        }
    }
}

/// A checked campaign.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Campaign {
    /// The application's name (a plain name: it is part of file names).
    pub name: String,
    /// The program and its arguments (`{n}` the size, `{p}` the worker count).
    pub command: Vec<String>,
    /// How it runs.
    pub runtime: RuntimeKind,
    /// How long one run may take.
    pub timeout_s: f64,
    /// DAG Recorder's clock rate, when the file gives it.
    pub clock_hz: Option<f64>,
    /// The training runs.
    pub train: Set,
    /// The held-out test runs.
    pub test: Option<Set>,
    /// What to keep.
    pub keep: Keep,
    /// Column names.
    pub names: Names,
    /// Slurm's options.
    pub slurm: SlurmOptions,
    /// What `vates compare` needs besides the measurements.
    pub compare: CompareOptions,
}

/// The `[compare]` section: the methods' inputs that are not measurements.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CompareOptions {
    /// The thread-graph model of the semi-empirical method, relative to the study folder.
    pub semi_model: Option<String>,
    /// The size transform of the two-step model (`n=2^n` for work exponential in n).
    pub transform: Option<taskpar::model::Transform>,
}

impl Campaign {
    /// Whether the campaign measures the machine's profile into its study.
    pub fn probes(&self) -> bool {
        self.keep.profile != ProfileKind::None
    }

    /// How long one run may take.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs_f64(self.timeout_s)
    }

    /// Every run of the campaign.
    pub fn runs(&self) -> u64 {
        self.train.runs() + self.test.as_ref().map_or(0, Set::runs)
    }

    /// Whether two campaigns ask for the same measurements: everything but the run timeout,
    /// the scheduler's options and the comparison's inputs, which a resumed campaign may
    /// change.
    pub fn same_measurements(&self, other: &Campaign) -> bool {
        self.difference(other).is_none()
    }

    /// The first key whose value differs between two campaigns' measurements, with both
    /// values (`None`: they ask for the same runs).
    pub fn difference(&self, other: &Campaign) -> Option<(&'static str, String, String)> {
        let show = |v: &dyn erased::Show| v.show();
        let keys: [(&'static str, &dyn erased::Show, &dyn erased::Show); 8] = [
            ("name", &self.name, &other.name),
            ("command", &self.command, &other.command),
            ("runtime", &self.runtime, &other.runtime),
            ("clock_hz", &self.clock_hz, &other.clock_hz),
            ("[train]", &self.train, &other.train),
            ("[test]", &self.test, &other.test),
            ("[keep]", &self.keep, &other.keep),
            ("[names]", &self.names, &other.names),
        ];
        keys.into_iter()
            .map(|(k, a, b)| (k, show(a), show(b)))
            .find(|(_, a, b)| a != b)
    }
}

/// Values shown for [`Campaign::difference`]: their JSON.
mod erased {
    /// A value shown as its JSON.
    pub trait Show {
        /// Its JSON text.
        fn show(&self) -> String;
    }

    impl<T: serde::Serialize> Show for T {
        fn show(&self) -> String {
            serde_json::to_string(self).unwrap_or_default()
        }
    }
}

/// The class of a campaign-file error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileErrorKind {
    /// Not TOML, or not the campaign's shape (an unknown key, a wrong type).
    Syntax,
    /// A value out of its range or inconsistent with another.
    Value,
    /// More than a limit allows.
    Limit,
}

impl diag::ErrorKind for FileErrorKind {
    fn label(self) -> &'static str {
        match self {
            FileErrorKind::Syntax => "here",
            FileErrorKind::Value => "this value",
            FileErrorKind::Limit => "limit reached here",
        }
    }
}

/// A campaign-file error, located in the file.
pub type FileError = diag::Located<FileErrorKind>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Spanned<String>,
    command: Spanned<RawCommand>,
    runtime: Spanned<String>,
    timeout: Option<Spanned<f64>>,
    clock_hz: Option<Spanned<f64>>,
    train: Spanned<RawSet>,
    test: Option<Spanned<RawSet>>,
    keep: Option<RawKeep>,
    names: Option<RawNames>,
    slurm: Option<RawSlurm>,
    compare: Option<RawCompare>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCompare {
    semi_model: Option<String>,
    transform: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a list of words such as [\"./fib\", \"{n}\"], or one line of text"
)]
enum RawCommand {
    Words(Vec<String>),
    Line(String),
}

#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a list of numbers such as [1, 2, 4], or a text such as \"1..8:1\""
)]
enum RawValues {
    Numbers(Vec<f64>),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    sizes: Spanned<RawValues>,
    workers: Spanned<RawValues>,
    repetitions: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKeep {
    dags: Option<bool>,
    untraced: Option<bool>,
    profile: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNames {
    size: Option<Spanned<String>>,
    workers: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSlurm {
    partition: Option<String>,
    account: Option<String>,
    exclusive: Option<bool>,
    options: Option<Vec<Spanned<String>>>,
}

/// Reads the campaign file `text` (named `name` in messages).
///
/// # Errors
/// A [`FileError`] at the first problem: not TOML, an unknown key (with the keys that
/// exist), a runtime, size, worker count or repetition count that cannot be, a plan of the
/// task-parallel runtimes without runs on one worker, more runs than [`MAX_RUNS`].
pub fn parse(name: &str, text: &str) -> Result<Campaign, FileError> {
    let src = (name, text);
    if text.len() > MAX_FILE_BYTES {
        return Err(FileError::whole(
            FileErrorKind::Limit,
            name,
            format!("larger than {MAX_FILE_BYTES} bytes, the limit for a campaign file"),
        ));
    }
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let range = e.span().unwrap_or(0..0);
        FileError::at(FileErrorKind::Syntax, src, range, e.message().trim_end())
            .help("see the campaign file's keys in docs/cli.md (vates campaign)")
    })?;
    let bad =
        |range: Range<usize>, msg: String| FileError::at(FileErrorKind::Value, src, range, msg);

    let app = raw.name.get_ref();
    taskpar::campaign::check_app(app).map_err(|e| {
        bad(raw.name.span(), e.to_string())
            .help("name the application with letters, digits, `.`, `_`, `-` and `+`")
    })?;
    let command: Vec<String> = match raw.command.get_ref() {
        RawCommand::Words(w) => w.clone(),
        RawCommand::Line(l) => l.split_whitespace().map(String::from).collect(),
    };
    // The placeholders are {n} and {p}; any other `{…}` is a mistake the program would see.
    if let Some(bad) = command.iter().find_map(|w| unknown_placeholder(w)) {
        return Err(bad_value(
            src,
            raw.command.span(),
            format!("`{bad}` is not a placeholder: {{n}} is the size, {{p}} the worker count"),
        )
        .help("write {n} and {p}; the column names of [names] are not placeholders"));
    }
    if command.first().is_none_or(|c| c.is_empty()) {
        return Err(bad(raw.command.span(), "the command is empty".into())
            .help("give the program and its arguments, e.g. [\"./fib\", \"{n}\"]"));
    }
    let runtime = RuntimeKind::ALL
        .iter()
        .find(|(n, _)| n == raw.runtime.get_ref())
        .map(|(_, k)| *k)
        .ok_or_else(|| {
            let names: Vec<&str> = RuntimeKind::ALL.iter().map(|(n, _)| *n).collect();
            let given = raw.runtime.get_ref();
            let hint = diag::did_you_mean(&diag::suggest(given, names.iter().copied()))
                .map(|s| format!("; {s}"))
                .unwrap_or_default();
            bad(
                raw.runtime.span(),
                format!("unknown runtime `{given}`{hint}"),
            )
            .help(format!("the runtimes are {}", names.join(", ")))
        })?;
    let timeout_s = match &raw.timeout {
        None => DEFAULT_TIMEOUT_S,
        Some(t) => {
            let v = *t.get_ref();
            if !(v > 0.0 && v <= MAX_TIMEOUT_S) {
                return Err(bad(
                    t.span(),
                    format!("a timeout of {} s: it must be above 0 and at most {MAX_TIMEOUT_S} s (a week)", trace::text::num(v)),
                ));
            }
            v
        }
    };
    let clock_hz = match &raw.clock_hz {
        None => None,
        Some(c) => {
            let v = *c.get_ref();
            if runtime != RuntimeKind::DagRecorder {
                return Err(bad(
                    c.span(),
                    "clock_hz is for DAG Recorder programs (runtime = \"dag-recorder\")".into(),
                ));
            }
            if !(v.is_finite() && v >= 1e3) {
                return Err(bad(
                    c.span(),
                    format!("a clock of {v} Hz: give the time-stamp counter's rate, e.g. 2.6e9"),
                ));
            }
            Some(v)
        }
    };
    let train = set(src, &raw.train, "train")?;
    let test = raw.test.as_ref().map(|t| set(src, t, "test")).transpose()?;
    if runtime.traced() && !train.workers.contains(&1) {
        return Err(bad(
            raw.train.get_ref().workers.span(),
            "the training worker counts have no 1: the serial work T1' of each size comes from its runs on one worker"
                .into(),
        )
        .help("add 1 to [train] workers"));
    }
    let keep = raw.keep.as_ref();
    let profile = match keep.and_then(|k| k.profile.as_ref()) {
        None => ProfileKind::Quick,
        Some(p) => match p.get_ref().as_str() {
            "none" => ProfileKind::None,
            "quick" => ProfileKind::Quick,
            "full" => ProfileKind::Full,
            other => {
                return Err(bad(
                    p.span(),
                    format!("unknown profile `{other}`: none, quick or full"),
                ))
            }
        },
    };
    let untraced = keep.and_then(|k| k.untraced).unwrap_or(runtime.traced())
        && runtime != RuntimeKind::DagRecorder;
    let names = raw.names.as_ref();
    let column = |v: Option<&Spanned<String>>, default: &str| -> Result<String, FileError> {
        let Some(v) = v else {
            return Ok(default.to_string());
        };
        let s = v.get_ref();
        let ok = s
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_');
        if ok {
            Ok(s.clone())
        } else {
            Err(bad(
                v.span(),
                format!("`{s}` is not a column name: letters, digits and `_`, not beginning with a digit"),
            ))
        }
    };
    let names = Names {
        size: column(names.and_then(|n| n.size.as_ref()), "n")?,
        workers: column(names.and_then(|n| n.workers.as_ref()), "p")?,
    };
    if names.size == names.workers {
        return Err(FileError::whole(
            FileErrorKind::Value,
            name,
            format!(
                "[names] gives the size and the worker count the same name `{}`",
                names.size
            ),
        ));
    }
    let slurm = match &raw.slurm {
        None => SlurmOptions::default(),
        Some(s) => {
            let mut options = Vec::new();
            for o in s.options.iter().flatten() {
                let word = o.get_ref();
                if !is_sbatch_option(word) {
                    return Err(bad(
                        o.span(),
                        format!("`{word}` is not one sbatch option: give each as one word, e.g. \"--qos=short\""),
                    ));
                }
                options.push(word.clone());
            }
            SlurmOptions {
                partition: s.partition.clone(),
                account: s.account.clone(),
                exclusive: s.exclusive.unwrap_or(false),
                options,
            }
        }
    };
    let compare = match &raw.compare {
        None => CompareOptions::default(),
        Some(r) => CompareOptions {
            semi_model: r.semi_model.clone(),
            transform: match &r.transform {
                None => None,
                Some(t) => Some(taskpar::model::Transform::parse(t.get_ref()).ok_or_else(
                    || {
                        bad(
                            t.span(),
                            format!("unknown transform `{}`: `n=2^n` or `n=n`", t.get_ref()),
                        )
                    },
                )?),
            },
        },
    };
    let campaign = Campaign {
        name: app.clone(),
        command,
        runtime,
        timeout_s,
        clock_hz,
        train,
        test,
        keep: Keep {
            dags: keep.and_then(|k| k.dags).unwrap_or(false) && runtime.traced(),
            untraced,
            profile,
        },
        names,
        slurm,
        compare,
    };
    if campaign.runs() > MAX_RUNS {
        return Err(FileError::whole(
            FileErrorKind::Limit,
            name,
            format!(
                "{} runs, more than the limit of {MAX_RUNS}",
                campaign.runs()
            ),
        )
        .help("use fewer sizes, worker counts or repetitions"));
    }
    Ok(campaign)
}

/// The first `{…}` in `word` that is not `{n}` or `{p}`.
fn unknown_placeholder(word: &str) -> Option<String> {
    let mut rest = word;
    while let Some(i) = rest.find('{') {
        let after = &rest[i..];
        let end = after.find('}').map_or(after.len(), |j| j + 1);
        let token = &after[..end];
        if token != "{n}" && token != "{p}" {
            return Some(token.to_string());
        }
        rest = &after[end..];
    }
    None
}

/// A [`FileErrorKind::Value`] error at `range`.
fn bad_value(src: (&str, &str), range: Range<usize>, msg: String) -> FileError {
    FileError::at(FileErrorKind::Value, src, range, msg)
}

/// The set `[what]`, checked.
fn set(src: (&str, &str), raw: &Spanned<RawSet>, what: &str) -> Result<Set, FileError> {
    let r = raw.get_ref();
    let bad =
        |range: Range<usize>, msg: String| FileError::at(FileErrorKind::Value, src, range, msg);
    let mut sizes = values(src, &r.sizes, &format!("[{what}] sizes"))?;
    if let Some(v) = sizes
        .iter()
        .find(|v| !(v.is_finite() && (0.0..=MAX_SIZE).contains(*v)))
    {
        return Err(bad(
            r.sizes.span(),
            format!(
                "a size of {v}: sizes are numbers from 0 to 2^53 (every digit reaches the program)"
            ),
        ));
    }
    let mut seen = Vec::new();
    sizes.retain(|v| {
        let new = !seen.contains(v);
        seen.push(*v);
        new
    });
    let mut workers = Vec::new();
    for v in values(src, &r.workers, &format!("[{what}] workers"))? {
        if !(v.fract() == 0.0 && v >= 1.0 && v <= f64::from(MAX_WORKERS)) {
            return Err(bad(
                r.workers.span(),
                format!("{v} workers: a worker count is a whole number from 1 to {MAX_WORKERS}"),
            ));
        }
        workers.push(v as u32);
    }
    workers.sort_unstable();
    workers.dedup();
    let repetitions = match &r.repetitions {
        None => 1,
        Some(n) => {
            let v = *n.get_ref();
            u32::try_from(v)
                .ok()
                .filter(|v| (1..=MAX_REPETITIONS).contains(v))
                .ok_or_else(|| {
                    bad(
                        n.span(),
                        format!("{v} repetitions: from 1 to {MAX_REPETITIONS}"),
                    )
                })?
        }
    };
    Ok(Set {
        sizes,
        workers,
        repetitions,
    })
}

/// The numbers of a list or of a `-D`-grammar text (`"1..8:1"`, `"16,32,64"`).
fn values(src: (&str, &str), raw: &Spanned<RawValues>, what: &str) -> Result<Vec<f64>, FileError> {
    let bad = |msg: String| FileError::at(FileErrorKind::Value, src, raw.span(), msg);
    let out = match raw.get_ref() {
        RawValues::Numbers(v) => v.clone(),
        RawValues::Text(t) => {
            let (_, values) = expr::grid::parse_binding(&format!("x={t}")).map_err(|e| {
                bad(format!(
                    "{what}: `{t}` is not a list or range of numbers ({e})"
                ))
                .help(
                    "write a list [1, 2, 4], or a text in the grammar of point bindings: \"1..8:1\", \"16,32,64\"",
                )
            })?;
            let count = values.count();
            let count = u64::try_from(&count)
                .ok()
                .filter(|&c| c <= MAX_RUNS)
                .ok_or_else(|| {
                    FileError::at(
                        FileErrorKind::Limit,
                        src,
                        raw.span(),
                        format!("{what}: {count} values, more than the limit of {MAX_RUNS} runs"),
                    )
                })?;
            (0..count)
                .filter_map(|k| values.get(k))
                .map(|r| expr::number::to_f64(&r))
                .collect()
        }
    };
    if out.is_empty() {
        return Err(bad(format!("{what} is empty")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn further_sbatch_options_are_single_words() {
        let file = SlurmOptions {
            partition: Some("a".into()),
            account: None,
            exclusive: false,
            options: vec!["--qos=long".into()],
        };
        let mut over = SlurmOptions {
            partition: None,
            account: Some("b".into()),
            exclusive: true,
            options: vec!["--x=1".into()],
        };
        let both = file.checked_over(&over, "-O").unwrap();
        assert_eq!(both.options, ["--qos=long", "--x=1"]);
        assert_eq!(both.partition.as_deref(), Some("a"));
        over.options.push("a b".into());
        let e = file.checked_over(&over, "-O").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`a b` is not one sbatch option: give each as one word, e.g. -O=--qos=short"
        );
    }
}
