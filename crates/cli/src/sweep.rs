//! `vates pamela sweep`: T^l (and φ, ω) and/or simulated T over a grid of parameter values.
//!
//! The grid is processed in chunks, so memory stays flat however many points it has: each
//! chunk's points are decoded from their index, evaluated in parallel (rayon), and streamed
//! to the CSV file and the JSON output; the text table keeps an even sample of rows and the
//! plot a thinned copy of each line.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;

use expr::compile::Compiled;
use expr::grid::{Grid, GridError, Values};
use expr::{Expr, Name, Rational};
use pamela::Model;
use rayon::prelude::*;

use crate::error::{write_file, CliError, Result};
use crate::input::{self, Define, Loaded};
use crate::progress::Progress;
use crate::text::{num, Align, TextTable};
use crate::{Engine, Format, SimFlags};

/// The largest grid with the `sim` engine.
pub const MAX_POINTS_SIM: u64 = 10_000_000;
/// The largest grid with the `bound` engine alone.
pub const MAX_POINTS_BOUND: u64 = 100_000_000;
/// At most this many combinations of the non-x parameters get lines in the plot.
pub const MAX_PLOT_GROUPS: usize = 5;
/// At most this many rows in the text table (an even sample of a larger grid).
pub const MAX_TEXT_ROWS: u64 = 60;
/// At most about this many points per plotted line (larger axes are thinned evenly).
const MAX_PLOT_POINTS: u64 = 1000;
/// Grids up to this size have every point checked against the declarations; larger ones
/// have each parameter's values checked on their own.
const FULL_CHECK_POINTS: u64 = 10_000;
/// Fractional ranges up to this many values keep an exact table of `f64` values.
const AXIS_TABLE: u64 = 1 << 20;
/// Points per chunk with the bound engine alone.
const CHUNK_BOUND: usize = 1 << 16;

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

/// One grid axis: a parameter and its values.
struct Axis {
    name: Name,
    values: Values,
    count: u64,
    /// `f64` value of every index (exact conversion), for lists and fractional ranges of
    /// moderate length.
    table: Option<Vec<f64>>,
    /// For other ranges: first value and step as `f64` (value `k` is `lo + k*step`, exact
    /// for integer ranges).
    lo: f64,
    step: f64,
}

impl Axis {
    fn new(name: Name, values: Values) -> Axis {
        let count = values
            .count()
            .to_string()
            .parse::<u64>()
            .unwrap_or(u64::MAX);
        let to = expr::number::to_f64;
        let (table, lo, step) = match &values {
            Values::Single(v) => (Some(vec![to(v)]), f64::NAN, f64::NAN),
            Values::List(vs) => (Some(vs.iter().map(to).collect()), f64::NAN, f64::NAN),
            Values::Range { lo, step, .. } => {
                let (lo_f, step_f) = (to(lo), to(step));
                let top = lo_f.abs() + step_f.abs() * count as f64;
                if lo.is_integer() && step.is_integer() && top < 2f64.powi(53) {
                    // Integer arithmetic in f64 is exact here.
                    (None, lo_f, step_f)
                } else if count <= AXIS_TABLE {
                    // Exact running sum, converted once per value.
                    let mut v = lo.clone();
                    let mut t = Vec::with_capacity(count as usize);
                    for _ in 0..count {
                        t.push(to(&v));
                        v += step;
                    }
                    (Some(t), lo_f, step_f)
                } else {
                    // Very long fractional ranges: f64 arithmetic (within a few ulps).
                    (None, lo_f, step_f)
                }
            }
        };
        Axis {
            name,
            values,
            count,
            table,
            lo,
            step,
        }
    }

    fn f64_at(&self, k: u64) -> f64 {
        match &self.table {
            Some(t) => t[k as usize],
            None => self.lo + k as f64 * self.step,
        }
    }

    fn exact_at(&self, k: u64) -> Rational {
        self.values.get(k).unwrap_or_default()
    }

