//! `vates etccs analyse`: execution times of Eager Timed CCS agents (MacDonald); the manual
//! is in `docs/cli.md`.

mod pictures;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Subcommand, ValueEnum};

use crate::error::{CliError, Result};
use crate::timeline::TimelineArgs;
use etccs::error::SyntaxKind;
use etccs::job::{Job, JobError, One, Results, Table, Want, Watch};
use etccs::plot::AxisRange;
use etccs::Stopped;
use termio::progress::{with_spinner, Ticker, Units};

/// The `vates etccs` commands.
#[derive(Subcommand, Debug)]
pub enum EtccsCommand {
    /// Execution-time multiset and distribution, extremes and outcome of ETCCS agents.
    #[command(alias = "analyze")]
    Analyse(AnalyseArgs),
}

/// Output formats of `vates etccs analyse`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtccsFormat {
    /// Readable text.
    Text,
    /// The thesis tool's output.
    Thesis,
    /// JSON.
    Json,
}

/// Options of `vates etccs analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// The model file (`.etccs`).
    model: PathBuf,
    /// Analyse this agent (repeatable) instead of the model's `analyse` lines.
    #[arg(long, value_name = "NAME")]
    agent: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EtccsFormat::Text)]
    format: EtccsFormat,
    /// Stop with an error after exploring this many states (in a `--const` table, that
    /// analysis's row says so and the table goes on).
    #[arg(long, default_value_t = 10_000_000, value_name = "N")]
    max_states: usize,
    /// Override a `const` (or give a `param` a value): `p=4`, or a range or list (`p=2..8`,
    /// `p=2,4,8`) to analyse every value and print one row per value (repeatable); the
    /// analyses run in parallel, one per core.
    #[arg(long = "const", short = 'D', value_name = "NAME=VALUES")]
    consts: Vec<String>,
    /// Parametric analysis: report every region with its own linear expressions instead of
    /// merging regions into `max`/`min` expressions.
    #[arg(long)]
    no_merge: bool,
    /// Parametric analysis: draw the regions over the agent's two free parameters as an SVG
    /// map, one colour per result (give other parameters values with --const).
    #[arg(long, value_name = "FILE.svg")]
    map: Option<PathBuf>,
    /// Axis range for --map: NAME=LO..HI (repeatable; default 0 to twice the largest
    /// boundary crossing).
    #[arg(long = "map-range", value_name = "NAME=LO..HI")]
    map_range: Vec<String>,
    /// With a --const sweep: draw each agent's min, mean and max execution time against the
    /// swept constant as an SVG line plot (one line for an agent with a single time).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Write the results as CSV, one row per `--const` value and agent:
    /// the constants, `agent`, `states`, `min`, `max`, `mean` (empty for a parametric
    /// agent) and `limit` (the limit a row stopped at, else empty); the format of every
    /// vates sweep's CSV.
    #[arg(long, value_name = "FILE.csv")]
    csv: Option<PathBuf>,
    /// Print the fastest and slowest runs step by step: who acted when, and how long each
    /// component waited for its partner.
    #[arg(long)]
    explain: bool,
    /// The slowest (and fastest) run of each concrete agent as a timeline: a lane per
    /// component, busy until ready, then waiting for its partner.
    #[command(flatten)]
    timeline: TimelineArgs,
    /// Treat these constants of the model as symbolic parameters (comma-separated, e.g.
    /// `tsend,b`): the parametric analysis then shows how the time depends on them.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    symbolic: Vec<String>,
}

