//! `vates etccs analyse`: execution times of Eager Timed CCS agents (MacDonald); the manual
//! is in `docs/cli.md`.

mod pictures;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Subcommand, ValueEnum};

use crate::error::{CliError, Result};
use crate::progress::{with_spinner, Ticker, Units};
use crate::timeline::TimelineArgs;
use etccs::plot::Times;
use etccs::Stopped;

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
    let opts = Opts {
        concrete: etccs::Options {
            max_states: a.max_states,
            ..etccs::Options::default()
        },
        parametric: etccs::parametric::Options {
            max_states: a.max_states,
            merge: !a.no_merge,
            ..etccs::parametric::Options::default()
        },
        symbolic: a.symbolic.iter().map(|n| n.trim().to_string()).collect(),
    };
    analyse_and_write(&a, &name, &text, &opts, out)
}

/// The analyses of `run` and their output.
fn analyse_and_write(
    a: &AnalyseArgs,
    name: &str,
    text: &str,
    opts: &Opts,
    out: &mut dyn Write,
) -> Result<()> {
    let mut bindings = Vec::with_capacity(a.consts.len());
    for c in &a.consts {
        let b = expr::grid::parse_binding(c)
            .map_err(|e| CliError::usage(format!("--const {c}: {e}")))?;
        if opts.symbolic.iter().any(|n| **n == *b.0) {
            return Err(CliError::usage(format!(
                "`{}` is given a value with --const and made symbolic with --symbolic: use \
                 one of them for a name",
                b.0
            )));
        }
        bindings.push(b);
    }
    let space = sweep::Space::new(bindings, MAX_TABLE_POINTS).map_err(|e| match e {
        sweep::SpaceError::TooManyPoints { points, reached } => CliError::usage(format!(
            "-D/--const: the sweep has {points} points, more than the limit of {}; use fewer \
             values or coarser steps",
            reached.value
        )),
        other => CliError::usage(format!("-D/--const: {other}")),
    })?;
    let ranges = a
        .map_range
        .iter()
        .map(|r| pictures::parse_range(r))
        .collect::<Result<Vec<_>, _>>()?;
    let swept = space.len() > 1;
    if a.map.is_some() && swept {
        return Err(CliError::usage(
            "--map draws one analysis: give --const single values",
        ));
    }
    if a.explain && a.format == EtccsFormat::Thesis {
        return Err(CliError::usage(
            "--explain adds to the readable report, not to the thesis tool's output: use \
             --format text (the default), or --format json, which always lists each step's parties",
        ));
    }
    if swept && (a.explain || a.timeline.wanted()) {
        return Err(CliError::usage(
            "--explain, --trace and --gantt show the runs of one analysis: give --const single values",
        ));
    }
    // One job per agent and assignment, run in parallel; one assignment (or none) gives
    // the full report, several give a table.
    if a.plot.is_some() {
        // A sweep the plot cannot draw fails before any analysis runs.
        etccs::plot::check_sweep(&space).map_err(pictures::plot_error)?;
    }
    // Output paths are checked before the analyses: a typo must not cost a long run.
    a.timeline.check()?;
    for path in [&a.map, &a.plot, &a.csv].into_iter().flatten() {
        crate::error::check_output(path)?;
    }
    // Every assignment's model first: a value the model rejects fails before any analysis.
    let jobs = (0..space.len())
        .map(|k| model_jobs(name, text, &space, k, &a.agent, opts))
        .collect::<Result<Vec<Jobs>>>()?;
    let mut outcomes = run_jobs(&space, &jobs, opts)?;
    if !swept {
        let (point, results) = outcomes.pop().unwrap_or_default();
        let results = results
            .into_iter()
            .map(|(_, o)| o.map_err(failure))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(path) = &a.map {
            let mut maps = results.iter().filter_map(|r| match r {
                etccs::Report::Parametric(p) => Some(p),
                etccs::Report::Concrete(_) => None,
            });
            let (Some(first), None) = (maps.next(), maps.next()) else {
                return Err(CliError::usage(
                    "--map needs exactly one parametric agent: choose it with --agent NAME",
                ));
            };
            pictures::write_map(first, &ranges, path)?;
        }
        write_witnesses(a, &results)?;
        write_results(&results, a.format, out)?;
        if a.explain && a.format == EtccsFormat::Text {
            out.write_all(etccs::witness::explained_text(&results).as_bytes())
                .map_err(CliError::Stdout)?;
        }
        if let Some(path) = &a.csv {
            let agents = a_names(&results)
                .into_iter()
                .zip(results.into_iter().map(Ok));
            write_csv(path, &[(point, agents.collect())])?;
        }
        return Ok(());
    }
    // In a table, an analysis that reached a limit is a cell; any other error ends the run.
    let mut rows: Vec<Point> = Vec::with_capacity(outcomes.len());
    for (point, results) in outcomes {
        let mut cells = Vec::with_capacity(results.len());
        for (agent, outcome) in results {
            match outcome {
                Ok(r) => cells.push((agent, Ok(r))),
                Err(e) => match e.stopped() {
                    Some(st) => cells.push((agent, Err(st))),
                    None => return Err(failure(e)),
                },
            }
        }
        rows.push((point, cells));
    }
    // The table first: a plot that cannot be drawn or written does not cost the results.
    write_table(&rows, a.format, out)?;
    if let Some(path) = &a.csv {
        write_csv(path, &rows)?;
    }
    if let Some(path) = &a.plot {
        let cols: Vec<etccs::plot::Column<'_>> = rows
            .iter()
            .map(|(_, results)| etccs::plot::Column {
                agents: results
                    .iter()
                    .map(|(n, o)| (n.as_str(), o.as_ref().ok().and_then(Times::of)))
                    .collect(),
            })
            .collect();
        pictures::write_plot(name, &space, &cols, path)?;
    }
    // A table with rows that stopped at a limit is incomplete: it is printed, and the run
    // still fails.
    let cells = rows.iter().map(|(_, r)| r.len()).sum::<usize>();
    let stopped = rows
        .iter()
        .flat_map(|(_, r)| r)
        .filter(|(_, o)| o.is_err())
        .count();
    if stopped > 0 {
        return Err(CliError::with_help(
            format!(
                "{stopped} of {cells} analyses stopped at a limit (the rows marked in the table)"
            ),
            "raise the limit named in those rows (e.g. --max-states), or narrow the sweep",
        ));
    }
    Ok(())
}