    /// The values to check on their own: a list's values, a range's ends.
    fn check_values(&self) -> Vec<Rational> {
        match &self.values {
            Values::Single(v) => vec![v.clone()],
            Values::List(vs) => vs.clone(),
            Values::Range { lo, step, .. } => {
                let mut v = vec![lo.clone()];
                if self.count > 1 {
                    v.push(self.exact_at(self.count - 1));
                    v.push(lo + step);
                }
                v
            }
        }
    }

    /// `P = 1..64` / `P = 1,2,4` / `N = 10` for headings.
    fn describe(&self) -> String {
        let f = expr::number::format_rational;
        match &self.values {
            Values::Single(v) => format!("{}={}", self.name, f(v)),
            Values::List(vs) => format!(
                "{}={}",
                self.name,
                vs.iter().map(f).collect::<Vec<_>>().join(",")
            ),
            Values::Range { lo, step, .. } => {
                let last = self.exact_at(self.count.saturating_sub(1));
                if step == &Rational::from_integer(1.into()) {
                    format!("{}={}..{}", self.name, f(lo), f(&last))
                } else {
                    format!("{}={}..{}:{}", self.name, f(lo), f(&last), f(step))
                }
            }
        }
    }
}

/// The grid's axes with their mixed-radix strides (last axis fastest).
struct Points {
    axes: Vec<Axis>,
    strides: Vec<u64>,
    len: u64,
}

impl Points {
    fn new(axes: Vec<Axis>, len: u64) -> Points {
        let mut strides = vec![1u64; axes.len()];
        for i in (0..axes.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1].saturating_mul(axes[i + 1].count);
        }
        Points { axes, strides, len }
    }

    fn index(&self, point: u64, axis: usize) -> u64 {
        (point / self.strides[axis]) % self.axes[axis].count
    }

    fn fill_f64(&self, point: u64, out: &mut [f64]) {
        for (a, o) in out.iter_mut().enumerate() {
            *o = self.axes[a].f64_at(self.index(point, a));
        }
    }

    fn exact(&self, point: u64) -> Vec<(Name, Rational)> {
        (0..self.axes.len())
            .map(|a| {
                let ax = &self.axes[a];
                (ax.name.clone(), ax.exact_at(self.index(point, a)))
            })
            .collect()
    }

    fn describe_point(&self, point: u64) -> String {
        input::show_values(&self.exact(point))
    }
}

/// The compiled bound engine.
struct BoundEngine {
    tl: Compiled,
    phi: Compiled,
    omega: Compiled,
    /// Positive where the model is invalid (see `BoundReport::invalid`).
    invalid: Compiled,
}

impl BoundEngine {
    /// `[T^l, phi, omega]` at `vals`, or why the model is undefined there (the simulator
    /// rejects the same points).
    fn eval(&self, vals: &[f64]) -> std::result::Result<[f64; 3], String> {
        let invalid = self.invalid.eval(vals).map_err(|e| e.to_string())?;
        if invalid > 0.0 {
            return Err(
                "a `use` or `delay` time is negative, or a family index is out of \
                        range or not an integer"
                    .to_string(),
            );
        }
        let ev = |c: &Compiled| c.eval(vals).map_err(|e| e.to_string());
        Ok([ev(&self.tl)?, ev(&self.phi)?, ev(&self.omega)?])
    }
}

fn compile_bound(loaded: &Loaded, points: &Points) -> Result<BoundEngine> {
    let model = &loaded.model;
    let fixed: Vec<(Name, Rational)> = points
        .axes
        .iter()
        .filter(|a| a.count == 1)
        .map(|a| (a.name.clone(), a.exact_at(0)))
        .collect();
    let binding = model.bind_partial(&fixed)?;
    let report = pamela::bound::bound(model, loaded.root)?.substitute(model, &binding);
    let slots: Vec<Name> = points.axes.iter().map(|a| a.name.clone()).collect();
    let compile = |what: &str, e: &Expr| {
        Compiled::new(&model.inline_derived(e), &slots).map_err(|err| {
            CliError::with_help(
                format!("cannot evaluate {what} over the sweep: {err}"),
                "bind every parameter with -D",
            )
        })
    };
    Ok(BoundEngine {
        tl: compile("T^l", &report.tl)?,
        phi: compile("phi", &report.phi)?,
        omega: compile("omega", &report.omega)?,
        invalid: compile("the model's validity", &report.invalid)?,
    })
}

