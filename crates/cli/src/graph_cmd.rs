//! `vates graph analyze|convert|gen`: deterministic task graph analysis (Adve & Vernon);
//! the manual is in `docs/cli.md`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use taskgraph::analysis::engine::Schedule;
use taskgraph::analysis::policy::PolicyKind;
use taskgraph::analysis::system::SystemSpec;
use taskgraph::analysis::{report, AnalysisError};
use taskgraph::gen::{GenKind, GenOptions, TimeDist};
use taskgraph::{Format as GraphFormat, GraphError, Limits, TaskGraph};

use crate::error::{write_file, CliError};
use crate::timeline_files::TimelineArgs;
use crate::Format;
use trace::text::{fixed, num, Align, TextTable};

/// Why a `graph` command failed.
pub enum Failure {
    /// A plain CLI error (message and hint, or a usage error).
    Cli(CliError),
    /// A diagnostic with source code (a malformed graph file).
    Report(miette::Report),
}

impl From<CliError> for Failure {
    fn from(e: CliError) -> Self {
        Failure::Cli(e)
    }
}

impl From<GraphError> for Failure {
    fn from(e: GraphError) -> Self {
        Failure::Report(miette::Report::new(e))
    }
}

/// Result of a `graph` command.
pub type GResult<T> = std::result::Result<T, Failure>;

/// The `vates graph` subcommands.
#[derive(Subcommand, Debug)]
pub enum GraphCommand {
    /// Predict the makespan of a task graph on P processes and explain where time went.
    #[command(alias = "analyse")]
    Analyze(AnalyzeArgs),
    /// Analyse a task graph over a range of process counts: speedup, efficiency, bounds.
    Sweep(GraphSweepArgs),
    /// Convert a task graph between formats (read json, dot, wfcommons, stg; write json, dot).
    Convert(ConvertArgs),
    /// Generate a reproducible random task graph (layered, forkjoin, wavefront, sp).
    Gen(GenArgs),
}

impl GraphCommand {
    /// The subcommand's name, for usage messages.
    pub fn name(&self) -> &'static str {
        match self {
            GraphCommand::Analyze(_) => "analyze",
            GraphCommand::Sweep(_) => "sweep",
            GraphCommand::Convert(_) => "convert",
            GraphCommand::Gen(_) => "gen",
        }
    }
}

/// The graph, policy and system model (shared by `analyze` and `sweep`).
#[derive(clap::Args, Debug, Clone)]
pub struct GraphInput {
    /// The task graph file (.json, .dot, .stg, or a WfCommons .json instance).
    #[arg(value_name = "GRAPH")]
    pub graph: PathBuf,
    /// Input format (default: from the extension and content).
    #[arg(long, value_name = "FMT", value_parser = parse_format)]
    pub from: Option<GraphFormat>,
    /// Scheduling policy.
    #[arg(long, default_value = "fifo", value_parser = clap::builder::PossibleValuesParser::new(PolicyKind::NAMES))]
    pub policy: String,
    /// With `--policy queues`: an idle process takes tasks from other queues.
    #[arg(long)]
    pub steal: bool,
    /// A system model (TOML: queueing and delay centers, optional lock).
    #[arg(long, value_name = "FILE.toml")]
    pub system: Option<PathBuf>,
}

/// Options of `vates graph analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    input: GraphInput,
    /// Number of processes P (also as `-D P=8`, like every method's parameters).
    #[arg(
        long,
        short = 'p',
        short_alias = 'D',
        value_name = "P",
        value_parser = crate::graph_sweep::parse_one_proc
    )]
    procs: usize,
    /// The schedule as a timeline.
    #[command(flatten)]
    timeline: TimelineArgs,
    /// Write the parallelism profile over time as CSV: `time,running` (and, with
    /// `--policy queues`, `processes_per_active_queue`), one row per change.
    #[arg(long, value_name = "FILE")]
    profile: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The parallelism profile (and processes per active queue) as CSV, merged on time.
