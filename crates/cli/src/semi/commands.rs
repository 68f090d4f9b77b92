//! The `vates semi` commands: each builds a [`Job`] from its flags, makes one call and
//! prints.

use std::io::Write;
use std::path::Path;

use semi::job::Job;
use semi::lang::{self, Model};
use semi::report::{
    fit_json, fit_text, model_summary, prediction_json, prediction_text, schedule_trace,
    validation_json, validation_text,
};
use semi::samples::{read_samples, SampleSet, SamplesError};
use semi::validate::read_measured;

use super::errors::{flags, job_error, model_error, over_flags, predict_error, samples_error};
use super::{
    CheckArgs, CoeffArgs, FitArgs, LimitArgs, MachineArgs, PredictArgs, ScaleArgs, ScaleCeiling,
    ScaleLaw, SweepArgs, ValidateArgs, MAX_FILE, MAX_PROFILE, MAX_SWEEP_POINTS,
};
use crate::error::{json_text, CliError, Result};
use crate::input::{self, Define};
use crate::timeline::chart;
use crate::Format;

fn read(path: &Path, what: &str) -> Result<String> {
    Ok(input::read_text(path, MAX_FILE, what, "")?)
}

fn load(path: &Path) -> Result<Model> {
    let text = read(path, "a thread-graph model (`.tg`)")?;
    lang::parse(&path.display().to_string(), &text).map_err(model_error)
}

fn params(defines: &[Define]) -> Result<Vec<(String, f64)>> {
    input::single_values(defines, "semi", None).map(|v| {
        v.into_iter()
            .map(|(n, r)| (n.to_string(), expr::number::to_f64(&r)))
            .collect()
    })
}

/// A job on the model with the flags every command shares.
fn job(m: Model, limits: &LimitArgs) -> Job {
    Job {
        limits: limits.limits(),
        ..Job::new(m)
    }
}

/// The samples of `--samples`, if given.
fn samples(m: &Model, path: Option<&Path>) -> Result<Option<SampleSet>> {
    path.map(|p| load_samples(m, p)).transpose()
}

/// The -C, --samples, --by and --machine flags of a job.
fn coeff_job(m: Model, limits: &LimitArgs, c: &CoeffArgs, mach: &MachineArgs) -> Result<Job> {
    Ok(Job {
        samples: samples(&m, c.samples.as_deref())?,
        given: c.coeff.clone(),
        by: c.by.clone(),
        by_chosen: c.by != "P",
        profile: profile(mach.machine.as_deref())?,
        processors_given: mach
            .processors
            .map(|p| usize::try_from(p).unwrap_or(usize::MAX)),
        seed: mach.seed,
        ..job(m, limits)
    })
}

