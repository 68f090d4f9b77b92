//! Witness runs explained: who acted when, and who waited for whom.
//!
//! A [`Run`] records for each step the components that acted (its
//! [`Party`]s: when each last acted, when it was ready, its action). Here
//! that becomes a step-by-step text timeline and a [`trace::Trace`] (one
//! lane per component, *busy* until the component was ready, *wait* from
//! then until its partner came), for Chrome trace JSON and SVG Gantt charts.
//!
//! ```
//! use etccs::{analyse, parse, witness, Options};
//!
//! let src = "define P7 = ((a,3).nil | (a,3).(b,4).nil | (a',4).nil)\\{a}\nanalyse P7";
//! let mut model = parse("p7.etccs", src)?;
//! let a = analyse(&mut model, "P7", &Options::default())?;
//! let max = a.max.as_ref().expect("a terminating agent has a slowest run");
//! assert_eq!(
//!     witness::timeline_text(max),
//!     "         4  a@3.b@4.nil a (waited 1) + 'a@4.nil a'\n         8  a@3.b@4.nil b\n"
//! );
//! let t = witness::trace(&[&a]);
//! // The slowest and the fastest run, three components each.
//! assert_eq!(t.lanes.len(), 3 + 3);
//! assert_eq!((t.lanes[0].name.as_str(), t.lanes[3].name.as_str()), ("max a@3.nil", "min a@3.nil"));
//! # Ok::<(), etccs::Error>(())
//! ```

use crate::explore::{Analysis, Party, Run};
use crate::output::time_str;
use crate::term::Time;
use num_traits::{ToPrimitive, Zero};
use trace::{Kind, Trace};

/// The run step by step: one line per step with its time (since the start
/// of the run) and the components that acted, each with its action and,
/// when it was ready before the step, how long it waited.
pub fn timeline_text(r: &Run) -> String {
    let mut out = String::new();
    for (now, st) in r.timed_steps() {
        let who: Vec<String> = st
            .parties
            .iter()
            .map(|p| {
                let lane = r.lanes.get(p.lane).map_or("?", String::as_str);
                let waited = p.waited(&now);
                if waited.is_zero() {
                    format!("{lane} {}", p.action)
                } else {
                    format!("{lane} {} (waited {})", p.action, time_str(&waited))
                }
            })
            .collect();
        out.push_str(&format!("{:>10}  {}\n", time_str(&now), who.join(" + ")));
    }
    out
}

/// The slowest run of each analysis (and its fastest, when that takes
/// less time) as a timeline: a lane group per run, a lane per component
/// (named `max …` and `min …` when both runs are shown, so that a chart
/// without group names tells them apart); each action of a component
/// closes a *busy* interval from its previous action until it was ready,
/// then a *wait* interval until the action happened. Intervals are
/// labelled with the action.
pub fn trace(analyses: &[&Analysis]) -> Trace {
    let mut t = Trace::new(match analyses {
        [one] => format!("witness runs of {}", one.name),
        _ => "witness runs".to_string(),
    });
    for a in analyses {
        let Some(max) = &a.max else { continue };
        let min = a.min.as_ref().filter(|m| m.time < max.time);
        let prefix = |p: &'static str| if min.is_some() { p } else { "" };
        add_run(
            &mut t,
            &format!("{}: slowest run", a.name),
            prefix("max "),
            max,
        );
        if let Some(min) = min {
            add_run(&mut t, &format!("{}: fastest run", a.name), "min ", min);
        }
    }
    t
}

/// Adds the lanes (names after `prefix`) and intervals of `r` as the group
/// `group`.
fn add_run(t: &mut Trace, group: &str, prefix: &str, r: &Run) {
    let group = format!("{group} ({})", time_str(&r.time));
    let ids: Vec<usize> = r
        .lanes
        .iter()
        .map(|l| t.add_lane(format!("{prefix}{l}"), &group))
        .collect();
    for (now, st) in r.timed_steps() {
        for p in &st.parties {
            push_party(t, ids[p.lane], p, &now);
        }
    }
}

/// The busy and wait intervals that end in the action of `p` at `now`.
fn push_party(t: &mut Trace, lane: usize, p: &Party, now: &Time) {
    let f = |x: &Time| x.to_f64().unwrap_or(f64::NAN);
    if p.since < p.ready {
        t.push(lane, f(&p.since), f(&p.ready), &p.action, Kind::Busy);
    }
    if p.ready < *now {
        t.push(
            lane,
            f(&p.ready),
            f(now),
            format!("wait {}", p.action),
            Kind::Wait,
        );
    }
}

/// Step by step, the fastest and slowest runs of each concrete analysis among `results`
/// (one run when all take the same time), and the runs into a deadlock or a cycle.
pub fn explained_text(results: &[crate::Report]) -> String {
    let mut s = String::new();
    for r in results {
        let crate::Report::Concrete(a) = r else {
            continue;
        };
        let same = matches!((&a.min, &a.max), (Some(x), Some(y)) if x.time == y.time);
        let mut runs: Vec<(&str, &Run)> = [("fastest run", &a.min), ("slowest run", &a.max)]
            .into_iter()
            .skip(usize::from(same))
            .filter_map(|(which, r)| r.as_ref().map(|r| (which, r)))
            .collect();
        match &a.outcome {
            crate::Outcome::Terminated => {}
            crate::Outcome::Deadlock { run, .. } => runs.push(("run into the deadlock", run)),
            crate::Outcome::NonTerminating { prefix, cycle } => {
                runs.push(("run to the cycle", prefix));
                runs.push(("cycle", cycle));
            }
        }
        for (which, run) in runs {
            s.push_str(&format!(
                "\n{which} of {} ({}), step by step:\n{}",
                a.name,
                crate::output::time_str(&run.time),
                timeline_text(run)
            ));
        }
    }
    s
}
