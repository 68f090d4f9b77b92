//! The `vates semi` commands: each builds a [`Job`] from its flags, makes one call and
//! prints.

use std::io::Write;
use std::path::Path;

use semi::instantiate::Limits;
use semi::job::{Job, JobError};
use semi::scaling::{scale_run, Law, RatioRun};
use semi::shown::Shown;

use super::{
    CheckArgs, CoeffArgs, FitArgs, MachineArgs, PredictArgs, ScaleArgs, SweepArgs, ValidateArgs,
};
use crate::error::{flag_of, json_text, note, print, CliError, Result};
use crate::input;
use crate::Format;
use termio::sweep_out::{self, Wiring};

/// The largest model, samples or measurements file read.
const MAX_FILE: usize = 1 << 26;
/// The largest machine profile read.
const MAX_PROFILE: usize = 1 << 22;

/// A semi error as a message naming the flags ([`semi::advice`]): one in a text points
/// into it, with the advice as its help.
fn job_error(e: impl Into<JobError>) -> CliError {
    let shown = e.into().diagnostic(&flag_of);
    shown.map_or_else(|e| CliError::keyed(&e), CliError::Report)
}

/// Prints the answer's remarks to standard error, then the answer in `format`.
fn show(r: &dyn Shown, format: Format, out: &mut dyn Write) -> Result<()> {
    for line in r.remarks(&flag_of) {
        note(&line);
    }
    let text = match format {
        Format::Text => r.text(),
        Format::Json => json_text(&r.json())?,
    };
    print(out, &text)
}

/// The file in `path` (`what` it holds, at most `max` bytes) read by `reader` (its name for
/// messages, its text).
fn load<T, E: Into<JobError>>(
    (path, max): (&Path, usize),
    what: &str,
    reader: impl FnOnce(&str, &str) -> std::result::Result<T, E>,
) -> Result<T> {
    let text = input::read_text(path, max, what, "")?;
    reader(&path.display().to_string(), &text).map_err(job_error)
}

/// A job on the model in `path`.
fn job(path: &Path, limits: Limits) -> Result<Job> {
    let m = load(
        (path, MAX_FILE),
        "a thread-graph model (`.tg`)",
        semi::lang::parse,
    )?;
    Ok(Job {
        limits,
        ..Job::new(m)
    })
}

/// The sample runs in `path`.
fn samples(j: &Job, path: &Path) -> Result<Option<semi::samples::SampleSet>> {
    let read = |name: &str, text: &str| semi::samples::read_samples(&j.model, name, text);
    load((path, MAX_FILE), "a samples CSV", read).map(Some)
}

/// The machine profile, if one is given.
fn profile(path: Option<&Path>) -> Result<Option<probe::Profile>> {
    let read = |p| load((p, MAX_PROFILE), "machine profile", semi::job::read_profile);
    path.map(read).transpose()
}

/// The -C, --samples, --by and --machine flags of a job.
fn coefficients(j: &mut Job, c: &CoeffArgs, m: &MachineArgs) -> Result<()> {
    if let Some(path) = &c.samples {
        j.samples = samples(j, path)?;
    }
    j.given.clone_from(&c.coeff);
    j.by.clone_from(&c.by);
    j.by_chosen = c.by != "P";
    j.profile = profile(m.machine.as_deref())?;
    j.processors_given = m.processors;
    j.seed = m.seed;
    Ok(())
}

pub(super) fn check(a: &CheckArgs, out: &mut dyn Write) -> Result<()> {
    let m = &a.model;
    let mut j = job(&m.model, m.limits.limits())?;
    let mut text = semi::report::model_summary(&m.model.display().to_string(), &j.model);
    if !m.define.is_empty() {
        j.bind(input::single_values(
            &m.define,
            "semi check",
            Some("semi sweep"),
        )?);
        text.push_str(&j.check().map_err(job_error)?.line(&flag_of));
    }
    print(out, &text)
}