fn profile_csv(profile: &[(f64, usize)], queues: Option<&[(f64, f64)]>) -> String {
    let mut times: Vec<f64> = profile.iter().map(|&(t, _)| t).collect();
    if let Some(q) = queues {
        times.extend(q.iter().map(|&(t, _)| t));
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    // The value of a step function at time t.
    fn at<T: Copy + Default>(steps: &[(f64, T)], t: f64) -> T {
        match steps.partition_point(|&(s, _)| s <= t) {
            0 => T::default(),
            k => steps[k - 1].1,
        }
    }
    let mut out = String::from(if queues.is_some() {
        "time,running,processes_per_active_queue\n"
    } else {
        "time,running\n"
    });
    for t in times {
        match queues {
            Some(q) => out.push_str(&format!("{t},{},{}\n", at(profile, t), at(q, t))),
            None => out.push_str(&format!("{t},{}\n", at(profile, t))),
        }
    }
    out
}

/// Options of `vates graph sweep`.
#[derive(clap::Args, Debug)]
pub struct GraphSweepArgs {
    #[command(flatten)]
    input: GraphInput,
    /// Process counts: a range `1..64`, `1..64:4`, a list `1,2,4,8`, or one value (also as
    /// `-D P=1..64`, like every method's parameters).
    #[arg(
        long,
        short = 'p',
        short_alias = 'D',
        value_name = "RANGE",
        value_parser = crate::graph_sweep::parse_procs
    )]
    procs: crate::graph_sweep::ProcList,
    /// Write one CSV row per process count.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write an SVG plot of the speedup with the work and span bounds.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Options of `vates graph convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// The input graph.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// The output file (`-` for standard output).
    #[arg(value_name = "OUT")]
    output: PathBuf,
    /// Input format (default: from the extension and content).
    #[arg(long, value_name = "FMT", value_parser = parse_format)]
    from: Option<GraphFormat>,
    /// Output format, json or dot (default: from the extension; json for `-`).
    #[arg(long, value_name = "FMT", value_parser = parse_format)]
    to: Option<GraphFormat>,
}

