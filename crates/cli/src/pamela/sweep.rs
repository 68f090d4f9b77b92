//! `vates pamela sweep`: T^l (and φ, ω) and/or simulated T over a grid of parameter values,
//! on the shared sweep runner ([`sweep::run`]): the point function and the columns are
//! PAMELA's ([`pamela::evaluate`]), the grid, the chunked evaluation and the sinks are the
//! runner's.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use expr::grid::Values;
use expr::Name;
use pamela::evaluate::{check_space, simulate_point, BoundPoints, Undefined};
use pamela::ModelError;
use sweep::{
    CsvSink, Evaluation, JsonLayout, JsonSink, LineSpec, Lines, LinesConfig, OnError, RunError,
    Sample, Sink, Space, SpaceError, TextColumn,
};

use super::{Engine, SimFlags};
use crate::error::{write_file, CliError, Result};
use crate::input::{Define, Loaded};
use crate::Format;

/// The largest grid with the `sim` engine.
pub const MAX_POINTS_SIM: u64 = 10_000_000;
/// The largest grid with the `bound` engine alone.
pub const MAX_POINTS_BOUND: u64 = 100_000_000;
/// At most this many rows in the text table (an even sample of a larger grid).
pub const MAX_TEXT_ROWS: u64 = 60;
/// Points per chunk with the bound engine alone.
const CHUNK_BOUND: u64 = 1 << 16;

/// What `sweep` does besides evaluating.
pub struct Options {
    /// The engines to run.
    pub engines: Vec<Engine>,
    /// CSV output file.
    pub csv: Option<PathBuf>,
    /// SVG plot output file.
    pub plot: Option<PathBuf>,
    /// Output format on standard output.
    pub format: Format,
    /// Simulator options.
    pub sim: SimFlags,
}

/// Why a point failed.
enum PointError {
    Bound(Undefined),
    Sim(Box<ModelError>),
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
    check_space(model, &space)?;
    let bound = match use_bound {
        true => Some(BoundPoints::compile(model, loaded.root, &space)?),
        false => None,
    };
    let sim_opts = opts.sim.options(false);
    let mut columns: Vec<String> = Vec::new();
    if use_bound {
        columns.extend(["bound", "phi", "omega"].map(String::from));
    }
    if use_sim {
        columns.push("sim".to_string());
    }

    // The sinks, in the order of `names` (for write errors).
    let mut names: Vec<Option<&PathBuf>> = Vec::new();
    let mut csv = match &opts.csv {
        Some(path) => {
            let f = std::fs::File::create(path).map_err(|e| CliError::write(path, &e))?;
            Some(CsvSink::new(BufWriter::new(f)))
        }
        None => None,
    };
    let json = opts.format == Format::Json;
    if json {
        let params: Vec<&str> = space.axes().iter().map(|a| &**a.name()).collect();
        let engines: Vec<&str> = opts
            .engines
            .iter()
            .map(|e| match e {
                Engine::Bound => "bound",
                Engine::Sim => "sim",
            })
            .collect();
        write!(
            out,
            "{{\"parameters\":{},\"engines\":{},\"points\":[",
            serde_json::json!(params),
            serde_json::json!(engines)
        )
        .map_err(CliError::Stdout)?;
    }
    let mut json_sink = json.then(|| JsonSink::new(&mut *out, JsonLayout::Elements));
    let mut lines = opts
        .plot
        .as_ref()
        .map(|_| Lines::new(plot_config(use_bound, use_sim)));
    let mut sample = Sample::new(space.len(), MAX_TEXT_ROWS);
    let mut sinks: Vec<&mut dyn Sink> = Vec::new();
    if let Some(c) = &mut csv {
        sinks.push(c);
        names.push(opts.csv.as_ref());
    }
    if let Some(j) = &mut json_sink {
        sinks.push(j);
        names.push(None);
    }
    if let Some(l) = &mut lines {
        sinks.push(l);
        names.push(opts.plot.as_ref());
    }
    sinks.push(&mut sample);
    names.push(None);

    // Columns: bound, phi, omega (with the bound engine), then sim (with the simulator).
    let point = |k: u64, vals: &[f64], out: &mut [f64]| {
        if use_sim {
            let t = simulate_point(model, loaded.root, &space, k, &sim_opts)
                .map_err(PointError::Sim)?;
            out[out.len() - 1] = t;
        }
        if let Some(b) = &bound {
            out[..3].copy_from_slice(&b.eval(vals).map_err(PointError::Bound)?);
        }
        Ok(())
    };
    let outcome = crate::progress::with_bar(space.len(), "sweeping", |meter| {
        let eval = Evaluation {
            chunk: if use_sim {
                (rayon::current_num_threads() * 8) as u64
            } else {
                CHUNK_BOUND
            },
            meter: Some(meter),
            // Without the simulator, a point where the bound is undefined is a row without
            // values, and the sweep fails at the end; the simulator stops at its first error.
            on_error: if use_sim {
                OnError::Stop
            } else {
                OnError::Skip
            },
        };
        sweep::run(&space, &columns, &eval, point, &mut sinks)
    });
    drop(sinks);
    let outcome = outcome.map_err(|e| match e {
        RunError::Point { point, error } => match error {
            PointError::Sim(e) => CliError::from(e),
            PointError::Bound(u) => undefined(1, &space.describe_point(point), &u),
        },
        RunError::Sink { sink, error } => match names[sink] {
            Some(path) => CliError::write(path, &error),
            None => CliError::Stdout(error),
        },
    })?;
    drop(json_sink);

