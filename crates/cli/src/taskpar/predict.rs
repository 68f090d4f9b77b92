//! `vates taskpar predict`: `-D n=.. -D p=..` (or `-n`, `-p`) → the model's n × p grid
//! ([`taskpar::model::predict_grid`]) → text, JSON or a plot.

use std::io::Write;
use std::path::{Path, PathBuf};

use taskpar::model::{self, from_json, predict_grid, prediction_text, Model};

use super::model::{front_error, MAX_MODEL};
use crate::error::{print, CliError, Result};
use crate::input::Define;
use crate::Format;

/// Options of `vates taskpar predict`.
#[derive(clap::Args, Debug)]
pub struct PredictArgs {
    /// The model file (`vates taskpar fit` writes it).
    #[arg(value_name = "MODEL.json")]
    model: PathBuf,
    /// The point: `-D n=SIZE -D p=WORKERS`, each one value, a list `-D p=1,2,4` or a range
    /// `-D n=100..400:100` (the grid is every size × every worker count).
    #[arg(short = 'D', value_name = "NAME=VALUE", value_parser = crate::input::parse_define)]
    define: Vec<Define>,
    /// Problem sizes (the same as `-D n=...`).
    #[arg(short = 'n', long = "size", value_name = "N")]
    n: Option<String>,
    /// Worker counts (the same as `-D p=...`).
    #[arg(short = 'p', long = "procs", value_name = "P")]
    p: Option<String>,
    /// Draw the predictions over the swept workers (or sizes): time, its breakdown, the
    /// direct regression and the bounds (T1/p, T∞, T1/p + T∞).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

fn load_model(path: &Path) -> Result<Model> {
    let text = crate::input::read_text(path, MAX_MODEL, "a model file (JSON)", "")?;
    from_json(&text).map_err(|e| {
        CliError::with_help(
            format!("`{}`: {e}", path.display()),
            "give a model file written by `vates taskpar fit` of this version (fit it again \
             from the training CSV)",
        )
    })
}

/// The sizes and worker counts of `predict`: `-D n=.. -D p=..` or `-n`, `-p`.
fn point_values(a: &PredictArgs) -> Result<(Vec<f64>, Vec<f64>)> {
    let flag = |v: &Option<String>, f: &str| v.clone().map(|v| (v, f.to_string()));
    let (mut n, mut p) = (flag(&a.n, "-n"), flag(&a.p, "-p"));
    for d in &a.define {
        let name = d.name.to_string();
        let slot = match name.as_str() {
            "n" => &mut n,
            "p" => &mut p,
            _ => {
                let lower = name.to_lowercase();
                let guess = match lower.as_str() {
                    "n" | "size" | "sizes" => vec!["n".to_string()],
                    "p" | "procs" | "workers" | "threads" => vec!["p".to_string()],
                    _ => diag::suggest(&name, ["n", "p"]),
                };
                let hint = diag::did_you_mean(&guess)
                    .unwrap_or_else(|| "the names are `n` (size) and `p` (workers)".into());
                return Err(CliError::usage(format!(
                    "-D {}: `vates taskpar predict` has no parameter `{name}`; {hint}",
                    d.text
                )));
            }
        };
        if slot.is_some() {
            return Err(CliError::usage(format!(
                "`{name}` is given more than once (-D {name}=... and -{name} are the same)"
            )));
        }
        let value = d.text.split_once('=').map_or("", |(_, v)| v);
        *slot = Some((value.to_string(), format!("-D {name}")));
    }
    let need = |v: Option<(String, String)>, name: &str, what: &str| {
        let (text, flag) = v.ok_or_else(|| {
            CliError::usage(format!(
                "give the {what} with -D {name}=VALUE (or -{name} VALUE)"
            ))
        })?;
        super::record::values(&flag, taskpar::experiment::values(&text))
    };
    Ok((need(n, "n", "size")?, need(p, "p", "worker count")?))
}

/// Runs `vates taskpar predict`.
pub fn run(a: PredictArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(p) = &a.plot {
        crate::error::check_output(p)?;
    }
    let (ns, ps) = point_values(&a)?;
    let m = load_model(&a.model)?;
    if a.plot.is_some() && ns.len() > 1 && ps.len() > 1 {
        return Err(CliError::usage(
            "--plot draws over the workers at one size or over the sizes at one worker count: \
             give one value to -D n or to -D p",
        ));
    }
    let preds = predict_grid(&m, &ns, &ps).map_err(|e| front_error(&a.model, &a.model, e))?;
    let app = m.app.clone().unwrap_or_else(|| "the application".into());
    if let Some(path) = &a.plot {
        let plot = model::prediction_plot(&app, &preds, ps.len() > 1);
        super::draw(&plot, 900, 520, path, "the plot")?;
    }
    let text = match (a.format, preds.as_slice()) {
        (Format::Text, _) => preds.iter().map(|p| prediction_text(&app, p)).collect(),
        (Format::Json, [one]) => super::sorted_json(one)?,
        (Format::Json, _) => super::sorted_json(&preds)?,
    };
    print(out, &text)
}