/// Options of `vates graph gen`.
#[derive(clap::Args, Debug)]
pub struct GenArgs {
    /// Kind of graph: layered, forkjoin, wavefront, sp.
    #[arg(value_name = "KIND", value_parser = parse_kind)]
    kind: GenKind,
    /// Number of tasks.
    #[arg(long, value_name = "N")]
    tasks: usize,
    /// Width: layer width, tasks per fork, grid width, or largest fork.
    #[arg(long, default_value_t = 10, value_name = "W")]
    width: usize,
    /// Mean number of predecessors per task (layered).
    #[arg(long, default_value_t = 2.0, value_name = "D")]
    degree: f64,
    /// Task time distribution: const:C, uniform:LO,HI, exp:MEAN.
    #[arg(long, default_value = "const:1", value_name = "DIST", value_parser = parse_dist)]
    time: TimeDist,
    /// Random seed.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Output file (format from the extension: .json or .dot); standard output when absent.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

fn parse_format(s: &str) -> std::result::Result<GraphFormat, String> {
    s.parse::<GraphFormat>()
        .map_err(|e| format!("{e} (formats: json, dot, wfcommons, stg)"))
}

fn parse_kind(s: &str) -> std::result::Result<GenKind, String> {
    s.parse::<GenKind>()
        .map_err(|e| format!("{e} (kinds: layered, forkjoin, wavefront, sp)"))
}

fn parse_dist(s: &str) -> std::result::Result<TimeDist, String> {
    s.parse::<TimeDist>()
        .map_err(|e| format!("{e} (const:C, uniform:LO,HI, exp:MEAN)"))
}

/// Runs a `graph` subcommand.
pub fn run(cmd: GraphCommand, out: &mut dyn Write) -> GResult<()> {
    match cmd {
        GraphCommand::Analyze(a) => analyze(a, out),
        GraphCommand::Sweep(a) => {
            let g = load_graph(&a.input.graph, a.input.from)?;
            let setup = Setup::new(&a.input)?;
            let opts = crate::graph_sweep::Options {
                procs: a.procs,
                csv: a.csv,
                plot: a.plot,
                format: a.format,
            };
            crate::graph_sweep::run(&g, &a.input.graph, &setup, &opts, out)
        }
        GraphCommand::Convert(a) => convert(a, out),
        GraphCommand::Gen(a) => gen(a, out),
    }
}

// ---------------------------------------------------------------------------------------
// loading

/// Reads and validates a task graph; the format is `from`, else detected.
pub fn load_graph(path: &Path, from: Option<GraphFormat>) -> GResult<TaskGraph> {
    let limits = Limits::default();
    let text = crate::input::read_text(path, limits.max_bytes, "a task graph file")?;
    let format = match from.or_else(|| GraphFormat::detect(path, &text)) {
        Some(f) => f,
        None => {
            return Err(CliError::with_help(
                format!(
                    "cannot tell the format of `{}` from its extension",
                    path.display()
                ),
                "name the format with --from json|dot|wfcommons|stg",
            )
            .into())
        }
    };
    Ok(taskgraph::format::read(
        &text,
        &path.display().to_string(),
        format,
        &limits,
    )?)
}

/// The policy and system model of a run, with the names the user gave them.
pub struct Setup {
    /// The configured analysis.
    pub run: taskgraph::analysis::setup::Setup,
    /// The policy's name as given.
    pub policy_name: String,
    /// Whether `--steal` was given.
    pub steal: bool,
    /// The system model's file, if any.
    pub system_file: Option<PathBuf>,
}

impl Setup {
    /// Parses the policy and reads the system model.
    pub fn new(input: &GraphInput) -> GResult<Setup> {
        let policy = PolicyKind::parse(&input.policy, input.steal).ok_or_else(|| {
            CliError::usage(format!(
                "unknown policy `{}`; policies: {}",
                input.policy,
                PolicyKind::NAMES.join(", ")
            ))
        })?;
        if input.steal && !matches!(policy, PolicyKind::Queues { .. }) {
            return Err(CliError::usage(format!(
                "--steal applies only to --policy queues, not `{}`",
                input.policy
            ))
            .into());
        }
        let system = match &input.system {
            None => None,
            Some(path) => {
                let text = crate::input::read_text(path, 1 << 20, "a system model file (TOML)")?;
                let spec = SystemSpec::parse(&text).map_err(|e| {
                    CliError::with_help(
                        format!("`{}`: {e}", path.display()),
                        "a system model has `[[center]]` tables with name, kind = \"queueing\" \
                         or \"delay\", service and visits; optional top-level rate and \
                         exact_limit, and an optional [lock] with hold",
                    )
                })?;
                Some(spec)
            }
        };
        Ok(Setup {
            run: taskgraph::analysis::setup::Setup { policy, system },
            policy_name: input.policy.clone(),
            steal: input.steal,
            system_file: input.system.clone(),
        })
    }
}

/// An analysis error as a CLI error with a hint.
pub fn analysis_error(e: AnalysisError) -> Failure {
    let help = match &e {
        AnalysisError::Procs { .. } => "give --procs a number of processes within the limit",
        AnalysisError::Attribute { .. } => {
            "policies `assigned` need attrs.proc, `queues` attrs.queue, `priority` \
             attrs.priority on every task; or choose another --policy"
        }
        AnalysisError::Cycle { .. } => "remove the cycle: a task graph must be acyclic",
        AnalysisError::Overflow { .. } => {
            "keep times, rates and service demands in a unit where their sums and products \
             stay finite numbers"
        }
        AnalysisError::Deadlock { .. } => {
            "with --policy queues and fewer processes than queues, add --steal; with \
             static policies check the assignment attributes"
        }
    };
    Failure::Cli(CliError::with_help(e.to_string(), help))
}

// ---------------------------------------------------------------------------------------
// analyze

/// Everything the analyze report shows.
struct Analysis {
    graph: String,
    tasks: usize,
    edges: usize,
    procs: usize,
    schedule: Schedule,
    summary: report::Summary,
    critical_path: Vec<String>,
    makespan_p1: Option<f64>,
    p1_error: Option<String>,
    profile_mean: f64,
    per_queue: Option<f64>,
    solves: Option<usize>,
}

fn analyze(a: AnalyzeArgs, out: &mut dyn Write) -> GResult<()> {
    let g = load_graph(&a.input.graph, a.input.from)?;
    let setup = Setup::new(&a.input)?;
    let units = crate::progress::Units {
        running: "scheduling",
        analysing: "reporting",
        noun: "tasks",
    };
    // The run at P and the P = 1 baseline (for the speedup) are independent: one per core.
    let baseline = || {
        (a.procs != 1).then(
            || match setup.run.analyze(&g, 1, None).map_err(analysis_error) {
                Ok(r) => (Some(r.schedule.makespan), None),
                Err(Failure::Cli(CliError::Diag(d))) => (
                    None,
                    Some(format!("the P = 1 baseline run failed: {}", d.message)),
                ),
                Err(_) => (None, Some("the P = 1 baseline run failed".to_string())),
            },
        )
    };
    let (run, p1) = rayon::join(
        || {
            crate::progress::with_meter(units, "", |meter| {
                setup.run.analyze(&g, a.procs, Some(meter))
            })
        },
        baseline,
    );
    let taskgraph::analysis::setup::Run {
        mut schedule,
        solves,
    } = run.map_err(analysis_error)?;
    clean_rounding(&mut schedule);
    let (makespan_p1, p1_error) = p1.unwrap_or((Some(schedule.makespan), None));
    let cp = g.critical_path();
    let summary = report::summarize(&g, &schedule, cp.length);
    let per_queue = matches!(setup.run.policy, PolicyKind::Queues { .. })
        .then(|| mean_over_active(&report::processes_per_active_queue(&g, &schedule)));
    let an = Analysis {
        graph: a.input.graph.display().to_string(),
        tasks: g.len(),
        edges: g.edge_count(),
        procs: a.procs,
        profile_mean: time_mean(&summary.profile, schedule.makespan),
        critical_path: cp.tasks.iter().map(|&t| g.id(t).to_string()).collect(),
        schedule,
        summary,
        makespan_p1,
        p1_error,
        per_queue,
        solves,
    };
    if let Some(path) = &a.profile {
        let queues = an
            .per_queue
            .is_some()
            .then(|| report::processes_per_active_queue(&g, &an.schedule));
        write_file(
            path,
            profile_csv(&an.summary.profile, queues.as_deref()).as_bytes(),
        )?;
    }
    if a.timeline.wanted() {
        let file = a
            .input
            .graph
            .file_name()
            .map_or_else(|| an.graph.clone(), |f| f.to_string_lossy().into_owned());
        let name = format!("{file}: policy {}, P = {}", setup.policy_name, an.procs);
        let tr = report::to_trace(&g, &an.schedule, &name);
        let title = format!("{name}: makespan {}", num(an.schedule.makespan));
        a.timeline
            .write(&tr, &crate::timeline_files::chart(&title, "time"))?;
    }
    let text = match a.format {
        Format::Text => render_text(&an, &setup),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&to_json(&an, &setup))
                .map_err(|e| CliError::msg(format!("cannot encode JSON: {e}")))?;
            s.push('\n');
            s
        }
    };
    out.write_all(text.as_bytes())
        .map_err(|e| Failure::Cli(CliError::Stdout(e)))
}