/// Results of one chunk of points.
struct Chunk {
    start: u64,
    /// Parameter values, `axes.len()` per point.
    vals: Vec<f64>,
    /// `[T^l, phi, omega]` per point (NaN where it could not be computed).
    bound: Vec<[f64; 3]>,
    /// Simulated T per point.
    sim: Vec<f64>,
}

impl Chunk {
    /// Number of points in the chunk.
    fn len(&self, naxes: usize) -> usize {
        self.vals
            .len()
            .checked_div(naxes)
            .unwrap_or_else(|| self.bound.len().max(self.sim.len()))
    }
}

/// First evaluation error of the bound engine, and how many points failed.
#[derive(Default)]
struct Failures {
    count: u64,
    first: Option<String>,
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
    let grid = Grid::with_limit(bindings, limit).map_err(|e| match e {
        GridError::TooManyPoints { points, .. } => {
            let (engine, help) = if use_sim {
                (
                    "with the sim engine",
                    "use fewer values or coarser steps, or --engine bound (up to 10^8 points)",
                )
            } else {
                ("", "use fewer values or coarser steps")
            };
            CliError::with_help(
                format!("the sweep has {points} points, more than the limit of {limit} {engine}")
                    .trim_end()
                    .to_string(),
                help,
            )
        }
        other => CliError::usage(other.to_string()),
    })?;
    let axes: Vec<Axis> = grid
        .names()
        .iter()
        .zip(grid.values())
        .map(|(n, v)| Axis::new(n.clone(), v.clone()))
        .collect();
    let points = Points::new(axes, grid.len());

    check_bindings(model, &points)?;

    let bound = if use_bound {
        Some(compile_bound(loaded, &points)?)
    } else {
        None
    };
    let sim_opts = opts.sim.options(false);

