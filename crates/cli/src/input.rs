//! Reading models and `-D` parameter bindings.

use std::io::Read;
use std::path::Path;

use expr::grid::{parse_binding, Values};
use expr::{Name, Rational};

use crate::error::{CliError, Result};

/// The advice for a model file over the size limit (`read_text`'s `too_large`).
pub const MODEL_TOO_LARGE: &str =
    "; a model this large is better written with repetition (ranges, loops) than unrolled";

/// Reads the model in `path` (within PAMELA's size limit) and loads it with
/// [`pamela::load`], picking `root` (default `main`).
///
/// Read errors name the path; parse and check errors point into the text.
pub fn load(path: &Path, root: Option<&str>) -> Result<pamela::Loaded> {
    let text = read_text(
        path,
        pamela::syntax::MAX_INPUT_BYTES,
        "a model file (`.pam`)",
        MODEL_TOO_LARGE,
    )?;
    let name = path.display().to_string();
    pamela::load(&name, &text, root).map_err(|e| match root {
        // A `--root` the model does not define is a usage error, as every name given by a
        // flag that the input does not have; the model itself parsed.
        Some(r) if pamela::parse(&name, &text).is_ok_and(|m| m.process(r).is_none()) => {
            CliError::usage(format!(
                "--root {r}: {}{}",
                e.message,
                e.help
                    .as_deref()
                    .map(|h| format!("; {h}"))
                    .unwrap_or_default()
            ))
        }
        _ => CliError::from(e),
    })
}

/// Checks that every `-D` names a parameter the PAMELA model declares
/// ([`pamela::bind::check_name`]): another name is a usage error (exit status 2).
pub fn check_pamela_names(model: &pamela::Model, defines: &[Define]) -> Result<()> {
    for d in defines {
        pamela::bind::check_name(model, &d.name).map_err(|e| {
            CliError::usage(format!(
                "-D {}: {}; {}",
                d.text,
                e.message,
                e.help.as_deref().unwrap_or_default()
            ))
        })?;
    }
    Ok(())
}

/// Reads the text file `path` (`what` names its kind in messages, e.g. "a model file
/// (`.pam`)"), refusing one larger than `limit` bytes without reading past the limit (so
/// `/dev/zero` costs nothing), and naming the first byte that is not UTF-8. `too_large` is
/// appended to the hint for a file over the limit (e.g. [`MODEL_TOO_LARGE`]).
pub fn read_text(path: &Path, limit: usize, what: &str, too_large: &str) -> Result<String> {
    let bytes = read_checked(path, limit, what, too_large, &|_| false)?;
    utf8(path, bytes, what)
}

/// Reads the file `path` as bytes that are text (as [`read_text`], binary data refused at
/// its first block) unless `binary(first bytes)` says they begin a binary format the caller
/// also reads (a recorded DAG file beside the task-graph text formats).
pub fn read_text_unless(
    path: &Path,
    limit: usize,
    what: &str,
    binary: &dyn Fn(&[u8]) -> bool,
) -> Result<Vec<u8>> {
    read_checked(path, limit, what, "", binary)
}

/// The first block of a text file, checked before the rest is read.
const FIRST_BLOCK: u64 = 1 << 16;

/// Reads `path` with [`read_text`]'s limit and messages as bytes; a NUL byte (binary data,
/// `/dev/zero`) is refused as soon as it is read (in the first block of a regular file, in
/// any chunk of a pipe or a device), unless `binary` says the bytes begin a binary format
/// the caller reads.
fn read_checked(
    path: &Path,
    limit: usize,
    what: &str,
    too_large: &str,
    binary_format: &dyn Fn(&[u8]) -> bool,
) -> Result<Vec<u8>> {
    let text = |head: &[u8]| !binary_format(head);
    let binary = |at: usize| {
        CliError::with_help(
            format!(
                "`{}` is not a text file: byte {at} is 0x00 (NUL), which text never holds",
                path.display()
            ),
            format!("give the path of {what}, a text file"),
        )
    };
    let file = std::fs::File::open(path).map_err(|e| CliError::read(path, &e))?;
    let meta = file.metadata().ok();
    if meta.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(CliError::with_help(
            format!("cannot read `{}`: it is a directory", path.display()),
            format!("give the path of {what}"),
        ));
    }
    // A regular file's size is known: read it into a buffer of that size at once (a growing
    // buffer would copy a 100 MB file several times).
    let size = meta.filter(|m| m.is_file()).map(|m| m.len());
    let cap = limit as u64 + 1;
    let mut input = file.take(cap);
    let mut bytes = Vec::new();
    match size {
        Some(size) => {
            bytes
                .try_reserve_exact(size.min(cap) as usize + 1)
                .map_err(|_| CliError::read(path, &std::io::ErrorKind::OutOfMemory.into()))?;
            (&mut input)
                .take(FIRST_BLOCK)
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::read(path, &e))?;
            if let Some(at) = bytes.iter().position(|&b| b == 0).filter(|_| text(&bytes)) {
                return Err(binary(at));
            }
            input.read_to_end(&mut bytes)
        }
        // A pipe or a device: read in chunks, never holding more than the limit (a doubling
        // buffer would ask for twice the limit just before refusing it).
        None => read_bounded(&mut input, &mut bytes, cap as usize, &text),
    }
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => match bytes.iter().position(|&b| b == 0) {
            Some(at) => binary(at),
            None => CliError::read(path, &e),
        },
        _ => CliError::read(path, &e),
    })?;
    if let Some(at) = bytes.iter().position(|&b| b == 0).filter(|_| text(&bytes)) {
        return Err(binary(at));
    }
    if bytes.len() > limit {
        return Err(CliError::with_help(
            format!(
                "`{}` is larger than {}, the limit for {what}",
                path.display(),
                show_bytes(limit)
            ),
            format!("check that this is the right file{too_large}"),
        ));
    }
    Ok(bytes)
}

