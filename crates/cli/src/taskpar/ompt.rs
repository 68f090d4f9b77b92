//! The OMPT tool `vates taskpar record --runtime openmp` loads into OpenMP programs: the
//! one given with `--ompt-tool`, or [`taskpar::campaign::ompt::build_tool`]'s build of the
//! embedded source with `$CC` (else `clang`) in `$XDG_CACHE_HOME/vates` (else
//! `~/.cache/vates`).

use std::path::{Path, PathBuf};

use taskpar::campaign::ompt::{build_tool, ToolError};

use crate::error::{CliError, Result};

/// What to install, or give, when the tool cannot be built.
const INSTALL: &str = "install clang and LLVM's OpenMP runtime with its OMPT header \
                       omp-tools.h (Debian: apt install clang libomp-dev), or give a built \
                       tool with --ompt-tool PATH (clang -O2 -fPIC -shared -o \
                       libvates_ompt.so crates/bots/openmp/ompt/vates_ompt.c)";

/// The tool to load: `given` (made absolute, so that the runtime opens that file), else
/// the cached build, built now if missing (with a note saying where).
pub fn tool(given: Option<&Path>) -> Result<PathBuf> {
    if let Some(path) = given {
        let lib = std::fs::canonicalize(path).map_err(|e| {
            CliError::with_help(
                format!("--ompt-tool `{}`: {e}", path.display()),
                "give the path of the built tool (libvates_ompt.so), or leave --ompt-tool out \
                 to have vates build it",
            )
        })?;
        if !lib.is_file() {
            return Err(CliError::usage(format!(
                "--ompt-tool `{}` is not a file: give the built tool (libvates_ompt.so)",
                path.display()
            )));
        }
        return Ok(lib);
    }
    let cc = std::env::var("CC").unwrap_or_default();
    let mut words = cc.split_whitespace().map(String::from);
    let program = words.next().unwrap_or_else(|| "clang".to_string());
    let args: Vec<String> = words.collect();
    let dir = termio::files::cache_dir("set one, or give a built tool with --ompt-tool PATH")?;
    let (lib, built) = build_tool(&program, &args, &dir).map_err(|e| match e {
        ToolError::Build(e @ native::BuildError::Io { .. }) => CliError::with_help(
            e.to_string(),
            "check the cache directory's permissions, or give --ompt-tool PATH",
        ),
        e => CliError::with_help(
            format!("cannot build the OMPT tool for --runtime openmp: {e}"),
            INSTALL,
        ),
    })?;
    if built {
        crate::error::note(&format!(
            "note: built the OMPT tool (vates_ompt.c, with {program}) into {}; it is reused \
             from there",
            lib.display()
        ));
    }
    Ok(lib)
}