    // Sinks.
    let mut csv = match &opts.csv {
        Some(path) => {
            let f = std::fs::File::create(path).map_err(|e| CliError::write(path, &e))?;
            let mut w = BufWriter::new(f);
            let mut cols: Vec<String> = points.axes.iter().map(|a| a.name.to_string()).collect();
            cols.extend(
                engine_columns(use_bound, use_sim)
                    .iter()
                    .map(|s| s.to_string()),
            );
            trace::csv::Table::new(cols)
                .write(&mut w)
                .map_err(|e| CliError::write(path, &e))?;
            Some((path.clone(), w))
        }
        None => None,
    };
    let json = opts.format == Format::Json;
    if json {
        let params: Vec<&str> = points.axes.iter().map(|a| &*a.name).collect();
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
    let x_axis = points.axes.iter().position(|a| a.count > 1);
    let mut plot = opts.plot.as_ref().map(|_| PlotAcc::new(&points, x_axis));
    let mut samples = TextSamples::new(points.len);

    let failures = Mutex::new(Failures::default());
    let chunk_len = if use_sim {
        (rayon::current_num_threads() * 8) as u64
    } else {
        CHUNK_BOUND as u64
    };
    let mut progress = Progress::new(Some(points.len), "sweeping");
    let naxes = points.axes.len();
    let mut start = 0u64;
    while start < points.len {
        let end = (start + chunk_len).min(points.len);
        let n = (end - start) as usize;
        let mut vals = vec![0.0; n * naxes];
        if naxes > 0 {
            vals.par_chunks_mut(naxes)
                .enumerate()
                .for_each(|(i, v)| points.fill_f64(start + i as u64, v));
        }
        let bound_vals: Vec<[f64; 3]> = match &bound {
            Some(b) => (0..n)
                .into_par_iter()
                .map(|i| {
                    let v = &vals[i * naxes..(i + 1) * naxes];
                    b.eval(v).unwrap_or_else(|e| {
                        if let Ok(mut f) = failures.lock() {
                            f.count += 1;
                            if f.first.is_none() {
                                f.first = Some(format!(
                                    "at {}: {e}",
                                    points.describe_point(start + i as u64)
                                ));
                            }
                        }
                        [f64::NAN; 3]
                    })
                })
                .collect(),
            None => Vec::new(),
        };
        let sim_vals: Vec<f64> = if use_sim {
            let bar = progress.bar().clone();
            let res: Vec<Result<f64>> = (0..n)
                .into_par_iter()
                .map(|i| {
                    let p = start + i as u64;
                    let r = simulate_point(loaded, &points, p, &sim_opts);
                    bar.inc(1);
                    r
                })
                .collect();
            res.into_iter().collect::<Result<Vec<f64>>>()?
        } else {
            Vec::new()
        };
        let chunk = Chunk {
            start,
            vals,
            bound: bound_vals,
            sim: sim_vals,
        };
        if let Some((path, w)) = &mut csv {
            write_csv_chunk(&chunk, naxes, w).map_err(|e| CliError::write(path, &e))?;
        }
        if json {
            write_json_chunk(&chunk, &points, out).map_err(CliError::Stdout)?;
        }
        if let Some(p) = &mut plot {
            p.add(&chunk, &points);
        }
        samples.add(&chunk, naxes);
        start = end;
        progress.set(start);
    }
    progress.finish();

    if let Some((path, mut w)) = csv {
        w.flush().map_err(|e| CliError::write(&path, &e))?;
    }
    if let (Some(p), Some(path)) = (plot, &opts.plot) {
        let svg = p.render(loaded, &points, use_bound, use_sim)?;
        write_file(path, svg.as_bytes())?;
    }
    if json {
        writeln!(out, "]}}").map_err(CliError::Stdout)?;
    } else {
        let text = render_text(loaded, &points, &samples, use_bound, use_sim);
        out.write_all(text.as_bytes()).map_err(CliError::Stdout)?;
    }
    // Points where the model is undefined fail the sweep, as they fail a simulation.
    let f = failures.into_inner().unwrap_or_default();
    if f.count > 0 {
        return Err(CliError::with_help(
            format!(
                "the bound is undefined at {} point(s) of the sweep (their rows have no value); first {}",
                f.count,
                f.first.unwrap_or_default()
            ),
            "the simulator rejects these points too; change the -D ranges or guard the \
             model's expressions with `if`",
        ));
    }
    Ok(())
}

/// The engine columns of the CSV, in order.
fn engine_columns(use_bound: bool, use_sim: bool) -> Vec<&'static str> {
    let mut v = Vec::new();
    if use_bound {
        v.extend(["bound", "phi", "omega"]);
    }
    if use_sim {
        v.push("sim");
    }
    v
}

/// Checks names and values against the model: every parameter bound, no unknown or
/// derived names, values in range (every point for small grids, each axis's values on their
/// own for large ones).
fn check_bindings(model: &Model, points: &Points) -> Result<()> {
    let fixed: Vec<(Name, Rational)> = points
        .axes
        .iter()
        .filter(|a| a.count == 1)
        .map(|a| (a.name.clone(), a.exact_at(0)))
        .collect();
    model.bind_partial(&fixed)?;
    for a in points.axes.iter().filter(|a| a.count > 1) {
        for v in a.check_values() {
            let mut given = fixed.clone();
            given.push((a.name.clone(), v));
            model.bind_partial(&given)?;
        }
    }
    let given: Vec<(Name, Rational)> = points
        .axes
        .iter()
        .map(|a| (a.name.clone(), Rational::default()))
        .collect();
    let missing = input::missing_params(model, &given);
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|n| &**n).collect();
        let example: Vec<String> = names.iter().map(|n| format!("-D {n}=VALUE")).collect();
        return Err(CliError::with_help(
            format!(
                "`vates pamela sweep` needs every parameter bound: missing {} {}",
                if names.len() == 1 {
                    "a value for"
                } else {
                    "values for"
                },
                names.join(", ")
            ),
            format!(
                "bind them to a value or a range, e.g. {}",
                example.join(" ")
            ),
        ));
    }
    if points.len <= FULL_CHECK_POINTS {
        for p in 0..points.len {
            model.bind(&points.exact(p)).map_err(|mut e| {
                e.message = format!("at {}: {}", points.describe_point(p), e.message);
                e
            })?;
        }
    }
    Ok(())
}

