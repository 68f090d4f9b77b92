//! The wiring of every sweep command's outputs, once: the sinks asked for (the text table,
//! a CSV file, JSON, a plot), the shared runner with a progress bar, and the files written.
//! The sweeps of PAMELA, task graphs and semi-empirical models run on it; the engine gives
//! the space, the columns and the point function.

use sweep::{
    CsvSink, Evaluation, JsonLayout, JsonSink, Lines, LinesConfig, OnError, RunError, Sample, Sink,
    Space,
};

use std::path::PathBuf;

use crate::error::{Diag, Error, Result};
use crate::files::{check_outputs, write_file};

/// The outputs a sweep's command asks for besides its text table.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// Every point to this CSV file, one row per point.
    pub csv: Option<PathBuf>,
    /// A line plot to this SVG file.
    pub plot: Option<PathBuf>,
    /// The points as JSON (the command prints JSON instead of the text table).
    pub json: bool,
}

/// What a sweep gives back to its command.
pub struct Swept<E> {
    /// The text table's rows (all, or a sample of them).
    pub table: Sample,
    /// The plot's lines (with `--plot`).
    pub lines: Option<Lines>,
    /// The points as JSON array elements (with `--format json` and `json_points`).
    pub json: Option<Vec<u8>>,
    /// Where the sweep stopped and why ([`OnError::Stop`]): the rows before it are in the
    /// sinks.
    pub stopped: Option<(u64, E)>,
    /// Points whose function failed and were skipped ([`OnError::Skip`]), and the first.
    pub skipped: (u64, Option<(u64, E)>),
    /// The plot's file.
    plot: Option<PathBuf>,
}

impl<E> Swept<E> {
    /// Writes the plot to its file, if one was asked for.
    ///
    /// # Errors
    /// A plot that cannot be drawn, a file that cannot be written.
    pub fn write_plot(&self, title: &str, x: &str, y: &str) -> Result<()> {
        let (Some(lines), Some(path)) = (&self.lines, &self.plot) else {
            return Ok(());
        };
        let svg = lines
            .render_svg(title, x, y, (800, 500))
            .map_err(|e| Error::from(Diag::msg(format!("cannot draw the plot: {e}"))))?;
        write_file(path, svg.as_bytes())
    }

    /// The note for a plot that shows only the first combinations of the other swept
    /// parameters ([`Lines::dropped_groups`]).
    pub fn plot_note(&self) -> Option<String> {
        let lines = self.lines.as_ref().filter(|l| l.dropped_groups())?;
        Some(format!(
            "note: the plot shows the first {} combinations of the other swept parameters; the \
             CSV has every point",
            lines.max_groups()
        ))
    }

    /// The JSON elements as one pretty array.
    ///
    /// # Errors
    /// None in practice: the elements are the sink's own JSON.
    pub fn json_array(&self) -> Result<String> {
        let body = self.json.as_deref().unwrap_or_default();
        let all = format!("[{}]", String::from_utf8_lossy(body));
        let value: serde_json::Value = serde_json::from_str(&all)
            .map_err(|e| Error::from(Diag::msg(format!("the sweep's JSON is not valid: {e}"))))?;
        crate::error::json_text(&value)
    }

    /// The sweep's result, its stop turned into the command's error.
    ///
    /// # Errors
    /// `point_error` of the point the sweep stopped at.
    pub fn finished<F>(
        self,
        point_error: impl FnOnce(u64, E) -> F,
    ) -> std::result::Result<Self, F> {
        match self.stopped {
            Some((p, e)) => Err(point_error(p, e)),
            None => Ok(Swept {
                stopped: None,
                ..self
            }),
        }
    }
}

/// How a sweep is wired.
pub struct Wiring<'a> {
    /// The outputs asked for.
    pub output: &'a Outputs,
    /// The text table's rows to keep.
    pub table: Sample,
    /// The plot's lines.
    pub lines: LinesConfig,
    /// Whether `--format json` streams the points as array elements (otherwise the command
    /// builds its JSON from the table).
    pub json_points: bool,
    /// The progress bar's word ("predicting").
    pub what: &'a str,
    /// Points per chunk (`None`: twice the threads).
    pub chunk: Option<u64>,
    /// Stop at a failing point, or skip it.
    pub on_error: OnError,
}

impl<'a> Wiring<'a> {
    /// The wiring of `output` with a table of `table`'s rows and a plot of `lines`, stopping
    /// at the first failing point.
    pub fn new(output: &'a Outputs, table: Sample, lines: LinesConfig, what: &'a str) -> Self {
        Wiring {
            output,
            table,
            lines,
            json_points: false,
            what,
            chunk: None,
            on_error: OnError::Stop,
        }
    }
}

/// Checks the output files can be written (before a long sweep), runs `point` over `space`
/// into the sinks the flags ask for, and writes the CSV file.
///
/// # Errors
/// An output file that cannot be created or written, standard output closed.
pub fn run<E, F>(space: &Space, columns: &[String], w: Wiring<'_>, point: F) -> Result<Swept<E>>
where
    E: Send,
    F: Fn(u64, &[f64], &mut [f64]) -> std::result::Result<(), E> + Sync,
{
    let output = w.output;
    check_outputs([&output.csv, &output.plot])?;
    let mut csv = match &output.csv {
        Some(p) => {
            let f = std::fs::File::create(p).map_err(|e| Error::write(p, &e))?;
            Some(CsvSink::new(std::io::BufWriter::new(f)))
        }
        None => None,
    };
    let mut json =
        (w.json_points && output.json).then(|| JsonSink::new(Vec::new(), JsonLayout::Elements));
    let mut lines = output.plot.as_ref().map(|_| Lines::new(w.lines));
    let mut table = w.table;
    // The CSV first: a write error names its file by position.
    let mut sinks: Vec<&mut dyn Sink> = Vec::new();
    let has_csv = csv.is_some();
    if let Some(c) = &mut csv {
        sinks.push(c);
    }
    sinks.push(&mut table);
    if let Some(j) = &mut json {
        sinks.push(j);
    }
    if let Some(l) = &mut lines {
        sinks.push(l);
    }
    let result = crate::progress::with_bar(space.len(), w.what, |meter| {
        let eval = Evaluation {
            chunk: w.chunk.unwrap_or((rayon::current_num_threads() * 2) as u64),
            meter: Some(meter),
            on_error: w.on_error,
        };
        sweep::run(space, columns, &eval, point, &mut sinks)
    });
    drop(sinks);
    let (stopped, skipped) = match result {
        Ok(o) => (None, (o.failed, o.first_failure)),
        Err(RunError::Point { point, error }) => (Some((point, error)), (0, None)),
        Err(RunError::Sink { sink, error }) => {
            return Err(match (&output.csv, sink == 0 && has_csv) {
                (Some(p), true) => Error::write(p, &error),
                _ => Error::Stdout(error),
            })
        }
    };
    Ok(Swept {
        table,
        lines,
        json: json.map(JsonSink::into_inner),
        stopped,
        skipped,
        plot: output.plot.clone(),
    })
}
