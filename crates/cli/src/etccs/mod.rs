//! `vates etccs analyse`: execution times of Eager Timed CCS agents (MacDonald); the manual
//! is in `docs/cli.md`.

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;

use crate::error::{flag_of, print, CliError, Result};
use crate::timeline::TimelineArgs;
use etccs::job::{Job, JobError};
use etccs::present::{self, Format, Outputs};
use termio::files::{check_outputs, write_given};
use termio::progress::{with_spinner, Ticker};

/// The `vates etccs` commands.
#[derive(Subcommand, Debug)]
pub enum EtccsCommand {
    /// Execution-time multiset and distribution, extremes and outcome of ETCCS agents.
    #[command(alias = "analyze")]
    Analyse(AnalyseArgs),
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
    #[arg(long, default_value = "text", value_parser = crate::input::choice::<Format>())]
    format: Format,
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
    let (what, too_large) = ("an ETCCS model (`.etccs`)", crate::input::MODEL_TOO_LARGE);
    let text = crate::input::read_text(&a.model, etccs::parse::MAX_INPUT_BYTES, what, too_large)?;
    let name = a.model.display().to_string();
    let bindings = present::bindings(&a.consts)?;
    let ranges = present::ranges(&a.map_range)?;
    let outputs = Outputs {
        format: a.format,
        explain: a.explain,
        map: a.map.as_ref().map(|_| ranges),
        timeline: a.timeline.wanted(),
        plot: a.plot.as_ref().map(|_| name.clone()),
        csv: a.csv.is_some(),
    };
    outputs.check()?;
    let job = Job {
        agents: a.agent.clone(),
        bindings,
        symbolic: a.symbolic.iter().map(|n| n.trim().to_string()).collect(),
        max_states: a.max_states,
        merge: !a.no_merge,
        want: outputs.want(),
        ..Job::new(&name, &text)
    };
    // Output paths are checked before the analyses: a typo must not cost a long run.
    a.timeline.check()?;
    check_outputs([&a.map, &a.plot, &a.csv])?;
    // Every assignment's model first: a value the model rejects fails before any analysis.
    let error = |e: JobError| match e.shown(&name, &a.agent) {
        Ok(keyed) => CliError::from(keyed),
        Err(diagnostic) => CliError::Report(diagnostic),
    };
    let plan = job.plan().map_err(error)?;
    let ticker = Ticker::new(plan.analyses(), etccs::job::METER_UNITS);
    let watch = (|l, m| ticker.begin(l, m), |slot| ticker.end(slot));
    let results = with_spinner(&ticker, || plan.run(&watch)).map_err(error)?;
    let shown = results.show(&outputs, &flag_of)?;
    // The report first (after the map and timeline of one analysis): a plot that cannot be
    // drawn or written does not cost the results.
    write_given(a.map.as_deref(), shown.map.as_deref())?;
    if let Some(tr) = shown.timeline.transpose()? {
        a.timeline
            .write(&tr, &crate::timeline::chart(&tr.name, "time"))?;
    }
    print(out, &shown.text)?;
    write_given(a.csv.as_deref(), shown.csv.as_deref())?;
    write_given(a.plot.as_deref(), shown.plot.transpose()?.as_deref())?;
    shown.failure.map_or(Ok(()), |f| Err(f.into()))
}