pub(super) fn fit(a: &FitArgs, out: &mut dyn Write) -> Result<()> {
    let mut j = job(&a.model, Limits::default())?;
    j.samples = samples(&j, &a.samples)?;
    j.by.clone_from(&a.by);
    j.profile = profile(a.machine.as_deref())?;
    show(&j.fits().map_err(job_error)?, a.format, out)
}

pub(super) fn predict_cmd(a: &PredictArgs, out: &mut dyn Write) -> Result<()> {
    a.timeline.check()?;
    let mut j = job(&a.model.model, a.model.limits.limits())?;
    let given = input::single_values(&a.model.define, "semi predict", Some("semi sweep"))?;
    j.bind(given);
    coefficients(&mut j, &a.coeffs, &a.machine)?;
    j.schedule = a.timeline.wanted();
    j.collapse = a.collapse;
    j.draws = a.draws.unwrap_or(0);
    let done = j.predict().map_err(job_error)?;
    if a.timeline.wanted() {
        let chart = crate::timeline::chart(&done.model, "seconds");
        a.timeline.write_seconds(&done.timeline(), &chart)?;
    }
    show(&done, a.format, out)
}

pub(super) fn validate_cmd(a: &ValidateArgs, out: &mut dyn Write) -> Result<()> {
    let mut j = job(&a.model, a.limits.limits())?;
    let read = |name: &str, text: &str| semi::validate::read_measured(&j.model, name, text);
    let measured = load((&a.measured, MAX_FILE), "a measurements CSV", read)?;
    j.samples = samples(&j, &a.samples)?;
    j.by.clone_from(&a.by);
    j.profile = profile(a.machine.as_deref())?;
    j.processors_from.clone_from(&a.processors);
    j.seed = a.seed;
    let validated = j.validation(&measured, a.sample_seconds);
    show(&validated.map_err(job_error)?, a.format, out)
}

pub(super) fn sweep_cmd(a: &SweepArgs, out: &mut dyn Write) -> Result<()> {
    let mut j = job(&a.model, a.limits.limits())?;
    let axes = a.define.iter().map(|d| (d.name.clone(), d.values.clone()));
    let space = j.space(axes).map_err(job_error)?;
    coefficients(&mut j, &a.coeffs, &a.machine)?;
    let costs = j.costs();
    let (sw, notes) = j
        .sweep(&costs, &space, rayon::current_num_threads())
        .map_err(job_error)?;
    for n in notes {
        note(&format!("note: {n}"));
    }
    let outputs = a.output.outputs();
    let (table, lines) = (semi::sweep::table(&space), semi::sweep::lines());
    let wiring = Wiring {
        json_points: true,
        ..Wiring::new(&outputs, table, lines, "predicting")
    };
    let point = |_: u64, p: &[f64], o: &mut [f64]| sw.point(p, o);
    let swept = sweep_out::run(&space, &semi::sweep::columns(), wiring, point)?
        .finished(|_, e| CliError::msg(e))?;
    for w in sw.warnings() {
        note(&format!("warning: {w}"));
    }
    let (title, x) = semi::sweep::plot_labels(&a.model.display().to_string(), &space);
    swept.write_plot(&title, x, "seconds")?;
    let text = match a.output.format {
        Format::Text => {
            let rows = &swept.table;
            semi::sweep::table_text(&space, rows) + &crate::sample_note(rows, space.len())
        }
        Format::Json => swept.json_array()?,
    };
    print(out, &text)
}

pub(super) fn scale_cmd(a: &ScaleArgs, out: &mut dyn Write) -> Result<()> {
    let run = RatioRun {
        count: a.count.clone(),
        law: Law::named(a.law, a.ceiling).map_err(|e| CliError::keyed(&e))?,
        by: a.by.clone(),
        from: a.from.clone(),
        to: a.to.clone(),
        seconds: a.seconds,
    };
    let scaled = scale_run(&run).map_err(|e| CliError::keyed(&e))?;
    show(&(&run, &scaled), a.format, out)
}