/// The most assignments in a `--const` table.
const MAX_TABLE_POINTS: u64 = 10_000;

/// The analyses of one assignment of the `--const`s: the model parsed at it, and the agents
/// to analyse.
struct Jobs {
    model: etccs::parse::Model,
    agents: Vec<String>,
    /// `p=4, n=2` in a sweep, empty otherwise: what the progress display adds to an agent.
    at: String,
}

/// What one analysis gave.
type Outcome = Result<etccs::Report, etccs::Error>;

/// An assignment and what each agent's analysis gave there.
type Analysed = (Assignment, Vec<(String, Outcome)>);

/// Runs the analyses of every assignment of `space` (`jobs`, one per assignment, parsed
/// before any analysis runs) on the shared sweep runner: the assignments in parallel, and
/// the agents of each in parallel, with a progress display on a terminal for long runs.
fn run_jobs(space: &sweep::Space, jobs: &[Jobs], opts: &Opts) -> Result<Vec<Analysed>> {
    use rayon::prelude::*;
    let total = jobs.iter().map(|j| j.agents.len()).sum();
    let ticker = Ticker::new(total, ETCCS_UNITS);
    let analyse = |jobs: &Jobs| -> Vec<(String, Outcome)> {
        jobs.agents
            .par_iter()
            .map(|agent| {
                let label = if jobs.at.is_empty() {
                    agent.clone()
                } else {
                    format!("{agent} ({})", jobs.at)
                };
                let meter = Arc::new(sweep::Meter::default());
                let slot = ticker.begin(label, Arc::clone(&meter));
                let concrete = etccs::Options {
                    meter: Some(Arc::clone(&meter)),
                    ..opts.concrete.clone()
                };
                let parametric = etccs::parametric::Options {
                    meter: Some(meter),
                    ..opts.parametric.clone()
                };
                let mut model = jobs.model.clone();
                let r = etccs::analyse_report(&mut model, agent, &concrete, &parametric);
                // The model holds every state's term: freeing it is part of the job.
                drop(model);
                ticker.end(slot);
                (agent.clone(), r)
            })
            .collect()
    };
    let mut rows = Vec::with_capacity(jobs.len());
    let eval = sweep::Evaluation {
        chunk: space.len(),
        ..sweep::Evaluation::default()
    };
    with_spinner(&ticker, || {
        sweep::map(
            space,
            &eval,
            |k| Ok::<_, CliError>((space.exact(k), analyse(&jobs[k as usize]))),
            |_, chunk| {
                rows.extend(chunk);
                Ok(())
            },
        )
    })?;
    Ok(rows)
}

/// What the progress display calls an ETCCS analysis's phases and count.
const ETCCS_UNITS: Units = Units {
    running: "exploring",
    analysing: "analysing",
    noun: "states",
};

/// Options of both analyses and the constants made symbolic.
struct Opts {
    concrete: etccs::Options,
    parametric: etccs::parametric::Options,
    symbolic: Vec<String>,
}

