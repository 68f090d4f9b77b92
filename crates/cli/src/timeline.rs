//! `--trace`, `--trace-unit-us` and `--gantt`: the timeline files of every command that
//! produces a schedule (a PAMELA simulation, a task-graph schedule, ETCCS witness runs).

use std::path::PathBuf;

use trace::gantt::GanttOptions;

use crate::error::{write_file, CliError, Result};

/// The timeline files a command may write besides its report.
#[derive(clap::Args, Debug, Clone)]
pub struct TimelineArgs {
    /// Write the timeline as a Chrome trace JSON file (open in Perfetto).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Microseconds per model time unit in the --trace file (1e6 for times in seconds).
    #[arg(long, default_value_t = 1.0, value_name = "US", value_parser = crate::input::parse_scale)]
    pub trace_unit_us: f64,
    /// Write the timeline as an SVG Gantt chart.
    #[arg(long, value_name = "FILE")]
    pub gantt: Option<PathBuf>,
}

impl TimelineArgs {
    /// Whether any timeline file is asked for (so that the timeline must be recorded).
    pub fn wanted(&self) -> bool {
        self.trace.is_some() || self.gantt.is_some()
    }

    /// Checks that the files asked for can be written, before the work that fills them.
    pub fn check(&self) -> Result<()> {
        Ok(termio::files::check_outputs([&self.trace, &self.gantt])?)
    }

    /// Writes the files asked for of a timeline in seconds: a microsecond per second in the
    /// trace unless `--trace-unit-us` says otherwise.
    pub fn write_seconds(&self, tr: &trace::Trace, chart: &GanttOptions) -> Result<()> {
        let mut files = self.clone();
        if files.trace_unit_us == 1.0 {
            files.trace_unit_us = 1e6;
        }
        files.write(tr, chart)
    }

    /// Writes the files asked for; the Gantt chart is drawn with `chart` (see [`chart`]).
    pub fn write(&self, tr: &trace::Trace, chart: &GanttOptions) -> Result<()> {
        if let Some(path) = &self.trace {
            let bytes = trace::chrome::to_bytes(tr, self.trace_unit_us).map_err(|e| match e {
                trace::TraceError::InvalidOption { reason, .. } => CliError::with_help(
                    format!("cannot export the trace: --trace-unit-us {reason}"),
                    "choose a --trace-unit-us that keeps every time finite in microseconds",
                ),
                e => CliError::msg(format!("cannot export the trace: {e}")),
            })?;
            write_file(path, &bytes)?;
        }
        if let Some(path) = &self.gantt {
            let svg = trace::gantt::render_svg(tr, chart)
                .map_err(|e| CliError::msg(format!("cannot draw the Gantt chart: {e}")))?;
            write_file(path, svg.as_bytes())?;
        }
        Ok(())
    }
}

/// Gantt chart options with a title and a time-axis label.
pub use trace::gantt::titled as chart;