    if let (Some(l), Some(path)) = (&lines, &opts.plot) {
        if l.dropped_groups() {
            eprintln!(
                "note: the plot shows the first {} combinations of the other swept \
                 parameters; the CSV has every point",
                l.max_groups()
            );
        }
        let x_label = l
            .x_axis()
            .map_or("point".to_string(), |a| space.axes()[a].name().to_string());
        let title = format!(
            "{} ({}): time vs {x_label}",
            loaded.label(),
            loaded.root_name()
        );
        let svg = l
            .render_svg(&title, &x_label, "time", (800, 500))
            .map_err(|e| CliError::msg(format!("cannot draw the plot: {e}")))?;
        write_file(path, svg.as_bytes())?;
    }
    if json {
        writeln!(out, "]}}").map_err(CliError::Stdout)?;
    } else {
        let text = render_text(loaded, &space, &sample, use_bound, use_sim);
        out.write_all(text.as_bytes()).map_err(CliError::Stdout)?;
    }
    // Points where the model is undefined fail the sweep, as they fail a simulation.
    match outcome.first_failure {
        Some((p, PointError::Bound(u))) => {
            Err(undefined(outcome.failed, &space.describe_point(p), &u))
        }
        Some((_, PointError::Sim(e))) => Err(CliError::from(e)),
        None => Ok(()),
    }
}

/// The error for `count` points where the bound is undefined, the first at `at`.
fn undefined(count: u64, at: &str, why: &Undefined) -> CliError {
    CliError::with_help(
        format!(
            "the bound is undefined at {count} point(s) of the sweep (their rows have no \
             value); first at {at}: {why}"
        ),
        "the simulator rejects these points too; change the -D ranges or guard the model's \
         expressions with `if`",
    )
}

/// The plot's lines: with several groups only T^l and T are drawn, to keep it readable;
/// the bound's parts first, so the T^l and T lines are drawn on top.
fn plot_config(use_bound: bool, use_sim: bool) -> LinesConfig {
    let mut series = Vec::new();
    if use_bound {
        series.push(LineSpec::new(1, "phi critical path").single_group_only());
        series.push(LineSpec::new(2, "omega contention").single_group_only());
        series.push(LineSpec::new(0, "T^l bound"));
    }
    if use_sim {
        series.push(LineSpec::new(if use_bound { 3 } else { 0 }, "T simulated"));
    }
    LinesConfig {
        series,
        ..LinesConfig::default()
    }
}

fn render_text(
    loaded: &Loaded,
    space: &Space,
    sample: &Sample,
    use_bound: bool,
    use_sim: bool,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PAMELA sweep: {}, root `{}`, {} point{}",
        loaded.label(),
        loaded.root_name(),
        space.len(),
        if space.len() == 1 { "" } else { "s" }
    );
    let swept: Vec<String> = space.swept().map(|(_, a)| a.describe()).collect();
    let fixed: Vec<String> = space
        .axes()
        .iter()
        .filter(|a| !a.is_swept())
        .map(|a| a.describe())
        .collect();
    if !swept.is_empty() {
        let _ = writeln!(s, "  swept: {}", swept.join(", "));
    }
    if !fixed.is_empty() {
        let _ = writeln!(s, "  fixed: {}", fixed.join(", "));
    }
    let _ = writeln!(s);
    let mut cols = TextColumn::swept(space);
    if use_bound {
        for (k, c) in ["T^l", "phi", "omega"].into_iter().enumerate() {
            cols.push(TextColumn::num(c, k));
        }
    }
    let sim = if use_bound { 3 } else { 0 };
    if use_sim {
        cols.push(TextColumn::num("T (sim)", sim));
    }
    if use_bound && use_sim {
        cols.push(TextColumn::new("T^l/T", move |r: &sweep::Row| {
            let v = &r.values;
            if v[sim] > 0.0 {
                format!("{:.3}", v[0] / v[sim])
            } else {
                "-".to_string()
            }
        }));
    }
    s.push_str(&sample.table(&cols).render("  "));
    if sample.is_partial() {
        let _ = writeln!(
            s,
            "  ({} of {} points shown, evenly spaced; --csv FILE writes them all)",
            sample.rows().len(),
            space.len()
        );
    }
    s
}
