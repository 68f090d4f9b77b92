//! What a front end shows of a [`Job`](crate::job::Job): its results in a chosen
//! [`Format`] with the pictures and the CSV asked for ([`Results::show`]), and every error
//! as a message and advice ([`Keyed`]) that name the job's inputs by neutral keys, as
//! [`diag::Advice`] does: `{define}` and `{const}` (values of constants), `{symbolic}`,
//! `{agent}`, `{max-states}`, `{map}`, `{map-range}`, `{plot}`, `{explain}`, `{trace}`,
//! `{gantt}`, `{format}`.
//!
//! ```
//! use etccs::job::Job;
//! use etccs::present::{Format, Outputs};
//! let text = "const t = 2;\nagent A = tau@t . nil;\nanalyse A";
//! let results = Job::new("m.etccs", text).run()?;
//! let out = Outputs { format: Format::Thesis, csv: true, ..Outputs::default() };
//! let shown = results.show(&out, &|_| None).unwrap();
//! assert!(shown.text.contains("Execution times are:\n2\n"));
//! assert!(shown.csv.unwrap().starts_with("agent,states,min,max,mean,limit\n"));
//! # Ok::<(), etccs::job::JobError>(())
//! ```

use sweep::SpaceError;

use crate::error::SyntaxKind;
use crate::job::{JobError, Results};
use crate::plot::{region_map_svg, times_svg, AxisRange, PlotError};
use crate::{Error, Stopped};

diag::choices! {
    /// How the results are written.
    #[derive(Default)]
    pub enum Format {
        /// Readable text.
        #[default]
        Text = "text": "Readable text",
        /// The thesis tool's output.
        Thesis = "thesis": "The thesis tool's output",
        /// JSON.
        Json = "json": "JSON",
    }
}

/// An error as a front end shows it: the message and the advice, naming inputs by keys.
pub use diag::Keyed;

/// What a table row says of an analysis that stopped at a limit, naming the input that
/// raises it.
pub fn stopped_note(st: Stopped) -> String {
    match st {
        Stopped::States(n) => format!("stopped: more than {n} states (raise {{max-states}})"),
        Stopped::Depth(n) => format!("stopped: a state nested deeper than {n} levels"),
        Stopped::Solver => {
            "stopped: the constraint solver gave up on a system too large to eliminate".to_string()
        }
    }
}

/// Parses a map axis range `NAME=LO..HI` in the `-D` grammar (numbers may be decimals;
/// `LO < HI`, `HI > 0`; `LO` below 0 is taken as 0).
///
/// # Errors
/// What is wrong, starting with the text given.
pub fn parse_range(s: &str) -> Result<AxisRange, String> {
    let bad = |why: &str| format!("{s}: {why}; expected NAME=LO..HI, e.g. b=0..2");
    let (name, values) = expr::grid::parse_binding(s).map_err(|e| bad(&e.to_string()))?;
    let expr::grid::Values::Range { lo, hi, .. } = values else {
        return Err(bad("not a range"));
    };
    let (lo, hi) = (expr::number::to_f64(&lo), expr::number::to_f64(&hi));
    if lo >= hi || hi <= 0.0 {
        return Err(bad("the range must be increasing and reach above 0"));
    }
    Ok(AxisRange {
        name: name.to_string(),
        lo: lo.max(0.0),
        hi,
    })
}

impl PlotError {
    /// The error as a front end shows it.
    pub fn keyed(&self) -> Keyed {
        match self {
            PlotError::NotSwept => Keyed::usage(
                "{plot} draws times against a swept constant: give a range or list, e.g. \
                 {const} p=2..8",
            ),
            PlotError::TooManyGroups { max } => Keyed::usage(format!(
                "{{plot}} draws one line per value of the constants swept after the first \
                 (at most {max}): sweep fewer values"
            )),
            PlotError::NothingToDraw => Keyed::usage(
                "{plot}: no analysis of the sweep has execution times to draw (parametric, \
                 non-terminating and stopped analyses have none); choose agents with {agent} NAME",
            ),
            PlotError::TooManyLines { lines, max } => Keyed::usage(format!(
                "{{plot}} would draw {lines} lines (at most {max}): choose agents with \
                 {{agent}} NAME or sweep fewer constants"
            )),
            e @ PlotError::FreeParameters { .. } => Keyed::fix(
                format!("{{map}}: {}", diag::literal(&e.to_string())),
                "give the other parameters values with {const} NAME=VALUE",
            ),
            PlotError::UnknownAxis { name, agent, free } => Keyed::usage(format!(
                "{{map-range}} {}: not a free parameter of `{}` (free: {})",
                diag::literal(name),
                diag::literal(agent),
                diag::literal(&free.join(", "))
            )),
            PlotError::Render(e) => Keyed::fix(
                format!("cannot draw the picture: {}", diag::literal(&e.to_string())),
                "",
            ),
        }
    }
}