/// Sets per-process overheads that are floating-point residue of the engine's
/// `end - start - time` (below 1e-9 of the makespan) to 0, moving them to idle time.
fn clean_rounding(s: &mut Schedule) {
    let eps = 1e-9 * s.makespan.abs().max(1.0);
    for p in &mut s.procs {
        if p.overhead.abs() < eps {
            p.idle += p.overhead;
            p.overhead = 0.0;
        }
        if p.idle.abs() < eps {
            p.idle = 0.0;
        }
    }
}

/// Time-weighted mean of a step function `(time, value from then on)` over `[0, end]`.
fn time_mean(profile: &[(f64, usize)], end: f64) -> f64 {
    if end <= 0.0 {
        return 0.0;
    }
    let mut acc = 0.0;
    for (i, &(t, k)) in profile.iter().enumerate() {
        let next = profile.get(i + 1).map_or(end, |&(u, _)| u);
        acc += (next.min(end) - t).max(0.0) * k as f64;
    }
    acc / end
}

/// Time-weighted mean of a step function over the time where it is positive.
fn mean_over_active(steps: &[(f64, f64)]) -> f64 {
    let (mut acc, mut len) = (0.0, 0.0);
    for w in steps.windows(2) {
        let (t, v) = w[0];
        let d = w[1].0 - t;
        if v > 0.0 && d > 0.0 {
            acc += v * d;
            len += d;
        }
    }
    if len > 0.0 {
        acc / len
    } else {
        0.0
    }
}

/// The critical path's ids, abbreviated past 12 with `…`.
fn show_path(ids: &[String]) -> String {
    if ids.is_empty() {
        "(none)".to_string()
    } else if ids.len() <= 12 {
        ids.join(" → ")
    } else {
        let head = ids[..6].join(" → ");
        let tail = ids[ids.len() - 5..].join(" → ");
        format!("{head} → … → {tail}")
    }
}

fn speedup(an: &Analysis) -> Option<(f64, f64)> {
    let t1 = an.makespan_p1?;
    if an.schedule.makespan > 0.0 {
        let s = t1 / an.schedule.makespan;
        Some((s, s / an.procs as f64))
    } else {
        None
    }
}

