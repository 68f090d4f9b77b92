//! A campaign as text while it runs: a line per row under a header, and the summary.

use std::path::Path;

use trace::text::{num, seconds};

use super::{Event, Summary};

impl Event<'_> {
    /// What this event tells a progress display over the runs: the plan's runs, a row's
    /// line ([`Event::line`], with the untraced columns if `untraced`) and its run.
    pub fn tick(&self, untraced: bool) -> sweep::Tick {
        sweep::Tick {
            total: match self {
                Event::Planned { todo, .. } => Some(*todo as u64),
                Event::Row { .. } => None,
            },
            line: self.line(untraced),
            note: None,
            done: u64::from(matches!(self, Event::Row { .. })),
        }
    }

    /// The line this event shows in a table of the rows (the header when runs are
    /// planned, a row per run), with the untraced columns if `untraced`; `None` for a plan
    /// with nothing to run.
    pub fn line(&self, untraced: bool) -> Option<String> {
        let mut line = match self {
            Event::Planned { todo: 0, .. } => return None,
            Event::Planned { .. } => {
                format!("{:>10} {:>4} {:>4} {:>12}", "n", "p", "rep", "traced")
            }
            Event::Row { point, row, .. } => format!(
                "{:>10} {:>4} {:>4} {:>12}",
                num(point.n),
                point.p,
                point.rep,
                seconds(row.run.elapsed)
            ),
        };
        // Without untraced runs, no columns for them.
        if !untraced {
            return Some(line);
        }
        let (u, overhead) = match self {
            Event::Planned { .. } => ("untraced".to_string(), "overhead".to_string()),
            Event::Row { row, .. } => match row.elapsed_untraced {
                Some(u) => (
                    seconds(u),
                    format!("{:.1}%", 100.0 * (row.run.elapsed / u - 1.0)),
                ),
                None => (String::new(), String::new()),
            },
        };
        line.push_str(&format!(" {u:>12} {overhead:>9}"));
        Some(line)
    }
}

impl Summary {
    /// What a campaign of `app` appended to `output`, one line.
    pub fn text(&self, app: &str, output: &Path) -> String {
        format!(
            "{} runs of {app} appended to {} ({} were there already)\n",
            self.written,
            output.display(),
            self.skipped
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Measured, Point};
    use crate::model::Run;

    #[test]
    fn rows_line_up_under_the_header() {
        let head = Event::Planned { todo: 2, done: 0 }.line(true).unwrap();
        assert_eq!(
            head,
            "         n    p  rep       traced     untraced  overhead"
        );
        assert_eq!(Event::Planned { todo: 0, done: 3 }.line(true), None);
        let run = Run {
            app: "fib".into(),
            n: 20.0,
            p: 2.0,
            rep: 0.0,
            work: 2.0,
            work_serial: 2.0,
            delay: 0.1,
            no_work: 0.1,
            create_task: 10.0,
            wait_tasks: 10.0,
            span: None,
            elapsed: 1.1,
            elapsed_untraced: Some(1.0),
        };
        let row = Measured {
            run,
            elapsed_untraced: Some(1.0),
            burdened_span: 0.5,
        };
        let point = Point {
            n: 20.0,
            p: 2,
            rep: 0,
        };
        let line = Event::Row {
            index: 0,
            point,
            row: &row,
        }
        .line(true)
        .unwrap();
        assert_eq!(line.len(), head.len());
        assert!(line.ends_with("10.0%"), "{line}");
        let plain = Event::Row {
            index: 0,
            point,
            row: &row,
        }
        .line(false)
        .unwrap();
        assert_eq!(plain.len(), 33);
    }

    #[test]
    fn the_summary_names_the_file() {
        let s = Summary {
            written: 4,
            skipped: 2,
        };
        assert_eq!(
            s.text("fib", Path::new("t.csv")),
            "4 runs of fib appended to t.csv (2 were there already)\n"
        );
    }
}