impl Error {
    /// The error as a front end shows it when it is about the job's inputs (a limit, values
    /// the analysis needs); `None` for an error in the model, shown with its source.
    pub fn keyed(&self) -> Option<Keyed> {
        Some(match self {
            Error::Limit { agent, reached } => Keyed::fix(
                format!(
                    "exploring `{}` produced more than {} states",
                    diag::literal(agent),
                    reached.value
                ),
                format!(
                    "raise {{max-states}} (now {}), restrict more channels, or simplify the model",
                    reached.value
                ),
            ),
            e @ Error::Symbolic { .. } => Keyed::fix(
                diag::literal(&e.to_string()),
                "give the parameters values with {const} NAME=VALUE",
            ),
            e @ Error::SolverLimit { .. } => Keyed::fix(
                diag::literal(&e.to_string()),
                "use fewer symbolic parameters ({symbolic}), or give some of them values with \
                 {const} NAME=VALUE",
            ),
            _ => return None,
        })
    }
}

impl JobError {
    /// The error as a front end shows it; `model` is the model's name, `agents` the agents
    /// the job named. `None` for an error in the model (shown with its source; in a sweep,
    /// say at which values).
    pub fn keyed(&self, model: &str, agents: &[String]) -> Option<Keyed> {
        Some(match self {
            JobError::Model {
                error: Error::Syntax(s),
                ..
            } if matches!(s.kind, SyntaxKind::UnknownOverride | SyntaxKind::UnknownSymbolic) => {
                let key = match s.kind {
                    SyntaxKind::UnknownOverride => "{define}/{const}",
                    _ => "{symbolic}",
                };
                let (model, message) = (diag::literal(model), diag::literal(&s.message));
                Keyed::usage(format!("{key}: {model}: {message}"))
            }
            JobError::Analysis(Error::UnknownAgent(agent)) if agents.contains(agent) => {
                let (agent, model) = (diag::literal(agent), diag::literal(model));
                Keyed::usage(format!(
                    "{{agent}} {agent}: `{model}` defines no agent `{agent}`"
                ))
            }
            JobError::BoundAndSymbolic(n) => Keyed::usage(format!(
                "`{}` is given a value with {{const}} and made symbolic with {{symbolic}}: use \
                 one of them for a name",
                diag::literal(n)
            )),
            // A limit hit (a failure of the run, not of the request), as every sweep's.
            JobError::Space(SpaceError::TooManyPoints { points, reached }) => Keyed::fix(
                format!(
                    "{{define}}/{{const}}: the sweep has {points} points, more than the limit of {}",
                    reached.value
                ),
                "use fewer values or coarser steps",
            ),
            JobError::Space(other) => Keyed::usage(format!(
                "{{define}}/{{const}}: {}",
                diag::literal(&other.to_string())
            )),
            JobError::MapOfSweep => {
                Keyed::usage("{map} draws one analysis: give {const} single values")
            }
            JobError::WitnessOfSweep => Keyed::usage(
                "{explain}, {trace} and {gantt} show the runs of one analysis: give {const} \
                 single values",
            ),
            JobError::Plot(e) => e.keyed(),
            JobError::NoAnalyse { agents } => Keyed::fix(
                format!("`{}` has no `analyse` line", diag::literal(model)),
                format!(
                    "add `analyse NAME` to the file or pass {{agent}} NAME; agents: {}",
                    diag::literal(&agents.join(", "))
                ),
            ),
            JobError::Model { error, .. } | JobError::Analysis(error) => error.keyed()?,
        })
    }

    /// The error as a front end shows it: [`JobError::keyed`], else the model's own
    /// diagnostic (in a sweep, with the assignment it failed at), else the error's text.
    ///
    /// # Errors
    /// The diagnostic of an error in the model, which points into its text.
    pub fn shown(self, model: &str, agents: &[String]) -> Result<Keyed, miette::Report> {
        match (self.keyed(model, agents), self) {
            (Some(k), _) => Ok(k),
            (None, JobError::Model { at, error }) if !at.is_empty() => {
                Err(miette::Report::new(error).wrap_err(format!("`{model}` with {at}")))
            }
            (None, JobError::Model { error, .. } | JobError::Analysis(error)) => Err(error.into()),
            (None, e) => Ok(Keyed::fix(diag::literal(&e.to_string()), "")),
        }
    }
}