/// Processes shown one per row in the text table.
const PROCS_SHOWN: usize = 16;

fn render_text(an: &Analysis, setup: &Setup) -> String {
    let mut s = String::new();
    let sm = &an.summary;
    let _ = writeln!(
        s,
        "Task graph analysis: {} ({} tasks, {} edges)",
        an.graph, an.tasks, an.edges
    );
    let mut how = format!("  policy {}", setup.policy_name);
    if setup.steal {
        how.push_str(" with stealing");
    }
    let _ = write!(how, ", P = {}", an.procs);
    match &setup.system_file {
        Some(p) => {
            let _ = write!(how, ", system model {}", p.display());
        }
        None => how.push_str(", basic model (no overheads)"),
    }
    let _ = writeln!(s, "{how}");
    let _ = writeln!(s);
    let _ = writeln!(s, "  makespan             = {}", num(sm.makespan));
    let _ = writeln!(s, "  work                 = {}", num(sm.work));
    let _ = writeln!(s, "  span                 = {}", num(sm.span));
    let _ = writeln!(
        s,
        "  critical path        = {} ({} task{})",
        show_path(&an.critical_path),
        an.critical_path.len(),
        if an.critical_path.len() == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        s,
        "  average parallelism  = {} (work / span)",
        num(sm.average_parallelism)
    );
    let _ = writeln!(
        s,
        "  achieved parallelism = {} (busy processes, time average)",
        num(sm.achieved_parallelism)
    );
    match (speedup(an), an.makespan_p1) {
        (Some((sp, eff)), Some(t1)) => {
            let _ = writeln!(
                s,
                "  speedup              = {} (makespan {} at P = 1)",
                num(sp),
                num(t1)
            );
            let _ = writeln!(s, "  efficiency           = {}", fixed(eff, 3));
        }
        _ => {
            let why = an.p1_error.as_deref().unwrap_or("makespan is 0");
            let _ = writeln!(s, "  speedup              = n/a ({why})");
        }
    }
    let _ = writeln!(
        s,
        "  parallelism profile  = peak {}, mean {}",
        sm.peak_parallelism,
        num(an.profile_mean)
    );
    if let Some(q) = an.per_queue {
        let _ = writeln!(
            s,
            "  processes per active queue = {} (time average while a queue is active)",
            num(q)
        );
    }
    if let Some(n) = an.solves {
        let _ = writeln!(
            s,
            "  system model         = {n} network solve{}, total overhead {}",
            if n == 1 { "" } else { "s" },
            num(sm.overhead)
        );
    }
    let _ = writeln!(s);
    let mut t = TextTable::new([
        ("proc".to_string(), Align::Right),
        ("tasks".to_string(), Align::Right),
        ("busy".to_string(), Align::Right),
        ("overhead".to_string(), Align::Right),
        ("idle".to_string(), Align::Right),
        ("busy %".to_string(), Align::Right),
    ]);
    let pct = |busy: f64, total: f64| {
        if total > 0.0 {
            fixed(100.0 * busy / total, 1)
        } else {
            "-".to_string()
        }
    };
    let procs = &an.schedule.procs;
    for (p, st) in procs.iter().enumerate().take(PROCS_SHOWN) {
        t.push(vec![
            p.to_string(),
            st.tasks.to_string(),
            num(st.busy),
            num(st.overhead),
            num(st.idle),
            pct(st.busy, sm.makespan),
        ]);
    }
    if procs.len() > PROCS_SHOWN {
        t.push(vec![
            "…".to_string(),
            format!("({} more)", procs.len() - PROCS_SHOWN),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ]);
    }
    let busy: f64 = procs.iter().map(|p| p.busy).sum();
    let tasks: u64 = procs.iter().map(|p| u64::from(p.tasks)).sum();
    t.push(vec![
        "total".to_string(),
        tasks.to_string(),
        num(busy),
        num(sm.overhead),
        num(sm.idle),
        pct(busy, sm.makespan * procs.len() as f64),
    ]);
    s.push_str(&t.render("  "));
    s
}