fn simulate_point(
    loaded: &Loaded,
    points: &Points,
    p: u64,
    opts: &pamela::sim::SimOptions,
) -> Result<f64> {
    let at = |mut e: Box<pamela::ModelError>| {
        e.message = format!("at {}: {}", points.describe_point(p), e.message);
        CliError::Model(e)
    };
    let binding = loaded.model.bind(&points.exact(p)).map_err(at)?;
    let r = pamela::sim::simulate(&loaded.model, loaded.root, &binding, opts).map_err(at)?;
    Ok(r.time)
}

/// Appends the chunk's rows to the CSV (in [`trace::csv`]'s format: its `Table` wrote the
/// header), formatting pieces in parallel.
/// Every field is a number, so none needs quoting.
fn write_csv_chunk(chunk: &Chunk, naxes: usize, w: &mut dyn Write) -> std::io::Result<()> {
    let n = chunk.len(naxes);
    let pieces: Vec<String> = (0..n)
        .collect::<Vec<_>>()
        .par_chunks(4096)
        .map(|idx| {
            let mut s = String::with_capacity(idx.len() * 48);
            for &i in idx {
                let mut first = true;
                let mut field = |s: &mut String, v: f64| {
                    if !first {
                        s.push(',');
                    }
                    first = false;
                    trace::csv::push_num(s, v);
                };
                for &v in &chunk.vals[i * naxes..(i + 1) * naxes] {
                    field(&mut s, v);
                }
                if let Some(b) = chunk.bound.get(i) {
                    for &v in b {
                        field(&mut s, v);
                    }
                }
                if let Some(&t) = chunk.sim.get(i) {
                    field(&mut s, t);
                }
                s.push('\n');
            }
            s
        })
        .collect();
    for p in pieces {
        w.write_all(p.as_bytes())?;
    }
    Ok(())
}

/// Appends a number as JSON: integers without a fraction, non-finite values as `null`.
fn push_json_num(s: &mut String, v: f64) {
    if !v.is_finite() {
        s.push_str("null");
    } else if v.fract() == 0.0 && v.abs() < 9e15 {
        let _ = write!(s, "{}", v as i64);
    } else {
        let _ = write!(s, "{v}");
    }
}

fn write_json_chunk(chunk: &Chunk, points: &Points, out: &mut dyn Write) -> std::io::Result<()> {
    let naxes = points.axes.len();
    let keys: Vec<String> = points
        .axes
        .iter()
        .map(|a| serde_json::Value::String(a.name.to_string()).to_string())
        .collect();
    let n = chunk.len(naxes);
    let pieces: Vec<String> = (0..n)
        .collect::<Vec<_>>()
        .par_chunks(4096)
        .map(|idx| {
            let mut s = String::new();
            for &i in idx {
                if chunk.start + i as u64 > 0 {
                    s.push(',');
                }
                s.push('{');
                let mut first = true;
                let mut field = |s: &mut String, k: &str, v: f64| {
                    if !first {
                        s.push(',');
                    }
                    first = false;
                    s.push_str(k);
                    s.push(':');
                    push_json_num(s, v);
                };
                for (a, k) in keys.iter().enumerate() {
                    field(&mut s, k, chunk.vals[i * naxes + a]);
                }
                if let Some(b) = chunk.bound.get(i) {
                    field(&mut s, "\"bound\"", b[0]);
                    field(&mut s, "\"phi\"", b[1]);
                    field(&mut s, "\"omega\"", b[2]);
                }
                if let Some(&t) = chunk.sim.get(i) {
                    field(&mut s, "\"sim\"", t);
                }
                s.push('}');
            }
            s
        })
        .collect();
    for p in pieces {
        out.write_all(p.as_bytes())?;
    }
    Ok(())
}