/// The values of constants as given (`p=4`, `p=2..8`), parsed
/// ([`expr::grid::parse_binding`]) for [`Job::bindings`](crate::job::Job::bindings).
///
/// # Errors
/// The first that does not parse, a usage error after its input (`{const} p=: …`).
pub fn bindings(given: &[String]) -> Result<Vec<(expr::Name, expr::grid::Values)>, Keyed> {
    let parse = |c: &String| {
        expr::grid::parse_binding(c).map_err(|e| {
            let (c, e) = (diag::literal(c), diag::literal(&e.to_string()));
            Keyed::usage(format!("{{const}} {c}: {e}"))
        })
    };
    given.iter().map(parse).collect()
}

/// The map's axis ranges as given (`b=0..2`), parsed ([`parse_range`]).
///
/// # Errors
/// The first that does not parse, a usage error after its input (`{map-range} b=2..1: …`).
pub fn ranges(given: &[String]) -> Result<Vec<AxisRange>, Keyed> {
    let parse = |r: &String| {
        parse_range(r).map_err(|e| Keyed::usage(format!("{{map-range}} {}", diag::literal(&e))))
    };
    given.iter().map(parse).collect()
}

/// What a front end asks to see of the results.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// The report's format.
    pub format: Format,
    /// With [`Format::Text`]: the fastest and slowest runs step by step after the report.
    pub explain: bool,
    /// The region map of the one parametric agent, over these axis ranges.
    pub map: Option<Vec<AxisRange>>,
    /// The witness runs as a timeline.
    pub timeline: bool,
    /// The times plot of a sweep, titled with this model name.
    pub plot: Option<String>,
    /// The results as CSV.
    pub csv: bool,
}

impl Outputs {
    /// Checks that the outputs go together: the explained runs add to the readable report.
    ///
    /// # Errors
    /// A usage error naming the inputs.
    pub fn check(&self) -> Result<(), Keyed> {
        match self.explain && self.format == Format::Thesis {
            true => Err(Keyed::usage(
                "{explain} adds to the readable report, not to the thesis tool's output: use \
                 {format} text (the default), or {format} json, which always lists each step's \
                 parties",
            )),
            false => Ok(()),
        }
    }

    /// What the job must be ready to draw for these outputs.
    pub fn want(&self) -> crate::job::Want {
        crate::job::Want {
            map: self.map.is_some(),
            witnesses: self.explain || self.timeline,
            plot: self.plot.is_some(),
        }
    }
}

/// The results as shown: the report and what else was asked for.
#[derive(Debug, Default)]
pub struct Shown {
    /// The report (text, the thesis tool's, or JSON).
    pub text: String,
    /// The region map (SVG).
    pub map: Option<String>,
    /// The witness runs' timeline, or why there is none.
    pub timeline: Option<Result<trace::Trace, Keyed>>,
    /// The results as CSV, one row per assignment and agent.
    pub csv: Option<String>,
    /// The times plot (SVG), or why it cannot be drawn.
    pub plot: Option<Result<String, Keyed>>,
    /// Analyses of a sweep stopped at a limit: the run fails after the table is shown.
    pub failure: Option<Keyed>,
}