pub(super) fn check(a: &CheckArgs, out: &mut dyn Write) -> Result<()> {
    let m = load(&a.model.model)?;
    let mut text = model_summary(&a.model.model.display().to_string(), &m);
    if !a.model.define.is_empty() {
        let j = Job {
            params: params(&a.model.define)?,
            ..job(m, &a.model.limits)
        };
        let semi::job::Counted {
            count: c,
            params: all,
            over,
        } = j.check().map_err(|e| job_error(e, &j.by))?;
        text.push_str(&format!(
            "at {}: Θ = {} event processings ({} with the loop entries and exits the paper counts), {} steps, {} ops{}\n",
            semi::point::point_text(&all),
            c.size.events,
            c.paper_theta(),
            c.size.steps,
            c.ops,
            match over_flags(&over)[..] {
                [] => String::new(),
                ref over => format!(" (over {}: predict would refuse it)", flags(over)),
            }
        ));
    }
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

fn load_samples(m: &Model, path: &Path) -> Result<SampleSet> {
    let text = read(path, "a samples CSV")?;
    read_samples(m, &path.display().to_string(), &text).map_err(samples_error)
}

pub(super) fn fit(a: &FitArgs, out: &mut dyn Write) -> Result<()> {
    let m = load(&a.model)?;
    let j = Job {
        samples: Some(load_samples(&m, &a.samples)?),
        by: a.by.clone(),
        profile: profile(a.machine.as_deref())?,
        ..Job::new(m)
    };
    let mut fits = Vec::new();
    for (g, f) in j.fit().map_err(|e| job_error(e, &a.by))? {
        let label = match g {
            Some(v) => format!("{}={v}", a.by),
            None => "all samples".to_string(),
        };
        let f = f.map_err(|e| match e {
            SamplesError::Fit(_)
            | SamplesError::Underdetermined { .. }
            | SamplesError::Unsampled { .. }
            | SamplesError::Traversal { .. }
            | SamplesError::Unsettled { .. } => CliError::msg(format!("{label}: {e}")),
            other => samples_error(other),
        })?;
        fits.push((label, f));
    }
    let text = match a.format {
        Format::Text => fits.iter().map(|(l, f)| fit_text(l, f)).collect::<String>(),
        Format::Json => json_text(&serde_json::Value::Array(
            fits.iter().map(|(l, f)| fit_json(l, f)).collect(),
        ))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

/// The machine profile, if one is given.
fn profile(path: Option<&Path>) -> Result<Option<probe::Profile>> {
    let Some(path) = path else { return Ok(None) };
    let text = input::read_text(path, MAX_PROFILE, "machine profile", "")?;
    probe::Profile::from_json(&text).map(Some).map_err(|e| {
        CliError::with_help(
            format!("{}: {e}", path.display()),
            "make a profile of this machine with `vates probe -o machine.json`",
        )
    })
}

pub(super) fn predict_cmd(a: &PredictArgs, out: &mut dyn Write) -> Result<()> {
    a.timeline.check()?;
    let m = load(&a.model.model)?;
    let job = Job {
        params: params(&a.model.define)?,
        schedule: a.timeline.wanted(),
        collapse: a.collapse,
        draws: a
            .draws
            .map_or(0, |k| usize::try_from(k).unwrap_or(usize::MAX)),
        ..coeff_job(m, &a.model.limits, &a.coeffs, &a.machine)?
    };
    let done = job.predict().map_err(|e| job_error(e, &a.coeffs.by))?;
    for n in &done.notes {
        crate::error::note(&format!("note: {n}"));
    }
    for c in &done.prediction.collapsed {
        crate::error::note(&format!("note: {c}"));
    }
    if done.prediction.branches && done.prediction.draws.is_none() {
        crate::error::note(
            "note: the model has branches: the time is one random draw of their arms; \
             --draws K gives the mean over K draws",
        );
    }
    for w in &done.warnings {
        crate::error::note(&format!("warning: {w}"));
    }
    let interval = done.interval;
    let p = done.prediction;
    if a.timeline.wanted() {
        let title = a.model.model.display().to_string();
        let tr = schedule_trace(&title, &p.threads, &p.outcome);
        // Times are seconds: a microsecond per second unless the flag says otherwise.
        let mut files = a.timeline.clone();
        if files.trace_unit_us == 1.0 {
            files.trace_unit_us = 1e6;
        }
        files.write(&tr, &chart(&title, "seconds"))?;
    }
    let text = match a.format {
        Format::Text => {
            let text = prediction_text(&a.model.model.display().to_string(), &p);
            match &interval {
                // The interval under the first line, the time's.
                Some(i) => {
                    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
                    let line = i.text(p.outcome.time, &trace::text::seconds);
                    format!("{first}\n  {line}\n{rest}")
                }
                None => text,
            }
        }
        Format::Json => {
            let mut v = prediction_json(&p);
            if let Some(o) = v.as_object_mut() {
                o.insert(
                    "interval".into(),
                    serde_json::to_value(&interval).map_err(|e| CliError::msg(e.to_string()))?,
                );
            }
            json_text(&v)?
        }
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

pub(super) fn validate_cmd(a: &ValidateArgs, out: &mut dyn Write) -> Result<()> {
    let m = load(&a.model)?;
    let text = read(&a.measured, "a measurements CSV")?;
    let measured =
        read_measured(&m, &a.measured.display().to_string(), &text).map_err(predict_error)?;
    let j = Job {
        samples: Some(load_samples(&m, &a.samples)?),
        by: a.by.clone(),
        profile: profile(a.machine.as_deref())?,
        processors_from: a.processors.clone(),
        seed: a.seed,
        ..job(m, &a.limits)
    };
    let (checked, table, notes) = j
        .validate(&measured, a.sample_seconds)
        .map_err(|e| job_error(e, &a.by))?;
    for n in notes {
        crate::error::note(&format!("warning: {n}"));
    }
    let text = match a.format {
        Format::Text => validation_text(&checked, &table),
        Format::Json => json_text(&validation_json(&checked, &table))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

pub(super) fn sweep_cmd(a: &SweepArgs, out: &mut dyn Write) -> Result<()> {
    use sweep::{Sample, Space};
    let m = load(&a.model)?;
    let bindings: Vec<(expr::Name, expr::grid::Values)> = a
        .define
        .iter()
        .map(|d| (d.name.clone(), d.values.clone()))
        .collect();
    let space = Space::new(bindings, MAX_SWEEP_POINTS).map_err(|e| match e {
        // A limit hit (status 1), as every command's.
        sweep::SpaceError::TooManyPoints { .. } => {
            CliError::with_help(e.to_string(), "use fewer values or coarser steps")
        }
        e => CliError::usage(e.to_string()),
    })?;
    let j = coeff_job(m, &a.limits, &a.coeffs, &a.machine)?;
    let costs = j.costs();
    let (sw, notes) = j
        .sweep(&costs, &space, rayon::current_num_threads())
        .map_err(|e| job_error(e, &a.coeffs.by))?;
    for n in notes {
        crate::error::note(&format!("note: {n}"));
    }
    let columns: Vec<String> = semi::sweep::COLUMNS.map(String::from).to_vec();
    let outputs = a.output.outputs();
    let wiring = termio::sweep_out::Wiring {
        json_points: true,
        ..termio::sweep_out::Wiring::new(
            &outputs,
            Sample::new(space.len(), 60),
            semi::sweep::lines(),
            "predicting",
        )
    };
    let swept = termio::sweep_out::run(&space, &columns, wiring, |_, p, o| sw.point(p, o))?
        .finished(|_, e| CliError::msg(e))?;
    for w in sw.warnings() {
        crate::error::note(&format!("warning: {w}"));
    }
    let x = space
        .axes()
        .first()
        .map_or(String::new(), |a| a.name().to_string());
    let title = format!("{}: predicted time", a.model.display());
    swept.write_plot(&title, &x, "seconds")?;
    let text = match a.output.format {
        Format::Text => {
            let cols = semi::sweep::text_columns(&space);
            let text = swept.table.table(&cols).render("");
            text + &crate::sample_note(&swept.table, space.len())
        }
        Format::Json => swept.json_array()?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}

pub(super) fn scale_cmd(a: &ScaleArgs, out: &mut dyn Write) -> Result<()> {
    use semi::scaling::{scale_run, Ceiling, Law, RatioRun};
    let law =
        match (a.law, a.ceiling) {
            (ScaleLaw::Shared, None) => Law::SharedMemory,
            (ScaleLaw::Shared, Some(_)) => return Err(CliError::usage(
                "--ceiling: eq. 2.3 has no ceiling; it applies to --law data-parallel (eq. 2.6)",
            )),
            (ScaleLaw::DataParallel, c) => Law::DataParallel(match c {
                None | Some(ScaleCeiling::Whole) => Ceiling::WholeRatio,
                Some(ScaleCeiling::PerProcessor) => Ceiling::PerProcessor,
            }),
        };
    let run = RatioRun {
        count: a.count.clone(),
        law,
        by: a.by.clone(),
        from: a.from.clone(),
        to: a.to.clone(),
        seconds: a.seconds,
    };
    let scaled = scale_run(&run).map_err(|e| super::errors::ratio_error(e, &a.by))?;
    for w in &scaled.scaled.warnings {
        crate::error::note(&format!("warning: {}", semi::report::scaling_warning(w)));
    }
    let text = match a.format {
        Format::Text => semi::report::ratio_text(&run, &scaled),
        Format::Json => json_text(&semi::report::ratio_json(&run, &scaled))?,
    };
    out.write_all(text.as_bytes()).map_err(CliError::Stdout)
}