/// An even sample of rows for the text table.
struct TextSamples {
    total: u64,
    rows: Vec<SampleRow>,
}

/// One sampled point: parameter values, `[T^l, phi, omega]`, simulated T.
type SampleRow = (Vec<f64>, Option<[f64; 3]>, Option<f64>);

impl TextSamples {
    fn new(total: u64) -> Self {
        TextSamples {
            total,
            rows: Vec::new(),
        }
    }

    /// Whether point `p` is in the sample.
    fn wanted(&self, p: u64) -> bool {
        if self.total <= MAX_TEXT_ROWS {
            return true;
        }
        // Rows k*(total-1)/(MAX-1) for k = 0..MAX-1.
        let m = MAX_TEXT_ROWS - 1;
        let t = self.total - 1;
        // p is wanted if some k has floor(k*t/m) == p: k = ceil(p*m/t), check it.
        let k = (p as u128 * m as u128).div_ceil(t as u128);
        (k * t as u128 / m as u128) as u64 == p
    }

    fn add(&mut self, chunk: &Chunk, naxes: usize) {
        let n = chunk.len(naxes);
        for i in 0..n {
            let p = chunk.start + i as u64;
            if self.wanted(p) {
                self.rows.push((
                    chunk.vals[i * naxes..(i + 1) * naxes].to_vec(),
                    chunk.bound.get(i).copied(),
                    chunk.sim.get(i).copied(),
                ));
            }
        }
    }
}

fn render_text(
    loaded: &Loaded,
    points: &Points,
    samples: &TextSamples,
    use_bound: bool,
    use_sim: bool,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "PAMELA sweep: {}, root `{}`, {} point{}",
        loaded.label(),
        loaded.root_name(),
        points.len,
        if points.len == 1 { "" } else { "s" }
    );
    let swept: Vec<String> = points
        .axes
        .iter()
        .filter(|a| a.count > 1)
        .map(Axis::describe)
        .collect();
    let fixed: Vec<String> = points
        .axes
        .iter()
        .filter(|a| a.count == 1)
        .map(Axis::describe)
        .collect();
    if !swept.is_empty() {
        let _ = writeln!(s, "  swept: {}", swept.join(", "));
    }
    if !fixed.is_empty() {
        let _ = writeln!(s, "  fixed: {}", fixed.join(", "));
    }
    let _ = writeln!(s);
    let shown: Vec<usize> = (0..points.axes.len())
        .filter(|&a| points.axes[a].count > 1)
        .collect();
    let mut cols: Vec<(String, Align)> = shown
        .iter()
        .map(|&a| (points.axes[a].name.to_string(), Align::Right))
        .collect();
    if use_bound {
        for c in ["T^l", "phi", "omega"] {
            cols.push((c.to_string(), Align::Right));
        }
    }
    if use_sim {
        cols.push(("T (sim)".to_string(), Align::Right));
    }
    if use_bound && use_sim {
        cols.push(("T^l/T".to_string(), Align::Right));
    }
    let mut t = TextTable::new(cols);
    for (vals, b, sim) in &samples.rows {
        let mut row: Vec<String> = shown.iter().map(|&a| num(vals[a])).collect();
        if let Some(b) = b {
            row.extend(b.iter().map(|&v| num(v)));
        }
        if let Some(sim) = sim {
            row.push(num(*sim));
        }
        if let (Some(b), Some(sim)) = (b, sim) {
            row.push(if *sim > 0.0 {
                format!("{:.3}", b[0] / sim)
            } else {
                "-".to_string()
            });
        }
        t.push(row);
    }
    s.push_str(&t.render("  "));
    if (samples.rows.len() as u64) < points.len {
        let _ = writeln!(
            s,
            "  ({} of {} points shown, evenly spaced; --csv FILE writes them all)",
            samples.rows.len(),
            points.len
        );
    }
    s
}

/// The lines of the plot, thinned and grouped by the other swept parameters.
struct PlotAcc {
    x_axis: Option<usize>,
    /// Other swept axes, whose value combination selects the group.
    others: Vec<usize>,
    thin: u64,
    groups: BTreeMap<u64, Group>,
    dropped_groups: bool,
}

