//! `vates pamela sweep`: T^l (and φ, ω) and/or simulated T over a grid of parameter values,
//! on the shared sweep runner ([`sweep::run`]): the point function and the columns are
//! PAMELA's ([`pamela::evaluate`]), the grid, the chunked evaluation and the sinks are the
//! runner's.

use std::io::Write;

use expr::grid::Values;
use expr::Name;
use pamela::evaluate::{Engines, PointError, SweepPoints};
use pamela::report::{sweep_text, SweepJson};
use sweep::{OnError, Sample, Space, SpaceError};

use super::{Engine, SimFlags};
use crate::error::{CliError, Result};
use crate::input::Define;
use crate::Format;
use pamela::Loaded;
use termio::sweep_out::{self, Wiring};

/// The largest grid with the `sim` engine.
pub const MAX_POINTS_SIM: u64 = 10_000_000;
/// The largest grid with the `bound` engine alone.
pub const MAX_POINTS_BOUND: u64 = 100_000_000;
/// At most this many rows in the text table (an even sample of a larger grid).
pub const MAX_TEXT_ROWS: u64 = 60;
/// The most points in a JSON document on standard output (every point is held until the
/// document is written; `--csv` streams any number).
pub const MAX_JSON_POINTS: u64 = 1_000_000;
/// Points per chunk with the bound engine alone.
const CHUNK_BOUND: u64 = 1 << 16;

/// What `sweep` does besides evaluating.
pub struct Options {
    /// The engines to run.
    pub engines: Vec<Engine>,
    /// The output flags.
    pub output: crate::SweepOutput,
    /// Simulator options.
    pub sim: SimFlags,
}

/// Runs the command.
pub fn run(loaded: &Loaded, defines: &[Define], opts: &Options, out: &mut dyn Write) -> Result<()> {
    let model = &loaded.model;
    let use_bound = opts.engines.contains(&Engine::Bound);
    let use_sim = opts.engines.contains(&Engine::Sim);
    let limit = if use_sim {
        MAX_POINTS_SIM
    } else {
        MAX_POINTS_BOUND
    };
    let bindings: Vec<(Name, Values)> = defines
        .iter()
        .map(|d| (d.name.clone(), d.values.clone()))
        .collect();
    let space = Space::new(bindings, limit).map_err(|e| match e {
        SpaceError::TooManyPoints { points, .. } => {
            let (engine, help) = if use_sim {
                (
                    " with the sim engine",
                    "use fewer values or coarser steps, or --engine bound (up to 10^8 points)",
                )
            } else {
                ("", "use fewer values or coarser steps")
            };
            CliError::with_help(
                format!("the sweep has {points} points, more than the limit of {limit}{engine}"),
                help,
            )
        }
        other => CliError::usage(other.to_string()),
    })?;
    // Output paths are checked before the sweep: a typo must not cost a long run.
    let engines = Engines {
        bound: use_bound,
        sim: use_sim,
    };
    let sim_opts = use_sim.then(|| opts.sim.options(false));
    let points = SweepPoints::new(model, loaded.root, &space, use_bound, sim_opts)?;
    let columns = engines.columns();
    let json = opts.output.format == Format::Json;
    if json && space.len() > MAX_JSON_POINTS {
        return Err(CliError::with_help(
            format!(
                "the sweep has {} points, more than the {MAX_JSON_POINTS} a JSON document on \
                 standard output holds",
                space.len()
            ),
            "write every point with --csv FILE (and text on standard output), or use fewer \
             values or coarser steps",
        ));
    }
    let sample = if json {
        Sample::all(space.len())
    } else {
        Sample::new(space.len(), MAX_TEXT_ROWS)
    };
    let outputs = opts.output.outputs();
    let wiring = Wiring {
        chunk: Some(if use_sim {
            (rayon::current_num_threads() * 8) as u64
        } else {
            CHUNK_BOUND
        }),
        on_error: if use_sim {
            OnError::Stop
        } else {
            OnError::Skip
        },
        ..Wiring::new(&outputs, sample, engines.lines(), "sweeping")
    };
    let point = |k: u64, vals: &[f64], out: &mut [f64]| points.eval(&space, k, vals, out);
    let swept = sweep_out::run(&space, &columns, wiring, point)?;
    let swept = match swept.stopped {
        Some((point, error)) => {
            if json {
                let _ = write_json(out, &space, opts, &columns, &swept.table);
            }
            return Err(match error {
                PointError::Sim(e) => CliError::from(e),
                PointError::Bound(u) => CliError::with_help(
                    format!(
                        "the bound is undefined at {}: {u}; the sweep stopped there",
                        space.describe_point(point)
                    ),
                    UNDEFINED_HELP,
                ),
            });
        }
        None => swept,
    };
    if let Some(l) = &swept.lines {
        if l.dropped_groups() {
            crate::error::note(&format!(
                "note: the plot shows the first {} combinations of the other swept \
                 parameters; the CSV has every point",
                l.max_groups()
            ));
        }
        let x_label = l
            .x_axis()
            .map_or("point".to_string(), |a| space.axes()[a].name().to_string());
        let title = format!(
            "{} ({}): time vs {x_label}",
            loaded.label(),
            loaded.root_name()
        );
        swept.write_plot(&title, &x_label, "time")?;
    }
    let sample = &swept.table;
    if json {
        write_json(out, &space, opts, &columns, sample)?;
    } else {
        let mut text = sweep_text(model, loaded.root, &space, sample, engines);
        text.push_str(&crate::sample_note(sample, space.len()));
        out.write_all(text.as_bytes()).map_err(CliError::Stdout)?;
    }
    // Points where the model is undefined fail the sweep, as they fail a simulation.
    let (failed, first_failure) = swept.skipped;
    match first_failure {
        Some((p, PointError::Bound(u))) => Err(CliError::with_help(
            format!(
                "the bound is undefined at {} point(s) of the sweep (their rows have no \
                 value); first at {}: {u}",
                failed,
                space.describe_point(p)
            ),
            UNDEFINED_HELP,
        )),
        Some((_, PointError::Sim(e))) => Err(CliError::from(e)),
        None => Ok(()),
    }
}

/// Writes the sweep's rows (all of them in `rows`) as one pretty JSON document
/// ([`SweepJson`]).
fn write_json(
    out: &mut dyn Write,
    space: &Space,
    opts: &Options,
    columns: &[String],
    rows: &Sample,
) -> Result<()> {
    let engines = opts
        .engines
        .iter()
        .map(|e| match e {
            Engine::Bound => "bound",
            Engine::Sim => "sim",
        })
        .collect();
    let doc = SweepJson::new(space, engines, columns, rows.rows());
    let text = crate::error::json_text(&doc)?;
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// The hint for points where the bound is undefined.
const UNDEFINED_HELP: &str = "the simulator rejects these points too; change the -D ranges or \
                              guard the model's expressions with `if`";
