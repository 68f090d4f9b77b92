//! `vates graph convert|gen`: a task graph read and written in another format, and a
//! generated one; the manual is in `docs/cli.md`.

use std::io::Write;
use std::path::Path;

use taskgraph::gen::GenOptions;
use taskgraph::{Format as GraphFormat, Limits};

use super::{load_graph, ConvertArgs, GenArgs};
use crate::error::{write_file, CliError, Result};

fn is_stdout(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// The output format: `to`, else the extension of `path`, else JSON for standard output.
fn output_format(path: Option<&Path>, to: Option<GraphFormat>) -> Result<GraphFormat> {
    let f = match (to, path) {
        (Some(f), _) => f,
        (None, None) => GraphFormat::Json,
        (None, Some(p)) if is_stdout(p) => GraphFormat::Json,
        (None, Some(p)) => GraphFormat::from_path(p).ok_or_else(|| {
            CliError::usage(format!(
                "cannot tell the output format of `{}` from its extension; use .json or .dot, \
                 or --to json|dot",
                p.display()
            ))
        })?,
    };
    if !f.can_write() {
        return Err(CliError::usage(format!(
            "cannot write {f}: only json and dot are written"
        )));
    }
    Ok(f)
}

fn emit(path: Option<&Path>, text: &str, out: &mut dyn Write) -> Result<()> {
    match path {
        Some(p) if !is_stdout(p) => Ok(write_file(p, text.as_bytes())?),
        _ => out.write_all(text.as_bytes()).map_err(CliError::Stdout),
    }
}

pub fn convert(a: ConvertArgs, out: &mut dyn Write) -> Result<()> {
    let to = output_format(Some(&a.output), a.to)?;
    let g = load_graph(&a.input, a.from, None)?;
    let text = taskgraph::format::write(&g, to)?;
    emit(Some(&a.output), &text, out)
}

pub fn gen(a: GenArgs, out: &mut dyn Write) -> Result<()> {
    let to = output_format(a.output.as_deref(), None)?;
    let opts = GenOptions {
        tasks: a.tasks,
        width: a.width,
        degree: a.degree,
        time: a.time,
        seed: a.seed,
        limits: Limits::default(),
    };
    // A generator option that makes no sense is a usage error, like a malformed one.
    let g = taskgraph::gen::generate(a.kind, &opts).map_err(|e| match e.kind {
        taskgraph::ErrorKind::BadOption => CliError::usage(e.message),
        _ => e.into(),
    })?;
    let text = taskgraph::format::write(&g, to)?;
    emit(a.output.as_deref(), &text, out)
}
