//! What a front end shows of a job's answer ([`Shown`]): remarks for the user (`note:`,
//! `warning:`), then the answer as text or as JSON, built from [`crate::report`].

use serde_json::Value;

use crate::advice::{key, over_text};
use crate::job::{Counted, Fits, Predicted, Validated};
use crate::point::point_text;
use crate::report;
use crate::scaling::{RatioRun, RatioScaled};

/// An answer as a front end shows it.
pub trait Shown {
    /// What the user should know beside the answer, each a line (`note: …`, `warning: …`),
    /// the inputs it names spelt by `spell` (`draws` → `--draws`).
    fn remarks(&self, spell: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        let _ = spell;
        Vec::new()
    }
    /// The answer as text.
    fn text(&self) -> String;
    /// The answer as one JSON document.
    fn json(&self) -> Value;
}

impl Shown for Predicted {
    /// The fit's notes, eq. 2.5's collapses, a note on branches drawn once, the warnings.
    fn remarks(&self, spell: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        let p = &self.prediction;
        let mut out: Vec<String> = self.notes.iter().map(|n| format!("note: {n}")).collect();
        out.extend(p.collapsed.iter().map(|c| format!("note: {c}")));
        if p.branches && p.draws.is_none() {
            out.push(format!(
                "note: the model has branches: the time is one random draw of their arms; \
                 {} K gives the mean over K draws",
                key(spell, "draws")
            ));
        }
        out.extend(self.warnings.iter().map(|w| format!("warning: {w}")));
        out
    }

    /// [`report::prediction_text`] with the interval under its first line, the time's.
    fn text(&self) -> String {
        let text = report::prediction_text(&self.model, &self.prediction);
        match &self.interval {
            Some(i) => {
                let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
                let line = i.text(self.prediction.outcome.time, &trace::text::seconds);
                format!("{first}\n  {line}\n{rest}")
            }
            None => text,
        }
    }

    /// [`report::prediction_json`] with `interval` (`null` without one).
    fn json(&self) -> Value {
        let mut v = report::prediction_json(&self.prediction);
        if let Some(o) = v.as_object_mut() {
            let interval = serde_json::to_value(&self.interval).unwrap_or(Value::Null);
            o.insert("interval".into(), interval);
        }
        v
    }
}

/// Warnings as remarks, each `warning: …`.
fn warned(warnings: &[String]) -> Vec<String> {
    warnings.iter().map(|w| format!("warning: {w}")).collect()
}

impl Shown for Fits {
    /// The warnings about the samples.
    fn remarks(&self, _: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        warned(&self.warnings)
    }

    fn text(&self) -> String {
        self.groups
            .iter()
            .map(|(l, f)| report::fit_text(l, f))
            .collect()
    }

    /// An array: a fit per group.
    fn json(&self) -> Value {
        let fits = self.groups.iter().map(|(l, f)| report::fit_json(l, f));
        Value::Array(fits.collect())
    }
}

impl Shown for Validated {
    fn remarks(&self, _: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        warned(&self.warnings)
    }

    fn text(&self) -> String {
        report::validation_text(&self.checked, &self.table)
    }

    fn json(&self) -> Value {
        report::validation_json(&self.checked, &self.table)
    }
}

impl Shown for (&RatioRun, &RatioScaled) {
    fn remarks(&self, _: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        let warnings = &self.1.scaled.warnings;
        warnings
            .iter()
            .map(|w| format!("warning: {}", report::scaling_warning(w)))
            .collect()
    }

    fn text(&self) -> String {
        report::ratio_text(self.0, self.1)
    }

    fn json(&self) -> Value {
        report::ratio_json(self.0, self.1)
    }
}

impl Counted {
    /// Θ of the point as a line of `vates semi check`: the events (with the loop entries
    /// and exits the paper counts), steps and ops, and the limits it is over with the
    /// inputs that set them spelt by `spell`.
    pub fn line(&self, spell: &dyn Fn(&str) -> Option<String>) -> String {
        let c = &self.count;
        format!(
            "at {}: Θ = {} event processings ({} with the loop entries and exits the paper counts), {} steps, {} ops{}\n",
            point_text(&self.params),
            c.size.events,
            c.paper_theta(),
            c.size.steps,
            c.ops,
            match &self.over[..] {
                [] => String::new(),
                over => format!(
                    " (over {}: predict would refuse it)",
                    over_text(over, spell)
                ),
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::Job;

    fn flags(k: &str) -> Option<String> {
        Some(format!("--{k}"))
    }

    fn job(text: &str) -> Job {
        Job::new(crate::lang::parse("m.tg", text).expect("model"))
    }

    #[test]
    fn a_count_over_the_limits_names_the_inputs_that_raise_them() {
        let mut j = job("param N; coeff c; thread t { loop N { compute w = c; } }");
        j.params = vec![("N".into(), 100.0)];
        j.limits = crate::instantiate::Limits::with(10, 1);
        let line = j.check().expect("counted").line(&flags);
        assert!(line.starts_with("at N=100: Θ = "), "{line}");
        assert!(
            line.ends_with(" (over --max-steps 10 and --max-ops 1: predict would refuse it)\n"),
            "{line}"
        );
        j.limits = crate::instantiate::Limits::default();
        assert!(j.check().expect("counted").line(&flags).ends_with(" ops\n"));
    }

    #[test]
    fn a_prediction_with_branches_drawn_once_says_how_to_draw_more() {
        let mut j = job(
            "param N; thread t { branch 1 / 2 { compute a = N; } else { compute b = 2 * N; } }",
        );
        j.params = vec![("N".into(), 1.0)];
        let done = j.predict().expect("predicted");
        let remarks = done.remarks(&flags);
        assert!(
            remarks
                .iter()
                .any(|r| r.ends_with("; --draws K gives the mean over K draws")),
            "{remarks:?}"
        );
        // No samples, no interval: the JSON says so, the text has no interval line.
        assert_eq!(done.json()["interval"], Value::Null);
        assert_eq!(
            done.text(),
            report::prediction_text("m.tg", &done.prediction)
        );
        j.draws = 3;
        assert!(j.predict().expect("predicted").remarks(&flags).is_empty());
    }
}
