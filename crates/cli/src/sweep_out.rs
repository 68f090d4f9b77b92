//! The wiring of every sweep command's outputs, once: the sinks its flags ask for (the text
//! table, `--csv`, `--format json`, `--plot`), the shared runner with a progress bar, and the
//! files written.

use sweep::{
    CsvSink, Evaluation, JsonLayout, JsonSink, Lines, LinesConfig, OnError, RunError, Sample, Sink,
    Space,
};

use crate::error::{CliError, Result};
use crate::{Format, SweepOutput};

/// What a sweep gives back to its command: the table's rows, the plot's lines and the JSON
/// elements (with `--format json` when the command asked for them).
pub struct Swept {
    /// The text table's rows (all, or a sample of them).
    pub table: Sample,
    /// The plot's lines (with `--plot`).
    pub lines: Option<Lines>,
    /// The points as JSON array elements (with `--format json` and `json_points`).
    pub json: Option<Vec<u8>>,
}

impl Swept {
    /// Writes the plot to `--plot`'s file, if one was asked for.
    pub fn write_plot(&self, output: &SweepOutput, title: &str, x: &str, y: &str) -> Result<()> {
        let (Some(lines), Some(path)) = (&self.lines, &output.plot) else {
            return Ok(());
        };
        let svg = lines
            .render_svg(title, x, y, (800, 500))
            .map_err(|e| CliError::msg(format!("cannot draw the plot: {e}")))?;
        crate::error::write_file(path, svg.as_bytes())
    }

    /// The JSON elements as one pretty array.
    ///
    /// # Errors
    /// None in practice: the elements are the sink's own JSON.
    pub fn json_array(&self) -> Result<String> {
        let body = self.json.as_deref().unwrap_or_default();
        let all = format!("[{}]", String::from_utf8_lossy(body));
        let value: serde_json::Value = serde_json::from_str(&all)
            .map_err(|e| CliError::msg(format!("the sweep's JSON is not valid: {e}")))?;
        crate::error::json_text(&value)
    }
}

/// How a sweep is wired.
pub struct Wiring<'a> {
    /// The output flags.
    pub output: &'a SweepOutput,
    /// The text table's rows to keep.
    pub table: Sample,
    /// The plot's lines.
    pub lines: LinesConfig,
    /// Whether `--format json` streams the points as array elements (otherwise the command
    /// builds its JSON from the table).
    pub json_points: bool,
    /// The progress bar's word ("predicting").
    pub what: &'a str,
}

/// Checks the output files can be written (before a long sweep), runs `point` over `space`
/// into the sinks the flags ask for, and writes the CSV file.
///
/// # Errors
/// A file that cannot be written, or the point function's first error (`point_error`).
pub fn run<E, F>(
    space: &Space,
    columns: &[String],
    w: Wiring<'_>,
    point: F,
    point_error: impl FnOnce(E) -> CliError,
) -> Result<Swept>
where
    E: Send,
    F: Fn(u64, &[f64], &mut [f64]) -> std::result::Result<(), E> + Sync,
{
    let output = w.output;
    for path in [&output.csv, &output.plot].into_iter().flatten() {
        crate::error::check_output(path)?;
    }
    let mut csv = match &output.csv {
        Some(p) => {
            let f = std::fs::File::create(p).map_err(|e| CliError::write(p, &e))?;
            Some(CsvSink::new(std::io::BufWriter::new(f)))
        }
        None => None,
    };
    let mut json = (w.json_points && output.format == Format::Json)
        .then(|| JsonSink::new(Vec::new(), JsonLayout::Elements));
    let mut lines = output.plot.as_ref().map(|_| Lines::new(w.lines));
    let mut table = w.table;
    let mut sinks: Vec<&mut dyn Sink> = vec![&mut table];
    if let Some(c) = &mut csv {
        sinks.push(c);
    }
    if let Some(j) = &mut json {
        sinks.push(j);
    }
    if let Some(l) = &mut lines {
        sinks.push(l);
    }
    let result = crate::progress::with_bar(space.len(), w.what, |meter| {
        let eval = Evaluation {
            chunk: (rayon::current_num_threads() * 2) as u64,
            meter: Some(meter),
            on_error: OnError::Stop,
        };
        sweep::run(space, columns, &eval, point, &mut sinks)
    });
    drop(sinks);
    result.map_err(|e| match e {
        RunError::Point { error, .. } => point_error(error),
        RunError::Sink { error, .. } => match &output.csv {
            Some(p) => CliError::write(p, &error),
            None => CliError::Stdout(error),
        },
    })?;
    Ok(Swept {
        table,
        lines,
        json: json.map(JsonSink::into_inner),
    })
}