impl Results {
    /// The results as `out` asks, stopped rows noted by [`stopped_note`] with its keys
    /// spelt by `spell` ([`diag::spell_keys`]).
    ///
    /// # Errors
    /// A map that cannot be drawn (no single parametric agent, an axis that is not one of
    /// its free parameters), JSON that cannot be encoded.
    pub fn show(
        self,
        out: &Outputs,
        spell: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Shown, Keyed> {
        let json = |v: serde_json::Value| {
            serde_json::to_string_pretty(&v)
                .map(|s| s + "\n")
                .map_err(|e| Keyed::fix(format!("cannot encode JSON: {e}"), ""))
        };
        let mut shown = Shown::default();
        match self {
            Results::One(one) => {
                if let Some(ranges) = &out.map {
                    let Some(target) = one.map_target() else {
                        return Err(Keyed::usage(
                            "{map} needs exactly one parametric agent: choose it with {agent} NAME",
                        ));
                    };
                    shown.map = Some(region_map_svg(target, ranges).map_err(|e| e.keyed())?);
                }
                shown.timeline = out.timeline.then(|| {
                    one.witness_trace().ok_or_else(|| {
                        Keyed::usage(
                            "{trace} and {gantt} draw the runs of a terminating concrete agent: \
                             none was analysed",
                        )
                    })
                });
                shown.text = match out.format {
                    Format::Json => json(crate::reports_json(&one.reports))?,
                    f => crate::output::reports_text(&one.reports, f == Format::Thesis),
                };
                if out.explain && out.format == Format::Text {
                    shown
                        .text
                        .push_str(&crate::witness::explained_text(&one.reports));
                }
                let rows = one.into_rows();
                shown.csv = out.csv.then(|| crate::table::table_csv(&rows).to_string());
            }
            Results::Table(table) => {
                let note = |st: Stopped| diag::spell_keys(&stopped_note(st), spell);
                let rows = &table.rows;
                shown.text = match out.format {
                    Format::Json => json(crate::table::table_json(rows, &note))?,
                    Format::Thesis => crate::table::table_thesis(rows, &note),
                    Format::Text => crate::table::table_text(rows, &note),
                };
                shown.csv = out.csv.then(|| crate::table::table_csv(rows).to_string());
                shown.plot = out.plot.as_ref().map(|model| {
                    times_svg(model, &table.space, &table.columns()).map_err(|e| e.keyed())
                });
                let stopped = table.stopped();
                shown.failure = (stopped > 0).then(|| {
                    Keyed::fix(
                        format!(
                            "{stopped} of {} analyses stopped at a limit (the rows marked in the \
                             table)",
                            table.cells()
                        ),
                        "raise the limit named in those rows (e.g. {max-states}), or narrow the \
                         sweep",
                    )
                });
            }
        }
        Ok(shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::Job;

    #[test]
    fn ranges_and_notes() {
        let r = parse_range("b=-1..2.5").unwrap();
        assert_eq!((r.name.as_str(), r.lo, r.hi), ("b", 0.0, 2.5));
        assert!(parse_range("b=1").unwrap_err().contains("not a range"));
        assert!(parse_range("b=-2..-1").unwrap_err().contains("above 0"));
        let spell = |k: &str| Some(format!("--{k}"));
        let note = diag::spell_keys(&stopped_note(Stopped::States(10)), &spell);
        assert_eq!(note, "stopped: more than 10 states (raise --max-states)");
    }

    #[test]
    fn errors_about_the_inputs_are_keyed_and_the_models_are_not() {
        let text = "const t = 2;\nagent A = tau@t . nil;\nanalyse A";
        let job = Job {
            agents: vec!["B".into()],
            ..Job::new("m.etccs", text)
        };
        let e = job.run().unwrap_err();
        let k = e.keyed("m.etccs", &job.agents).unwrap();
        assert_eq!(k.message, "{agent} B: `m.etccs` defines no agent `B`");
        assert!(k.advice.usage);
        let bad = Job::new("m.etccs", "agent A = ;").run().unwrap_err();
        assert_eq!(bad.keyed("m.etccs", &[]), None);
    }

    #[test]
    fn a_sweep_with_stopped_rows_fails_after_its_table() {
        let text = "const n = 1;\nagent A = tau@n . tau@n . tau@n . nil;\nanalyse A";
        let job = Job {
            bindings: vec![expr::grid::parse_binding("n=1..2").unwrap()],
            max_states: 2,
            ..Job::new("m.etccs", text)
        };
        let shown = job.run().unwrap().show(&Outputs::default(), &|_| None);
        let shown = shown.unwrap();
        assert!(shown.text.contains("raise max-states"), "{}", shown.text);
        assert!(shown
            .failure
            .unwrap()
            .message
            .starts_with("2 of 2 analyses"));
    }

    #[test]
    fn values_given_are_parsed_or_refused_after_their_input() {
        assert_eq!(bindings(&["p=2..4".into()]).unwrap().len(), 1);
        let e = bindings(&["p=2".into(), "p={x}".into()]).unwrap_err();
        assert!(e.message.starts_with("{const} p={{x}}: "), "{}", e.message);
        assert!(e.advice.usage);
        let e = ranges(&["b=2..1".into()]).unwrap_err();
        assert!(
            e.message.starts_with("{map-range} b=2..1: "),
            "{}",
            e.message
        );
        let e = Job::new("m.etccs", "agent A = tau@1 . nil;")
            .run()
            .unwrap_err();
        let keyed = e.shown("m.etccs", &[]).expect("no analyse line is keyed");
        assert!(
            keyed.message.contains("no `analyse` line"),
            "{}",
            keyed.message
        );
        let e = Job::new("m.etccs", "agent A = ").run().unwrap_err();
        assert!(
            e.shown("m.etccs", &[]).is_err(),
            "a syntax error keeps its diagnostic"
        );
    }
}
