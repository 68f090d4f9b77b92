//! The OMPT tool `vates taskpar record --runtime openmp` loads into OpenMP programs: the
//! one given with `--ompt-tool`, or the one built from the source embedded here
//! (`crates/bots/openmp/ompt/vates_ompt.c`) into the cache directory on first use.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{CliError, Result};

/// The tool's source, as this vates was built with it.
const SOURCE: &str = include_str!("../../../bots/openmp/ompt/vates_ompt.c");

/// What to install, or give, when the tool cannot be built.
const INSTALL: &str = "install clang and LLVM's OpenMP runtime with its OMPT header \
                       omp-tools.h (Debian: apt install clang libomp-dev), or give a built \
                       tool with --ompt-tool PATH (clang -O2 -fPIC -shared -o \
                       libvates_ompt.so crates/bots/openmp/ompt/vates_ompt.c)";

/// The tool to load: `given` (made absolute, so that the runtime opens that file), else
/// the cached build of the embedded source, built now if missing (with a note saying
/// where).
pub fn tool(given: Option<&Path>) -> Result<PathBuf> {
    if let Some(path) = given {
        return std::fs::canonicalize(path).map_err(|e| CliError::read(path, &e));
    }
    let (program, args) = compiler();
    let key = fnv1a(
        [SOURCE.as_bytes(), b"\0", program.as_bytes()]
            .into_iter()
            .chain(args.iter().map(|a| a.as_bytes())),
    );
    let dir = cache_dir()?;
    let lib = dir.join(format!("libvates_ompt-{key:016x}.so"));
    if lib.is_file() {
        return Ok(lib);
    }
    build(&program, &args, &dir, &lib)?;
    crate::error::note(&format!(
        "note: built the OMPT tool (vates_ompt.c, with {program}) into {}; it is reused \
         from there",
        lib.display()
    ));
    Ok(lib)
}

/// The C compiler: `$CC` (its first word the program, the others its first arguments),
/// else `clang`.
fn compiler() -> (String, Vec<String>) {
    let cc = std::env::var("CC").unwrap_or_default();
    let mut words = cc.split_whitespace().map(String::from);
    match words.next() {
        Some(program) => (program, words.collect()),
        None => ("clang".to_string(), Vec::new()),
    }
}

/// `$XDG_CACHE_HOME/vates`, else `~/.cache/vates` (created).
fn cache_dir() -> Result<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })
        .ok_or_else(|| {
            CliError::with_help(
                "no cache directory for the OMPT tool: neither XDG_CACHE_HOME nor HOME is set",
                "set one, or give a built tool with --ompt-tool PATH",
            )
        })?;
    let dir = base.join("vates");
    std::fs::create_dir_all(&dir).map_err(|e| {
        CliError::with_help(
            format!("cannot create `{}`: {e}", dir.display()),
            "check its permissions, or give a built tool with --ompt-tool PATH",
        )
    })?;
    Ok(dir)
}

/// Compiles the embedded source into `lib` (through files of this process's own, renamed
/// into place, so that a concurrent vates never loads half a library).
fn build(program: &str, args: &[String], dir: &Path, lib: &Path) -> Result<()> {
    let id = std::process::id();
    let src = dir.join(format!("vates_ompt-{id}.c"));
    let tmp = dir.join(format!("libvates_ompt-{id}.so.tmp"));
    let written = std::fs::write(&src, SOURCE);
    let result = written
        .map_err(|e| {
            CliError::with_help(
                format!("cannot write `{}`: {e}", src.display()),
                "check the cache directory's permissions, or give --ompt-tool PATH",
            )
        })
        .and_then(|()| compile(program, args, &src, &tmp))
        .and_then(|()| {
            std::fs::rename(&tmp, lib).map_err(|e| {
                CliError::with_help(
                    format!("cannot move the OMPT tool to `{}`: {e}", lib.display()),
                    "check the cache directory's permissions, or give --ompt-tool PATH",
                )
            })
        });
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&tmp);
    result
}

fn compile(program: &str, args: &[String], src: &Path, out: &Path) -> Result<()> {
    let output = Command::new(program)
        .args(args)
        .args(["-O2", "-fPIC", "-shared", "-o"])
        .arg(out)
        .arg(src)
        .output()
        .map_err(|e| {
            let why = if e.kind() == std::io::ErrorKind::NotFound {
                format!("`{program}` is not installed (or not on PATH)")
            } else {
                format!("cannot run `{program}`: {e}")
            };
            CliError::with_help(
                format!("cannot build the OMPT tool for --runtime openmp: {why}"),
                INSTALL,
            )
        })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let why = if stderr.contains("omp-tools.h") {
        "the OMPT header omp-tools.h is missing".to_string()
    } else {
        format!(
            "`{program}` failed ({}):\n{}",
            output.status,
            stderr.trim_end()
        )
    };
    Err(CliError::with_help(
        format!("cannot build the OMPT tool for --runtime openmp: {why}"),
        INSTALL,
    ))
}

/// The 64-bit FNV-1a hash of the concatenated `parts` (the cache key: a changed source or
/// compiler gives another file).
fn fnv1a<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_follows_the_source_and_the_compiler() {
        assert_eq!(fnv1a([&b""[..]]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a([&b"a"[..]]), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(fnv1a([&b"ab"[..], b"c"]), fnv1a([&b"ab"[..], b"d"]));
        assert!(SOURCE.contains("ompt_start_tool"));
    }
}