fn to_json(an: &Analysis, setup: &Setup) -> serde_json::Value {
    let sm = &an.summary;
    let sp = speedup(an);
    let procs: Vec<serde_json::Value> = an
        .schedule
        .procs
        .iter()
        .map(|p| {
            serde_json::json!({
                "busy": p.busy, "overhead": p.overhead, "idle": p.idle, "tasks": p.tasks,
            })
        })
        .collect();
    let system = match (&setup.system_file, an.solves) {
        (Some(path), Some(n)) => serde_json::json!({
            "file": path.display().to_string(),
            "solves": n,
            "overhead": sm.overhead,
        }),
        _ => serde_json::Value::Null,
    };
    serde_json::json!({
        "graph": an.graph,
        "tasks": an.tasks,
        "edges": an.edges,
        "policy": setup.policy_name,
        "steal": setup.steal,
        "p": an.procs,
        "makespan": sm.makespan,
        "work": sm.work,
        "span": sm.span,
        "critical_path": an.critical_path,
        "average_parallelism": sm.average_parallelism,
        "achieved_parallelism": sm.achieved_parallelism,
        "makespan_p1": an.makespan_p1,
        "p1_error": an.p1_error,
        "speedup": sp.map(|x| x.0),
        "efficiency": sp.map(|x| x.1),
        "overhead": sm.overhead,
        "idle": sm.idle,
        "profile": {"peak": sm.peak_parallelism, "mean": an.profile_mean},
        "processes_per_active_queue": an.per_queue,
        "system": system,
        "steps": an.schedule.steps,
        "procs": procs,
    })
}

// ---------------------------------------------------------------------------------------
// convert and gen

fn is_stdout(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// The output format: `to`, else the extension of `path`, else JSON for standard output.
fn output_format(path: Option<&Path>, to: Option<GraphFormat>) -> GResult<GraphFormat> {
    let f = match (to, path) {
        (Some(f), _) => f,
        (None, None) => GraphFormat::Json,
        (None, Some(p)) if is_stdout(p) => GraphFormat::Json,
        (None, Some(p)) => GraphFormat::from_path(p).ok_or_else(|| {
            CliError::usage(format!(
                "cannot tell the output format of `{}` from its extension; use .json or .dot, \
                 or --to json|dot",
                p.display()
            ))
        })?,
    };
    if !f.can_write() {
        return Err(
            CliError::usage(format!("cannot write {f}: only json and dot are written")).into(),
        );
    }
    Ok(f)
}

fn emit(path: Option<&Path>, text: &str, out: &mut dyn Write) -> GResult<()> {
    match path {
        Some(p) if !is_stdout(p) => Ok(write_file(p, text.as_bytes())?),
        _ => out
            .write_all(text.as_bytes())
            .map_err(|e| Failure::Cli(CliError::Stdout(e))),
    }
}

fn convert(a: ConvertArgs, out: &mut dyn Write) -> GResult<()> {
    let to = output_format(Some(&a.output), a.to)?;
    let g = load_graph(&a.input, a.from)?;
    let text = taskgraph::format::write(&g, to)?;
    emit(Some(&a.output), &text, out)
}

fn gen(a: GenArgs, out: &mut dyn Write) -> GResult<()> {
    let to = output_format(a.output.as_deref(), None)?;
    let opts = GenOptions {
        tasks: a.tasks,
        width: a.width,
        degree: a.degree,
        time: a.time,
        seed: a.seed,
        limits: Limits::default(),
    };
    // A generator option that makes no sense is a usage error, like a malformed one.
    let g = taskgraph::gen::generate(a.kind, &opts).map_err(|e| match e.kind {
        taskgraph::ErrorKind::BadOption => Failure::Cli(CliError::usage(e.message)),
        _ => e.into(),
    })?;
    let text = taskgraph::format::write(&g, to)?;
    emit(a.output.as_deref(), &text, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_abbreviated() {
        let ids: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
        let s = show_path(&ids);
        assert!(s.starts_with("t0 → t1"));
        assert!(s.contains("t5 → … → t15"));
        assert!(s.ends_with("t19"));
        assert_eq!(show_path(&ids[..2]), "t0 → t1");
    }

    #[test]
    fn step_function_means() {
        // 2 running on [0,1), 1 on [1,3), 0 after: mean over [0,4] = (2+2)/4 = 1.
        assert_eq!(time_mean(&[(0.0, 2), (1.0, 1), (3.0, 0)], 4.0), 1.0);
        assert_eq!(
            mean_over_active(&[(0.0, 2.0), (1.0, 0.0), (2.0, 1.0), (4.0, 0.0)]),
            4.0 / 3.0
        );
    }
}