/// Runs an `etccs` command.
pub fn run(cmd: EtccsCommand, out: &mut dyn Write) -> Result<()> {
    let EtccsCommand::Analyse(a) = cmd;
    if a.max_states == 0 {
        return Err(CliError::usage("--max-states must be at least 1"));
    }
    let text = crate::input::read_text(
        &a.model,
        etccs::parse::MAX_INPUT_BYTES,
        "an ETCCS model (`.etccs`)",
        crate::input::MODEL_TOO_LARGE,
    )?;
    let name = a.model.display().to_string();
    let bindings = a
        .consts
        .iter()
        .map(|c| {
            expr::grid::parse_binding(c).map_err(|e| CliError::usage(format!("--const {c}: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let ranges = a
        .map_range
        .iter()
        .map(|r| pictures::parse_range(r))
        .collect::<Result<Vec<_>, _>>()?;
    if a.explain && a.format == EtccsFormat::Thesis {
        return Err(CliError::usage(
            "--explain adds to the readable report, not to the thesis tool's output: use \
             --format text (the default), or --format json, which always lists each step's parties",
        ));
    }
    let job = Job {
        agents: a.agent.clone(),
        bindings,
        symbolic: a.symbolic.iter().map(|n| n.trim().to_string()).collect(),
        max_states: a.max_states,
        merge: !a.no_merge,
        want: Want {
            map: a.map.is_some(),
            witnesses: a.explain || a.timeline.wanted(),
            plot: a.plot.is_some(),
        },
        ..Job::new(&name, &text)
    };
    // Output paths are checked before the analyses: a typo must not cost a long run.
    a.timeline.check()?;
    for path in [&a.map, &a.plot, &a.csv].into_iter().flatten() {
        crate::error::check_output(path)?;
    }
    // Every assignment's model first: a value the model rejects fails before any analysis.
    let plan = job.plan().map_err(|e| job_error(e, &name, &a.agent))?;
    let ticker = Ticker::new(plan.analyses(), ETCCS_UNITS);
    let space = plan.space().clone();
    let results = with_spinner(&ticker, || plan.run(&Ticking(&ticker)))
        .map_err(|e| job_error(e, &name, &a.agent))?;
    match results {
        Results::One(one) => write_one(&a, one, &ranges, out),
        Results::Table(table) => write_sweep(&a, &name, &space, &table, out),
    }
}

/// The output of one analysis run: the map, the timelines, the report, the explained runs
/// and the CSV.
fn write_one(a: &AnalyseArgs, one: One, ranges: &[AxisRange], out: &mut dyn Write) -> Result<()> {
    if let Some(path) = &a.map {
        let Some(target) = one.map_target() else {
            return Err(CliError::usage(
                "--map needs exactly one parametric agent: choose it with --agent NAME",
            ));
        };
        pictures::write_map(target, ranges, path)?;
    }
    if a.timeline.wanted() {
        let Some(tr) = one.witness_trace() else {
            return Err(CliError::usage(
                "--trace and --gantt draw the runs of a terminating concrete agent: none was analysed",
            ));
        };
        a.timeline
            .write(&tr, &crate::timeline::chart(&tr.name, "time"))?;
    }
    let s = match a.format {
        EtccsFormat::Json => crate::error::json_text(&etccs::reports_json(&one.reports))?,
        EtccsFormat::Thesis => etccs::output::reports_text(&one.reports, true),
        EtccsFormat::Text => etccs::output::reports_text(&one.reports, false),
    };
    out.write_all(s.as_bytes()).map_err(CliError::Stdout)?;
    if a.explain && a.format == EtccsFormat::Text {
        out.write_all(etccs::witness::explained_text(&one.reports).as_bytes())
            .map_err(CliError::Stdout)?;
    }
    if let Some(path) = &a.csv {
        write_csv(path, &one.into_rows())?;
    }
    Ok(())
}

/// The output of a sweep: the table, the CSV and the plot; a table with rows that stopped
/// at a limit is printed, and the run still fails.
fn write_sweep(
    a: &AnalyseArgs,
    name: &str,
    space: &sweep::Space,
    table: &Table,
    out: &mut dyn Write,
) -> Result<()> {
    // The table first: a plot that cannot be drawn or written does not cost the results.
    let rows = &table.rows;
    let s = match a.format {
        EtccsFormat::Json => {
            crate::error::json_text(&etccs::table::table_json(rows, &stopped_note))?
        }
        EtccsFormat::Thesis => etccs::table::table_thesis(rows, &stopped_note),
        EtccsFormat::Text => etccs::table::table_text(rows, &stopped_note),
    };
    out.write_all(s.as_bytes()).map_err(CliError::Stdout)?;
    if let Some(path) = &a.csv {
        write_csv(path, rows)?;
    }
    if let Some(path) = &a.plot {
        pictures::write_plot(name, space, &table.columns(), path)?;
    }
    let stopped = table.stopped();
    if stopped > 0 {
        return Err(CliError::with_help(
            format!(
                "{stopped} of {} analyses stopped at a limit (the rows marked in the table)",
                table.cells()
            ),
            "raise the limit named in those rows (e.g. --max-states), or narrow the sweep",
        ));
    }
    Ok(())
}

/// The progress display as the job's watcher.
struct Ticking<'a>(&'a Ticker);

impl Watch for Ticking<'_> {
    fn begin(&self, label: String, meter: Arc<sweep::Meter>) -> usize {
        self.0.begin(label, meter)
    }
    fn end(&self, slot: usize) {
        self.0.end(slot);
    }
}

/// What the progress display calls an ETCCS analysis's phases and count.
const ETCCS_UNITS: Units = Units {
    running: "exploring",
    analysing: "analysing",
    noun: "states",
};

/// A job's error as the command reports it, with the flags that change it; `agents` are the
/// names given with `--agent`.
fn job_error(e: JobError, name: &str, agents: &[String]) -> CliError {
    match e {
        // A name given by a flag that the model does not declare is a usage error.
        JobError::Model {
            error: etccs::Error::Syntax(s),
            ..
        } if matches!(s.kind, SyntaxKind::UnknownOverride | SyntaxKind::UnknownSymbolic) => {
            let flag = match s.kind {
                SyntaxKind::UnknownOverride => "-D/--const",
                _ => "--symbolic",
            };
            CliError::usage(format!("{flag}: {}: {}", name, s.message))
        }
        JobError::Analysis(etccs::Error::UnknownAgent(agent)) if agents.contains(&agent) => {
            CliError::usage(format!(
                "--agent {agent}: `{name}` defines no agent `{agent}`"
            ))
        }
        JobError::BoundAndSymbolic(n) => CliError::usage(format!(
            "`{n}` is given a value with --const and made symbolic with --symbolic: use one \
             of them for a name"
        )),
        // A limit hit (status 1), as every command's.
        JobError::Space(sweep::SpaceError::TooManyPoints { points, reached }) => {
            CliError::with_help(
                format!(
                    "-D/--const: the sweep has {points} points, more than the limit of {}",
                    reached.value
                ),
                "use fewer values or coarser steps",
            )
        }
        JobError::Space(other) => CliError::usage(format!("-D/--const: {other}")),
        JobError::MapOfSweep => {
            CliError::usage("--map draws one analysis: give --const single values")
        }
        JobError::WitnessOfSweep => CliError::usage(
            "--explain, --trace and --gantt show the runs of one analysis: give --const single values",
        ),
        JobError::Plot(e) => pictures::plot_error(e),
        // In a sweep, a model that fails at one value says which.
        JobError::Model { at, error } => match failure(error) {
            CliError::Report(r) if !at.is_empty() => {
                CliError::Report(r.wrap_err(format!("`{name}` with {at}")))
            }
            f => f,
        },
        JobError::NoAnalyse { agents } => CliError::with_help(
            format!("`{name}` has no `analyse` line"),
            format!(
                "add `analyse NAME` to the file or pass --agent NAME; agents: {}",
                agents.join(", ")
            ),
        ),
        JobError::Analysis(e) => failure(e),
    }
}

/// What a table row says of an analysis that stopped at a limit, with the flag that
/// raises it.
fn stopped_note(st: Stopped) -> String {
    match st {
        Stopped::States(n) => format!(
            "stopped: more than {n} states (raise {})",
            crate::limits::flag(sweep::Limit::States)
        ),
        Stopped::Depth(n) => format!("stopped: a state nested deeper than {n} levels"),
        Stopped::Solver => {
            "stopped: the constraint solver gave up on a system too large to eliminate".to_string()
        }
    }
}

/// Writes the rows as CSV (see `--csv`).
fn write_csv(path: &std::path::Path, points: &[etccs::table::Row]) -> Result<()> {
    let csv = etccs::table::table_csv(points).to_string();
    Ok(crate::error::write_file(path, csv.as_bytes())?)
}

/// An analysis error as the command reports it: a state-limit error names the flag.
fn failure(e: etccs::Error) -> CliError {
    match e {
        etccs::Error::Limit { agent, reached } => CliError::with_help(
            format!(
                "exploring `{agent}` produced more than {} states",
                reached.value
            ),
            format!(
                "{}, restrict more channels, or simplify the model",
                crate::limits::raise(&reached)
            ),
        ),
        e @ etccs::Error::Symbolic { .. } => CliError::with_help(
            e.to_string(),
            "give the parameters values with --const NAME=VALUE",
        ),
        e @ etccs::Error::SolverLimit { .. } => CliError::with_help(
            e.to_string(),
            "use fewer symbolic parameters (--symbolic), or give some of them values with \
             --const NAME=VALUE",
        ),
        e => CliError::Report(e.into()),
    }
}