/// Parses the model at assignment `k` of `space` and lists the agents to analyse (the
/// `analyse` lines, or `--agent`s).
fn model_jobs(
    name: &str,
    text: &str,
    space: &sweep::Space,
    k: u64,
    agents: &[String],
    opts: &Opts,
) -> Result<Jobs> {
    let point = space.exact(k);
    let overrides: Vec<(&str, etccs::Time)> =
        point.iter().map(|(n, v)| (&**n, v.clone())).collect();
    let at = if space.len() > 1 {
        point
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        String::new()
    };
    let symbolic: Vec<&str> = opts.symbolic.iter().map(String::as_str).collect();
    // In a sweep, a model that fails at one value says which.
    let model =
        etccs::parse::parse_with_symbolic(name, text, &overrides, &symbolic).map_err(|e| {
            match failure(e) {
                CliError::Report(r) if !at.is_empty() => {
                    CliError::Report(r.wrap_err(format!("`{name}` with {at}")))
                }
                f => f,
            }
        })?;
    if agents.is_empty() && model.analyses.is_empty() {
        let names: Vec<&str> = model.agents.iter().map(|(n, _)| n.as_str()).collect();
        return Err(CliError::with_help(
            format!("`{name}` has no `analyse` line"),
            format!(
                "add `analyse NAME` to the file or pass --agent NAME; agents: {}",
                names.join(", ")
            ),
        ));
    }
    let agents = if agents.is_empty() {
        model.analyses.clone()
    } else {
        agents.to_vec()
    };
    Ok(Jobs { model, agents, at })
}

/// One assignment of the `--const`s.
type Assignment = Vec<(expr::Name, expr::Rational)>;

/// The results at one assignment of the swept consts: per agent its report or the limit it
/// reached.
type Point = etccs::table::Row;

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
fn write_csv(path: &std::path::Path, points: &[Point]) -> Result<()> {
    let csv = etccs::table::table_csv(points).to_string();
    crate::error::write_file(path, csv.as_bytes())
}

/// Writes the table of a sweep in `format`.
fn write_table(points: &[Point], format: EtccsFormat, out: &mut dyn Write) -> Result<()> {
    let s = match format {
        EtccsFormat::Json => {
            crate::error::json_text(&etccs::table::table_json(points, &stopped_note))?
        }
        EtccsFormat::Thesis => etccs::table::table_thesis(points, &stopped_note),
        EtccsFormat::Text => etccs::table::table_text(points, &stopped_note),
    };
    out.write_all(s.as_bytes()).map_err(CliError::Stdout)
}

/// Writes the results of one analysis run.
fn write_results(
    results: &[etccs::Report],
    format: EtccsFormat,
    out: &mut dyn Write,
) -> Result<()> {
    let s = match format {
        EtccsFormat::Json => crate::error::json_text(&etccs::reports_json(results))?,
        EtccsFormat::Thesis => etccs::output::reports_text(results, true),
        EtccsFormat::Text => etccs::output::reports_text(results, false),
    };
    out.write_all(s.as_bytes()).map_err(CliError::Stdout)
}

/// The agents' names of single-analysis results.
fn a_names(results: &[etccs::Report]) -> Vec<String> {
    results
        .iter()
        .map(|r| match r {
            etccs::Report::Concrete(a) => a.name.clone(),
            etccs::Report::Parametric(p) => p.name.clone(),
        })
        .collect()
}

/// The concrete analyses among `results`.
fn concrete(results: &[etccs::Report]) -> Vec<&etccs::Analysis> {
    results
        .iter()
        .filter_map(|r| match r {
            etccs::Report::Concrete(a) => Some(&**a),
            etccs::Report::Parametric(_) => None,
        })
        .collect()
}

/// Writes the `--trace` and `--gantt` files of the concrete agents' witness runs.
fn write_witnesses(a: &AnalyseArgs, results: &[etccs::Report]) -> Result<()> {
    if !a.timeline.wanted() {
        return Ok(());
    }
    let runs = concrete(results);
    if runs.iter().all(|r| r.max.is_none()) {
        return Err(CliError::usage(
            "--trace and --gantt draw the runs of a terminating concrete agent: none was analysed",
        ));
    }
    let tr = etccs::witness::trace(&runs);
    a.timeline
        .write(&tr, &crate::timeline::chart(&tr.name, "time"))
}

/// An analysis error as the command reports it: a state-limit error names the flag.
fn failure(e: etccs::Error) -> CliError {
    match e {
        etccs::Error::Limit { agent, max_states } => CliError::with_help(
            format!("exploring `{agent}` produced more than {max_states} states"),
            format!(
                "{}, restrict more channels, or simplify the model",
                crate::limits::raise(&sweep::Reached::new(
                    sweep::Limit::States,
                    max_states as u64
                ))
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
