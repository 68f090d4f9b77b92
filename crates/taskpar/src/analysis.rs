//! `vates taskpar stats` as one value: a recording's statistics with its title, timeline,
//! parallelism profile and reports in each format, beside DAG Recorder's own stats file.

use std::borrow::Cow;

use crate::dag::{Graph, Recording};
use crate::dr_stat::StatFile;
use crate::report::{self, RunInfo};
use crate::stats::{Stats, StatsOptions};

diag::choices! {
    /// How the statistics of a recording are written.
    pub enum StatsFormat {
        /// [`report::text`].
        Text = "text": "Aligned text for people",
        /// [`report::json`].
        Json = "json": "One JSON object (documented schema)",
        /// [`Stats::stat_text`].
        Stat = "stat": "DAG Recorder's stats file, field for field",
    }
}

/// The points of the parallelism profile when one is drawn.
pub const PROFILE_POINTS: usize = 2000;

/// A recording's statistics and what its reports need.
pub struct Analysis<'a> {
    /// The recording.
    pub rec: &'a Recording,
    /// Its DAG.
    pub graph: Cow<'a, Graph>,
    /// Its statistics.
    pub stats: Stats,
    /// Cilkview's burden per spawn, in CPU cycles.
    pub burden_cycles: f64,
}

impl<'a> Analysis<'a> {
    /// The statistics of `rec` with a burden of `burden_cycles` per spawn, and its
    /// parallelism profile if `profile`.
    pub fn of(rec: &'a Recording, burden_cycles: f64, profile: bool) -> Self {
        let graph = rec.graph();
        let opts = StatsOptions {
            workers: None,
            burden: rec.header.cycles_to_clock(burden_cycles),
            profile_points: if profile { PROFILE_POINTS } else { 0 },
        };
        let stats = Stats::of(&graph, rec.header.workers, rec.nodes, &opts);
        Analysis {
            rec,
            graph,
            stats,
            burden_cycles,
        }
    }

    /// Seconds per clock unit of the recording.
    pub fn seconds(&self) -> f64 {
        1.0 / self.rec.header.clock.frequency_hz
    }

    /// The pictures' title: the program (or `recorded run`) on its workers.
    pub fn title(&self) -> String {
        let program = match self.rec.header.program.as_str() {
            "" => "recorded run",
            p => p,
        };
        format!("{program} on {} workers", self.stats.workers)
    }

    /// The timeline of the run, times in seconds.
    pub fn timeline(&self) -> trace::Trace {
        let workers = self.rec.header.workers;
        crate::timeline::timeline(&self.graph, workers, self.seconds(), &self.title())
    }

    /// The parallelism profile (with [`Analysis::of`]'s `profile`) as a plot.
    pub fn profile_plot(&self) -> trace::plot::LinePlot {
        let st = &self.stats;
        crate::timeline::profile_plot(&st.profile, st.workers, self.seconds(), &self.title())
    }

    /// The report in `format`.
    pub fn text(&self, format: StatsFormat) -> String {
        let info = RunInfo {
            header: &self.rec.header,
            burden_cycles: self.burden_cycles,
        };
        match format {
            StatsFormat::Text => report::text(&self.stats, &info),
            StatsFormat::Stat => self.stats.stat_text(),
            StatsFormat::Json => pretty(&report::json(&self.stats, &info)),
        }
    }

    /// The report in `format`, or with `theirs` (DAG Recorder's stats file and its name)
    /// the file beside these statistics (of the DAG named `dag_name`), as JSON or else as
    /// text ([`StatsFormat::comparable`]).
    pub fn document(
        &self,
        format: StatsFormat,
        theirs: Option<(&StatFile, &str)>,
        dag_name: &str,
    ) -> String {
        let Some((theirs, stat_name)) = theirs else {
            return self.text(format);
        };
        let c = crate::dr_stat::compare(theirs, &self.stats);
        match format {
            StatsFormat::Json => pretty(&report::comparison_json(&c)),
            _ => report::comparison_text(&c, stat_name, dag_name),
        }
    }
}

impl StatsFormat {
    /// Checks that a report in this format can set DAG Recorder's stats file (`{compare}`)
    /// beside the statistics: text or JSON, not the stats file itself.
    ///
    /// # Errors
    /// [`diag::Keyed`], a usage error: the stats file format.
    pub fn comparable(self) -> Result<(), diag::Keyed> {
        match self {
            StatsFormat::Stat => Err(diag::Keyed::usage(
                "{compare} prints a comparison (text or JSON): give {format} text or json, or \
                 leave out {compare} to print the stats file",
            )),
            _ => Ok(()),
        }
    }
}

/// `v` as pretty JSON with a final newline.
fn pretty(v: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_reports_the_same_recording() {
        let ((), dag) = taskrec::record_with(taskrec::Options { collapse: false }, || {
            let _ = taskrec::join(|| 1, || 2);
        });
        let meta = taskrec::Meta {
            program: String::new(),
            parameters: Vec::new(),
            collapse: false,
        };
        let bytes = taskrec::encode(&dag, &meta);
        let rec = crate::dag::read(&bytes, &crate::dag::Limits::default()).unwrap();
        let a = Analysis::of(&rec, 1e4, true);
        assert_eq!(
            a.title(),
            format!("recorded run on {} workers", a.stats.workers)
        );
        let json: serde_json::Value = serde_json::from_str(&a.text(StatsFormat::Json)).unwrap();
        assert!(json.is_object());
        assert!(a.text(StatsFormat::Text).contains("work"));
        assert_eq!(a.text(StatsFormat::Stat), a.stats.stat_text());
        assert!(!a.stats.profile.is_empty());
        let text = a.text(StatsFormat::Text);
        assert_eq!(a.document(StatsFormat::Text, None, "d"), text);
        assert!(StatsFormat::Stat.comparable().unwrap_err().advice.usage);
        assert!(StatsFormat::Json.comparable().is_ok());
    }
}
