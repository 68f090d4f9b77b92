//! `vates demo`: the guided tour ([`tour`]) on the embedded examples and the commands to
//! try next, and with `--out DIR` its pictures written there.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use crate::error::{write_file, CliError, Result};

/// Runs the tour.
pub fn run(out_dir: Option<&Path>, out: &mut dyn Write) -> Result<()> {
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(dir).map_err(|e| CliError::write(dir, &e))?;
    }
    let tour = tour::run(out_dir.is_some()).map_err(|e| CliError::msg(e.to_string()))?;
    let mut s = tour.text;
    if let Some(dir) = out_dir {
        let names: Vec<&str> = tour.pictures.iter().map(|(n, _)| *n).collect();
        for (name, contents) in &tour.pictures {
            write_file(&dir.join(name), contents.as_bytes())?;
        }
        let _ = writeln!(s, "\nWrote {} to {}", diag::and_list(&names), dir.display());
    }
    crate::error::print(out, &s)
}