#[derive(Default)]
struct Group {
    bound: Vec<(f64, f64)>,
    phi: Vec<(f64, f64)>,
    omega: Vec<(f64, f64)>,
    sim: Vec<(f64, f64)>,
    label: String,
}

impl PlotAcc {
    fn new(points: &Points, x_axis: Option<usize>) -> Self {
        let others: Vec<usize> = (0..points.axes.len())
            .filter(|&a| Some(a) != x_axis && points.axes[a].count > 1)
            .collect();
        let xn = x_axis.map_or(1, |a| points.axes[a].count);
        PlotAcc {
            x_axis,
            others,
            thin: xn.div_ceil(MAX_PLOT_POINTS).max(1),
            groups: BTreeMap::new(),
            dropped_groups: false,
        }
    }

    fn add(&mut self, chunk: &Chunk, points: &Points) {
        let naxes = points.axes.len();
        let n = chunk.len(naxes);
        for i in 0..n {
            let p = chunk.start + i as u64;
            let (x, xi, xn) = match self.x_axis {
                Some(a) => (
                    chunk.vals[i * naxes + a],
                    points.index(p, a),
                    points.axes[a].count,
                ),
                None => (0.0, 0, 1),
            };
            if xi % self.thin != 0 && xi != xn - 1 {
                continue;
            }
            let mut g = 0u64;
            for &a in &self.others {
                g = g * points.axes[a].count + points.index(p, a);
            }
            if !self.groups.contains_key(&g) && self.groups.len() >= MAX_PLOT_GROUPS {
                self.dropped_groups = true;
                continue;
            }
            let others = &self.others;
            let grp = self.groups.entry(g).or_insert_with(|| Group {
                label: others
                    .iter()
                    .map(|&a| format!("{}={}", points.axes[a].name, num(chunk.vals[i * naxes + a])))
                    .collect::<Vec<_>>()
                    .join(" "),
                ..Group::default()
            });
            if let Some(b) = chunk.bound.get(i) {
                grp.bound.push((x, b[0]));
                grp.phi.push((x, b[1]));
                grp.omega.push((x, b[2]));
            }
            if let Some(&t) = chunk.sim.get(i) {
                grp.sim.push((x, t));
            }
        }
    }

    fn render(
        self,
        loaded: &Loaded,
        points: &Points,
        use_bound: bool,
        use_sim: bool,
    ) -> Result<String> {
        use trace::plot::{LinePlot, Series};
        if self.dropped_groups {
            eprintln!(
                "note: the plot shows the first {MAX_PLOT_GROUPS} combinations of the other swept \
                 parameters; the CSV has every point"
            );
        }
        let x_label = self
            .x_axis
            .map_or("point".to_string(), |a| points.axes[a].name.to_string());
        let mut series = Vec::new();
        // With several groups only T^l and T are drawn, to keep the plot readable.
        let parts = self.groups.len() == 1;
        for g in self.groups.into_values() {
            let suffix = if g.label.is_empty() {
                String::new()
            } else {
                format!(" ({})", g.label)
            };
            // The bounds' parts first, so the T^l and T lines are drawn on top.
            if use_bound && parts {
                series.push(Series::new(format!("phi critical path{suffix}"), g.phi));
                series.push(Series::new(format!("omega contention{suffix}"), g.omega));
            }
            if use_bound {
                series.push(Series::new(format!("T^l bound{suffix}"), g.bound));
            }
            if use_sim {
                series.push(Series::new(format!("T simulated{suffix}"), g.sim));
            }
        }
        let plot = LinePlot {
            title: format!(
                "{} ({}): time vs {x_label}",
                loaded.label(),
                loaded.root_name()
            ),
            x_label,
            y_label: "time".to_string(),
            series,
            log_x: false,
            log_y: false,
        };
        plot.render_svg(800, 500)
            .map_err(|e| CliError::msg(format!("cannot draw the plot: {e}")))
    }
}