/// `bytes` of `path` as UTF-8 text, or an error naming the first byte that is not.
pub fn utf8(path: &Path, bytes: Vec<u8>, what: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let (line, col) = std::str::from_utf8(&bytes[..at])
            .map(|t| diag::line_col(t, at))
            .unwrap_or((0, 0));
        CliError::with_help(
            format!(
                "`{}` is not UTF-8 text: byte 0x{:02x} at offset {at} (line {line}, column {col}) \
                 is not valid UTF-8",
                path.display(),
                bytes[at]
            ),
            format!(
                "vates reads {what} as UTF-8; convert it (e.g. `iconv -f latin1 -t utf-8`), or \
                 check that this is the right file"
            ),
        )
    })
}

/// Reads all of `input` into `out`, growing it at most to `cap` bytes.
fn read_bounded(
    input: &mut impl Read,
    out: &mut Vec<u8>,
    cap: usize,
    text: &dyn Fn(&[u8]) -> bool,
) -> std::io::Result<usize> {
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(out.len()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if out.len() + n > out.capacity() {
            let want = (out.capacity() * 2)
                .max(out.len() + n)
                .min(cap.max(out.len() + n));
            out.try_reserve_exact(want - out.len())
                .map_err(|_| std::io::Error::from(std::io::ErrorKind::OutOfMemory))?;
        }
        out.extend_from_slice(&chunk[..n]);
        if chunk[..n].contains(&0) && text(out) {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
    }
}

/// `1 GiB`, `16 MiB`, `1 KiB` or `123 bytes`.
fn show_bytes(n: usize) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// One `-D NAME=VALUE` (or range, or list) as given on the command line.
#[derive(Clone, Debug)]
pub struct Define {
    /// The parameter name.
    pub name: Name,
    /// Its value or values.
    pub values: Values,
    /// The text as typed, for messages.
    pub text: String,
}

/// clap value parser for `-D`: checks the syntax with [`expr::grid::parse_binding`].
pub fn parse_define(s: &str) -> std::result::Result<Define, String> {
    let (name, values) = parse_binding(s).map_err(|e| e.to_string())?;
    Ok(Define {
        name,
        values,
        text: s.to_string(),
    })
}

/// The defines as single values; a range or list, or a name given twice, is a usage error
/// of `command` (exit status 2).
/// `command` is the command's path after `vates` (`pamela bound`); `sweep` the command that
/// sweeps the same model, if there is one.
pub fn single_values(
    defines: &[Define],
    command: &str,
    sweep: Option<&str>,
) -> Result<Vec<(Name, Rational)>> {
    let mut out: Vec<(Name, Rational)> = Vec::with_capacity(defines.len());
    for d in defines {
        let v = match &d.values {
            Values::Single(v) => v.clone(),
            Values::List(vs) if vs.len() == 1 => vs[0].clone(),
            _ => {
                let hint = match sweep {
                    Some(s) => format!("; sweep with `vates {s} MODEL -D {}`", d.text),
                    None => String::new(),
                };
                return Err(CliError::usage(format!(
                    "`-D {}` gives several values, but `vates {command}` takes one value per \
                     parameter{hint}",
                    d.text
                )));
            }
        };
        if out.iter().any(|(n, _)| *n == d.name) {
            return Err(CliError::usage(format!(
                "`{}` is bound more than once; give each parameter one -D",
                d.name
            )));
        }
        out.push((d.name.clone(), v));
    }
    Ok(out)
}

/// Parses a count such as `1000000`, `1e9` or `2.5e6` (a whole number >= 1).
pub fn parse_count(s: &str) -> std::result::Result<u64, String> {
    let r = expr::number::parse_rational(s).map_err(|e| e.to_string())?;
    let v = expr::number::to_f64(&r);
    if r.is_integer() && (1.0..=9.0e18).contains(&v) {
        Ok(v as u64)
    } else {
        Err(format!("`{s}` is not a whole number between 1 and 9e18"))
    }
}

/// Parses a positive finite time scale.
pub fn parse_scale(s: &str) -> std::result::Result<f64, String> {
    let r = expr::number::parse_rational(s).map_err(|e| e.to_string())?;
    let v = expr::number::to_f64(&r);
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(format!("`{s}` is not a positive number"))
    }
}
